"""What a player is worth: cash, deeds at printed price (mortgaged at half), buildings at cost."""

from .state import GameState


def net_worth(state: GameState, player_id: int) -> int:
    """Cash + deeds at printed price (mortgaged: half) + buildings at cost, a hotel as five houses."""
    board = state.board
    total = state.player(player_id).cash
    for deed in state.deeds.values():
        if deed.owner != player_id:
            continue
        square = board[deed.square]
        total += square.price // 2 if deed.mortgaged else square.price
        total += square.house_cost * (5 if deed.hotel else deed.houses)
    return total
