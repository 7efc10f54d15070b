"""The tournament's screens live: the organiser's screen, the event TV and a registered phone each
hold one Server-Sent Events connection, which writes the screen's live part again (out of band)
whenever the tournament or one of its tables' games changes.

A tournament is published under its own key (`key(code)`) by the store's commits
(store/tournaments.py), relayed between processes as a game's versions are. A table's change is
heard by one listener on the notifier: the games of the tournaments watched in this process are
mapped to their tournament's key, and a change to one of them publishes the key again (same
version: something it shows changed). The screens are few (one organiser, a TV or two, the phones
between rounds), so each connection renders its part itself; the tables' own screens stay on the
games' renderers (live/screens.py)."""

import threading
from collections.abc import Callable

from flask import Response, current_app, stream_with_context

from ..live import notifier
from ..store.engine import release
from ..store.tournaments import live_key as key

_tables: dict[str, str] = {}  # a watched tournament's game code -> the tournament's key
_lock = threading.Lock()


def init_app(app) -> None:
    app.extensions["banker.notifier"].listeners.append(_heard)


def _heard(code: str | None, version: int) -> None:
    """A game's version was published: tell its tournament's screens, if it is a watched table."""
    event = _tables.get(code) if code else None
    if event is not None:
        notifier().publish(event, -1)


def watch_tables(code: str, games) -> None:
    """The tables' games of tournament `code` whose changes its screens follow."""
    with _lock:
        _tables.update({game: key(code) for game in games if game})


def follow(code: str, version: int, render: Callable[[], str], tables: Callable[[], list]) -> Response:
    """The live connection of one tournament screen: `render()` gives its live part (read afresh),
    `tables()` the games to follow. It first writes the part if the tournament moved past
    `version` (the one its page showed), then after every change, and a comment every
    LIVE_HEARTBEAT_SECONDS otherwise."""
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    changes = notifier()
    changes.listen()

    def events():
        yield "retry: 1000\n\n"  # the first bytes flush the headers at once (docs/design.md, Known pitfalls)
        seen = version
        watch_tables(code, tables())
        release()
        while not changes.closed:
            woke = changes.wait(key(code), seen, heartbeat)
            if woke is None:
                yield ": \n\n"
                continue
            seen = max(seen, woke)
            html = render()
            watch_tables(code, tables())
            release()
            yield "event: update\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
