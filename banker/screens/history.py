"""The history in words, shared by every screen of a game.

A change makes every open screen render again, and each shows history. The newest entries of a
game version come with it from the store's memory (store/memory.py), and each entry is told in
a language once: an entry never changes its words (names, squares and the game's settings are fixed), only
its undone mark, which comes with a new version. Each row also knows whom it concerns: a phone
shows those of its player and the table's big moments.
"""

from datetime import UTC, datetime

from flask import current_app
from flask_babel import format_time

from .. import store
from ..rules import effects as happened
from ..rules.state import GameState
from ..store import Entry, Known
from ..lru import LruCache
from ..words.languages import locale_name
from ..words.narrate import PUBLIC, mentions, summary, undid

HISTORY_ROWS = 40


class Caches:
    """Per app: the rows of each game per language (a plain dict by entry: a phone looks up a
    hundred of them per render), of the entries a screen can still show only (`_known`): a game's
    rows take the same room at its ten-thousandth entry as at its two-hundredth. `told` counts the
    entries put into words (the work the rows save, which the tests count)."""

    def __init__(self):
        self.rows = LruCache(64)
        self.told = 0


def init_app(app) -> None:
    app.extensions["banker.history"] = Caches()


def _caches() -> Caches:
    return current_app.extensions["banker.history"]


def _known(game: Known) -> dict[int, dict]:
    """The rows of this game already made in the reader's language, by entry. Only the game's
    newest entries (those the Known keeps, store/memory.py RECENT) are ever shown by a screen: once
    the dict holds twice as many rows, those of older entries go (an undo's row was made with the
    words of the entry it took back, and keeps them)."""
    known = _caches().rows.get((game.id, locale_name()), dict)
    if game.entries and len(known) > 2 * len(game.entries):
        oldest = game.entries[-1].seq
        for seq in [seq for seq in list(known) if seq < oldest]:  # a copy: other threads add rows meanwhile
            known.pop(seq, None)
    return known


def _entry(game: Known, seq: int) -> Entry:
    """One entry of the game: from the newest entries already read, or else from the database
    (an undo that took back an entry further back than those)."""
    found = next((e for e in game.entries if e.seq == seq), None)
    if found is not None:
        return found
    return store.log_entry(game.id, seq)


def clock(moment: datetime) -> str:
    """An event's time of day as the reader's locale writes it (20:17, 8:17 PM). The database
    keeps UTC, without a zone on SQLite; Flask-Babel shows it in BABEL_DEFAULT_TIMEZONE."""
    return format_time(moment if moment.tzinfo else moment.replace(tzinfo=UTC), "short")


def _row(known: dict, game: Known, state: GameState, entry: Entry) -> dict:
    """What never changes of an entry's history row (its words and time), and whom it
    concerns (None: everyone), made once per game, entry and language. An undo is told with the
    words of the entry it took back, and concerns whoever that entry concerned."""
    row = known.get(entry.seq)
    if row is None:
        if entry.type == "undo":
            taken_back = _row(known, game, state, _entry(game, entry.payload["seq"]))
            taker = state.player(int(entry.actor)).name if entry.actor.isdigit() else None  # a take_back
            text, concerns = undid(taken_back["text"], taker), taken_back["concerns"]
        else:
            effects = _told_effects(state, entry)
            public = any(e["kind"] in PUBLIC for e in effects)
            text = summary(state, effects)
            concerns = None if public else {entry.actor} | {str(p) for e in effects for p in mentions(e)}
        row = known[entry.seq] = {"seq": entry.seq, "time": clock(entry.created_at), "text": text,
                                  "concerns": concerns}
        _caches().told += 1
    return row


def _told_effects(state: GameState, entry: Entry) -> list[dict]:
    """An entry's effects as the history tells them: an end of turn says who ended it, not only
    whose turn it is now (Undo offering to take back "It is Bob's turn." said nothing of what it
    would undo)."""
    if entry.type != "end_turn":
        return entry.effects
    return [happened.turn_ended(_ender(state, entry)), *entry.effects]


def _ender(state: GameState, entry: Entry) -> int:
    """Who ended a turn: the seat that sent it, or the seat the banker named. The banker ending it
    for whoever's turn it was named none: then the seat before the next one in order that is still
    in the game, which misses only a seat that went bankrupt after ending its turn so."""
    if entry.actor.isdigit():
        return int(entry.actor)
    if entry.payload.get("player") is not None:
        return entry.payload["player"]
    order = state.order
    at = order.index(next(e["player"] for e in entry.effects if e["kind"] == "turn"))
    return next((order[at - step] for step in range(1, len(order))
                 if not state.player(order[at - step]).bankrupt), order[at])


def told(game: Known, state: GameState, entry: Entry) -> str:
    """One entry as sentences in the reader's language, told once per game, entry and language."""
    return _row(_known(game), game, state, entry)["text"]


def told_entries(game: Known, state: GameState, entries: list[Entry]) -> list[str]:
    """A page of the log as sentences (the API's history, oldest first): the rows the screens made
    already, and the others made for this page alone, not kept (a client reading a long game's
    whole log would otherwise fill the cache with rows no screen shows)."""
    rows = dict(_known(game))  # a copy: this page's rows stay with it
    return [_row(rows, game, state, entry)["text"] for entry in entries]


def history_rows(game: Known, state: GameState, player: int | None = None,
                 before: tuple[Known, list[dict]] | None = None) -> list[dict]:
    """The newest entries as sentences; for a phone, only those that concern its player. `before`:
    the same screen's rows at an earlier version of the game, taken as they are when nothing
    between the two versions was undone (only the entries since are told)."""
    known = _known(game)
    if before is not None and before[0].undos != game.undos:
        before = None
    rows = []
    for e in game.entries:
        if before is not None and e.seq <= before[0].version:
            # Not past the oldest entry the game keeps now, as the rows told afresh would not be.
            oldest = game.entries[-1].seq
            rows += [row for row in before[1][:HISTORY_ROWS - len(rows)] if row["seq"] >= oldest]
            break
        row = _row(known, game, state, e)
        if player is not None and row["concerns"] is not None and str(player) not in row["concerns"]:
            continue
        rows.append({**row, "undone": e.undone})
        if len(rows) == HISTORY_ROWS:
            break
    return rows


# Dealings between two players: on a third player's phone they are not news (the host shows them).
BETWEEN_PLAYERS = frozenset({"offer_trade", "reject_trade", "withdraw_trade", "pay"})


def latest(game: Known, state: GameState, player: int | None = None) -> str | None:
    """The newest entry as sentences: what every screen shows as the outcome of the last action; on
    `player`'s phone, the newest but dealings between two other players (an offer, its answer, a
    payment from one to the other)."""
    known = _known(game)
    for entry in game.entries:
        if player is None or entry.type not in BETWEEN_PLAYERS:
            return told(game, state, entry)
        concerns = _row(known, game, state, entry)["concerns"]
        seats = {who for who in concerns or () if who.isdigit()}
        if concerns is None or len(seats) < 2 or str(player) in seats:  # a payment to the bank is the table's
            return told(game, state, entry)
    return None
