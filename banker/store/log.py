"""The event log read back: what undo would take back, the live (not undone) actions that make a
game and their effects, its log page by page, and the state rebuilt from the log alone."""

from datetime import datetime

from sqlalchemy import select

from ..models import Event, Game, db
from ..rules import Actor, GameState, Settings, replay
from ..rules.actions import UNDO
from ..rules.undo import PASSED_OVER


UNDONE_NEVER = (UNDO, *sorted(PASSED_OVER))  # what Undo never takes back: an undo, the round's clock


def last_live_event(game_id: int) -> Event | None:
    """The newest event that is not undone and not itself an undo (nor passed over: rules/undo.py):
    what Undo would take back."""
    return db.session.scalar(
        select(Event).where(Event.game_id == game_id, Event.undone.is_(False), Event.type.not_in(UNDONE_NEVER))
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


def live_effects(game_id: int, after: int = 0, upto: int | None = None) -> list[tuple[list[dict], datetime]]:
    """The effects and time of each live event after event `after`, up to event `upto` (all of
    them by default), oldest first: what the story and the net-worth chart count, in one query."""
    query = (select(Event.effects, Event.created_at)
             .where(Event.game_id == game_id, Event.undone.is_(False), Event.type != UNDO, Event.seq > after)
             .order_by(Event.seq))
    if upto is not None:
        query = query.where(Event.seq <= upto)
    return list(db.session.execute(query))


def log_page(game: Game, after: int, limit: int) -> list[Event]:
    """One page of the game's log: at most `limit` events after event `after`, oldest first
    (undone ones included, marked), none past the version `game` was read at (an event is its
    version: the page after the one that reaches `game.version` is empty). One read of `limit` rows
    at most, however long the game."""
    return list(db.session.scalars(
        select(Event).where(Event.game_id == game.id, Event.seq > after, Event.seq <= game.version)
        .order_by(Event.seq).limit(limit)))


def replay_game(game: Game) -> GameState:
    """The state rebuilt from the event log alone, from the start; must equal the snapshot."""
    return replay(game.edition, Settings(**game.settings), live_log(game.id))
