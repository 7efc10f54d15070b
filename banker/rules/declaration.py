"""How an action is declared, and read from a dict: `@action` makes a class a frozen, keyword-only
dataclass and registers it under its type name, with who may take it and when; `parse` turns the
dict a form or the API sent into one of them. The actions themselves are in actions/.

Parsing checks only the shape of the input (types, ranges, known fields); whether the action is
legal now is for the rule modules to decide.
"""

from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from typing import dataclass_transform

from .errors import N_, ActionError
from .inputs import player_id, yes
from .state import GameState


class Who(Enum):
    """Who may take an action, and whether it is for a seat."""

    SEAT = "seat"  # a player for their own seat, or the banker for any seat (by default whose turn it is)
    BANKER_FOR_SEAT = "banker_for_seat"  # the banker alone, for a seat
    BANKER = "banker"  # the banker alone, for the whole table: it names no seat
    NEWCOMER = "newcomer"  # someone without a seat, or the banker seating them: it names no seat

    @property
    def banker_only(self) -> bool:
        return self in (Who.BANKER_FOR_SEAT, Who.BANKER)

    @property
    def seatless(self) -> bool:
        return self in (Who.BANKER, Who.NEWCOMER)


def arg(parse, missing: str | None = None, **kw):
    """A field of an action, parsed by `parse`; required unless a default is given.

    `missing` is the message when a required field is absent (default: "<type> needs <field>").
    """
    return field(metadata={"parse": parse, "missing": missing}, **kw)


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base of every action. `player` lets the banker act for a seat."""

    # Set by @action (class attributes, not fields): see there.
    type = ""
    who = Who.SEAT
    in_lobby = False
    deal = False

    player: int | None = arg(player_id, default=None)

    def run(self, state: GameState, player: int | None, effects: list) -> None:
        """Apply the action's rule to `state` for seat `player` (None when the action names no
        seat), adding what happened to `effects`; raise RuleError when it is illegal now."""
        raise NotImplementedError(self.type)

    def to_dict(self) -> dict:
        """The normalized action as stored in the event log."""
        data = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                data[f.name] = {str(k): v for k, v in value.items()}
            elif value is not None:
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, kw_only=True)
class Counted(Action):
    """An action that may charge its own seat rent, a tax or a card's sum. With `count`, the seat
    counts that sum themselves ("I count it myself"): it waits as a debt until they have, though
    their cash covers it (counting.py)."""

    count: bool | None = arg(yes, default=None)


ACTIONS: dict[str, type[Action]] = {}


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(arg, field))
def action(type_name: str, who: Who = Who.SEAT, *, in_lobby: bool = False, deal: bool = False):
    """Declare an action: a frozen, keyword-only dataclass registered under `type_name`.

    `who` may take it; `in_lobby`: it is taken before the game starts (every other action waits for
    the start); `deal`: under the tournament rule it waits until between turns (deals.py).
    """

    def declare(cls):
        cls = dataclass(frozen=True, kw_only=True)(cls)
        cls.type, cls.who, cls.in_lobby, cls.deal = type_name, who, in_lobby, deal
        ACTIONS[type_name] = cls
        return cls

    return declare


# What a form or an API call may send beside an action's own fields.
CONTROL = {"nonce", "csrf_token"}


def only_fields(data: dict, known) -> None:
    """Refuse a field the action does not have (undo has none), rather than ignore it."""
    for key in data:
        if key not in known and key != "type" and key not in CONTROL:
            raise ActionError("unknown_field", N_("{type} has no field {field}."),
                              type=data["type"], field=str(key)[:30])


def parse(data, vocabulary: dict | None = None) -> Action:
    """Turn a dict from a form or the API into an Action, or raise ActionError saying what is wrong.
    `vocabulary` is the registry to read it from: a game's ACTIONS unless told (an event's has its own)."""
    if not isinstance(data, dict):
        raise ActionError("bad_action", N_("An action must be a JSON object."))
    kind = data.get("type")
    cls = (vocabulary or ACTIONS).get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError("unknown_action", N_("Unknown action type: {type}."), type=str(kind)[:30])
    known = {f.name: f for f in fields(cls)}
    only_fields(data, known)
    values = {}
    for f in known.values():
        raw = data.get(f.name)
        if raw is None or raw == "":
            if f.default is not MISSING:
                continue
            if f.metadata["missing"]:
                raise ActionError("missing_field", f.metadata["missing"], field=f.name)
            raise ActionError("missing_field", N_("{type} needs {field}."), type=kind, field=f.name)
        values[f.name] = f.metadata["parse"](raw, f.name)
    return cls(**values)
