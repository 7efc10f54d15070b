"""Square names for the reader. A place (a street, a station) keeps the name printed on the
table's board whatever the reader's language: Mayfair is Mayfair on a French phone, since that is
what the players look for on the board. A square that is a game term (GO, Chance, a tax, a
utility) is named in the reader's language, unless that is the board's own."""

import unicodedata
from functools import cache

from ..rules.board import EDITION_NAMES, Board, load_board
from ..rules.errors import N_
from .languages import gettext as _, locale_name

TERMS = {
    "go": N_("GO"), "community_chest": N_("Community Chest"), "chance": N_("Chance"),
    "jail": N_("Jail / Just Visiting"), "free_parking": N_("Free Parking"), "go_to_jail": N_("Go to Jail"),
    "income_tax": N_("Income Tax"), "luxury_tax": N_("Luxury Tax"), "super_tax": N_("Super Tax"),
    "electric_company": N_("Electric Company"), "water_works": N_("Water Works"),
}
# Shorter words for the board's small squares where the full term is long.
SHORT_TERMS = {"jail": N_("Jail"), "community_chest": N_("Comm. Chest"), "electric_company": N_("Electric Co.")}


def reader_language() -> str:
    return locale_name().split("_")[0]


def sort_key(name: str) -> str:
    """A person's name as a list in alphabetical order sorts it: case and accents folded, so that
    Élodie comes among the Es, not after Kim (Python's own order is the code points')."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))


def labelled(labels: dict[str, str]) -> str:
    """A name an edition's file gives in each language (a board's, a printing's), in the reader's."""
    return labels.get(reader_language(), labels["en"])


def square_name(board: Board, index: int, short: bool = False) -> str:
    """Square `index` of `board` as this request's reader sees it named."""
    return square_names(board, short)[index]


def square_names(board: Board, short: bool = False) -> tuple[str, ...]:
    """Every square's name for this request's reader (the host board shows all forty)."""
    return _names(board.edition, reader_language(), short)


@cache
def _names(edition: str, language: str, short: bool) -> tuple[str, ...]:
    """Made once per edition and language, in a request read in that language (the key). A term
    without a short form of its own (SHORT_TERMS) is shortened as the reader's own board prints it
    (Eaux, Imposto): the full term may be too long for a tile."""
    board = load_board(edition)
    own = _own_short_terms(language) if short else {}

    def term(key: str) -> str:
        return _(SHORT_TERMS[key]) if short and key in SHORT_TERMS else own.get(key) or _(TERMS[key])

    return tuple(term(s.term) if s.term and language != board.language else (short and s.short) or s.name
                 for s in board.squares)


@cache
def _own_short_terms(language: str) -> dict[str, str]:
    """The short names of the terms on the first board printed in `language` ({} if none is)."""
    own = next((load_board(e) for e in EDITION_NAMES if load_board(e).language == language), None)
    return {s.term: s.short for s in own.squares if s.term} if own else {}


def square_choices(board: Board) -> tuple[str, ...]:
    """Every square's name as a list to choose from shows it: a name the board has more than once
    (Chance, Community Chest) says which, by the square before it ("Chance, after Oriental Avenue")."""
    return _choices(board.edition, reader_language())


@cache
def _choices(edition: str, language: str) -> tuple[str, ...]:
    names = _names(edition, language, False)
    return tuple(_("%(name)s, after %(previous)s", name=name, previous=names[i - 1]) if names.count(name) > 1 else name
                 for i, name in enumerate(names))
