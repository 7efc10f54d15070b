"""Persistence: load a game, apply an action through the rules, append the event and save the
snapshot in one transaction guarded by an optimistic version check."""

import hashlib
import hmac
import random
import secrets
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from datetime import UTC, datetime

from sqlalchemy import bindparam, delete, event, select, update

from .models import Badge, Checkpoint, Claim, Event, Game, Seat, db
from .live.memory import Commit, Entry as LogEntry
from .live.notifier import announce, notifier
from .rules import Actor, GameState, Settings, apply, new_game, parse, replay
from .rules import effects as happened
from .rules.actions import TAKE_BACK, UNDO, only_fields
from .rules.inputs import serial
from .rules.undo import Entry, check_take_back, check_undo
from .rules.board import EDITION_NAMES, load_board
from .rules.errors import ActionError, N_

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
TRIES = 5
BACKOFF = 0.005  # seconds: the first retry waits up to this, each next one up to twice as long
# Undo replays at most this many events less one, whatever the length of the game; each
# checkpoint is one more copy of the snapshot in the database.
CHECKPOINT_EVERY = 32
# How long a rejoin code can be claimed (the banker shows it, the new phone scans it at once).
CLAIM_SECONDS = 10 * 60
# A used rejoin code expired at the epoch: its row (a hash) stays until the game's next new code, so
# that the banker's code page can say the seat was taken rather than that the code lapsed.
USED = 0
_immediate: ContextVar[bool] = ContextVar("immediate", default=False)

# The writes of every action, built once on the tables themselves: an ORM-level insert or update
# spent more time building its statement than the database spent running it.
_GAMES, _EVENTS, _CHECKPOINTS = Game.__table__, Event.__table__, Checkpoint.__table__
# The seat holding a secret (its hash, bound as "digest") in the game being read.
_SEAT = (Seat.game_id == Game.id) & (Seat.token_hash == bindparam("digest"))
# The browser's badge (its key's hash bound as "digest") for a role in the game being read.
_BADGE = (Badge.game_id == Game.id) & (Badge.browser_hash == bindparam("digest")) & (Badge.role == bindparam("role"))
_LOCK = select(_GAMES.c.id).where(_GAMES.c.code == bindparam("code")).with_for_update()
_SNAPSHOT = (update(_GAMES).where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("seen"))
             .values(state=bindparam("snapshot"), version=bindparam("new")))


class Busy(RuntimeError):
    """Every retry lost the race for the game's version: the table is unusually busy."""


class UnknownSecret(LookupError):
    """A secret that belongs to nobody in the game: a replaced seat, or a made-up token (or a
    browser without that role in the game)."""


@dataclass(frozen=True)
class Browser:
    """A browser as the pages know it: the random key its cookie keeps for all its games, asking as
    the banker or as its seat (`role`). What it holds in each game is kept in badges, by the key's
    hash; the key itself opens nothing through the API."""

    key: str
    role: str  # "banker" or "seat"

    @property
    def digest(self) -> str:
        return token_hash(self.key)


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
    """WAL, a busy timeout, and BEGIN IMMEDIATE for writes (docs/design.md, Concurrency).

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


def create_game(edition: str = "us", settings: dict | None = None,
                browser: Browser | None = None) -> tuple[Game, str]:
    """A new game in its lobby; returns it with the banker's secret token (for the API). A browser
    that creates it (the home page) gets the banker's badge."""
    if not isinstance(edition, str) or edition not in EDITION_NAMES:
        raise ActionError("unknown_edition", N_("Unknown edition; the editions are: {editions}."),
                          editions=", ".join(EDITION_NAMES))
    chosen = Settings.parse(settings, load_board(edition).settings)
    state = new_game(edition, chosen)
    banker_token = new_token()
    with writing():
        game = Game(
            code=_free_code(), banker_token_hash=token_hash(banker_token), edition=edition,
            settings=vars(chosen).copy(), state=state.to_dict(), version=0,
            created_at=datetime.now(UTC),
        )
        db.session.add(game)
        if browser is not None:
            db.session.flush()
            _give_badge(game.id, browser, None)
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


def visit(code: str, secret: str | None = None,
          browser: Browser | None = None) -> tuple[Game | None, Actor | None]:
    """The game and who holds `secret` (an API token) or is `browser` in it: the banker, a seat,
    or None. One query."""
    code = game_code(code)
    if code is None:
        return None, None
    if browser is not None:
        row = db.session.execute(select(Game, Badge.id, Badge.player_id).outerjoin(Badge, _BADGE)
                                 .where(Game.code == code), {"digest": browser.digest, "role": browser.role}).first()
        return (row[0], _badge_holder(browser, row[1], row[2])) if row else (None, None)
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


def _badge_holder(browser: Browser, badge: int | None, player: int | None) -> Actor | None:
    """Who the browser is, given the badge found for its role: the banker, its seat, or nobody."""
    if badge is None:
        return None
    return Actor(banker=True) if browser.role == "banker" else Actor(player=player)


def _give_badge(game_id: int, browser: Browser, player: int | None) -> None:
    db.session.add(Badge(browser_hash=browser.digest, game_id=game_id, role=browser.role, player_id=player))


def load_state(game: Game) -> GameState:
    return GameState.from_dict(game.state)


def act(code: str, data: dict, secret: str | None = None, *, browser: Browser | None = None,
        seat_token: str | None = None, actor: Actor | None = None) -> Outcome:
    """Apply one action (or undo) for whoever holds `secret` (an API token) or is `browser` (the
    pages), and save it; neither: a newcomer joining. A repeated nonce of the same sender returns
    the first outcome. Once committed, the game's live pages hear of it; nothing refused or lost in
    a race is announced.

    One query reads the game, the sender's seat or badge and a first use of the nonce; then the
    snapshot is updated and the event appended. Raises LookupError (no such game), UnknownSecret,
    a GameError (refused) or Busy. A join gives the new seat `seat_token` (the API's) or, from a
    browser, the browser a badge for it. An in-process caller that knows who acts (a benchmark, a
    test) may name the `actor` instead; requests always go by their secret or browser.
    """
    nonce = nonce_key(_nonce(data.get("nonce")), secret, browser, actor)
    code = game_code(code)
    if code is None:
        raise LookupError(code)
    for attempt in range(TRIES):
        with writing():
            row = _game_row(code, secret, browser, nonce)
            if row is None:
                raise LookupError(code)
            actor = actor or _actor(row, secret, browser, joining=data.get("type") == "join")
            if nonce and row.first_seq is not None:
                player = _joined_player(row.first_type, row.first_effects)
                if browser is not None and player is not None and row.badge is None:
                    # A double-tapped Join whose first answer never reached the browser.
                    _give_badge(row.id, browser, player)
                db.session.commit()
                return Outcome(row.first_seq, row.first_effects, GameState.from_dict(row.state),
                               player, repeated=True)
            if data.get("type") in (UNDO, TAKE_BACK):
                only_fields(data, ("seq",) if data["type"] == UNDO else ())
                seq = serial(data["seq"], "seq") if data.get("seq") is not None else None
                state, effects, payload = _undo(row, actor, seq, take_back=data["type"] == TAKE_BACK)
            else:
                action = parse(data)
                # The snapshot was decoded for this request alone, so the rules may change it in place.
                state, effects = apply(GameState.from_dict(row.state), action, actor, copy=False)
                payload = action.to_dict()
            version = row.version + 1
            entry = _save(row, actor, payload, state, effects, nonce)
            if entry is not None:
                player = _joined_player(payload["type"], effects)
                if player is not None:
                    db.session.add(Seat(game_id=row.id, player_id=player,
                                        token_hash=token_hash(seat_token or new_token())))
                    if browser is not None:
                        _give_badge(row.id, browser, player)
                notifier().relay(db.session, code, version)  # other processes hear of it on commit
                db.session.commit()
                announce(code, version, Commit(code, version, state, entry))
                return Outcome(version, effects, state, player)
            db.session.rollback()
        # The row lock makes a lost race rare (a database without one); the writers that lost it
        # try again spread out in time rather than all at once.
        time.sleep(random.uniform(0, BACKOFF * 2 ** attempt))
    raise Busy(code)


def _game_row(code: str, secret: str | None, browser: Browser | None, nonce: str | None):
    """The game's row, locked for this write where the database can (PostgreSQL), with the seat
    holding `secret` or the browser's badge, and the first event that used `nonce`, if any."""
    holder = "browser" if browser else "token" if secret else None
    if db.session.get_bind().dialect.name == "postgresql":
        # Lock first, then read, in two statements: a statement sees the database as it was when it
        # began, so a read that had to wait for the lock would still miss the event the writer
        # before it just committed (the same nonce sent twice at once would be applied twice, or
        # refused). SQLite's BEGIN IMMEDIATE already waits before anything is read.
        db.session.execute(_LOCK, {"code": code})
    params = {"code": code, "nonce": nonce,
              "digest": browser.digest if browser else token_hash(secret) if secret else None,
              "role": browser.role if browser else None}
    return db.session.execute(_row_query(holder, bool(nonce)), params).first()


@cache
def _row_query(holder: str | None, nonce: bool):
    """The action's one read, built once for each of its shapes: who sends it (an API token, a
    browser, or a newcomer: None), with a nonce or not."""
    query = select(Game.id, Game.version, Game.edition, Game.settings, Game.state,
                   Game.banker_token_hash).where(Game.code == bindparam("code")).with_for_update(of=Game)
    if holder == "token":
        query = query.add_columns(Seat.player_id).outerjoin(Seat, _SEAT)
    elif holder == "browser":
        query = query.add_columns(Badge.id.label("badge"), Badge.player_id).outerjoin(Badge, _BADGE)
    if nonce:
        query = query.add_columns(
            Event.seq.label("first_seq"), Event.type.label("first_type"), Event.effects.label("first_effects"),
        ).outerjoin(Event, (Event.game_id == Game.id) & (Event.nonce == bindparam("nonce")))
    return query


def _actor(row, secret: str | None, browser: Browser | None, joining: bool) -> Actor:
    """Who sends the action: the banker or a seat, by the secret or the browser's badge; with
    neither (or a browser with no seat yet, joining), a newcomer."""
    if browser is not None:
        actor = _badge_holder(browser, row.badge, row.player_id)
        if actor is None and joining:
            return Actor()
    elif secret:
        actor = _holder(secret, row.banker_token_hash, row.player_id)
    else:
        return Actor()
    if actor is None:
        raise UnknownSecret(row.id)
    return actor


def _save(row, actor: Actor, payload: dict, state: GameState, effects: list,
          nonce: str | None) -> LogEntry | None:
    """Write the snapshot if nobody else did first, append the event and, every CHECKPOINT_EVERY
    events and after an undo, a checkpoint: the event's entry; None on a lost race."""
    version = row.version + 1
    snapshot = state.to_dict()
    saved = db.session.execute(_SNAPSHOT, {"game": row.id, "seen": row.version, "snapshot": snapshot,
                                           "new": version})
    if saved.rowcount != 1:
        return None
    entry = LogEntry(version, payload["type"], str(actor), payload, effects, datetime.now(UTC), False)
    db.session.execute(_EVENTS.insert(), {"game_id": row.id, "nonce": nonce, **entry._asdict()})
    if version % CHECKPOINT_EVERY == 0 or payload["type"] == UNDO:
        db.session.execute(_CHECKPOINTS.insert(), {"game_id": row.id, "seq": version, "state": snapshot})
    return entry


def _undo(row, actor: Actor, seq: int | None = None, take_back: bool = False) -> tuple[GameState, list, dict]:
    """Mark the newest live event undone and rebuild the state without it: from the newest
    checkpoint before it, replaying the few live events in between (at most CHECKPOINT_EVERY - 1;
    a game saved before checkpoints existed replays from its start). The banker's undo (of event
    `seq`, if named) or a player's take_back, as rules/undo.py allows; both are stored as an undo.

    Why that checkpoint is never far back: a checkpoint is written every CHECKPOINT_EVERY versions
    and after every undo, and an undo deletes only the checkpoints at or after the event it takes
    back. The checkpoint that existed just before the newest live event was applied is therefore
    still there: undos since then only took back later events.
    """
    last = last_live_event(row.id)
    entry = Entry.of(last, row.version)
    if take_back:
        check_take_back(actor, entry)
    else:
        check_undo(actor, entry, seq)
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
    effects = [happened.undone(last.seq, last.type, actor.player if take_back else None)]
    return state, effects, {"type": UNDO, "seq": last.seq}


def last_live_event(game_id: int) -> Event | None:
    """The newest event that is not undone and not itself an undo: what Undo would take back."""
    return db.session.scalar(
        select(Event).where(Event.game_id == game_id, Event.undone.is_(False), Event.type != UNDO)
        .order_by(Event.seq.desc()).limit(1)
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


def nonce_key(nonce: str | None, secret: str | None, browser: Browser | None, actor: Actor | None) -> str | None:
    """What the log keeps of a nonce: a hash of it with its sender, so that one sender's nonce
    never meets another's (a player cannot block the banker by sending the banker's nonce first),
    and no nonce is kept in clear. The sender is known before the game is read: the banker's
    screens (all of them: they share the close-auction nonce), a seat's browser, an API token,
    an in-process caller's actor, or a newcomer."""
    if nonce is None:
        return None
    if browser is not None:
        sender = "banker" if browser.role == "banker" else f"seat:{browser.digest}"
    else:
        sender = f"token:{token_hash(secret)}" if secret else str(actor) if actor else ""
    return hashlib.sha256(f"{sender}\n{nonce}".encode()).hexdigest()


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


def new_claim(game: Game, player_id: int) -> str:
    """A rejoin code for a seat: one new phone may take the seat with it, once, for the next
    CLAIM_SECONDS; an earlier code for the seat stops working. Only its hash is kept."""
    code = secrets.token_urlsafe(16)
    with writing():
        if db.session.scalar(select(Seat.id).where(Seat.game_id == game.id, Seat.player_id == player_id)) is None:
            raise LookupError(player_id)
        db.session.execute(delete(Claim).where(Claim.game_id == game.id,
                                               (Claim.player_id == player_id) | (Claim.expires_at < _now())))
        db.session.add(Claim(code_hash=token_hash(code), game_id=game.id, player_id=player_id,
                             expires_at=_now() + CLAIM_SECONDS))
        db.session.commit()
    return code


def claim(code: str, rejoin: str) -> tuple[Game | None, int | None]:
    """The game, and the seat a rejoin code can take now (None: used, replaced or expired)."""
    game = find_game(code)
    if game is None:
        return None, None
    return game, db.session.scalar(select(Claim.player_id).where(
        Claim.game_id == game.id, Claim.code_hash == token_hash(rejoin), Claim.expires_at >= _now()))


def claim_state(game: Game, player_id: int, rejoin: str) -> str:
    """What became of a seat's rejoin code: "live" (it can take the seat now), "used" (a new phone
    took the seat with it), or "void" (it expired, a newer code replaced it, or it is not this seat's)."""
    expires_at = db.session.scalar(select(Claim.expires_at).where(
        Claim.game_id == game.id, Claim.player_id == player_id, Claim.code_hash == token_hash(rejoin)))
    if expires_at is None:
        return "void"
    return "live" if expires_at >= _now() else "used" if expires_at == USED else "void"


def take_seat(code: str, rejoin: str, browser: Browser) -> int | None:
    """The browser takes the seat a rejoin code is for, and the code is used up: the seat's other
    phones (and its API token) stop working, and their open pages (and the banker's code page)
    hear of it at once (the version is the same: nothing in the game changed). None when the code
    cannot be used (any more)."""
    with writing():
        game, player = claim(code, rejoin)
        if player is None:
            db.session.rollback()
            return None
        db.session.execute(update(Claim).where(Claim.code_hash == token_hash(rejoin)).values(expires_at=USED))
        db.session.execute(delete(Badge).where(
            Badge.game_id == game.id, Badge.role == "seat",
            (Badge.player_id == player) | (Badge.browser_hash == browser.digest)))
        db.session.execute(update(Seat).where(Seat.game_id == game.id, Seat.player_id == player)
                           .values(token_hash=token_hash(new_token())))
        _give_badge(game.id, browser, player)
        code, version = game.code, game.version
        notifier().relay(db.session, code, version)
        db.session.commit()
    announce(code, version)
    return player


def _now() -> int:
    return int(time.time())
