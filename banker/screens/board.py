"""The board as the host screen, the TV and the timeline draw it: forty squares around a grid."""

from typing import NamedTuple

from ..rules.state import GameState


class Token(NamedTuple):
    """A player as the board shows them: a pawn, or the owner's mark on a deed."""

    name: str
    token: str



def board_cells(state: GameState) -> list[dict]:
    """The forty squares placed around an 11 x 11 grid, GO at the bottom right, with their deed,
    owner and pawns."""
    by_square: dict[int, list] = {}
    tokens = {p.id: Token(p.name, p.token) for p in state.players}
    for p in state.players:
        if not p.bankrupt and state.status != "lobby":
            by_square.setdefault(p.position, []).append(tokens[p.id])
    cells = []
    for sq in state.board.squares:
        i = sq.index
        if i <= 10:
            row, col = 11, 11 - i
        elif i <= 20:
            row, col = 21 - i, 1
        elif i <= 30:
            row, col = 1, i - 19
        else:
            row, col = i - 29, 11
        deed = state.deeds.get(i)
        owner, pawns = tokens.get(deed.owner) if deed else None, tuple(by_square.get(i, ()))
        # What the square's HTML is made from (with its board), as fragments.py keys it.
        key = (i, owner, pawns, (deed.houses, deed.hotel, deed.mortgaged) if deed else None)
        cells.append({"square": sq, "row": row, "col": col, "deed": deed, "owner": owner, "tokens": pawns,
                      "key": key})
    return cells
