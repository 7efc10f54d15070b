"""Persistence: load a game, apply an action through the rules, append the event and save the
snapshot in one transaction guarded by an optimistic version check."""

import hashlib
import hmac
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from datetime import UTC, datetime

from sqlalchemy import bindparam, delete, event, func, select, update

from .models import Checkpoint, Event, Game, Seat, db
from .notifier import announce
from .rules import Actor, GameState, Settings, apply, new_game, parse, replay
from .rules.actions import UNDO
from .rules.errors import ActionError, N_, NotAllowed, RuleError

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
TRIES = 5
# Undo replays at most this many events less one, whatever the length of the game; each
# checkpoint is one more copy of the snapshot in the database.
CHECKPOINT_EVERY = 32
_immediate: ContextVar[bool] = ContextVar("immediate", default=False)

# The writes of every action, built once on the tables themselves: an ORM-level insert or update
# spent more time building its statement than the database spent running it.
_GAMES, _EVENTS, _CHECKPOINTS = Game.__table__, Event.__table__, Checkpoint.__table__
# The seat holding a secret (its hash, bound as "digest") in the game being read.
_SEAT = (Seat.game_id == Game.id) & (Seat.token_hash == bindparam("digest"))
_SNAPSHOT = (update(_GAMES).where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("seen"))
             .values(state=bindparam("snapshot"), version=bindparam("new")))


class Busy(RuntimeError):
    """Every retry lost the race for the game's version: the table is unusually busy."""


class UnknownSecret(LookupError):
    """A secret that belongs to nobody in the game: a replaced seat, or a made-up token."""


@dataclass
class Outcome:
    """What one action did: the version it made, its effects, and the state after it."""

    version: int
    effects: list[dict]
    state: GameState
    player: int | None = None  # the new seat, after a join
    repeated: bool = False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def sqlite_setup(engine) -> None:
    """WAL, a busy timeout, and BEGIN IMMEDIATE for writes (DESIGN.md section 2).

    pysqlite's own BEGIN is switched off so that SQLAlchemy's `begin` event decides: a deferred
    read-then-write transaction under WAL fails with "database is locked" when another writer
    committed in between, an immediate one waits its turn instead.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE" if _immediate.get() else "BEGIN")


@contextmanager
def writing():
    """A write transaction: begins IMMEDIATE on SQLite, rolls back on any error."""
    db.session.rollback()
    mark = _immediate.set(True)
    try:
        yield
    except BaseException:
        db.session.rollback()
        raise
    finally:
        _immediate.reset(mark)


def create_game(edition: str = "us", settings: dict | None = None) -> tuple[Game, str]:
    """A new game in its lobby; returns it with the banker's secret token."""
    chosen = Settings.parse(settings)
    try:
        state = new_game(edition, chosen)
    except KeyError:
        raise ActionError("unknown_edition", N_("Unknown edition: {edition}."), edition=edition) from None
    banker_token = new_token()
    with writing():
        game = Game(
            code=_free_code(), banker_token_hash=token_hash(banker_token), edition=edition,
            settings=vars(chosen).copy(), state=state.to_dict(), version=0,
            created_at=datetime.now(UTC),
        )
        db.session.add(game)
        db.session.commit()
    return game, banker_token


def _free_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not db.session.scalar(select(Game.id).where(Game.code == code)):
            return code


def game_code(code: str) -> str | None:
    """The code in its stored form (upper case), or None when it could not be a game's code: junk
    never reaches a query."""
    code = code.upper()
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None


def find_game(code: str) -> Game | None:
    code = game_code(code)
    return db.session.scalar(select(Game).where(Game.code == code)) if code else None


def visit(code: str, secret: str | None) -> tuple[Game | None, Actor | None]:
    """The game and who holds `secret` in it (the banker, a seat, or None), in one query."""
    code = game_code(code)
    if code is None:
        return None, None
    if not secret:
        return find_game(code), None
    row = db.session.execute(select(Game, Seat.player_id).outerjoin(Seat, _SEAT).where(Game.code == code),
                             {"digest": token_hash(secret)}).first()
    if row is None:
        return None, None
    game, player = row
    return game, _holder(secret, game.banker_token_hash, player)


def _holder(secret: str, banker_token_hash: str, player: int | None) -> Actor | None:
    """Who holds the secret, given the game's banker hash and the seat found for it: the banker,
    that seat, or nobody (None)."""
    if hmac.compare_digest(token_hash(secret), banker_token_hash):
        return Actor(banker=True)
    return Actor(player=player) if player is not None else None


def load_state(game: Game) -> GameState:
    return GameState.from_dict(game.state)


def act(code: str, data: dict, secret: str | None = None, seat_token: str | None = None,
        actor: Actor | None = None) -> Outcome:
    """Apply one action (or undo) for whoever holds `secret` (no secret: a newcomer joining) and
    save it; a repeated nonce returns the first outcome. Once committed, the game's live pages hear
    of it; nothing refused or lost in a race is announced.

    One query reads the game, the secret's seat and a first use of the nonce; then the snapshot is
    updated and the event appended. Raises LookupError (no such game), UnknownSecret, a GameError
    (refused) or Busy. `seat_token` is the new seat's secret when the action is a join. An
    in-process caller that knows who acts (a benchmark, a test) may name the `actor` instead of
    a secret; requests always go by their secret.
    """
    nonce = _nonce(data.get("nonce"))
    code = game_code(code)
    if code is None:
        raise LookupError(code)
    for _ in range(TRIES):
        with writing():
            row = _game_row(code, secret, nonce)
            if row is None:
                raise LookupError(code)
            actor = actor or _actor(row, secret)
            if nonce and row.first_seq is not None:
                if row.first_actor != str(actor):
                    # Someone else's nonce: their result is not this request's, and this action
                    # cannot be stored under it either; swallowing it in silence would lose it.
                    raise RuleError("nonce_taken",
                                    N_("That nonce was already used by someone else; send a new one."))
                db.session.rollback()
                return Outcome(row.first_seq, row.first_effects, GameState.from_dict(row.state),
                               _joined_player(row.first_type, row.first_effects), repeated=True)
            if data.get("type") == UNDO:
                state, effects, payload = _undo(row, actor)
            else:
                action = parse(data)
                # The snapshot was decoded for this request alone, so the rules may change it in place.
                state, effects = apply(GameState.from_dict(row.state), action, actor, copy=False)
                payload = action.to_dict()
            version = row.version + 1
            if _save(row, actor, payload, state, effects, nonce):
                player = _joined_player(payload["type"], effects)
                if player is not None:
                    db.session.add(Seat(game_id=row.id, player_id=player,
                                        token_hash=token_hash(seat_token or new_token())))
                db.session.commit()
                announce(code, version)
                return Outcome(version, effects, state, player)
            db.session.rollback()
    raise Busy(code)


def _game_row(code: str, secret: str | None, nonce: str | None):
    """The game's row, locked for this write where the database can (PostgreSQL), with the seat
    holding `secret` and the first event that used `nonce`, if any."""
    params = {"code": code, "digest": token_hash(secret) if secret else None, "nonce": nonce}
    return db.session.execute(_row_query(bool(secret), bool(nonce)), params).first()


@cache
def _row_query(seat: bool, nonce: bool):
    """The action's one read, built once for each of its four shapes."""
    query = select(Game.id, Game.version, Game.edition, Game.settings, Game.state,
                   Game.banker_token_hash).where(Game.code == bindparam("code")).with_for_update(of=Game)
    if seat:
        query = query.add_columns(Seat.player_id).outerjoin(Seat, _SEAT)
    if nonce:
        query = query.add_columns(
            Event.seq.label("first_seq"), Event.actor.label("first_actor"),
            Event.type.label("first_type"), Event.effects.label("first_effects"),
        ).outerjoin(Event, (Event.game_id == Game.id) & (Event.nonce == bindparam("nonce")))
    return query


def _actor(row, secret: str | None) -> Actor:
    """Who holds the secret: the banker, a seat, or (no secret) a newcomer."""
    if not secret:
        return Actor()
    actor = _holder(secret, row.banker_token_hash, row.player_id)
    if actor is None:
        raise UnknownSecret(row.id)
    return actor


def _save(row, actor: Actor, payload: dict, state: GameState, effects: list, nonce: str | None) -> bool:
    """Write the snapshot if nobody else did first, append the event and, every CHECKPOINT_EVERY
    events and after an undo, a checkpoint; False on a lost race."""
    version = row.version + 1
    snapshot = state.to_dict()
    saved = db.session.execute(_SNAPSHOT, {"game": row.id, "seen": row.version, "snapshot": snapshot,
                                           "new": version})
    if saved.rowcount != 1:
        return False
    db.session.execute(_EVENTS.insert(), {
        "game_id": row.id, "seq": version, "actor": str(actor), "type": payload["type"], "payload": payload,
        "effects": effects, "nonce": nonce, "created_at": datetime.now(UTC), "undone": False,
    })
    if version % CHECKPOINT_EVERY == 0 or payload["type"] == UNDO:
        db.session.execute(_CHECKPOINTS.insert(), {"game_id": row.id, "seq": version, "state": snapshot})
    return True


def _undo(row, actor: Actor) -> tuple[GameState, list, dict]:
    """Mark the newest live event undone and rebuild the state without it: from the newest
    checkpoint before it, replaying the few live events in between (at most CHECKPOINT_EVERY - 1;
    a game saved before checkpoints existed replays from its start).

    Why that checkpoint is never far back: a checkpoint is written every CHECKPOINT_EVERY versions
    and after every undo, and an undo deletes only the checkpoints at or after the event it takes
    back. The checkpoint that existed just before the newest live event was applied is therefore
    still there: undos since then only took back later events.
    """
    if not actor.banker:
        raise NotAllowed("banker_only", N_("Only the banker can undo."))
    last = last_live_event(row.id)
    if last is None:
        raise RuleError("nothing_to_undo", N_("There is nothing to undo."))
    if last.type == "join":
        raise RuleError("join_not_undoable", N_("Joining the game cannot be undone."))
    db.session.execute(update(Event).where(Event.id == last.id).values(undone=True)
                       .execution_options(synchronize_session=False))
    db.session.execute(delete(Checkpoint).where(Checkpoint.game_id == row.id, Checkpoint.seq >= last.seq))
    base = db.session.execute(
        select(Checkpoint.seq, Checkpoint.state)
        .where(Checkpoint.game_id == row.id, Checkpoint.seq < last.seq)
        .order_by(Checkpoint.seq.desc()).limit(1)
    ).first()
    start = GameState.from_dict(base.state) if base else None
    log = live_log(row.id, after=base.seq if base else 0, before=last.seq)
    state = replay(row.edition, Settings(**row.settings), log, start)
    effects = [{"kind": "undone", "seq": last.seq, "type": last.type}]
    return state, effects, {"type": UNDO, "seq": last.seq}


def last_live_event(game_id: int) -> Event | None:
    """The newest event that is not undone and not itself an undo: what Undo would take back."""
    return db.session.scalar(
        select(Event).where(Event.game_id == game_id, Event.undone.is_(False), Event.type != UNDO)
        .order_by(Event.seq.desc()).limit(1)
    )


def started_at(game: Game) -> datetime | None:
    """When the game's (not undone) start was recorded. Read from the oldest events up, so it stops
    at the start, near the beginning of the log, however long the game (every host render of a
    timed game asks)."""
    return db.session.scalar(
        select(Event.created_at).where(Event.game_id == game.id, Event.type == "start",
                                       Event.undone.is_(False)).order_by(Event.seq).limit(1)
    )


def undo_count(game: Game) -> int:
    """How many undos the game has had: what tells apart two moments an undo made look alike."""
    return db.session.scalar(
        select(func.count()).select_from(Event).where(Event.game_id == game.id, Event.type == UNDO)
    )


def live_log(game_id: int, after: int = 0, before: int | None = None) -> list[tuple[Actor, dict]]:
    """The (actor, action) pairs that make the game, oldest first, without undone entries: all of
    them, or those after event `after` and before event `before`."""
    query = (select(Event.actor, Event.payload)
             .where(Event.game_id == game_id, Event.undone.is_(False), Event.type != UNDO,
                    Event.seq > after)
             .order_by(Event.seq))
    if before is not None:
        query = query.where(Event.seq < before)
    return [(Actor.parse(a), p) for a, p in db.session.execute(query)]


def replay_game(game: Game) -> GameState:
    """The state rebuilt from the event log alone, from the start; must equal the snapshot."""
    return replay(game.edition, Settings(**game.settings), live_log(game.id))


def _nonce(value) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 64 or not value.isprintable():
        raise ActionError("bad_nonce", N_("nonce must be a short string."))
    return value


def _joined_player(kind: str, effects: list) -> int | None:
    if kind != "join":
        return None
    return next(e["player"] for e in effects if e["kind"] == "joined")


def history(game: Game, limit: int | None = None) -> list[Event]:
    """The game's events, newest first (undone ones included, marked)."""
    query = select(Event).where(Event.game_id == game.id).order_by(Event.seq.desc())
    if limit:
        query = query.limit(limit)
    return list(db.session.scalars(query))


def new_seat_token(game: Game, player_id: int) -> str:
    """A fresh secret for a seat (a new phone); the old phone's secret stops working, and its open
    page hears of it at once (the version is the same: nothing in the game changed)."""
    token = new_token()
    code, version = game.code, game.version
    with writing():
        seat = db.session.scalar(
            select(Seat).where(Seat.game_id == game.id, Seat.player_id == player_id)
        )
        if seat is None:
            raise LookupError(player_id)
        seat.token_hash = token_hash(token)
        db.session.commit()
    announce(code, version)
    return token
