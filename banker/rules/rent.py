"""What landing on an owned deed costs (queries only: nothing here changes the game)."""

from .state import GameState


def owns_group(state: GameState, owner: int, group: str) -> bool:
    """True when one player holds every lot of a colour group."""
    return all(state.deeds[s.index].owner == owner for s in state.board.group(group))


def doubles_base_rent(state: GameState, square: int) -> bool:
    """An unimproved lot of a complete group pays double (docs/rules.md, Rent, on mortgaged lots)."""
    sq = state.board[square]
    deed = state.deeds[square]
    if deed.owner is None or not owns_group(state, deed.owner, sq.group):
        return False
    if state.settings.double_rent_with_mortgaged_lot:
        return True
    return not any(state.deeds[s.index].mortgaged for s in state.board.group(sq.group))


def rent_due(state: GameState, square: int, dice_total: int = 0) -> int:
    """The rent for landing on `square` now: 0 when unowned or mortgaged.

    For a utility the dice total multiplies the rate; with dice_total 0 the result is the
    multiplier itself, which is what the state JSON shows.
    """
    sq = state.board[square]
    deed = state.deeds.get(square)
    if deed is None or deed.owner is None or deed.mortgaged:
        return 0
    if sq.type == "street":
        if deed.hotel:
            return sq.rent[5]
        if deed.houses:
            return sq.rent[deed.houses]
        return sq.rent[0] * (2 if doubles_base_rent(state, square) else 1)
    held = sum(1 for s in state.board.of_type(sq.type) if state.deeds[s.index].owner == deed.owner)
    rate = sq.rent[held - 1]
    if sq.type == "utility":
        return rate * dice_total if dice_total else rate
    return rate


def rent_detail(state: GameState, square: int, dice_total: int = 0) -> dict:
    """Why the rent is what it is, for the history: buildings, deeds held, or the dice."""
    sq = state.board[square]
    deed = state.deeds[square]
    if sq.type == "street":
        level = 5 if deed.hotel else deed.houses
        return {"level": level, "doubled": level == 0 and doubles_base_rent(state, square)}
    held = sum(1 for s in state.board.of_type(sq.type) if state.deeds[s.index].owner == deed.owner)
    return {"held": held, "dice": dice_total} if sq.type == "utility" else {"held": held}
