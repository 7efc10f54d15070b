"""The board: forty squares loaded from an edition file in rules/editions/. A national edition
(uk, fr, pt, ja) is the US board's numbers under its own names, currency and defaults, among them
its own Chance and Community Chest cards (the setting `cards`, PRINTINGS)."""

import json
from dataclasses import dataclass, field
from functools import cache, cached_property
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
    # What the square is, for the screens to name it in their reader's language when it is not a
    # place ("go", "chance", "income_tax", "super_tax", ...); a place keeps its printed name.
    term: str | None = None

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
    language: str = "en"  # the language its names are printed in
    # The settings this edition's own rulebook gives where they differ from the US (a game's preset
    # and its chosen settings still override them).
    settings: dict = field(default_factory=dict, hash=False)

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
        return self._groups.get(name, ())

    @cached_property
    def _groups(self) -> dict[str | None, tuple[Square, ...]]:
        # Found once: the rules and screens ask for a group dozens of times a change.
        groups: dict[str | None, list[Square]] = {}
        for square in self.squares:
            groups.setdefault(square.group, []).append(square)
        return {name: tuple(squares) for name, squares in groups.items()}

    @property
    def jail(self) -> int:
        return self.constants["jail_index"]


def _found() -> tuple[dict[str, dict], dict[str, dict]]:
    """Every edition in rules/editions/: each board file (`<edition>.json`, with its `label` in each
    language and its `order` among the boards offered) and the printings its cards file
    (`<edition>_cards.json`) declares, each with its label and its two decks. Adding a board is
    adding those two files: the home page, the rulebook, the API's errors and the tests read them
    from here."""
    boards, printings = {}, {}
    for path in sorted(EDITIONS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if path.stem.endswith("_cards"):
            printings.update({key: {**entry, "file": path.stem} for key, entry in data["printings"].items()})
        else:
            boards[path.stem] = data
    boards = dict(sorted(boards.items(), key=lambda item: item[1]["order"]))
    # A board's printings come in its order: "<edition>_cards" holds the printings of <edition>.
    order = {f"{name}_cards": n for n, name in enumerate(boards)}
    printings = dict(sorted(printings.items(), key=lambda item: order[item[1]["file"]]))
    return boards, printings


_BOARDS, _PRINTINGS = _found()
# The boards a game can be played on, in the order they are offered. A name comes from users (the
# API's "edition"), so it is looked up here and never used as a path on its own.
EDITION_NAMES = tuple(_BOARDS)
# Each board's name in each language (the language code: "en", "fr", ...).
EDITION_LABELS = {name: data["label"] for name, data in _BOARDS.items()}
# The printings of the Chance and Community Chest cards a game can play with (the setting `cards`),
# each in its edition's cards file: its name in each language, and its two decks, or ("us": the US
# default) the Chance with the Community Chest that the setting `community_chest` chooses
# (cards.printing). The new-game form offers those that are not `within` another (us_2021 and
# us_2008 are offered as "us" with its Community Chest chosen beside it).
PRINTING_LABELS = {key: entry["label"] for key, entry in _PRINTINGS.items()}
OFFERED_PRINTINGS = tuple(key for key, entry in _PRINTINGS.items() if "within" not in entry)
PRINTINGS = {key: (entry["file"], entry["chance"], entry["chest"]) for key, entry in _PRINTINGS.items()
             if "chance" in entry}
# A square's term when its type says it all (taxes and utilities name their own).
TERMS = {"go": "go", "community_chest": "community_chest", "chance": "chance", "jail": "jail",
         "free_parking": "free_parking", "go_to_jail": "go_to_jail"}


@cache
def load_board(edition: str = "us") -> Board:
    """Read rules/editions/<edition>.json (cached: boards never change while running); KeyError for
    a name that is not in EDITION_NAMES."""
    data = _BOARDS[edition]
    raws = data["squares"]
    if "base" in data:  # a national edition: the base's squares under this edition's names
        base = _BOARDS[data["base"]]
        raws = [{**square, **named} for square, named in zip(base["squares"], raws, strict=True)]
        data = {**base, **data}
    squares = tuple(Square(**{"term": _term(raw), **raw, "rent": tuple(raw.get("rent", ()))}) for raw in raws)
    return Board(data["edition"], data["currency"], squares, data["constants"],
                 language=data.get("language", "en"),
                 settings=data.get("settings", {}))


def _term(raw: dict) -> str | None:
    if raw["type"] == "tax":
        return f"{raw['tax']}_tax"
    return TERMS.get(raw["type"])

