"""Money on the screens: an edition's symbol placed where the reader's locale puts it, with the
locale's digit grouping ($1,500, 1 500 €, £1,500), and the amounts people type read back."""

import re
from functools import cache

from babel import Locale
from babel.numbers import format_decimal, format_percent
from flask_babel import get_locale

# Locales that leave four-digit amounts ungrouped (CLDR's minimumGroupingDigits 2, which Babel's
# formatting does not apply): 1500 € but 15 000 € in Portugal.
UNGROUPED_BELOW = {"pt_PT": 10_000}
# Whole amounts typed with separators between groups of three: "1,500", "1.500", "1 500".
GROUPED = re.compile(r"-?\d{1,3}(?:[,.\s\u00a0\u202f']\d{3})+")


@cache
def _symbol_first(locale: str) -> tuple[bool, str]:
    """Whether the locale writes the currency before the number, and what separates them."""
    pattern = Locale.parse(locale).currency_formats["standard"].pattern.split(";")[0]
    if pattern.startswith("¤"):
        return True, pattern[1] if pattern[1] in " \u00a0" else ""
    return False, "\u00a0"


def money(amount: int, symbol: str = "$") -> str:
    """An amount in the edition's currency for this request's locale."""
    locale = str(get_locale())
    grouped = abs(amount) >= UNGROUPED_BELOW.get(locale, 0)
    number = format_decimal(abs(amount), format=None if grouped else "0", locale=locale)
    first, space = _symbol_first(locale)
    sign = "-" if amount < 0 else ""
    return f"{sign}{symbol}{space}{number}" if first else f"{sign}{number}{space}{symbol}"


def ten_percent() -> str:
    """The mortgage interest and the old Income Tax's share, as the locale writes it: 10%, 10 %."""
    return format_percent(0.1, locale=str(get_locale()))


def typed(value):
    """An amount as typed into a form, with its group separators taken out ("1 500" → "1500");
    anything else is passed on unchanged for the rules to accept or refuse by name."""
    if isinstance(value, str) and GROUPED.fullmatch(value.strip()):
        return re.sub(r"[^\d-]", "", value)
    return value
