"""The database: a game row holding the latest snapshot, its seats, and the append-only event log."""

from datetime import UTC, datetime

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, ForeignKey, String, TypeDecorator, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator):
    """A moment kept as UTC by contract, in a column without a time zone on every database, and
    read back as UTC. Neither the database's time zone nor the server's can shift it (PostgreSQL
    would otherwise store an aware time converted to its own zone and hand it back without one)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None else None


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class Game(db.Model):
    """One game night. `state` is the snapshot after event number `version`."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    banker_token_hash: Mapped[str] = mapped_column(String(64))
    edition: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict] = mapped_column(JSON)
    state: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Seat(db.Model):
    """The secret behind a player's phone: only its hash is kept."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int]
    token_hash: Mapped[str] = mapped_column(String(64), index=True)


class Badge(db.Model):
    """What a browser holds in a game: the banker's tools or a seat. The browser's cookie keeps one
    random key for all its games; only the key's hash is kept here (see web/answers/seats.py)."""

    __tablename__ = "badges"
    __table_args__ = (UniqueConstraint("browser_hash", "game_id", "role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    browser_hash: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    # "banker" or "seat"; "moved": a seat a rejoin code took to another phone, kept only to tell this
    # browser so (store/claims.py), and holding nothing.
    role: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None]  # the seat's player; None for the banker


class Claim(db.Model):
    """A rejoin code: lets one new phone take a seat, once, before it expires. Only its hash is kept."""

    __tablename__ = "claims"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int]
    expires_at: Mapped[int]  # Unix time: compared alike on every database


class TvKey(db.Model):
    """The view key of a game's TV screen (store/tv.py): it opens that read-only screen, nothing else.
    One per game; a new one replaces it. Only its hash is kept."""

    __tablename__ = "tv_keys"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64))


class Event(db.Model):
    """One applied action: who, what, its effects, and whether the banker undid it. `nonce` is a
    hash of the sender's nonce scoped to the sender (see Sender.nonce_key in store/identity.py)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"), UniqueConstraint("game_id", "nonce"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    actor: Mapped[str] = mapped_column(String(16))
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict] = mapped_column(JSON)
    effects: Mapped[list] = mapped_column(JSON)
    nonce: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    undone: Mapped[bool] = mapped_column(default=False)


class Checkpoint(db.Model):
    """The state after event `seq`, kept every few events and after each undo: undo replays from the
    newest one before the event it takes back, so its work does not grow with the game."""

    __tablename__ = "checkpoints"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    state: Mapped[dict] = mapped_column(JSON)


class Tournament(db.Model):
    """A tournament night (issue 36): several tables over several rounds, one scoreboard. Like a
    game, its `state` is the snapshot (rules/tournament) after its action number `version`, and
    its actions are an append-only log (`TournamentAction`). Only the organiser's token's hash is
    kept."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    organiser_token_hash: Mapped[str] = mapped_column(String(64))
    # The browser that created it on the home page (its key's hash): the organiser's screen, which
    # also gets the banker's badge in every table's game.
    organiser_browser_hash: Mapped[str | None] = mapped_column(String(64))
    view_key_hash: Mapped[str | None] = mapped_column(String(64))  # the event TV's (store/tournaments.py)
    opening: Mapped[dict] = mapped_column(JSON)  # the state as created: where replay and undo start
    state: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TournamentAction(db.Model):
    """One applied action of a tournament: who, what, when (`now`, the Unix time the rules were
    given), its effects, and whether the organiser undid it."""

    __tablename__ = "tournament_actions"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    seq: Mapped[int]
    actor: Mapped[str] = mapped_column(String(16))
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict] = mapped_column(JSON)
    effects: Mapped[list] = mapped_column(JSON)
    now: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    undone: Mapped[bool] = mapped_column(default=False)


class Entrant(db.Model):
    """A registered player's secrets in a tournament: the hash of their token (the seats of their
    tables' games hold the same hash, so it acts there as a seat's token does) and of the browser
    that registered (it gets the seat's badge in each of their games)."""

    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    player_id: Mapped[int]
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    browser_hash: Mapped[str | None] = mapped_column(String(64))


class TournamentTable(db.Model):
    """A game played as one table of a tournament's round: when it ends, its result goes to the
    tournament found here (store/tournaments.py, `table_ended`)."""

    __tablename__ = "tournament_tables"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int]
    table: Mapped[int]
