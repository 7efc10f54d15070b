"""The history in words, shared by every screen of a game.

A change makes every open screen render again, and each shows history. So the newest entries of
a game version are read from the database once per process, and each entry is told in a language
once: an entry never changes its words (names, squares and the game's settings are fixed), only
its undone mark, which comes with a new version. A phone filters before it narrates, so it tells
only the rows it shows.
"""

import threading
from collections import OrderedDict
from typing import NamedTuple

from flask import current_app
from flask_babel import get_locale
from sqlalchemy import select

from ..models import Event, Game, db
from ..rules.state import GameState
from .narrate import PUBLIC, mentions, party, summary

HISTORY_ROWS = 40
# A phone keeps only its own rows, so it looks further back than the host's forty.
RECENT = HISTORY_ROWS * 3


class Entry(NamedTuple):
    """One event as the history needs it (plain values, safe to share between requests)."""

    seq: int
    type: str
    actor: str
    payload: dict
    effects: list
    created_at: object
    undone: bool


class Recent:
    """A small thread-safe LRU mapping: the caches below, bounded."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


class Caches:
    """Per app: the newest entries per (game, version), and the rows of each game per language
    (a plain dict by entry: a phone looks up a hundred of them per render)."""

    def __init__(self):
        self.entries = Recent(64)
        self.rows = Recent(64)


def init_app(app) -> None:
    app.extensions["banker.ledger"] = Caches()


def _caches() -> Caches:
    return current_app.extensions["banker.ledger"]


def entries(game: Game) -> list[Entry]:
    """The game's newest RECENT events at its version, newest first."""

    def read():
        rows = db.session.execute(
            select(Event.seq, Event.type, Event.actor, Event.payload, Event.effects, Event.created_at,
                   Event.undone)
            # Not past the version read with the game: a later commit is another version's entries.
            .where(Event.game_id == game.id, Event.seq <= game.version)
            .order_by(Event.seq.desc()).limit(RECENT)
        )
        return [Entry(*row) for row in rows]

    return _caches().entries.get((game.id, game.version), read)


def _known(game: Game) -> dict[int, dict]:
    """The rows of this game already made in the reader's language, by entry."""
    return _caches().rows.get((game.id, str(get_locale())), dict)


def _row(known: dict, state: GameState, entry: Entry) -> dict:
    """What never changes of an entry's history row (its words, time and actor), and whom it
    concerns (None: everyone), made once per game, entry and language."""
    row = known.get(entry.seq)
    if row is None:
        public = any(e["kind"] in PUBLIC for e in entry.effects)
        row = known[entry.seq] = {
            "seq": entry.seq, "time": entry.created_at.strftime("%H:%M"), "text": summary(state, entry.effects),
            "actor": party(state, int(entry.actor)) if entry.actor.isdigit() else entry.actor,
            "undo": entry.type == "undo",
            "concerns": None if public else {entry.actor} | {str(p) for e in entry.effects for p in mentions(e)},
        }
    return row


def told(game: Game, state: GameState, entry: Entry) -> str:
    """One entry as a sentence in the reader's language, told once per game, entry and language."""
    return _row(_known(game), state, entry)["text"]


def history_rows(game: Game, state: GameState, player: int | None = None) -> list[dict]:
    """The newest entries as sentences; for a phone, only those that concern its player."""
    recent, known = entries(game), _known(game)
    by_seq = {e.seq: e for e in recent}
    rows = []
    for e in recent:
        row = _row(known, state, e)
        if player is not None and row["concerns"] is not None and str(player) not in row["concerns"]:
            continue
        row = {**row, "undone": e.undone}
        if e.type == "undo" and (undone := by_seq.get(e.payload["seq"])):
            row["text"] = "↶ " + _row(known, state, undone)["text"]
        rows.append(row)
        if len(rows) == HISTORY_ROWS:
            break
    return rows


def latest(game: Game, state: GameState) -> str | None:
    """The newest entry as a sentence: what every screen shows as the outcome of the last action."""
    recent = entries(game)
    return told(game, state, recent[0]) if recent else None
