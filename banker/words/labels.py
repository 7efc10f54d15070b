"""Names and labels in the reader's language: the tokens, the colour groups, a form's fields as a
refusal names them, the deed buttons. Each is translated as it is read."""

from collections.abc import Mapping

from ..rules.errors import N_
from .languages import gettext as _


class Translated(Mapping):
    """Names put into the reader's language as each is read: a screen reads one or two of them, and
    translating the whole table for every render was a good part of a render's cost."""

    def __init__(self, names: dict[str, str]):
        self._names = names

    def __getitem__(self, key: str) -> str:
        return _(self._names[key])

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


# The eight tokens' names.
TOKEN_NAMES = Translated({
    "hat": N_("Top hat"), "car": N_("Car"), "dog": N_("Dog"), "iron": N_("Iron"),
    "ship": N_("Ship"), "wheelbarrow": N_("Wheelbarrow"), "thimble": N_("Thimble"), "cat": N_("Cat"),
})
# Colour groups, railroads and utilities as the reader calls them.
GROUP_NAMES = Translated({
    "brown": N_("Brown"), "light_blue": N_("Light blue"), "pink": N_("Pink"), "orange": N_("Orange"),
    "red": N_("Red"), "yellow": N_("Yellow"), "green": N_("Green"), "dark_blue": N_("Dark blue"),
    "railroad": N_("Railroads"), "utility": N_("Utilities"),
})


# The form fields that hold money: a refusal on a page says their bounds in the board's money.
MONEY_FIELDS = frozenset({"amount", "cash", "per_house", "per_hotel", "high_bid"})
# A form's fields as a refusal on its page names them (the API's messages keep the JSON names).
FIELD_LABELS = Translated({
    "amount": N_("the amount"), "square": N_("the square"), "spaces": N_("the number of squares back"),
    "per_house": N_("the price for each house"), "per_hotel": N_("the price for each hotel"),
})


# What each deed button says, by the kind holdings gives it (its price is shown beside it).
BUTTON_LABELS = Translated({
    "build_house": N_("Build house"), "build_hotel": N_("Build hotel"), "place": N_("Place here"),
    "no_houses_left": N_("No houses left"), "no_hotels_left": N_("No hotels left"),
    "sell_house": N_("Sell house"), "sell_hotel": N_("Sell hotel"),
    "mortgage": N_("Mortgage"), "unmortgage": N_("Repay mortgage"),
})
