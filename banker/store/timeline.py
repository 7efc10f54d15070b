"""The game as it was at any version, for the timeline (/t/<code>/timeline): rebuilt from the
newest checkpoint at or before that version and the few live events after it.

A point of the timeline is a version `v` of the game (its event `v`) and shows the game that counts:
the events up to `v` that are still live, as if the undone ones had never happened. That is what
the checkpoints hold (store/undo.py deletes every checkpoint an undo makes wrong, and keeps one
after each undo), so any point opens in constant work. Between an entry later undone and its undo
the table saw that entry for a while; the timeline does not show it there (those versions look like
the one before the undone entry), but its history row still tells it, struck through.

Why at most CHECKPOINT_EVERY - 1 events are ever replayed: let `l` be the newest live event at or
before `v`. When `l` was applied, a checkpoint at or after the multiple of CHECKPOINT_EVERY below it
existed (the one due then, or the one an undo since wrote in its place), and none before `l` has
been deleted since: an undo takes back the newest live event, which was always `l` or a later one.
So the newest checkpoint at or before `v` is fewer than CHECKPOINT_EVERY events before `l`, and the
live events after it up to `v` are fewer than CHECKPOINT_EVERY. The reads are two: the checkpoint,
and those events.
"""

from sqlalchemy import select

from ..models import Checkpoint, Game, db
from ..rules import GameState, Settings, replay
from .log import live_log


def state_at(game: Game, version: int) -> GameState:
    """The game that counts at `version` (0, the lobby before anyone joined, to `game.version`):
    the newest checkpoint at or before it, and the live events after it up to it replayed."""
    if not 0 <= version <= game.version:
        raise ValueError(f"version {version} is not one of game {game.code}'s (0 to {game.version})")
    base = db.session.execute(
        select(Checkpoint.seq, Checkpoint.state)
        .where(Checkpoint.game_id == game.id, Checkpoint.seq <= version)
        .order_by(Checkpoint.seq.desc()).limit(1)
    ).first()
    start = GameState.from_dict(base.state) if base else None
    log = live_log(game.id, after=base.seq if base else 0, before=version + 1)
    return replay(game.edition, Settings(**game.settings), log, start)
