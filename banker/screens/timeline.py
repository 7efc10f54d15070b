"""The timeline (/t/<code>/timeline?v=<n>): the board, the balances and the deeds as they were at
any version of the game, read-only, drawn with the host screen's own board and balances.

What a point shows, and why it opens in constant work, is store/timeline.py's. A step reads three
things: the game's state at that version (a checkpoint and at most CHECKPOINT_EVERY - 1 events), the
event that made the version (told with the history's own words), and nothing else; the squares of
the board come from the fragments' cache (fragments.py) like the host screen's.
"""

from .. import store
from ..rules.state import BANK, TOKENS
from ..store import Game
from . import board_cells, history

# The steps offered beside the slider, besides the first and the newest version.
STEPS = (-10, -1, 1, 10)


def version_asked(value: str | None, newest: int) -> int | None:
    """The version `?v=` asks for: the newest when absent, None when it is not one of the game's."""
    if value is None or value == "":
        return newest
    if not value.isascii() or not value.isdigit() or len(value) > 9 or int(value) > newest:
        return None
    return int(value)


def past(game: Game, version: int) -> dict:
    """Template variables of the game as it was at `version`: those the host's board and balances
    use (templates/table/_board.html, _balances.html), the deeds by owner, the entry that made the
    version in words, whose turn it was, and the steps to the versions around it. (The page calls a
    version a step: "Step 12 of 50".)"""
    state = store.state_at(game, version)
    players = {p.id: p for p in state.players}
    deeds = {p.id: [] for p in state.players}
    for square, deed in sorted(state.deeds.items()):
        if deed.owner in deeds:
            deeds[deed.owner].append((square, deed))
    entry = None
    if version:
        now = store.known(game)
        row = store.log_entry(game.id, version)
        entry = {"text": history.told_entries(now, now.state, [row])[0], "time": history.clock(row.created_at),
                 "undone": row.undone}
    steps = [(step, version + step) for step in STEPS if 0 <= version + step <= game.version]
    # Whose turn it was then, as the table says it ("Ann's turn"): a family finds a point by the turn
    # and the time, not by a version number.
    turn = players[state.turn].name if state.status == "playing" and state.turn in players else None
    return {"code": game.code, "version": version, "newest": game.version, "state": state, "board": state.board,
            "currency": state.board.currency, "players": players, "tokens": TOKENS, "BANK": BANK, "banker": True,
            "cells": board_cells(state), "deeds": deeds, "entry": entry, "steps": steps, "turn": turn}
