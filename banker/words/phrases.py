"""The game's things as a sentence names them, in the reader's language: a party to a payment (a
player, the bank, Free Parking), a square, an amount in the edition's money, a lot's buildings, a
list, a card the app does not know; and a refusal's or an effect's parameters so named, for the
sentences of narrate.py and the pages to be filled with."""

from babel.lists import format_list

from ..rules.state import BANK, POT, GameState
from . import amounts
from .labels import TOKEN_NAMES
from .languages import gettext as _, locale, ngettext
from .names import square_name

# The parameters that are amounts of money.
MONEY_PARAMS = {"amount", "cash", "price", "total_owed"}


def money(state: GameState, amount: int) -> str:
    """An amount in the edition's currency, as the reader's locale writes it: $1,500, 1 500 €."""
    return amounts.money(amount, state.board.currency)


def listed(items) -> str:
    """Names or things as a list in the reader's language (CLDR, through Babel): "Ann, Bob, and Cy",
    « Ann, Bob et Cy », "Ann、Bob、Cy"."""
    return format_list(list(items), locale=locale())


def party(state: GameState, who) -> str:
    """A player's name, "the bank" or "Free Parking"."""
    if who == BANK:
        return _("the bank")
    if who == POT:
        return _("Free Parking")
    if who is None:
        return _("nobody")
    return state.player(who).name if state.has_player(who) else _("player %(id)s", id=who)


def square(state: GameState, index: int) -> str:
    """Square `index` of the game's board as the reader sees it named (names.py)."""
    return square_name(state.board, index)


def named(state: GameState, params: dict) -> dict:
    """A refusal's or an effect's parameters as its sentence names them: squares and parties by name,
    a deck, a building and a token in words, amounts in the edition's money."""
    shown = {}
    for key, value in params.items():
        if (key == "square" or key.endswith("_square")) and isinstance(value, int):
            value = square(state, value)
        elif key in ("player", "to", "from", "debtor", "creditor", "offerer"):
            value = party(state, value)
        elif key == "deck":
            value = _(value)
        elif key == "building" and value in ("house", "hotel"):
            value = building_word(value)
        elif key == "token" and value in TOKEN_NAMES:
            value = TOKEN_NAMES[value]
        elif key in MONEY_PARAMS and isinstance(value, int):
            value = money(state, value)
        shown[key] = value
    return shown


def buildings(level: int) -> str:
    """"hotel", "3 houses" or "" for a lot's level 0-5."""
    if level == 5:
        return _("hotel")
    return ngettext("%(num)s house", "%(num)s houses", level) if level else ""


def building_word(building: str) -> str:
    """"house" or "hotel"."""
    return _("hotel") if building == "hotel" else _("house")


def custom_card(state: GameState, effect: dict) -> str:
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
