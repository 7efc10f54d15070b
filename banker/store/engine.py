"""The database under the store: how a write transaction begins (SQLite's BEGIN IMMEDIATE), how
a write that lost the race for a game's version tries again (TRIES, BACKOFF, Busy), and what a
failing database looks like (`outage`, `disk_full`, `reconnecting`, `release`), and which one
it is (`on_sqlite`, `database_url`).

Kept apart from the game's logic because all of it is about the database alone: the migrations and
`banker purge` write through `writing` too, and nothing here knows what a game is."""

import random
import time
from contextlib import contextmanager
from contextvars import ContextVar

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, OperationalError

from ..models import db

TRIES = 5
BACKOFF = 0.005  # seconds: the first retry waits up to this, each next one up to twice as long
# Set while a write transaction is being opened, so that SQLite's `begin` hook below makes it
# IMMEDIATE; reads keep a plain (deferred) BEGIN.
_immediate: ContextVar[bool] = ContextVar("immediate", default=False)


# A full disk in each database's words: SQLite's SQLITE_FULL ("database or disk is full"), PostgreSQL's
# disk_full (SQLSTATE 53100), and the system's own, which a PostgreSQL server that could not write
# its log passes on as it stops.
SQLITE_FULL = 13
DISK_FULL_STATE = "53100"
NO_SPACE = "No space left on device"


class Busy(RuntimeError):
    """Every retry lost the race for the game's version: the table is unusually busy."""


def outage(error: BaseException) -> bool:
    """Whether `error` is the database failing rather than the code asking it something wrong: out
    of reach (restarting, a dropped connection), its disk full, or SQLite locked for longer than its
    busy timeout. The pages and the API answer it with 503 or 507 (web/__init__.py) and the live
    screens try again; any other database error is a bug (500, with its traceback in the log)."""
    return isinstance(error, OperationalError) or (isinstance(error, DBAPIError) and error.connection_invalidated)


def disk_full(error: BaseException) -> bool:
    """Whether a database error says its disk is full."""
    said = getattr(error, "orig", None) or error
    return ((getattr(said, "sqlite_errorcode", None) or 0) & 0xFF == SQLITE_FULL
            or getattr(said, "sqlstate", None) == DISK_FULL_STATE or NO_SPACE in str(said))


def in_one_line(error: BaseException) -> str:
    """What the database said, for a log line: its first line, without SQLAlchemy's statement and link."""
    said = getattr(error, "orig", None) or error
    return next(iter(str(said).strip().splitlines()), type(said).__name__)


def on_sqlite() -> bool:
    """Whether the app's database is SQLite (a file on this machine) rather than PostgreSQL."""
    return db.engine.dialect.name == "sqlite"


def database_url() -> str:
    """The app's database as a log line may name it: its URL, the password hidden."""
    return db.engine.url.render_as_string(hide_password=True)


def reconnecting(error: DBAPIError, repeatable: bool) -> bool:
    """Whether a write that failed with `error` may be tried once more, on a new connection: the
    database dropped the connection (a restart, a failover, a proxy's idle timeout; SQLAlchemy has
    thrown it away, with every pooled connection opened before it), and nothing of the write can
    have been kept: it failed on a statement, before its commit, or it is `repeatable` (an action
    with a nonce: a second try that finds it applied answers as the first would have)."""
    return error.connection_invalidated and (error.statement is not None or repeatable)


def release() -> None:
    """db.session.remove(), for a thread that goes on after it (a renderer, a live connection) and
    at the end of each request. The rollback it sends fails on a connection the database dropped
    meanwhile (a restart) without SQLAlchemy always seeing a disconnection in it: then the
    connection is thrown away unused, since nothing in it was to be kept."""
    try:
        db.session.remove()
    except DBAPIError as error:
        if not outage(error):
            raise
        db.session().invalidate()  # the session itself: its connections thrown away without a word
        db.session.remove()


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
        # After a big transaction (a long evening imported: 13 MB) the log is cut back to 4 MB once it
        # has been copied into the database, rather than kept at its largest for as long as it runs.
        cursor.execute("PRAGMA journal_size_limit=4194304")
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


def attempts(code: str):
    """The tries of a write to game `code` that may lose the race for its version: the caller's
    loop body is one try, and leaves the loop by returning (saved) or raising (refused). After a
    lost try the next one waits a moment; after TRIES lost ones, Busy.

    A generator rather than a loop in the action itself, so that the whole retry policy (and the
    names a test changes to make it quick) lives here."""
    for attempt in range(TRIES):
        yield attempt
        # The row lock makes a lost race rare (a database without one); the writers that lost it
        # try again spread out in time rather than all at once.
        time.sleep(random.uniform(0, BACKOFF * 2 ** attempt))
    raise Busy(code)
