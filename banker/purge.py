"""Old games leave the database: `banker purge --older-than 30d` (cli.py) deletes every game nobody
has played for that long, with its events, checkpoints, seats, badges and rejoin codes.

A game's last activity is its newest event's time, or its creation for a game without events. A
game whose last activity is older than the age is gone, ended or abandoned alike (an ended game is
one of them: nothing happens in it after its end); a game played within the age stays, however old.
The games go a few at a time, each batch in a transaction of its own, so that a big purge never
holds the database for long while tables play.
"""

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, select

from .models import Badge, Checkpoint, Claim, Event, Game, Seat, TvKey, db
from .store import writing

# Games deleted per transaction: a long game is a few thousand events and a hundred checkpoints.
BATCH = 20
AGE = re.compile(r"([0-9]{1,5})([dhm])")
UNITS = {"d": "days", "h": "hours", "m": "minutes"}
# What belongs to a game, deleted before it (the foreign keys have no ON DELETE CASCADE).
PARTS = (Event, Checkpoint, Seat, Badge, Claim, TvKey)


def parse_age(text: str) -> timedelta:
    """An age as the command takes it: days, hours or minutes (`30d`, `12h`, `90m`). ValueError for
    anything else, and for no time at all (it would take the games being played)."""
    found = AGE.fullmatch(text)
    if found is None:
        raise ValueError(f"{text!r} is not an age: write a number and a unit, such as 30d (days), "
                         "12h (hours) or 90m (minutes)")
    age = timedelta(**{UNITS[found[2]]: int(found[1])})
    if not age:
        raise ValueError(f"{text!r} is no time at all: every game, even those being played, would go")
    return age


def last_activity() -> ColumnElement[datetime]:
    """A game's last activity, in SQL: its newest event's time (the last by number, which the
    (game_id, seq) index finds at once), or when it was created."""
    newest = (select(Event.created_at).where(Event.game_id == Game.id).order_by(Event.seq.desc()).limit(1)
              .correlate(Game).scalar_subquery())
    return func.coalesce(newest, Game.created_at)


def purge(older_than: timedelta, batch: int = BATCH) -> int:
    """Delete the games with no activity for `older_than`, `batch` games per transaction; returns
    how many went. Needs an app context.

    Each batch locks its games (PostgreSQL: FOR UPDATE, skipping a game an action holds: it is being
    played; SQLite: the write transaction) and reads their last activity again, so an action that
    came in meanwhile keeps its game. Games are visited once, in order of id."""
    idle = last_activity() < datetime.now(UTC) - older_than
    deleted, after = 0, 0
    while True:
        with writing():
            found = db.session.scalars(select(Game.id).where(Game.id > after, idle).order_by(Game.id).limit(batch)
                                       .with_for_update(of=Game, skip_locked=True)).all()
            if not found:
                db.session.rollback()
                return deleted
            after = found[-1]
            ids = db.session.scalars(select(Game.id).where(Game.id.in_(found), idle)).all()
            for part in PARTS:
                db.session.execute(delete(part).where(part.game_id.in_(ids)))
            db.session.execute(delete(Game).where(Game.id.in_(ids)))
            db.session.commit()
        deleted += len(ids)
