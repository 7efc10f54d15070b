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


@cache
def load_board(edition: str = "us") -> Board:
    """Read rules/editions/<edition>.json (cached: boards never change while running)."""
    path = EDITIONS / f"{edition}.json"
    if not path.is_file():
        raise KeyError(edition)
    data = json.loads(path.read_text(encoding="utf-8"))
    squares = tuple(
        Square(**{**raw, "rent": tuple(raw.get("rent", ()))}) for raw in data["squares"]
    )
    return Board(data["edition"], data["currency"], squares, data["constants"])


def editions() -> list[str]:
    """The names of the editions on disk."""
    return sorted(p.stem for p in EDITIONS.glob("*.json"))
