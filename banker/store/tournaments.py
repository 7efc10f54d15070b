"""A tournament night in the database: made with its organiser's token, changed only by actions
the tournament rules apply (rules/tournament), each appended to its log with the snapshot saved in
the same transaction, like a game's (store/actions.py).

What the rules cannot do, since they know no database, follows an action here, each step an
ordinary action of its own, so the log stays the truth:

- `seat_round`: each table of the new round becomes a game (store/tables.py), its seats joined by
  the players of the table in seat order and fixed, the organiser's token its banker's; then
  `tables_created` records the games' codes in the tournament.
- `start_round`: each table's game starts, in seat order; `last_turn`: each table's game is told
  (a table that refuses either: store/tables.py).
- The round's clock, whenever it starts, pauses or runs again, is told to each table's game
  (`round_clock`), whose own screens show it; after the organiser's undo of any of those or of the
  last turn, the clock as the tournament now has it, last turn included (none at all after an undone
  start, which also takes back each table's start where nothing but the clock came after it).
- A table's game ending (`table_ended`, called once after a game's commit that ended it) sends the
  table's result to the tournament (`table_result`).

The last turn is called at the round's time by the server itself, whether or not a screen is open:
by each process's clock keeper (web/pages/tournament_live.py) at the deadlines `round_deadlines` gives,
and by the first action on a table after the deadline (`time_up`, from store/actions.py). Several
processes may call it at once: the rules take the first and refuse the rest (`last_turn_called`),
so each table is told once.

An entrant's token is kept as a hash on the `entrants` row and on the seat of each of their games,
so it acts for their seat there exactly as a seat's token does (store/identity.py), with nothing
new on the game's hot path. The browser that registered gets the seat's badge in each of their
games, so the phone becomes their table's phone without joining again.
"""

import logging
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import bindparam, select, update

from ..models import Entrant, Game, Tournament, TournamentAction, TournamentTable, db
from ..rules import apply, parse
from ..rules.errors import GameError
from ..rules.state import GameState
from ..rules.tournament import (EventActor, EventSettings, EventState, apply_event, check_event_undo, new_event,
                                parse_event_action, replay_event, seat_results)
from . import actions, tables
from .engine import attempts, writing
from .games import free_code, game_code
from .identity import Browser, new_token, token_hash
from .news import announce, notifier
from .tv import draw_view_key, view_key_opens

log = logging.getLogger(__name__)

ORGANISER = EventActor(organiser=True)
UNDO = "undo"

_TOURNAMENTS = Tournament.__table__
_LOCK = select(_TOURNAMENTS.c.id).where(_TOURNAMENTS.c.code == bindparam("code")).with_for_update()
_SNAPSHOT = (update(_TOURNAMENTS)
             .where(_TOURNAMENTS.c.id == bindparam("tid"), _TOURNAMENTS.c.version == bindparam("seen"))
             .values(state=bindparam("snapshot"), version=bindparam("new")))


@dataclass
class Acted:
    """What one tournament action did: the version it made, its effects, the state after it."""

    version: int
    effects: list[dict]
    state: EventState
    player: int | None = None  # the new entrant, after a registration


class TournamentNotFound(Exception):
    """No tournament has this code (the API answers 404); as store.GameNotFound, not a LookupError."""


def now() -> int:
    """The store's clock, in the whole seconds the tournament rules count in."""
    return int(datetime.now(UTC).timestamp())


def create_tournament(settings, browser: Browser | None = None) -> tuple[Tournament, str]:
    """A new tournament from the organiser's settings (refused by the rules as a game's are); returns
    it with the organiser's secret token. The seating's seed is drawn here: the rules know no chance.
    A browser that creates it (the home page) is the organiser's screen."""
    state = new_event(EventSettings.parse(settings), secrets.randbelow(2**31))
    token = new_token()
    with writing():
        tournament = Tournament(code=free_code(Tournament), organiser_token_hash=token_hash(token),
                                organiser_browser_hash=browser.digest if browser else None,
                                opening=state.to_dict(), state=state.to_dict(), version=0,
                                created_at=datetime.now(UTC))
        db.session.add(tournament)
        db.session.commit()
    return tournament, token


def live_key(code: str) -> str:
    """What the notifier publishes a tournament's versions under: apart from every game's code."""
    return f"event:{code}"


def new_view_key(tournament: Tournament) -> str:
    """A new view key for the event TV (as a game's TV has, store/tv.py); an earlier one stops working."""
    key = draw_view_key()
    with writing():
        db.session.execute(update(Tournament).where(Tournament.id == tournament.id)
                           .values(view_key_hash=token_hash(key)))
        db.session.commit()
    announce(live_key(tournament.code), tournament.version)  # a TV on the old key hears so
    return key


def tv_tournament(code: str, key: str) -> Tournament | None:
    """The tournament whose TV the view key opens now; None for any other key or no such tournament."""
    tournament = find_tournament(code)
    return tournament if tournament is not None and view_key_opens(tournament.view_key_hash, key) else None


def find_tournament(code: str) -> Tournament | None:
    code = game_code(code)
    return db.session.scalar(select(Tournament).where(Tournament.code == code)) if code else None


def load(tournament: Tournament) -> EventState:
    return EventState.from_dict(tournament.state)


def organises(tournament: Tournament, secret: str | None = None, browser: Browser | None = None) -> bool:
    """Whether `secret` (the API's bearer token) or `browser` (the pages) is the tournament's organiser."""
    if browser is not None:
        held = tournament.organiser_browser_hash
        return held is not None and secrets.compare_digest(held, browser.digest)
    return bool(secret) and secrets.compare_digest(tournament.organiser_token_hash, token_hash(secret))


def entrant(tournament: Tournament, browser: Browser | None) -> int | None:
    """The player this browser registered as in the tournament, if any."""
    if browser is None:
        return None
    return db.session.scalar(select(Entrant.player_id).where(Entrant.tournament_id == tournament.id,
                                                             Entrant.browser_hash == browser.digest))


def act(code: str, data: dict, actor: EventActor, at: int | None = None) -> Acted:
    """Apply one tournament action for `actor` at Unix time `at` (default: now) and save it; then
    what its effects ask of the tournament's games (the module's docstring). Raises TournamentNotFound (no
    such tournament), a GameError (refused: nothing changes) or Busy."""
    acted = _apply(code, data, actor, now() if at is None else at)
    for effect in acted.effects:
        if effect["kind"] == "round_seated":
            made = _seat_tables(code, acted.state)  # answered as one: both actions' effects, the newest state
            acted = Acted(made.version, acted.effects + made.effects, made.state)
        elif effect["kind"] == "round_started":
            tables.tell_games(acted.state, tables.table_start)
        elif effect["kind"] == "last_turn":
            tables.tell_games(acted.state, lambda table: {"type": "last_turn"}, effect["games"])
        if effect["kind"] in CLOCK_MOVED:
            tables.tell_clock(acted.state)
        elif effect["kind"] == "undone" and effect["type"] in CLOCK_ACTIONS:
            tables.tell_clock(acted.state, last_turn=True)
            if effect["type"] == "start_round":
                tables.tell_games(acted.state, tables.undo_start)
    return acted


# What moves the round's clock, which each table's game is then told: these effects, and an undo of
# these actions (the clock told whole then, the last turn too: called or not).
CLOCK_MOVED = frozenset({"round_started", "clock_paused", "clock_resumed"})
CLOCK_ACTIONS = frozenset({"start_round", "pause_clock", "resume_clock", "last_turn"})


def register(code: str, name, browser: Browser | None = None) -> tuple[Acted, str]:
    """A new entrant named `name`: returns the registration and the entrant's secret token (the
    API's). A browser that registers (the QR's page) gets the seat's badge in each of their games."""
    token = new_token()
    acted = _apply(code, {"type": "register", "name": name}, EventActor(), now(),
                   entrant=(token_hash(token), browser.digest if browser else None))
    return acted, token


def _apply(code: str, data: dict, actor: EventActor, at: int, entrant: tuple | None = None) -> Acted:
    """One action in one write transaction (as store/actions.py's, locked on PostgreSQL and saved
    under the version check), tried again when another writer saved first."""
    code = game_code(code)
    if code is None:
        raise TournamentNotFound(code)
    for _ in attempts(code):
        with writing():
            if db.session.get_bind().dialect.name == "postgresql":
                db.session.execute(_LOCK, {"code": code})  # lock, then read: store/actions.py says why
            row = db.session.execute(select(Tournament.id, Tournament.version, Tournament.state,
                                            Tournament.opening).where(Tournament.code == code)).first()
            if row is None:
                raise TournamentNotFound(code)
            if isinstance(data, dict) and data.get("type") == UNDO:
                state, effects, payload = _undo(row, actor, at)
            else:
                action = parse_event_action(data)
                state, effects = apply_event(EventState.from_dict(row.state), action, actor, at, copy=False)
                payload = action.to_dict()
            version = row.version + 1
            saved = db.session.execute(_SNAPSHOT, {"tid": row.id, "seen": row.version,
                                                   "snapshot": state.to_dict(), "new": version})
            if saved.rowcount != 1:
                db.session.rollback()
                continue
            db.session.add(TournamentAction(tournament_id=row.id, seq=version, actor=str(actor),
                                            type=payload["type"], payload=payload, effects=effects, now=at,
                                            created_at=datetime.now(UTC)))
            player = next((e["player"] for e in effects if e["kind"] == "registered"), None)
            if entrant is not None and player is not None:
                db.session.add(Entrant(tournament_id=row.id, player_id=player, token_hash=entrant[0],
                                       browser_hash=entrant[1]))
            notifier().relay(db.session, live_key(code), version)  # other processes hear of it on commit
            db.session.commit()
            announce(live_key(code), version)
            return Acted(version, effects, state, player)


def _live_log(tournament_id: int) -> list[TournamentAction]:
    return list(db.session.scalars(select(TournamentAction).where(
        TournamentAction.tournament_id == tournament_id, TournamentAction.undone.is_(False),
        TournamentAction.type != UNDO).order_by(TournamentAction.seq)))


def _replayed(opening: dict, log: list[TournamentAction]) -> EventState:
    first = EventState.from_dict(opening)
    return replay_event(first.settings, first.seed,
                        [(EventActor.parse(a.actor), a.payload, a.now) for a in log])


def _undo(row, actor: EventActor, at: int) -> tuple[EventState, list, dict]:
    """The organiser's undo (rules: check_event_undo) of the newest live action: marked undone, and
    the tournament replayed from its opening without it. A tournament's log is a few actions a
    round, so it needs no checkpoints. What it asks of the tables' games follows (`act`)."""
    log = _live_log(row.id)
    check_event_undo(actor, log[-1].type if log else None, EventState.from_dict(row.state), at)
    last = log.pop()
    last.undone = True
    effects = [{"kind": "undone", "seq": last.seq, "type": last.type}]
    return _replayed(row.opening, log), effects, {"type": UNDO, "seq": last.seq}


def replay(tournament: Tournament) -> EventState:
    """The tournament replayed from its opening through its live log: equals its snapshot."""
    return _replayed(tournament.opening, _live_log(tournament.id))


def _seat_tables(code: str, state: EventState) -> Acted:
    """Each table of the round just seated becomes a game; then `tables_created` records their codes."""
    tournament = find_tournament(code)
    entrants = {e.player_id: e for e in db.session.scalars(
        select(Entrant).where(Entrant.tournament_id == tournament.id))}
    names = {p.id: p.name for p in state.players}
    games = [tables.table_game(tournament, state, table, names, entrants) for table in state.round.tables]
    return _apply(code, {"type": "tables_created", "games": games}, ORGANISER, now())


def start_refusal(table, game: GameState) -> GameError | None:
    """Why the table's game would refuse the round's start now (None: it would take it), for the
    organiser's screen to say of a table still in its lobby while the round plays. A query: nothing
    is applied."""
    try:
        apply(game, parse(tables.table_start(table)), tables.BANKER)
    except GameError as error:
        return error
    return None


def _of_table(code: str, *columns):
    """`columns` of the tournament whose table game `code` is, if any: one query."""
    return db.session.execute(select(*columns).join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
                              .join(Game, Game.id == TournamentTable.game_id).where(Game.code == code)).first()


def _table(code: str):
    """The tournament whose table game `code` is (its code and state, and the table's number), if any."""
    return _of_table(code, Tournament.code, Tournament.state, TournamentTable.table)


def table_of(code: str) -> str | None:
    """The code of the tournament whose table game `code` is, if any."""
    row = _of_table(code, Tournament.code)
    return row.code if row else None


def round_deadlines() -> dict[str, int]:
    """The tournaments whose round's clock runs and whose last turn is not called yet: when each
    round's time runs out (Unix seconds), by the tournament's code. One query."""
    ends_at = Tournament.state["clock"]["ends_at"].as_integer()
    rows = db.session.execute(select(Tournament.code, Tournament.state).where(ends_at.is_not(None)))
    return {code: state["clock"]["ends_at"] for code, state in rows if not state["clock"]["last_turn"]}


def call_time(code: str, at: int | None = None) -> bool:
    """The round's time of tournament `code` has run out: call its last turn, as anyone may then.
    Whether it was called here (False: called before, by another process or the organiser, or the
    clock moved meanwhile: the rules refused it, and nothing changed)."""
    try:
        act(code, {"type": "last_turn"}, EventActor(), at)
    except GameError as error:
        log.info("tournament %s: last turn not called (%s)", code, error.code)
        return False
    return True


def time_up(code: str) -> None:
    """An action came to game `code`, a tournament's table, after its round's time ran out and before
    its last turn was called: the last turn first, in the tournament (and so at every table); or, when
    the tournament had called it already and this table missed being told, in this game alone."""
    row = _table(code)
    if row is None or call_time(row.code) or not EventState.from_dict(row.state).clock.last_turn:
        return
    told = {"type": "last_turn"}
    try:
        actions.act(code, told, actor=tables.BANKER)
    except GameError as error:
        tables.refused(row.table, code, told, error)


def table_ended(code: str, game: GameState) -> None:
    """A game just ended (called after the commit whose effects ended it): if it is a tournament's
    table, its result goes to the tournament (`table_result`). One query for any other game."""
    row = _table(code)
    if row is None:
        return
    state = EventState.from_dict(row.state)
    seats = next(t.seats for r in state.rounds for t in r.tables if t.game == code)
    # The game's players joined in seat order: seat_results names them by the event's players.
    results = [{"player": r.player, "net_worth": max(r.net_worth, 0), "place": r.place, "bankrupt": r.bankrupt,
                "bankrupt_to": r.bankrupt_to} for r in seat_results(game, seats)]
    try:
        act(row.code, {"type": "table_result", "table": row.table, "results": results}, ORGANISER)
    except GameError as error:  # a result already in (a game ended again after an undo): corrected by hand
        log.info("table %s of tournament %s: result refused (%s)", row.table, row.code, error.code)
