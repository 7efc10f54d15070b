"""The board: forty squares loaded from an edition file in rules/editions/."""

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

EDITIONS = Path(__file__).with_name("editions")
OWNABLE = ("street", "railroad", "utility")


@dataclass(frozen=True)
class Square:
    """One square of the board; prices and rents only on deeds."""

    index: int
    name: str
    type: str
    short: str = ""
    group: str | None = None
    price: int = 0
    rent: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    amount: int = 0
    tax: str | None = None

    @property
    def ownable(self) -> bool:
        """True for a deed: a street, railroad or utility."""
        return self.type in OWNABLE


@dataclass(frozen=True)
class Board:
    """An edition's squares and constants."""

    edition: str
    currency: str
    squares: tuple[Square, ...]
    constants: dict = field(hash=False)

    def __getitem__(self, index: int) -> Square:
        return self.squares[index]

    def __len__(self) -> int:
        return len(self.squares)

    @property
    def deeds(self) -> tuple[Square, ...]:
        """Every ownable square, in board order."""
        return tuple(s for s in self.squares if s.ownable)

    def of_type(self, kind: str) -> tuple[Square, ...]:
        """Squares of one type ("railroad", "utility", ...), in board order."""
        return tuple(s for s in self.squares if s.type == kind)

    def group(self, name: str) -> tuple[Square, ...]:
        """The lots of one colour group, in board order."""
        return tuple(s for s in self.squares if s.group == name)

    @property
    def jail(self) -> int:
        return self.constants["jail_index"]


# The boards a game can be played on. A name comes from users (the API's "edition"), so it is
# looked up here and never used as a path on its own.
EDITION_NAMES = ("us",)


@cache
def load_board(edition: str = "us") -> Board:
    """Read rules/editions/<edition>.json (cached: boards never change while running); KeyError for
    a name that is not in EDITION_NAMES."""
    if edition not in EDITION_NAMES:
        raise KeyError(edition)
    data = json.loads((EDITIONS / f"{edition}.json").read_text(encoding="utf-8"))
    squares = tuple(
        Square(**{**raw, "rent": tuple(raw.get("rent", ()))}) for raw in data["squares"]
    )
    return Board(data["edition"], data["currency"], squares, data["constants"])

