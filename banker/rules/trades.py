"""Trades between two players: cash, deeds and Get Out of Jail Free cards each way, offered by one
and executed as one step on the other's accept. Everything is checked again at acceptance.
A mortgaged deed received is lifted now (value + 10%) or keeps its mortgage for a 10% fee. With
`mortgage_transfer_fee` off there is no fee: the French and Portuguese rulebooks' reading, where the
deed stays mortgaged and is lifted later at +10%. (The JMA sources disagree among themselves; the JMA
rules in our sources charge the fee, so the "jma" preset keeps it.)"""

from .effects import bank as happened
from .buildings import group_deeds, level
from .errors import ActionError, N_, RuleError
from .money import require_bid_covered, transfer
from .mortgages import lift_cost, transfer_fee
from .state import BANK, GameState, Trade



def nothing() -> dict:
    """An empty side of a trade."""
    return {"cash": 0, "squares": [], "jail_cards": []}


def _side(trade: Trade, player: int) -> tuple[dict, dict]:
    """(what this party hands over, what it receives)."""
    return (trade.give, trade.get) if player == trade.offerer else (trade.get, trade.give)


def check(state: GameState, trade: Trade, receiver_lifts: list[int]) -> list[tuple[int, int, int, str]]:
    """Raise RuleError unless the trade can execute now; returns the mortgage payments it brings:
    (payer, square, amount, "lift" | "fee")."""
    for pid in (trade.offerer, trade.to):
        if not state.has_player(pid) or state.player(pid).bankrupt:
            raise RuleError("bankrupt", N_("{player} is out of the game."), player=pid)
    if trade.offerer == trade.to:
        raise RuleError("trade_self", N_("A trade needs two different players."))
    if not any(trade.give.values()) and not any(trade.get.values()):
        raise RuleError("empty_trade", N_("The offer is empty: add cash, deeds or cards."))
    for pid in (trade.offerer, trade.to):
        gives, _ = _side(trade, pid)
        for square in gives["squares"]:
            _check_deed(state, pid, square)
        for card in gives["jail_cards"]:
            if card not in state.player(pid).jail_cards:
                raise RuleError("no_card", N_("{player} does not hold that Get Out of Jail Free card."), player=pid)
    # Both sides' deeds are checked first: what a party gets is what the other gives.
    payments = []
    for pid in (trade.offerer, trade.to):
        gives, gets = _side(trade, pid)
        lifts = trade.lift if pid == trade.offerer else receiver_lifts
        for square in lifts:
            if square not in gets["squares"] or not state.deeds[square].mortgaged:
                raise RuleError("bad_lift", N_("{square} is not a mortgaged deed {player} receives."),
                                square=square, player=pid)
        for square in gets["squares"]:
            if state.deeds[square].mortgaged:
                mortgage = state.board[square].mortgage
                if square in lifts:
                    payments.append((pid, square, lift_cost(mortgage), "lift"))
                elif state.settings.mortgage_transfer_fee:
                    payments.append((pid, square, transfer_fee(mortgage), "fee"))
    for pid in (trade.offerer, trade.to):
        gives, gets = _side(trade, pid)
        cash = state.player(pid).cash
        owed = gives["cash"] + sum(amount for payer, _, amount, _ in payments if payer == pid)
        if owed > cash + gets["cash"]:
            raise RuleError("short_of_cash", N_("{player} has {cash}: not enough for this trade ({amount})."),
                            player=pid, cash=cash, amount=owed)
        if gives["cash"] > cash:
            raise RuleError("short_of_cash", N_("{player} has only {cash} to give."), player=pid, cash=cash)
        require_bid_covered(state, pid, owed - gets["cash"])
        if state.debts_of(pid) and (gives["cash"] or any(how == "lift" for payer, _, _, how in payments if payer == pid)):
            # As with building and repaying mortgages: cash owed is not spent elsewhere first.
            raise RuleError("in_debt", N_("{player} must first pay the {amount} still owed."),
                            player=pid, amount=sum(d.amount for d in state.debts_of(pid)))
    return payments


def _check_deed(state: GameState, owner: int, square: int) -> None:
    deed = state.deeds.get(square)
    if deed is None:
        raise RuleError("not_a_deed", N_("{square} is not a deed."), square=square)
    if deed.owner != owner:
        raise RuleError("not_yours", N_("{player} does not own {square}."), player=owner, square=square)
    if state.board[square].type == "street":
        built = [d for d in group_deeds(state, square) if level(d)]
        if built:
            raise RuleError("group_has_buildings", N_("{other_square} has buildings: the group's buildings must be sold before {square} can change hands."),
                            other_square=built[0].square, square=square)


def offer(state: GameState, player_id: int, to: int, give: dict, get: dict, lift: list[int],
          effects: list) -> None:
    """Put an offer on the table; it waits for the other player's answer."""
    if not state.has_player(to):
        raise ActionError("no_such_player", N_("There is no player {id} in this game."), id=to)
    trade = Trade(id=state.next_id(), offerer=player_id, to=to, give=give, get=get, lift=lift)
    check(state, trade, [])
    state.trades.append(trade)
    effects.append(happened.trade_offered(trade.id, player_id, to))


def find(state: GameState, trade_id: int) -> Trade:
    for trade in state.trades:
        if trade.id == trade_id:
            return trade
    raise RuleError("no_trade", N_("Offer {id} is no longer open."), id=trade_id)


def accept(state: GameState, player_id: int, trade_id: int, lifts: list[int], effects: list) -> None:
    """The receiver accepts: everything moves at once, mortgaged deeds lifted or charged the fee."""
    trade = find(state, trade_id)
    if trade.to != player_id:
        raise RuleError("not_yours_to_accept", N_("Only {player} can accept this offer."), player=trade.to)
    payments = check(state, trade, lifts)
    state.trades.remove(trade)
    for pid in (trade.offerer, trade.to):
        gives, _ = _side(trade, pid)
        other = trade.to if pid == trade.offerer else trade.offerer
        if gives["cash"]:
            transfer(state, pid, other, gives["cash"], effects, "trade")
        for square in gives["squares"]:
            state.deeds[square].owner = other
        for card in gives["jail_cards"]:
            state.player(pid).jail_cards.remove(card)
            state.player(other).jail_cards.append(card)
    for payer, square, amount, how in payments:
        transfer(state, payer, BANK, amount, effects, "unmortgage" if how == "lift" else "mortgage_fee", square)
        if how == "lift":
            state.deeds[square].mortgaged = False
    effects.append(happened.trade_done(trade.id, trade.offerer, trade.to, trade.give, trade.get))
    drop_impossible(state, effects)


def reject(state: GameState, player_id: int, trade_id: int, effects: list) -> None:
    trade = find(state, trade_id)
    if trade.to != player_id:
        raise RuleError("not_yours_to_reject", N_("Only {player} can reject this offer."), player=trade.to)
    state.trades.remove(trade)
    effects.append(happened.trade_rejected(trade.id, player_id, trade.offerer))


def withdraw(state: GameState, player_id: int, trade_id: int, effects: list) -> None:
    trade = find(state, trade_id)
    if trade.offerer != player_id:
        raise RuleError("not_yours_to_withdraw", N_("Only {player} can withdraw this offer."), player=trade.offerer)
    state.trades.remove(trade)
    effects.append(happened.trade_withdrawn(trade.id, player_id, trade.to))


def drop_impossible(state: GameState, effects: list) -> None:
    """Offers that can never happen now (a deed changed hands, a player left) leave the table."""
    for trade in list(state.trades):
        gone = any(
            state.deeds[sq].owner != pid
            for pid in (trade.offerer, trade.to) for sq in _side(trade, pid)[0]["squares"]
        ) or any(state.player(pid).bankrupt for pid in (trade.offerer, trade.to))
        if gone:
            state.trades.remove(trade)
            effects.append(happened.trade_dropped(trade.id, trade.offerer, trade.to))


def tradeable(state: GameState, player_id: int) -> list[int]:
    """The deeds this player could offer now: theirs, in groups without buildings."""
    found = []
    for square, deed in state.deeds.items():
        if deed.owner == player_id:
            try:
                _check_deed(state, player_id, square)
            except RuleError:
                continue
            found.append(square)
    return sorted(found)


def outlook(state: GameState, trade: Trade) -> dict:
    """A trade as the screens show it: whether it could execute now (or why not), and for each
    mortgaged deed its receiver, the 10% fee (0 without the fee setting) and the lift cost."""
    problem = None
    try:
        check(state, trade, [])
    except RuleError as error:
        problem = error
    mortgaged = []
    for receiver, side in ((trade.to, trade.give), (trade.offerer, trade.get)):
        for square in side["squares"]:
            if state.deeds[square].mortgaged:
                value = state.board[square].mortgage
                fee = transfer_fee(value) if state.settings.mortgage_transfer_fee else 0
                mortgaged.append({"square": square, "receiver": receiver, "fee": fee, "lift": lift_cost(value)})
    return {"trade": trade, "problem": problem, "mortgaged": mortgaged}
