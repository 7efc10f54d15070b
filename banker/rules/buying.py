"""Buying the unowned deed a player landed on, or declining it."""

from .effects import bank as happened
from .errors import N_, RuleError
from .money import require_cash, require_no_debt, transfer
from .auctions import open_deed_auction
from .state import BANK, GameState


def offered_square(state: GameState, player_id: int) -> int:
    """The square this player was offered; a RuleError if no offer waits for them."""
    pending = state.pending
    if not pending or pending["kind"] != "buy" or pending["player"] != player_id:
        raise RuleError("no_offer", N_("{player} has no property to buy right now."), player=player_id)
    return pending["square"]


def buy(state: GameState, player_id: int, effects: list) -> None:
    """Pay the printed price to the bank and take the deed."""
    square = offered_square(state, player_id)
    require_no_debt(state, player_id)
    price = state.board[square].price
    require_cash(state, player_id, price, N_("{square} costs {price}; {player} has only {cash}."),
                 square=square, price=price)
    transfer(state, player_id, BANK, price, effects, "purchase", square)
    state.deeds[square].owner = player_id
    state.pending = None
    effects.append(happened.bought(player_id, square))


def decline(state: GameState, player_id: int, effects: list) -> None:
    """Decline the deed: it is auctioned at once (or, with auctions off, stays with the bank)."""
    square = offered_square(state, player_id)
    state.pending = None
    effects.append(happened.declined(player_id, square))
    if state.settings.auctions:
        open_deed_auction(state, square, effects)
