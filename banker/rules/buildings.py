"""Houses and hotels: even building and selling on complete, unmortgaged groups, within the
bank's supply of 32 houses and 12 hotels. A hotel is the fifth level of a lot."""

from .effects import bank as happened
from .errors import N_, RuleError
from .money import require_cash, require_no_debt, transfer
from .board import Square
from .state import BANK, Deed, GameState

HOTEL = 5


def level(deed: Deed) -> int:
    """0-4 houses, 5 for a hotel."""
    return HOTEL if deed.hotel else deed.houses


def refund(square: Square) -> int:
    """What the bank pays back for one level sold on `square`: half its house cost (a hotel is sold
    as one level too). The one place this rule lives: the rules, the deed cards and the story
    count with it."""
    return square.house_cost // 2


def set_level(deed: Deed, value: int) -> None:
    deed.hotel = value == HOTEL
    deed.houses = 0 if value == HOTEL else value


def group_deeds(state: GameState, square: int) -> list[Deed]:
    """Every lot of the colour group that `square` belongs to, in board order."""
    return [state.deeds[s.index] for s in state.board.group(state.board[square].group)]


def _owned_street(state: GameState, player_id: int, square: int) -> Deed:
    sq = state.board[square]
    if sq.type != "street":
        raise RuleError("not_a_street", N_("{square} cannot have buildings: only streets can."), square=square)
    deed = state.deeds[square]
    if deed.owner != player_id:
        raise RuleError("not_yours", N_("{player} does not own {square}."), player=player_id, square=square)
    return deed


def _require_buildable_group(state: GameState, player_id: int, square: int) -> list[Deed]:
    lots = group_deeds(state, square)
    missing = [d for d in lots if d.owner != player_id]
    if missing:
        raise RuleError("group_not_complete", N_("To build on {square}, {player} needs every lot of its group; {other_square} is missing."),
                        square=square, player=player_id, other_square=missing[0].square)
    mortgaged = [d for d in lots if d.mortgaged]
    if mortgaged:
        raise RuleError("group_mortgaged", N_("{other_square} is mortgaged: repay its mortgage before building in its group."),
                        other_square=mortgaged[0].square)
    return lots


def _check_placement(state: GameState, player_id: int, square: int) -> int:
    """Raise RuleError unless the lot may take its next building (money and supply aside);
    returns the lot's level now."""
    deed = _owned_street(state, player_id, square)
    lots = _require_buildable_group(state, player_id, square)
    now = level(deed)
    if now == HOTEL:
        raise RuleError("has_hotel", N_("{square} already has a hotel: nothing more can be built."), square=square)
    lowest = min(level(d) for d in lots)
    if now > lowest:
        behind = next(d for d in lots if level(d) == lowest)
        raise RuleError("uneven", N_("Build evenly: {other_square} needs its next building before {square}."),
                        other_square=behind.square, square=square)
    return now


def can_place(state: GameState, player_id: int, square: int, building: str) -> bool:
    """Whether a house (or hotel) won at auction could go on this lot now."""
    if state.board[square].type != "street" or any(d.owner != player_id or d.mortgaged for d in group_deeds(state, square)):
        return False  # refused by _check_placement's first checks: found without raising, as the
        # banker's screen asks of every lot at every change (rules.auctions.building_auctions)
    try:
        now = _check_placement(state, player_id, square)
    except RuleError:
        return False
    return (now == 4) == (building == "hotel")


def _require_no_building_auction(state: GameState) -> None:
    """While the bank's house or hotel is auctioned, nobody buys one from the bank directly."""
    if state.auction and state.auction.building:
        raise RuleError("building_auction", N_("The bank's {building} is up for auction: no buildings are bought until it closes."),
                        building=state.auction.building)


def check_build(state: GameState, player_id: int, square: int) -> int:
    """Raise RuleError unless the next building on `square` may be bought now; returns its cost
    (0 when it places a building already paid for at auction)."""
    now = _check_placement(state, player_id, square)
    _require_no_building_auction(state)
    pending = state.pending
    if pending and pending["kind"] == "place" and pending["player"] != player_id:
        raise RuleError("placing", N_("Wait until {player} places the {building} won at auction."),
                        player=pending["player"], building=pending["building"])
    if pending and pending["kind"] == "place":
        if (now == 4) != (pending["building"] == "hotel"):
            raise RuleError("wrong_building", N_("The {building} won at auction cannot go on {square} now."),
                            building=pending["building"], square=square)
        cost = 0
    else:
        require_no_debt(state, player_id)
        cost = state.board[square].house_cost
        require_cash(state, player_id, cost, N_("A building on {square} costs {price}; {player} has only {cash}."),
                     square=square, price=cost)
    if now == 4 and state.bank_hotels < 1:
        raise RuleError("no_hotels", N_("The bank has no hotels left."))
    if now < 4 and state.bank_houses < 1:
        raise RuleError("no_houses", N_("The bank has no houses left."))
    return cost


def build(state: GameState, player_id: int, square: int, effects: list) -> None:
    """Buy the next house (or the hotel after four houses) on a lot, evenly across its group."""
    cost = check_build(state, player_id, square)
    deed = state.deeds[square]
    now = level(deed)
    if now == 4:
        state.bank_hotels -= 1
        state.bank_houses += 4
    else:
        state.bank_houses -= 1
    set_level(deed, now + 1)
    if cost:
        transfer(state, player_id, BANK, cost, effects, "building", square, level=now + 1)
    else:
        state.pending = None
    effects.append(happened.built(player_id, square, now + 1))


def check_sell(state: GameState, player_id: int, square: int) -> int:
    """Raise RuleError unless one level of `square` may be sold now; returns the refund."""
    deed = _owned_street(state, player_id, square)
    lots = group_deeds(state, square)
    now = level(deed)
    if now == 0:
        raise RuleError("no_buildings", N_("{square} has no buildings to sell."), square=square)
    pending = state.pending
    if pending and pending["kind"] == "place" and pending["player"] == player_id:
        # Selling first could leave no lot for it (a hotel needs four houses on every lot).
        raise RuleError("placing", N_("{player} must first place the {building} won at auction."),
                        player=player_id, building=pending["building"])
    highest = max(level(d) for d in lots)
    if now < highest:
        ahead = next(d for d in lots if level(d) == highest)
        raise RuleError("uneven", N_("Sell evenly: sell from {other_square} before {square}."),
                        other_square=ahead.square, square=square)
    if now == HOTEL and _no_breakdown(state, player_id):
        raise RuleError("hotel_breakdown", N_("Outside a debt a hotel is not broken into houses (tournament rules): set {square}'s group's buildings in one step, which sells the hotel with its four houses and buys back the houses the lot keeps."),
                        square=square)
    if now == HOTEL and state.bank_houses < 4:
        raise RuleError("no_houses_for_hotel", N_("Breaking the hotel on {square} needs 4 houses from the bank, which has {count}; sell the group's hotels outright instead."),
                        square=square, count=state.bank_houses)
    return refund(state.board[square])


def sell(state: GameState, player_id: int, square: int, effects: list) -> None:
    """Sell one level back to the bank at half its cost, evenly; a hotel breaks into four houses."""
    refund = check_sell(state, player_id, square)
    deed = state.deeds[square]
    now = level(deed)
    if now == HOTEL:
        state.bank_houses -= 4
        state.bank_hotels += 1
    else:
        state.bank_houses += 1
    set_level(deed, now - 1)
    transfer(state, BANK, player_id, refund, effects, "building_sale", square, level=now)
    effects.append(happened.sold(player_id, square, now - 1))


def set_levels(state: GameState, player_id: int, levels: dict[int, int], effects: list) -> None:
    """Set a whole group's buildings in one step, checked as one change: even at the end, within
    the bank's supply, paid for (or refunded at half cost). Selling hotels outright this way needs
    no houses from the bank; a group's first hotels need the houses that bring every lot to four."""
    squares = sorted(levels)
    first = squares[0]
    for square in squares:
        _owned_street(state, player_id, square)
    group = group_deeds(state, first)
    if sorted(d.square for d in group) != squares:
        raise RuleError("whole_group", N_("Give a level for every lot of {square}'s group, and only those."), square=first)
    old = {d.square: level(d) for d in group}
    if max(levels.values()) - min(levels.values()) > 1:
        raise RuleError("uneven", N_("The group's lots must end within one building of each other."))
    if levels == old:
        raise RuleError("no_change", N_("Those are already the group's buildings."))
    cost = state.board[first].house_cost
    bought = sold = 0
    for s in squares:
        if old[s] == HOTEL and 0 < levels[s] < HOTEL and _no_breakdown(state, player_id):
            sold, bought = sold + HOTEL, bought + levels[s]  # the hotel goes with its four houses
        else:
            sold, bought = sold + max(0, old[s] - levels[s]), bought + max(0, levels[s] - old[s])
    if bought:
        _require_buildable_group(state, player_id, first)
        require_no_debt(state, player_id)
        _require_no_building_auction(state)
        if state.pending and state.pending["kind"] == "place":
            raise RuleError("placing", N_("Wait until {player} places the {building} won at auction."),
                            player=state.pending["player"], building=state.pending["building"])
    houses = state.bank_houses + sum(_houses(old[s]) - _houses(levels[s]) for s in squares)
    hotels = state.bank_hotels + sum(_hotels(old[s]) - _hotels(levels[s]) for s in squares)
    if max(levels.values()) == HOTEL and max(old.values()) < HOTEL:
        # The first hotel needs four houses on every lot: the group passes through them.
        through = sum(4 - old[s] for s in squares)
        if through > state.bank_houses:
            houses = state.bank_houses - through
    # One building short is one needed from a bank that has none: said so, not as "1 houses".
    if houses < 0:
        raise RuleError("no_houses", N_("That needs {need} houses from the bank, which has {count}.") if state.bank_houses - houses > 1
                        else N_("That needs a house from the bank, which has none."),
                        need=state.bank_houses - houses, count=state.bank_houses)
    if hotels < 0:
        raise RuleError("no_hotels", N_("That needs {need} hotels from the bank, which has {count}.") if state.bank_hotels - hotels > 1
                        else N_("That needs a hotel from the bank, which has none."),
                        need=state.bank_hotels - hotels, count=state.bank_hotels)
    price = bought * cost - sold * refund(state.board[first])
    require_cash(state, player_id, price, N_("That costs {price}; {player} has only {cash}."), price=price)
    state.bank_houses, state.bank_hotels = houses, hotels
    for s in squares:
        set_level(state.deeds[s], levels[s])
    group = state.board[first].group
    if price > 0:
        transfer(state, player_id, BANK, price, effects, "building", group=group)
    elif price < 0:
        transfer(state, BANK, player_id, -price, effects, "building_sale", group=group)
    effects.append(happened.levels_set(player_id, first, levels))


def _no_breakdown(state: GameState, player_id: int) -> bool:
    """Whether a hotel cannot be turned back into houses for half a house's cost: the JMA rule
    (houses are rebuilt at the regular cost), which allows it only to raise cash for a debt. This
    stops a player blocking the bank's houses cheaply."""
    return state.settings.hotel_breakdown_only_in_debt and not state.debts_of(player_id)


def _houses(value: int) -> int:
    return 0 if value == HOTEL else value


def _hotels(value: int) -> int:
    return 1 if value == HOTEL else 0
