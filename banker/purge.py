"""Old games leave the database: `banker purge --older-than 30d` (cli.py) deletes every ended game
nobody has touched for that long, with its events, checkpoints, seats, badges and rejoin codes;
`--unfinished` takes the games not ended too (abandoned, or never started), and `--dry-run` only says
which games would go.

A game's last activity is its newest event's time, or its creation if that is later: a game without
events, or an imported one, whose events keep the times of the laptop it was played on (an import is
a creation: store/archive.py). A game whose last activity is older than the age goes; a game played
within the age stays, however old. The games go a few at a time, each batch in a transaction of its
own, so that a big purge never holds the database for long while tables play.
"""

import re
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import ColumnElement, case, delete, func, select

from .models import Badge, Checkpoint, Claim, Event, Game, Seat, TournamentTable, TvKey, db
from .store import writing

# Games deleted per transaction: a long game is a few thousand events and a hundred checkpoints.
BATCH = 20
# Days, hours or minutes; never "m", which reads as months as well as minutes.
AGE = re.compile(r"([0-9]{1,5})(d|h|min)")
UNITS = {"d": "days", "h": "hours", "min": "minutes"}
# What belongs to a game, deleted before it (the foreign keys have no ON DELETE CASCADE).
PARTS = (Event, Checkpoint, Seat, Badge, Claim, TvKey, TournamentTable)  # a tournament keeps its results


class Idle(NamedTuple):
    """A game a purge takes: its code, its status (lobby, playing, ended) and its last activity."""

    code: str
    status: str
    last: datetime


def parse_age(text: str) -> timedelta:
    """An age as the command takes it: days, hours or minutes (`30d`, `12h`, `90min`). ValueError for
    anything else (`1m` too: minutes or months?), and for no time at all (it would take the games
    being played)."""
    found = AGE.fullmatch(text)
    if found is None and re.fullmatch(r"[0-9]{1,5}m", text):
        raise ValueError(f"{text!r} could be minutes or months: write {text[:-1]}min for minutes, or an age in "
                         "d (days) or h (hours)")
    if found is None:
        raise ValueError(f"{text!r} is not an age: write a number and a unit, such as 30d (days), "
                         "12h (hours) or 90min (minutes)")
    age = timedelta(**{UNITS[found[2]]: int(found[1])})
    if not age:
        raise ValueError(f"{text!r} is no time at all: every game, even those being played, would go")
    return age


def last_activity() -> ColumnElement[datetime]:
    """A game's last activity, in SQL: its newest event's time (the last by number, which the
    (game_id, seq) index finds at once), or when it was created if that is later or it has none."""
    newest = (select(Event.created_at).where(Event.game_id == Game.id).order_by(Event.seq.desc()).limit(1)
              .correlate(Game).scalar_subquery())
    return case((newest > Game.created_at, newest), else_=Game.created_at)


def status() -> ColumnElement[str]:
    """A game's status (lobby, playing, ended), read from its snapshot in SQL."""
    return Game.state["status"].as_string()


def _taken(older_than: timedelta, unfinished: bool) -> ColumnElement[bool]:
    """Which games a purge takes: idle for `older_than`, and ended unless `unfinished`."""
    idle = last_activity() < datetime.now(UTC) - older_than
    return idle if unfinished else idle & (status() == "ended")


def would_go(older_than: timedelta, unfinished: bool = False) -> list[Idle]:
    """The games `purge` would delete now, oldest activity first (`--dry-run`). Needs an app context."""
    last = last_activity()
    found = db.session.execute(select(Game.code, status(), last).where(_taken(older_than, unfinished))
                               .order_by(last, Game.id))
    return [Idle(*row) for row in found]


def unfinished_kept(older_than: timedelta) -> int:
    """How many games idle for `older_than` are not ended: a purge without `--unfinished` keeps them."""
    return db.session.scalar(select(func.count()).select_from(Game).where(_taken(older_than, True),
                                                                          status() != "ended"))


def purge(older_than: timedelta, unfinished: bool = False, batch: int = BATCH) -> int:
    """Delete the ended games (every game, if `unfinished`) with no activity for `older_than`, `batch`
    games per transaction; returns how many went. Needs an app context.

    Each batch locks its games (PostgreSQL: FOR UPDATE, skipping a game an action holds: it is being
    played; SQLite: the write transaction) and reads their last activity again, so an action that
    came in meanwhile keeps its game. Games are visited once, in order of id."""
    taken = _taken(older_than, unfinished)
    deleted, after = 0, 0
    while True:
        with writing():
            found = db.session.scalars(select(Game.id).where(Game.id > after, taken).order_by(Game.id).limit(batch)
                                       .with_for_update(of=Game, skip_locked=True)).all()
            if not found:
                db.session.rollback()
                return deleted
            after = found[-1]
            ids = db.session.scalars(select(Game.id).where(Game.id.in_(found), taken)).all()
            for part in PARTS:
                db.session.execute(delete(part).where(part.game_id.in_(ids)))
            db.session.execute(delete(Game).where(Game.id.in_(ids)))
            db.session.commit()
        deleted += len(ids)
