"""A game taken away and brought back: its archive (the settings and every event of its log, in
order, with the effects and times the store kept) read out page by page, and a game file, read and
replayed through the rules (banker/game_file.py: web/files/imports.py runs it, here or in a process of its
own), written as a new game on another laptop, which then goes on from there.

Nothing is written until every event of the file has replayed (`save` takes the finished replay),
and then all of it in one transaction. The new game is created at its import, whatever the file
says, so that an old purge (purge.py) counts its age from there."""

import json
from collections.abc import Iterator
from datetime import UTC, datetime

from sqlalchemy import select

from ..game_file import FORMAT, VERSION, Replay
from ..models import Checkpoint, Event, Game, Seat, db
from ..rules.actions import UNDO
from .engine import writing
from .games import free_code
from .identity import Browser, give_badge, new_token, token_hash
from .log import log_page
from . import undo

# The events one read of the log holds while an archive is written out, and the rows (a sixteenth
# as many checkpoints) one statement writes when an archive is brought back.
PAGE = 500
ROWS_AT_ONCE = 1024


def head(game: Game) -> dict:
    """What the archive says before its events: the format, and the game's board and settings."""
    return {"format": FORMAT, "version": VERSION, "edition": game.edition, "settings": game.settings,
            "created_at": game.created_at.isoformat()}


def events(game: Game, page: int = PAGE) -> Iterator[dict]:
    """The game's events as the archive holds them, oldest first, read PAGE at a time (store.log_page),
    up to the version `game` was read at. An event counts as undone only when the undo that took it
    back is among them: an undo committed while the pages are read changes nothing already told."""
    undone = {payload["seq"] for payload in db.session.scalars(
        select(Event.payload).where(Event.game_id == game.id, Event.type == UNDO, Event.seq <= game.version))}
    after = 0
    while rows := log_page(game, after, page):
        for event in rows:
            yield {"seq": event.seq, "time": event.created_at.isoformat(), "actor": event.actor,
                   "type": event.type, "action": event.payload, "effects": event.effects,
                   "undone": event.seq in undone}
        after = rows[-1].seq


def checkpoint_every() -> int:
    """How often the store keeps a checkpoint (store/undo.py's CHECKPOINT_EVERY, read now): a game
    file is replayed keeping the same ones (game_file.Replay), in this process or another."""
    return undo.CHECKPOINT_EVERY


def save(replay: Replay, browser: Browser | None) -> tuple[Game, str]:
    """Write a game file replayed (game_file.replay_file) as the store would have left its game, in
    one transaction, created now (on this computer it begins at its import, however old its events
    are): the game, its events (with their times), its checkpoints and one seat per player. Returns
    the game and the banker's new secret token; a browser that brings it back (the home page) gets
    the banker's badge. The seats' phones come back with rejoin codes: no seat's secret is in the
    file."""
    banker_token = new_token()
    with writing():
        game = Game(code=free_code(), banker_token_hash=token_hash(banker_token), edition=replay.edition,
                    settings=vars(replay.settings).copy(), state=replay.state.to_dict(), version=len(replay.rows),
                    created_at=datetime.now(UTC))
        db.session.add(game)
        db.session.flush()
        # A few rows per statement: the rows of a whole evening at once would be its size again.
        for at in range(0, len(replay.rows), ROWS_AT_ONCE):
            db.session.execute(Event.__table__.insert(),
                               [row.written(game.id) for row in replay.rows[at:at + ROWS_AT_ONCE]])
        kept = list(replay.checkpoints.items())
        for at in range(0, len(kept), ROWS_AT_ONCE // 16):
            db.session.execute(Checkpoint.__table__.insert(), [
                {"game_id": game.id, "seq": seq, "state": json.loads(state)}
                for seq, state in kept[at:at + ROWS_AT_ONCE // 16]])
        # A seat's secret never leaves its laptop: each seat gets one nobody holds, until the
        # banker's rejoin code gives the seat to a new phone.
        db.session.add_all(Seat(game_id=game.id, player_id=player, token_hash=token_hash(new_token()))
                           for player in replay.seats)
        if browser is not None:
            give_badge(game.id, browser, None)
        db.session.commit()
    return game, banker_token
