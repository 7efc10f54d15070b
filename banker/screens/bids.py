"""Quick bids: an auction's bids in one tap, as the phones and the banker's seat panel offer them."""

from typing import NamedTuple

from ..rules.state import GameState


class QuickBid(NamedTuple):
    """A bid proposed in one tap: `step` over the high bid (0: an opening bid), the `amount` it
    bids, whether the bidder's cash covers it."""

    step: int
    amount: int
    affordable: bool


QUICK_STEPS = (1, 10, 50, 100)
OPENINGS = (10, 50, 100)  # before any bid: a sensible first bid, never 1


def quick_bids(state: GameState, player: int) -> list[QuickBid]:
    """The open auction's bids in one tap for a bidder: the high bid plus each step, raised to the
    bidder's floor (what a building auctioned in a shortage costs them)."""
    auction, cash = state.auction, state.player(player).cash
    if auction is None:
        return []
    floor = auction.floors.get(str(player), 1)
    if auction.high_bidder is None:
        amounts = {max(opening, floor): 0 for opening in OPENINGS}
    else:
        amounts = {max(auction.high_bid + step, floor): step for step in QUICK_STEPS}
    return [QuickBid(step, amount, amount <= cash) for amount, step in amounts.items()]
