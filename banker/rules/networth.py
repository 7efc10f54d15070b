"""What a player is worth: cash, deeds at printed price (mortgaged at half), buildings at cost."""

from .state import GameState


def worth(state: GameState, player_id: int) -> dict:
    """Net worth in parts: cash, deeds at printed price (mortgaged: half), buildings at cost
    (a hotel as five houses), and their total."""
    board = state.board
    deeds = buildings = 0
    for deed in state.deeds.values():
        if deed.owner != player_id:
            continue
        square = board[deed.square]
        deeds += square.price // 2 if deed.mortgaged else square.price
        buildings += square.house_cost * (5 if deed.hotel else deed.houses)
    cash = state.player(player_id).cash
    return {"player": player_id, "cash": cash, "deeds": deeds, "buildings": buildings,
            "total": cash + deeds + buildings}


def net_worth(state: GameState, player_id: int) -> int:
    """Cash + deeds at printed price (mortgaged: half) + buildings at cost, a hotel as five houses."""
    return worth(state, player_id)["total"]


def net_worths(state: GameState) -> dict[int, int]:
    """Every player's net worth (as `net_worth`), in one pass over the deeds: the net-worth chart
    asks for all of them after every action of the game."""
    board = state.board
    totals = {p.id: p.cash for p in state.players}
    for deed in state.deeds.values():
        if deed.owner is not None:
            square = board[deed.square]
            totals[deed.owner] += ((square.price // 2 if deed.mortgaged else square.price)
                                   + square.house_cost * (5 if deed.hotel else deed.houses))
    return totals


def standings(state: GameState) -> list[dict]:
    """Everyone still in the game by net worth, richest first; bankrupt players after them."""
    alive = sorted((worth(state, p.id) for p in state.players if not p.bankrupt),
                   key=lambda w: w["total"], reverse=True)
    out = [worth(state, p.id) | {"bankrupt": True} for p in state.players if p.bankrupt]
    return alive + out
