"""Undo and take back, and the checkpoints that keep them cheap.

The checkpoint policy (when one is written) and undo (which checkpoint it starts from, and which
it deletes) live together because undo's bound on what it replays rests on both halves: see
`undo_newest`."""

from sqlalchemy import delete, select, update

from ..models import Checkpoint, Event, db
from ..rules import Actor, GameState, Settings, replay
from ..rules import effects as happened
from ..rules.actions import UNDO
from ..rules.undo import Entry, check_take_back, check_undo
from .log import last_live_event, live_log

# Undo replays at most this many events less one, whatever the length of the game; each
# checkpoint is one more copy of the snapshot in the database.
CHECKPOINT_EVERY = 32

# Built once on the table itself, as the action's other writes (actions.py).
_CHECKPOINTS = Checkpoint.__table__


def checkpoint(game_id: int, version: int, kind: str, snapshot: dict) -> None:
    """Keep a copy of the snapshot just saved at `version` (by an action of type `kind`) when one
    is due: every CHECKPOINT_EVERY versions, and after every undo."""
    if version % CHECKPOINT_EVERY == 0 or kind == UNDO:
        db.session.execute(_CHECKPOINTS.insert(), {"game_id": game_id, "seq": version, "state": snapshot})


def undo_newest(row, actor: Actor, seq: int | None = None,
                take_back: bool = False) -> tuple[GameState, list, dict]:
    """Mark the newest live event undone and rebuild the state without it: from the newest
    checkpoint before it, replaying the few live events in between (at most CHECKPOINT_EVERY - 1;
    a game saved before checkpoints existed replays from its start). The banker's undo (of event
    `seq`, if named) or a player's take_back, as rules/undo.py allows; both are stored as an undo.
    Returns the state, the effects and the action to log.

    Why that checkpoint is never far back: a checkpoint is written every CHECKPOINT_EVERY versions
    and after every undo (`checkpoint`), and an undo deletes only the checkpoints at or after the
    event it takes back. The checkpoint that existed just before the newest live event was applied
    is therefore still there: undos since then only took back later events.
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
    # The live entries after the checkpoint: those after the one taken back are the round's clock
    # it passed over (rules/undo.py), applied again.
    log = live_log(row.id, after=base.seq if base else 0)
    state = replay(row.edition, Settings(**row.settings), log, start)
    effects = [happened.undone(last.seq, last.type, actor.player if take_back else None)]
    return state, effects, {"type": UNDO, "seq": last.seq}
