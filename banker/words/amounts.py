"""Money on the screens: an edition's symbol placed where the reader's locale puts it, with the
locale's digit grouping ($1,500, 1 500 €, £1,500), and the amounts people type read back."""

import re
from functools import cache

from typing import NamedTuple

from babel import Locale
from babel.numbers import format_decimal, format_percent, get_group_symbol

from .languages import locale

# Locales that leave four-digit amounts ungrouped (CLDR's minimumGroupingDigits 2, which Babel's
# formatting does not apply): 1500 € but 15 000 € in Portugal.
UNGROUPED_BELOW = {"pt_PT": 10_000}
# Whole amounts typed with separators between groups of three: "1,500", "1.500", "1 500"; and any
# amount with the currency's sign as it is written on the money: "20 €", "$20", "£1,500".
GROUPED = re.compile(r"-?\d{1,3}(?:[,.\s\u00a0\u202f']\d{3})+")
CURRENCY = re.compile(r"^\s*[$€£¥]\s*|\s*[$€£¥]\s*$")


class Style(NamedTuple):
    """How a locale writes money: its digit group separator, the currency before or after the
    number, and what separates them."""

    group: str
    symbol_first: bool
    space: str
    grouped_from: int


@cache
def style(locale: Locale) -> Style:
    """Read from Babel's locale data once per locale: a screen shows a hundred amounts, and
    formatting each through Babel took 15 to 30 µs."""
    pattern = locale.currency_formats["standard"].pattern.split(";")[0]
    first = pattern.startswith("¤")
    space = (pattern[1] if pattern[1] in " \u00a0" else "") if first else "\u00a0"
    return Style(get_group_symbol(locale), first, space, UNGROUPED_BELOW.get(str(locale), 0))


def money(amount: int, symbol: str = "$") -> str:
    """An amount in the edition's currency for this request's locale. Every locale we speak groups
    digits by three, so Python's grouping with the locale's separator is Babel's (the tests check)."""
    how = style(locale())
    number = f"{abs(amount):,}".replace(",", how.group) if abs(amount) >= how.grouped_from else str(abs(amount))
    sign = "−\u2060" if amount < 0 else ""  # a minus sign, not a hyphen, and never left alone at a line's end
    return f"{sign}{symbol}{how.space}{number}" if how.symbol_first else f"{sign}{number}{how.space}{symbol}"


def about(value: float) -> str:
    """An expected count as the reader's locale writes a decimal, to a tenth below ten and whole
    from there on: 0.3, 0,3 in French; 12."""
    return format_decimal(value, "0" if value >= 9.5 else "0.0", locale=locale())


def ten_percent() -> str:
    """The mortgage interest and the old Income Tax's share, as the locale writes it: 10%, 10 %."""
    return format_percent(0.1, locale=str(locale()))


def typed(value):
    """An amount as typed into a form, with its group separators and currency sign taken out
    ("1 500" → "1500", "20 €" → "20");
    anything else is passed on unchanged for the rules to accept or refuse by name."""
    if isinstance(value, str):
        value = CURRENCY.sub("", value)
        if GROUPED.fullmatch(value.strip()):
            return re.sub(r"[^\d-]", "", value)
    return value
