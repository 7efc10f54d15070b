"""One action, end to end (the hot path): read the game, its sender's seat or badge and the
nonce's first use in one query; apply the action through the rules (or undo); save the snapshot
under an optimistic version check, append the event, commit, and tell the game's live pages."""

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import DBAPIError

from ..metrics import counted_action
from ..models import Event, Game, Seat, db
from ..rules import Actor, GameError, GameState, apply, parse
from ..rules.actions import TAKE_BACK, UNDO
from ..rules.declaration import only_fields
from ..rules.inputs import serial
from .engine import attempts, reconnecting, writing
from .games import GameNotFound, game_code
from .identity import Browser, Sender, UnknownSecret, give_badge, holding, new_token, nonce_value, token_hash
from .memory import Commit, Entry as LogEntry
from .news import announce, notifier
from .tournaments import now, table_ended, time_up
from .undo import checkpoint, undo_newest

# The writes of every action, built once on the tables themselves: an ORM-level insert or update
# spent more time building its statement than the database spent running it.
_GAMES, _EVENTS = Game.__table__, Event.__table__
_LOCK = select(_GAMES.c.id).where(_GAMES.c.code == bindparam("code")).with_for_update()
_SNAPSHOT = (update(_GAMES).where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("seen"))
             .values(state=bindparam("snapshot"), version=bindparam("new")))


@dataclass
class Outcome:
    """What one action did: the version it made, its effects, and the state after it."""

    version: int
    effects: list[dict]
    state: GameState
    player: int | None = None  # the new seat, after a join
    repeated: bool = False


@counted_action(unknown=(GameNotFound, UnknownSecret))
def act(code: str, data: dict, secret: str | None = None, *, browser: Browser | None = None,
        seat_token: str | None = None, actor: Actor | None = None) -> Outcome:
    """Apply one action (or undo) for whoever holds `secret` (an API token) or is `browser` (the
    pages), and save it; neither: a newcomer joining. A repeated nonce of the same sender returns
    the first outcome. Once committed, the game's live pages hear of it; nothing refused or lost in
    a race is announced.

    One query reads the game, the sender's seat or badge and a first use of the nonce; then the
    snapshot is updated and the event appended. Raises GameNotFound, UnknownSecret, a GameError
    (refused: its `state` is the game as it was read, to word the refusal from; None when refused
    before the game was read, for a malformed nonce) or Busy. A join gives the new seat
    `seat_token` (the API's) or, from a phone's browser, the browser a badge for it; the banker's
    browser seats a player without a phone and holds no badge for the seat (a rejoin code gives the
    seat a phone later). An in-process caller that knows who acts (a benchmark, a test) may name the
    `actor` instead; requests always go by their secret or browser.

    When the database drops the connection mid-action (a PostgreSQL restart), the action is tried
    once more on a new one (engine.reconnecting); a second failure is the caller's to answer.
    """
    given = nonce_value(data.get("nonce"))
    sender = Sender.of(secret, browser)
    nonce = sender.nonce_key(given, actor, data.get("name") if data.get("type") == "join" else None)
    code = game_code(code)
    if code is None:
        raise GameNotFound(code)
    try:
        return _on_time(code, data, sender, nonce, browser, seat_token, actor)
    except DBAPIError as error:
        if not reconnecting(error, repeatable=nonce is not None):
            raise
        cut_at_commit = error.statement is None
    outcome = _on_time(code, data, sender, nonce, browser, seat_token, actor)
    # A commit cut off may have been kept: then this try found the action's own event, not a repeat.
    return replace(outcome, repeated=False) if cut_at_commit else outcome


class _TimeUp(Exception):
    """The game is a tournament's table whose round's time ran out before its last turn was called."""


def _on_time(code: str, *args) -> Outcome:
    """The action's tries (`_tries`); at a tournament's table whose round's time ran out unheard
    (no process's clock keeper called the last turn yet), the last turn first, then the action."""
    try:
        return _tries(code, *args)
    except _TimeUp:
        time_up(code)
        return _tries(code, *args, on_time=True)


def _time_up(state: dict, data: dict) -> bool:
    """Whether the game (its snapshot as read) is a round's table past its time with no last turn
    called, and the action one that plays on (not an undo, nor the clock's or the last turn's own)."""
    ends_at = state.get("round_ends_at")
    return (ends_at is not None and not state["last_turn"] and state["status"] == "playing"
            and data.get("type") not in PAST_TIME and ends_at <= now())


PAST_TIME = frozenset({UNDO, TAKE_BACK, "last_turn", "round_clock"})


def _tries(code: str, data: dict, sender: Sender, nonce: str | None, browser: Browser | None,
           seat_token: str | None, actor: Actor | None, on_time: bool = False) -> Outcome:
    """The tries of one action (engine.attempts), each in one write transaction; `on_time`: the
    round's time was looked at already (_on_time)."""
    for _ in attempts(code):  # after the last lost try, attempts raises Busy
        with writing():
            row = _game_row(code, sender, nonce)
            if row is None:
                raise GameNotFound(code)
            actor = actor or sender.actor(row, joining=data.get("type") == "join")
            if nonce and row.first_seq is not None:
                player = _joined_player(row.first_type, row.first_effects)
                if browser is not None and player is not None and row.badge is None:
                    # A double-tapped Join whose first answer never reached the browser.
                    give_badge(row.id, browser, player)
                db.session.commit()
                return Outcome(row.first_seq, row.first_effects, GameState.from_dict(row.state),
                               player, repeated=True)
            if not on_time and _time_up(row.state, data):
                raise _TimeUp(code)  # (writing() rolls back)
            try:
                state, effects, payload = _applied(row, data, actor)
            except GameError as refused:
                # The game as read, to word the refusal from (its names and board) without a second read.
                refused.state = GameState.from_dict(row.state)
                raise
            version = row.version + 1
            entry = _save(row, actor, payload, state, effects, nonce)
            if entry is not None:
                player = _joined_player(payload["type"], effects)
                if player is not None:
                    db.session.add(Seat(game_id=row.id, player_id=player,
                                        token_hash=token_hash(seat_token or new_token())))
                    if browser is not None and browser.role == "seat":  # the banker seats a phone-less player
                        give_badge(row.id, browser, player)
                notifier().relay(db.session, code, version)  # other processes hear of it on commit
                db.session.commit()
                announce(code, version, Commit(code, version, state, entry))
                if any(e["kind"] == "ended" for e in effects):
                    table_ended(code, state)  # a tournament's table: its result goes to the tournament
                return Outcome(version, effects, state, player)
            db.session.rollback()


def _applied(row, data: dict, actor: Actor) -> tuple[GameState, list, dict]:
    """The action (or undo) applied to the game's row: the new state, its effects and the action as
    the log keeps it. Raises the rules' GameError when it is refused."""
    if data.get("type") in (UNDO, TAKE_BACK):
        only_fields(data, ("seq",) if data["type"] == UNDO else ())
        seq = serial(data["seq"], "seq") if data.get("seq") is not None else None
        return undo_newest(row, actor, seq, take_back=data["type"] == TAKE_BACK)
    action = parse(data)
    # The snapshot was decoded for this request alone, so the rules may change it in place.
    state, effects = apply(GameState.from_dict(row.state), action, actor, copy=False)
    return state, effects, action.to_dict()


def _game_row(code: str, sender: Sender, nonce: str | None):
    """The game's row, locked for this write where the database can (PostgreSQL), with the seat
    holding the sender's secret or the browser's badge, and the first event that used `nonce`, if
    any."""
    if db.session.get_bind().dialect.name == "postgresql":
        # Lock first, then read, in two statements: a statement sees the database as it was when it
        # began, so a read that had to wait for the lock would still miss the event the writer
        # before it just committed (the same nonce sent twice at once would be applied twice, or
        # refused). SQLite's BEGIN IMMEDIATE already waits before anything is read.
        db.session.execute(_LOCK, {"code": code})
    params = {"code": code, "nonce": nonce, **sender.params}
    return db.session.execute(_row_query(sender.via, bool(nonce)), params).first()


@cache
def _row_query(via: str | None, nonce: bool):
    """The action's one read, built once for each of its shapes: who sends it (an API token, a
    browser, or a newcomer: None), with a nonce or not."""
    query = select(Game.id, Game.version, Game.edition, Game.settings, Game.state,
                   Game.banker_token_hash).where(Game.code == bindparam("code")).with_for_update(of=Game)
    query = holding(query, via)
    if nonce:
        query = query.add_columns(
            Event.seq.label("first_seq"), Event.type.label("first_type"), Event.effects.label("first_effects"),
        ).outerjoin(Event, (Event.game_id == Game.id) & (Event.nonce == bindparam("nonce")))
    return query


def _save(row, actor: Actor, payload: dict, state: GameState, effects: list,
          nonce: str | None) -> LogEntry | None:
    """Write the snapshot if nobody else did first, append the event and, when due, a checkpoint
    (undo.checkpoint): the event's entry; None on a lost race."""
    version = row.version + 1
    snapshot = state.to_dict()
    saved = db.session.execute(_SNAPSHOT, {"game": row.id, "seen": row.version, "snapshot": snapshot,
                                           "new": version})
    if saved.rowcount != 1:
        return None
    entry = LogEntry(version, payload["type"], str(actor), payload, effects, datetime.now(UTC), False)
    db.session.execute(_EVENTS.insert(), {"game_id": row.id, "nonce": nonce, **entry._asdict()})
    checkpoint(row.id, version, payload["type"], snapshot)
    return entry


def _joined_player(kind: str, effects: list) -> int | None:
    if kind != "join":
        return None
    return next(e["player"] for e in effects if e["kind"] == "joined")
