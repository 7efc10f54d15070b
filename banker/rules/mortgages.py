"""Mortgages: the bank lends the printed mortgage value on an unimproved deed; lifting costs the
value plus 10% interest, rounded up to a whole unit (docs/rules.md, Mortgages)."""

from .effects import bank as happened
from .buildings import group_deeds, level
from .errors import N_, RuleError
from .money import require_cash, require_no_debt, transfer
from .state import BANK, GameState


def lift_cost(mortgage: int) -> int:
    """Mortgage value plus 10%, rounded up: Park Place 175 -> 193, a utility 75 -> 83."""
    return mortgage + -(-mortgage // 10)


def transfer_fee(mortgage: int) -> int:
    """The 10% due when a mortgaged deed changes hands, rounded up like the lift interest."""
    return -(-mortgage // 10)


def _owned(state: GameState, player_id: int, square: int):
    if not state.board[square].ownable:
        raise RuleError("not_a_deed", N_("{square} is not a deed."), square=square)
    deed = state.deeds[square]
    if deed.owner != player_id:
        raise RuleError("not_yours", N_("{player} does not own {square}."), player=player_id, square=square)
    return deed


def check_mortgage(state: GameState, player_id: int, square: int) -> int:
    """Raise RuleError unless `square` may be mortgaged now; returns what the bank lends."""
    deed = _owned(state, player_id, square)
    if deed.mortgaged:
        raise RuleError("already_mortgaged", N_("{square} is already mortgaged."), square=square)
    if state.board[square].type == "street":
        built = [d for d in group_deeds(state, square) if level(d)]
        if built:
            raise RuleError("group_has_buildings", N_("{other_square} has buildings: sell every building in the group before mortgaging {square}."),
                            other_square=built[0].square, square=square)
    return state.board[square].mortgage


def mortgage(state: GameState, player_id: int, square: int, effects: list) -> None:
    """Turn an unimproved deed face down for its mortgage value."""
    loan = check_mortgage(state, player_id, square)
    state.deeds[square].mortgaged = True
    transfer(state, BANK, player_id, loan, effects, "mortgage", square)
    effects.append(happened.mortgaged(player_id, square))


def check_unmortgage(state: GameState, player_id: int, square: int) -> int:
    """Raise RuleError unless the mortgage on `square` may be lifted now; returns the cost."""
    deed = _owned(state, player_id, square)
    if not deed.mortgaged:
        raise RuleError("not_mortgaged", N_("{square} is not mortgaged."), square=square)
    require_no_debt(state, player_id)
    cost = lift_cost(state.board[square].mortgage)
    require_cash(state, player_id, cost, N_("Repaying the mortgage on {square} costs {price}; {player} has only {cash}."),
                 square=square, price=cost)
    return cost


def unmortgage(state: GameState, player_id: int, square: int, effects: list) -> None:
    """Lift a mortgage: the value plus 10%."""
    cost = check_unmortgage(state, player_id, square)
    state.deeds[square].mortgaged = False
    transfer(state, player_id, BANK, cost, effects, "unmortgage", square)
    effects.append(happened.unmortgaged(player_id, square))
