"""Persistence: load a game, apply an action through the rules, append the event and save the
snapshot in one transaction guarded by an optimistic version check."""

import hashlib
import hmac
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import event, func, select, update

from .models import Event, Game, Seat, db
from .rules import Actor, GameState, Settings, apply, new_game, parse, replay
from .rules.actions import UNDO
from .rules.errors import ActionError, N_, NotAllowed, RuleError

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
TRIES = 5
_immediate: ContextVar[bool] = ContextVar("immediate", default=False)


class Busy(RuntimeError):
    """Every retry lost the race for the game's version: the table is unusually busy."""


@dataclass
class Outcome:
    """What one action did: the version it made, its effects, and the state after it."""

    version: int
    effects: list[dict]
    state: GameState
    player: int | None = None
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


def find_game(code: str) -> Game | None:
    return db.session.scalar(select(Game).where(Game.code == code.upper()))


def version_of(code: str) -> int | None:
    """The one cheap query behind live updates: no snapshot, no replay."""
    return db.session.scalar(select(Game.version).where(Game.code == code.upper()))


def load_state(game: Game) -> GameState:
    return GameState.from_dict(game.state)


def actor_for(game: Game, token: str | None) -> Actor | None:
    """Who holds this secret in this game: the banker, a seat, or nobody (None)."""
    if not token:
        return None
    digest = token_hash(token)
    if hmac.compare_digest(digest, game.banker_token_hash):
        return Actor(banker=True)
    player = db.session.scalar(
        select(Seat.player_id).where(Seat.game_id == game.id, Seat.token_hash == digest)
    )
    return Actor(player=player) if player is not None else None


def act(code: str, actor: Actor, data: dict, seat_token: str | None = None) -> Outcome:
    """Apply one action (or undo) to a game and save it; a repeated nonce returns the first outcome.

    `seat_token` is the new seat's secret when the action is a join.
    """
    nonce = _nonce(data.get("nonce"))
    for _ in range(TRIES):
        with writing():
            game = db.session.scalar(select(Game).where(Game.code == code.upper()))
            if game is None:
                raise LookupError(code)
            if nonce and (first := _event_by_nonce(game, nonce)):
                if first.actor != str(actor):
                    # Someone else's nonce: their result is not this request's, and this action
                    # cannot be stored under it either; swallowing it in silence would lose it.
                    raise RuleError("nonce_taken",
                                    N_("That nonce was already used by someone else; send a new one."))
                outcome = Outcome(first.seq, first.effects, load_state(game),
                                  _joined(first), repeated=True)
                db.session.commit()
                return outcome
            version = game.version
            if data.get("type") == UNDO:
                state, effects, payload = _undo(game, actor)
            else:
                action = parse(data)
                state, effects = apply(load_state(game), action, actor)
                payload = action.to_dict()
            if _save(game, actor, payload, state, effects, nonce):
                player = _joined_player(payload, effects)
                if player is not None:
                    db.session.add(Seat(game_id=game.id, player_id=player,
                                        token_hash=token_hash(seat_token or new_token())))
                db.session.commit()
                return Outcome(version + 1, effects, state, player)
            db.session.rollback()
    raise Busy(code)


def _save(game: Game, actor: Actor, payload: dict, state: GameState, effects: list,
          nonce: str | None) -> bool:
    """Write the snapshot if nobody else did first, and append the event; False on a lost race."""
    version = game.version
    saved = db.session.execute(
        update(Game).where(Game.id == game.id, Game.version == version)
        .values(state=state.to_dict(), version=version + 1)
        .execution_options(synchronize_session=False)
    )
    if saved.rowcount != 1:
        return False
    db.session.add(Event(
        game_id=game.id, seq=version + 1, actor=str(actor), type=payload["type"],
        payload=payload, effects=effects, nonce=nonce, created_at=datetime.now(UTC),
    ))
    return True


def _undo(game: Game, actor: Actor) -> tuple[GameState, list, dict]:
    """Mark the newest live event undone and rebuild the state by replaying the rest."""
    if not actor.banker:
        raise NotAllowed("banker_only", N_("Only the banker can undo."))
    last = last_live_event(game)
    if last is None:
        raise RuleError("nothing_to_undo", N_("There is nothing to undo."))
    if last.type == "join":
        raise RuleError("join_not_undoable", N_("Joining the game cannot be undone."))
    last.undone = True
    state = replay_game(game, exclude=last.seq)
    effects = [{"kind": "undone", "seq": last.seq, "type": last.type}]
    return state, effects, {"type": UNDO, "seq": last.seq}


def last_live_event(game: Game) -> Event | None:
    """The newest event that is not undone and not itself an undo: what Undo would take back."""
    return db.session.scalar(
        select(Event).where(Event.game_id == game.id, Event.undone.is_(False), Event.type != UNDO)
        .order_by(Event.seq.desc()).limit(1)
    )


def started_at(game: Game) -> datetime | None:
    """When the game's (not undone) start was recorded."""
    return db.session.scalar(
        select(Event.created_at).where(Event.game_id == game.id, Event.type == "start",
                                       Event.undone.is_(False))
    )


def undo_count(game: Game) -> int:
    """How many undos the game has had: what tells apart two moments an undo made look alike."""
    return db.session.scalar(
        select(func.count()).select_from(Event).where(Event.game_id == game.id, Event.type == UNDO)
    )


def live_log(game: Game, exclude: int | None = None) -> list[tuple[Actor, dict]]:
    """The (actor, action) pairs that make the game, oldest first, without undone entries."""
    rows = db.session.execute(
        select(Event.actor, Event.payload, Event.seq)
        .where(Event.game_id == game.id, Event.undone.is_(False), Event.type != UNDO)
        .order_by(Event.seq)
    )
    return [(Actor.parse(a), p) for a, p, seq in rows if seq != exclude]


def replay_game(game: Game, exclude: int | None = None) -> GameState:
    """The state rebuilt from the event log alone; must equal the snapshot."""
    return replay(game.edition, Settings(**game.settings), live_log(game, exclude))


def _event_by_nonce(game: Game, nonce: str) -> Event | None:
    return db.session.scalar(select(Event).where(Event.game_id == game.id, Event.nonce == nonce))


def _nonce(value) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 64 or not value.isprintable():
        raise ActionError("bad_nonce", N_("nonce must be a short string."))
    return value


def _joined_player(payload: dict, effects: list) -> int | None:
    if payload["type"] != "join":
        return None
    return next(e["player"] for e in effects if e["kind"] == "joined")


def _joined(first: Event) -> int | None:
    return _joined_player(first.payload, first.effects)


def history(game: Game, limit: int | None = None) -> list[Event]:
    """The game's events, newest first (undone ones included, marked)."""
    query = select(Event).where(Event.game_id == game.id).order_by(Event.seq.desc())
    if limit:
        query = query.limit(limit)
    return list(db.session.scalars(query))


def new_seat_token(game: Game, player_id: int) -> str:
    """A fresh secret for a seat (a new phone); the old phone's secret stops working."""
    token = new_token()
    with writing():
        seat = db.session.scalar(
            select(Seat).where(Seat.game_id == game.id, Seat.player_id == player_id)
        )
        if seat is None:
            raise LookupError(player_id)
        seat.token_hash = token_hash(token)
        db.session.commit()
    return token
