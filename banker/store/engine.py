"""The database under the store: how a write transaction begins (SQLite's BEGIN IMMEDIATE), and
how a write that lost the race for a game's version tries again (TRIES, BACKOFF, Busy).

Kept apart from the game's logic because both are about the database alone: the migrations and
`banker purge` write through `writing` too, and nothing here knows what a game is."""

import random
import time
from contextlib import contextmanager
from contextvars import ContextVar

from sqlalchemy import event

from ..models import db

TRIES = 5
BACKOFF = 0.005  # seconds: the first retry waits up to this, each next one up to twice as long
# Set while a write transaction is being opened, so that SQLite's `begin` hook below makes it
# IMMEDIATE; reads keep a plain (deferred) BEGIN.
_immediate: ContextVar[bool] = ContextVar("immediate", default=False)


class Busy(RuntimeError):
    """Every retry lost the race for the game's version: the table is unusually busy."""


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
