"""The tournament's screens live: the organiser's screen, the event TV and a registered phone each
hold one Server-Sent Events connection, which writes the screen's live part again (out of band)
when what it shows changed.

A tournament is published under its own key (`store.tournaments.live_key`) by the store's commits,
relayed between processes as a game's versions are. A change to one of its tables' games is heard
by one listener on the notifier: the games of the tournaments watched in this process are mapped to
their tournament's key, whose waiting screens the listener nudges (the notifier wakes them with no
new version and tells no other listener: the round clock's keeper has nothing to look at). The
screens are few (one organiser, a TV or two, the phones between rounds), so each
connection renders its own part; the tables' own screens stay with the games' renderers
(live/renderer.py).

Dependencies: a screen names what its part is made from
(`depends(state)`: the tournament's version, and for the organiser each table's turn and leader,
read from the live memory's newest version of the game, not the database). The tournament's row is
read only when its own version moved; a table's change that leaves what a screen shows as it was
renders nothing and writes nothing (a keep-alive comment only once LIVE_HEARTBEAT_SECONDS went
by without a write), and the tables' changes reach a screen at most once per TABLES_SETTLE (a
tournament's own change at once).

The round's clock is one server deadline, and each process keeps it (`ClockKeeper`): when it runs
out, the server calls the last turn itself (rules/tournament: `last_turn` is anyone's once time is
up), whether or not any screen is open; its commits then reach the screens as any other."""

import logging
import threading
import time
from collections.abc import Callable, Hashable

from flask import Response, current_app, request, stream_with_context

from ...live import Full, turned_away
from ...rules.tournament import EventState
from ...rules.tournament.state import MAX_EVENT_PLAYERS
from ...store import in_one_line, notifier, outage, release, tournaments

log = logging.getLogger(__name__)

# Seconds after a nudge of a tournament's screens before its tables' changes nudge them again.
TABLES_SETTLE = 1.0


class Tables:
    """The tables' games of the tournaments watched in this process, and the newest version heard
    of each: a game's publication nudges its tournament's screens, at most once per TABLES_SETTLE
    (the first change at once, those that follow within the settle together as it ends): ten
    tables at a table's pace wake each screen once a second, not ten times (benchmarks/tournament.py)."""

    def __init__(self, changes):
        self.changes = changes
        self.events: dict[str, str] = {}  # a watched table's game code -> its tournament's key
        self.heard_at: dict[str, int] = {}
        self.nudged: dict[str, float] = {}  # a tournament's key -> when its screens were last nudged
        self.later: set[str] = set()  # the tournaments' keys with a nudge set for the settle's end
        self.lock = threading.Lock()
        changes.listeners.append(self.heard)

    def heard(self, code: str | None, version: int) -> None:
        """A game's version was published: nudge its tournament's screens, if it is a watched table.
        A nudge, not a publication: the notifier's listeners (the round clock's keeper among them)
        hear nothing of it, since the tournament itself did not change."""
        event = self.events.get(code) if code else None
        if event is None:
            return
        with self.lock:
            self.heard_at[code] = max(version, self.heard_at.get(code, 0))
            if event in self.later:
                return  # the nudge set for the settle's end shows this change too
            last = self.nudged.get(event)
            if last is not None and (wait := last + TABLES_SETTLE - time.monotonic()) > 0:
                self.later.add(event)
                timer = threading.Timer(wait, self._nudge, (event,))
                timer.daemon = True
                timer.start()
                return
            self.nudged[event] = time.monotonic()
        self.changes.nudge(event)

    def _nudge(self, event: str) -> None:
        """The settle is over: the tables' changes heard during it nudge the screens, once."""
        with self.lock:
            self.later.discard(event)
            self.nudged[event] = time.monotonic()
        self.changes.nudge(event)

    def watch(self, code: str, games) -> None:
        """The tables' games of tournament `code` whose changes its screens follow."""
        with self.lock:
            self.events.update({game: tournaments.live_key(code) for game in games})


class ClockKeeper:
    """One thread of each server process that calls the last turn of every round whose time runs
    out, at its deadline (store.tournaments.round_deadlines): with no screen open, and after a
    restart. It runs only while some round's clock runs: started when the app starts to serve with
    one running, and whenever a tournament changes (a round started, resumed or its start undone
    here, or heard of from another process, to which a serving process listens from its start:
    `keep_time`); it stops when no clock runs. It looks at the deadlines again at each change, so a
    start or a resume that was undone is never called: the rules would refuse it anyway (its time is
    not up). Several processes' keepers call it at once: the first is recorded, the rest refused
    (store/tournaments.py, `call_time`); an action on a table after the deadline calls it too
    (store/actions.py), so a late keeper changes nothing."""

    def __init__(self, app, changes):
        self.app, self.changes = app, changes
        self.wake = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        changes.listeners.append(self.heard)

    def heard(self, code: str | None, version: int) -> None:
        """A publication: a tournament's (code None: anything may have changed unheard) may have
        moved its clock. Once the notifier is closed (the server stops), the keeper's look under way
        is waited for: no query outlives the app's connections."""
        if self.changes.closed:
            self.wake.set()
            with self.lock:  # `start` makes the thread and starts it under the lock: never one unstarted
                thread = self.thread
            if thread is not None and thread is not threading.current_thread():
                thread.join(KEEPER_STOP)
        elif code is None or code.startswith(tournaments.live_key("")):
            self.start()

    def start(self) -> None:
        """Look at the deadlines again now, from the keeper's thread (started if it is not running)."""
        with self.lock:
            self.wake.set()
            if self.thread is None and not self.changes.closed:
                self.thread = threading.Thread(target=self._run, name="banker-round-clock", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while not self.changes.closed:
            self.wake.clear()
            try:
                with self.app.app_context():
                    following = self.call_due()
            except Exception as error:  # looked at again later, never given up
                if outage(error):  # the database away a moment (restarting): a line, not a traceback
                    log.warning("the round clock keeper could not reach the database (%s)", in_one_line(error))
                else:
                    log.exception("the round clock keeper could not look at the deadlines")
                following = time.time() + KEEPER_RETRY
            with self.lock:
                if following is None and not self.wake.is_set():
                    self.thread = None
                    return
            if following is not None:
                # Just past the deadline: the store's clock counts whole seconds.
                self.wake.wait(min(KEEPER_RECHECK, max(0.0, following - time.time() + 0.05)))

    @staticmethod
    def call_due() -> int | None:
        """Call the last turn of each round whose time is up; the next deadline (None: no clock runs)."""
        now = tournaments.now()
        later = []
        for code, ends_at in tournaments.round_deadlines().items():
            if ends_at <= now:
                tournaments.call_time(code, now)
            else:
                later.append(ends_at)
        return min(later, default=None)


# The keeper looks at the deadlines again at least this often (seconds), whatever it heard: a clock
# another process moved unheard (while this one's listening connection was being made again) is
# found by then; and this long after the database did not answer.
KEEPER_RECHECK = 60.0
KEEPER_RETRY = 5.0
KEEPER_STOP = 5.0  # at most this long for its look under way, when the server stops


def init_app(app) -> None:
    """The tables' listener and the round clock keeper (it runs only once told to: `keep_time`)."""
    changes = app.extensions["banker.notifier"]
    app.extensions["banker.tournament_tables"] = Tables(changes)
    app.extensions["banker.round_clock"] = ClockKeeper(app, changes)


def keep_time(app) -> None:
    """The app starts to serve: its round clock keeper starts at once when a round's clock runs in
    the database (after a restart, nobody else may be there to call its last turn), and the process
    listens to the others from now on (PostgreSQL), so that its keeper hears of a round another one
    starts, pauses or undoes with no page open here. One query."""
    app.extensions["banker.notifier"].listen()
    with app.app_context():  # (its session let go as the context ends: banker.create_app)
        running = tournaments.round_deadlines()
    if running:
        app.extensions["banker.round_clock"].start()


def watch_tables(code: str, games) -> None:
    current_app.extensions["banker.tournament_tables"].watch(code, games)


def newest_game(code: str):
    """A table's game at the newest version this process heard of, from the live memory (read from
    the database only when the memory is behind); None when it is gone."""
    heard = current_app.extensions["banker.tournament_tables"].heard_at.get(code, 0)
    return current_app.extensions["banker.memory"].newest(code, heard)


def follow(code: str, version: int, depends: Callable[[EventState, int], Hashable],
           render: Callable[[EventState, Hashable | None], str], holder: Hashable,
           browser: str | None = None) -> Response:
    """The live connection of one tournament screen that shows tournament `code` at `version`:
    `depends(state, version)` names what its part is made from, `render(state, shown)` makes what
    the page needs, given what it shows (`depends`'s answer for it; None: unknown, all of it). It
    writes when that changed since the page (or the last write), and a comment every
    LIVE_HEARTBEAT_SECONDS otherwise. It holds one of the process's live slots as a game's screens
    do (live/slots.py), counted against `holder` (the organiser as BANKER, the TV as TV, a player's
    phone as ("seat", player)) and the `browser` that holds it: 503 and a retry when a share is full."""
    try:
        give_back = current_app.extensions["banker.live"].take(
            request.environ, tournaments.live_key(code), holder, browser, request.remote_addr, seats=MAX_EVENT_PLAYERS)
    except Full as full:
        return turned_away(tournaments.live_key(code), holder, full.reason)
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    changes = notifier()
    changes.listen()

    def events():
        yield "retry: 1000\n\n"  # the first bytes flush the headers at once (docs/design.md, Known pitfalls)
        state, seen = _read(code)
        if state is None:
            return
        watch_tables(code, _games(state))
        shown = depends(state, seen) if seen == version else None  # None: moved on since the page was drawn
        wrote = time.monotonic()
        while not changes.closed:
            if shown is not None:  # (else the page is behind: its part is written at once)
                woke = changes.wait(tournaments.live_key(code), seen, max(0.0, heartbeat - (time.monotonic() - wrote)))
                if changes.closed:
                    return
                if woke is None:
                    wrote = time.monotonic()
                    yield ": ping\n\n"
                    continue
                if woke > seen:  # the tournament's own change (else a nudge: a table's, see Tables)
                    state, seen = _read(code)
                    if state is None:
                        return
                    watch_tables(code, _games(state))
            now = depends(state, seen)
            if now != shown:
                html = render(state, shown)
                shown, wrote = now, time.monotonic()
                yield f"event: update\nid: {seen}\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"
            release()

    response = Response(stream_with_context(events()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(give_back)
    return response


def _read(code: str) -> tuple[EventState | None, int]:
    """The tournament's state and version, read when its version moved (one query)."""
    tournament = tournaments.find_tournament(code)
    if tournament is None:
        return None, 0
    state, version = tournaments.load(tournament), tournament.version
    release()
    return state, version


def _games(state: EventState | None) -> list[str]:
    return [t.game for t in state.round.tables if t.game] if state and state.round else []
