"""Auctions: a declined deed goes to the highest bidder at once (the decliner may bid too); in a
building shortage the banker auctions houses or hotels one at a time. Bids are whole units, must
beat the high bid and stay within the bidder's cash; the bank takes the winning bid."""

from .effects import bank as happened
from .buildings import can_place
from .errors import N_, RuleError
from .money import charge, require_no_debt
from .state import BANK, Auction, GameState



def require_no_auction(state: GameState) -> None:
    """Nothing else moves the game on (rolls, ends of turn) while an auction is open."""
    if state.auction:
        raise RuleError("auction_open", N_("An auction is open: bid or pass first."))


def open_deed_auction(state: GameState, square: int, effects: list) -> None:
    """Auction a deed the player declined; everyone still in the game with cash may bid."""
    bidders = [p.id for p in state.players if not p.bankrupt and p.cash > 0]
    state.auction = Auction(id=state.next_id(), square=square, bidders=bidders)
    effects.append(happened.auction_opened(state.auction.id, square=square))
    _close_if_settled(state, effects)


def open_building_auction(state: GameState, building: str, effects: list) -> None:
    """The banker auctions one house or hotel among the players who could place it now."""
    require_no_auction(state)
    if state.pending:
        raise RuleError("decision_pending", N_("Finish the open decision before auctioning buildings."))
    stock = state.bank_houses if building == "house" else state.bank_hotels
    if stock < 1:
        raise RuleError("none_left", N_("The bank has no {building} left to auction."), building=building)
    floors = _shortage_floors(state, building)
    if not floors:
        raise RuleError("nobody_can_build", N_("Nobody can place a {building} now."), building=building)
    state.auction = Auction(id=state.next_id(), building=building, bidders=[int(k) for k in floors],
                            floors=floors)
    effects.append(happened.auction_opened(state.auction.id, building=building))


def building_auctions(state: GameState) -> list[str]:
    """The buildings ("house", "hotel") the banker may auction now, for screens to offer: in play,
    with no auction or decision open, the bank holding one, and someone able to place it."""
    if state.status != "playing" or state.auction or state.pending:
        return []
    stock = {"house": state.bank_houses, "hotel": state.bank_hotels}
    return [b for b in ("house", "hotel") if stock[b] >= 1 and _shortage_floors(state, b)]


def _shortage_floors(state: GameState, building: str) -> dict[str, int]:
    """Each player who could place the building now (by id, as text), with their lowest bid: 1, or
    under `shortage_auction_floor: "cost"` the house cost of their cheapest lot that could take it."""
    lots: dict[int, list[int]] = {}  # each owner's lots that could take it
    for square, deed in state.deeds.items():
        if deed.owner is not None and can_place(state, deed.owner, square, building):
            lots.setdefault(deed.owner, []).append(square)
    floors = {}
    for p in state.players:
        if p.id in lots and not p.bankrupt:
            cheapest = min(state.board[sq].house_cost for sq in lots[p.id])
            floors[str(p.id)] = cheapest if state.settings.shortage_auction_floor == "cost" else 1
    return floors


def leave(state: GameState, player_id: int, effects: list) -> None:
    """A player out of the game (bankrupt) leaves the open auction; a high bid of theirs is void,
    and the auction closes if nobody else is left bidding against the high bidder."""
    auction = state.auction
    if not auction or player_id not in auction.bidders:
        return
    if auction.high_bidder == player_id:
        auction.high_bid, auction.high_bidder = 0, None
    if player_id not in auction.passed:
        auction.passed.append(player_id)
    _close_if_settled(state, effects)


def _open(state: GameState) -> Auction:
    if not state.auction:
        raise RuleError("no_auction", N_("No auction is open."))
    return state.auction


def bid(state: GameState, player_id: int, amount: int, effects: list) -> None:
    """Raise the high bid; it must beat the current one and not exceed the bidder's cash."""
    auction = _open(state)
    if player_id not in auction.bidders:
        raise RuleError("not_bidding", N_("{player} is not in this auction."), player=player_id)
    if player_id in auction.passed:
        raise RuleError("passed", N_("{player} has passed and cannot bid again."), player=player_id)
    if auction.high_bidder == player_id:
        raise RuleError("high_bidder", N_("{player} already holds the high bid."), player=player_id)
    require_no_debt(state, player_id)
    lowest = max(auction.high_bid + 1, auction.floors.get(str(player_id), 1))
    if amount < lowest:
        raise RuleError("bid_too_low", N_("A bid must be at least {amount}."), amount=lowest)
    cash = state.player(player_id).cash
    if amount > cash:
        raise RuleError("bid_over_cash", N_("{player} has only {cash}; a bid cannot be more."),
                        player=player_id, cash=cash)
    auction.high_bid, auction.high_bidder = amount, player_id
    effects.append(happened.bid(player_id, amount))
    _close_if_settled(state, effects)


def pass_(state: GameState, player_id: int, effects: list) -> None:
    """Leave the auction; it closes once everyone but the high bidder has passed."""
    auction = _open(state)
    if player_id not in auction.bidders or player_id in auction.passed:
        raise RuleError("not_bidding", N_("{player} is not bidding in this auction."), player=player_id)
    if auction.high_bidder == player_id:
        raise RuleError("high_bidder", N_("{player} holds the high bid and cannot pass."), player=player_id)
    auction.passed.append(player_id)
    effects.append(happened.passed(player_id))
    _close_if_settled(state, effects)


def close(state: GameState, expected_bid: int | None, effects: list) -> None:
    """The banker closes the auction: sold to the high bidder, or (with no bid) nothing happens.

    `expected_bid` guards a countdown: if a higher bid came in meanwhile, the close is refused.
    """
    auction = _open(state)
    if expected_bid is not None and expected_bid != auction.high_bid:
        raise RuleError("new_bid", N_("A new bid of {amount} came in; the countdown starts again."),
                        amount=auction.high_bid)
    _settle(state, effects)


def _close_if_settled(state: GameState, effects: list) -> None:
    auction = state.auction
    active = [p for p in auction.bidders if p not in auction.passed]
    if not active or active == [auction.high_bidder]:
        _settle(state, effects)


def _settle(state: GameState, effects: list) -> None:
    auction, state.auction = state.auction, None
    _sell(state, auction, effects)
    if state.auction_queue:  # a bankrupt's deeds, auctioned one after another in board order
        open_deed_auction(state, state.auction_queue.pop(0), effects)


def _sell(state: GameState, auction: Auction, effects: list) -> None:
    winner, amount = auction.high_bidder, auction.high_bid
    if winner is not None and auction.building and not _can_place_somewhere(state, winner, auction.building):
        winner = None  # the winner changed their lots meanwhile: the building stays with the bank
    if winner is None:
        effects.append(happened.auction_unsold(auction.square, auction.building))
        return
    charge(state, winner, BANK, amount, effects, "auction", auction.square)
    if auction.square is not None:
        state.deeds[auction.square].owner = winner
        effects.append(happened.auction_won(winner, amount, square=auction.square))
    else:
        state.pending = {"kind": "place", "player": winner, "building": auction.building}
        effects.append(happened.auction_won(winner, amount, building=auction.building))


def _can_place_somewhere(state: GameState, player_id: int, building: str) -> bool:
    """Whether the bank still has the building and one of the player's lots could take it now."""
    stock = state.bank_houses if building == "house" else state.bank_hotels
    return stock > 0 and any(deed.owner == player_id and can_place(state, player_id, square, building)
                             for square, deed in state.deeds.items())
