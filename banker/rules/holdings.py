"""A player's deeds as their phone shows them: grouped, with what each button would cost or why
it is not possible now (queries only: nothing here changes the game)."""

from .actions import parse
from .buildings import HOTEL, check_build, check_sell, level
from .deals import require_between_turns
from .errors import attempt
from .game import require_playing
from .mortgages import check_mortgage, check_unmortgage, lift_cost
from .rent import owns_group, rent_due
from .state import GameState


# The action each button sends.
ACTIONS = {"build": "build", "sell": "sell_building", "mortgage": "mortgage", "unmortgage": "unmortgage"}


def _check_deal(state: GameState, player_id: int, square: int, button: str, check):
    """A button's check as apply makes it: first whether deals are open now (tournament rules)."""
    require_between_turns(state, player_id, parse({"type": ACTIONS[button], "square": square}))
    return check(state, player_id, square)


def holdings(state: GameState, player_id: int) -> list[dict]:
    """One entry per colour group (then railroads, utilities) where the player holds a deed."""
    board = state.board
    over = attempt(require_playing, state)[1]  # after the end every button is refused, as apply does
    sections: dict[str, dict] = {}
    for square in board.deeds:
        deed = state.deeds[square.index]
        if deed.owner != player_id:
            continue
        key = square.group or square.type
        section = sections.setdefault(key, {
            "key": key, "street": square.type == "street",
            "size": len(board.group(key)) if square.group else len(board.of_type(square.type)),
            "complete": bool(square.group) and owns_group(state, player_id, square.group),
            "house_cost": square.house_cost, "lots": [],
        })
        lot = {"square": square.index, "name": square.name, "level": level(deed),
               "mortgaged": deed.mortgaged, "rent": rent_due(state, square.index), "type": square.type,
               "cost": square.house_cost, "refund": square.house_cost // 2,
               "loan": square.mortgage, "lift": lift_cost(square.mortgage)}
        checks = {"mortgage": check_mortgage, "unmortgage": check_unmortgage}
        if square.type == "street":
            checks = {"build": check_build, "sell": check_sell, **checks}
        for button, check in checks.items():
            lot[button] = (None, over) if over else attempt(_check_deal, state, player_id, square.index, button, check)
        section["lots"].append(lot)
    for section in sections.values():
        section["built"] = any(lot["level"] for lot in section["lots"])
        section["hotels"] = sum(lot["level"] == HOTEL for lot in section["lots"])
        section["sell_all"] = sum(lot["level"] for lot in section["lots"]) * (section["house_cost"] // 2)
    return list(sections.values())
