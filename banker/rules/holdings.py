"""A player's deeds as their phone (and the banker's seat panel) shows them: grouped, with the
buttons each lot offers now, what each would cost or why it is not possible now (queries only:
nothing here changes the game)."""

from .declaration import parse
from .buildings import HOTEL, check_build, check_sell, level, refund
from .deals import require_between_turns
from .errors import attempt
from .game import require_playing
from .mortgages import check_mortgage, check_unmortgage, lift_cost
from .rent import owns_group, rent_due
from .state import GameState

# The action each check's button sends.
ACTIONS = {"build": "build", "sell": "sell_building", "mortgage": "mortgage", "unmortgage": "unmortgage"}


def _check_deal(state: GameState, player_id: int, square: int, button: str, check):
    """A button's check as apply makes it: first whether deals are open now (tournament rules)."""
    require_between_turns(state, player_id, parse({"type": ACTIONS[button], "square": square}))
    return check(state, player_id, square)


def holdings(state: GameState, player_id: int) -> list[dict]:
    """One entry per colour group (then railroads, utilities) where the player holds a deed.

    Each lot answers every check its deed has (`build`, `sell`, `mortgage`, `unmortgage`: the price
    when allowed, else the refusal) and lists its `buttons` (see `_buttons`); `told` names the check
    whose refusal a phone spells out under the lot (it has no tooltips), if any."""
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
               "cost": square.house_cost, "refund": refund(square),
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
        section["sell_all"] = sum(lot["level"] * lot["refund"] for lot in section["lots"])
        # Houses and hotels go only on a complete colour group, and only while the game is on.
        section["buildable"] = section["street"] and section["complete"] and not over
        for lot in section["lots"]:
            lot["buttons"] = [] if over else _buttons(state, section, lot)
            told = "unmortgage" if lot["mortgaged"] else "build" if section["complete"] else None
            lot["told"] = None if over else told
    return list(sections.values())


def _buttons(state: GameState, section: dict, lot: dict) -> list[dict]:
    """The buttons a lot shows, in order: on a buildable group, sell (once the group has buildings)
    and build (below a hotel); then mortgage, or repay a mortgage. Each says which button it is
    (`kind`, which the screens put into words), the `action` it sends, the `cash` it moves for the
    player (+ received, - paid; None when it shows no price) and the `check` that decides it."""
    buttons = []
    if section["buildable"] and section["built"]:
        kind = "sell_hotel" if lot["level"] == HOTEL else "sell_house"
        buttons.append({"kind": kind, "action": "sell_building", "cash": lot["refund"], "check": "sell"})
    if section["buildable"] and lot["level"] < HOTEL:
        kind = _build_kind(state, lot)
        cash = -lot["cost"] if kind in ("build_house", "build_hotel") else None
        buttons.append({"kind": kind, "action": "build", "cash": cash, "check": "build"})
    if lot["mortgaged"]:
        buttons.append({"kind": "unmortgage", "action": "unmortgage", "cash": -lot["lift"], "check": "unmortgage"})
    else:
        buttons.append({"kind": "mortgage", "action": "mortgage", "cash": lot["loan"], "check": "mortgage"})
    return buttons


def _build_kind(state: GameState, lot: dict) -> str:
    """Which build button a lot below a hotel shows: none of its next building left in the bank,
    placing a building already won at auction (free: its check costs 0), or buying the next one."""
    hotel_next = lot["level"] == HOTEL - 1
    if (state.bank_hotels if hotel_next else state.bank_houses) < 1:
        return "no_hotels_left" if hotel_next else "no_houses_left"
    if lot["build"] == (0, None):
        return "place"
    return "build_hotel" if hotel_next else "build_house"
