"""What a Chance or Community Chest card does, in words: `told` says what a card the app does not
know did, for the history ("Ann drew a card: pay $20."); `outcome` says what a card will do to the
drawer now, in the game's money, under the card's printed words in the picker ("−$20",
"→ Rue de la Paix, +200 € for passing Départ"). The rules decide; these only tell."""

from flask_babel import gettext as _

from ..rules.cards import nearest
from ..rules.state import GameState
from .amounts import money as amount
from .names import square_name


def money(state: GameState, value: int) -> str:
    return amount(value, state.board.currency)


def signed(state: GameState, sign: str, value: int) -> str:
    """+$50, −$20 (a minus sign, not a hyphen), never broken across two lines after the sign."""
    return f"{sign}\u2060{money(state, value)}"


def square(state: GameState, index: int) -> str:
    return square_name(state.board, index)


def told(state: GameState, effect: dict) -> str:
    """What a card the app does not know did, in a few words to follow "a card: " in the history:
    "pay $20", "advance to Boardwalk"."""
    kind = effect["kind"]
    value = money(state, effect["amount"]) if "amount" in effect else ""
    if kind in ("move_to", "go_back_to"):
        where = square(state, effect["square"])
        return _("advance to %(square)s", square=where) if kind == "move_to" else _("go back to %(square)s", square=where)
    if kind in ("advance_to_nearest", "move_to_nearest"):
        railroad, double = effect["type"] == "railroad", kind == "advance_to_nearest"
        if railroad:
            return _("the nearest railroad, double rent") if double else _("the nearest railroad")
        return _("the nearest utility, 10× a new roll") if double else _("the nearest utility")
    words = {
        "move_back": lambda: _("go back %(n)s spaces", n=effect["spaces"]),
        "collect": lambda: _("collect %(amount)s", amount=value),
        "pay": lambda: _("pay %(amount)s", amount=value),
        "collect_from_each_player": lambda: _("collect %(amount)s from each player", amount=value),
        "pay_each_player": lambda: _("pay each player %(amount)s", amount=value),
        "repairs": lambda: _("repairs, %(house)s a house and %(hotel)s a hotel",
                             house=money(state, effect["per_house"]), hotel=money(state, effect["per_hotel"])),
        "get_out_of_jail_free": lambda: _("keep a Get Out of Jail Free card"),
        "go_to_jail": lambda: _("go to jail"),
    }
    return words[kind]()


def outcome(state: GameState, position: int, effect: dict) -> str:
    """What the card does to a drawer standing on `position`, in the game's money: where the token
    goes and whether it passes GO on the way, what is paid or collected."""
    kind, board = effect["kind"], state.board
    gain, loss = signed(state, "+", effect.get("amount", 0)), signed(state, "−", effect.get("amount", 0))
    if kind == "collect":
        return gain
    if kind == "pay":
        return loss
    if kind == "collect_from_each_player":
        return _("%(amount)s from each player", amount=gain)
    if kind == "pay_each_player":
        return _("%(amount)s to each player", amount=loss)
    if kind == "repairs":
        return _("%(house)s a house, %(hotel)s a hotel", house=signed(state, "−", effect["per_house"]),
                 hotel=signed(state, "−", effect["per_hotel"]))
    if kind == "pay_or_draw":
        if effect["deck"] == "chance":
            return _("%(amount)s or a Chance card", amount=loss)
        return _("%(amount)s or a Community Chest card", amount=loss)
    if kind == "go_to_jail":
        return _("→ Jail")
    if kind == "get_out_of_jail_free":
        return _("Kept until you use it")
    if kind == "move_back":
        return _("← %(square)s", square=square(state, (position - effect["spaces"]) % len(board)))
    if kind == "go_back_to":
        return _("← %(square)s, no salary", square=square(state, effect["square"]))
    target = effect["square"] if kind == "move_to" else nearest(board, position, effect["type"])
    if kind == "advance_to_nearest":
        told = (_("→ %(square)s, rent ×2") if effect["type"] == "railroad"
                else _("→ %(square)s, 10× a new roll"))
    else:
        told = _("→ %(square)s")
    told = told % {"square": square(state, target)}
    if target < position:  # forward past GO (or onto it): the salary
        salary = signed(state, "+", board.constants["go_salary"])
        if target == 0:
            return _("%(where)s, %(salary)s", where=told, salary=salary)
        return _("%(where)s, %(salary)s for passing %(go)s", where=told, salary=salary, go=square(state, 0))
    return told
