"""What each field of an action may hold: a parser per kind of value, raising ActionError with a
message that names the field. Parsing checks only the shape of the input; whether the action is
legal now is for the rule modules to decide."""

from .errors import N_, ActionError
from .state import BANK, POT, TOKENS

MAX_MEMO = 80
MAX_NAME = 20
MAX_AMOUNT = 1_000_000


def whole(value, name: str, low: int, high: int) -> int:
    """A whole number from low to high; digits typed into a form are accepted too."""
    # isdecimal, not isdigit: int() rejects "²"; the length cap keeps int() under its digit limit.
    if isinstance(value, str) and len(value) <= 20 and value.strip().removeprefix("-").isdecimal():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError("bad_field", N_("{field} must be a whole number."), field=name)
    if not low <= value <= high:
        raise ActionError(
            "bad_field", N_("{field} must be from {low} to {high}."), field=name, low=low, high=high
        )
    return value


def amount(value, name="amount") -> int:
    """A sum of money: a whole number from 1 to a million."""
    return whole(value, name, 1, MAX_AMOUNT)


def yes(value, name) -> bool | None:
    """A yes-or-no flag: true (also "1", "true" or "on", as a form sends it) or false; false is
    kept as None, so that an action stores the flag only when it is set."""
    if value in (True, "1", "true", "on"):
        return True
    if value in (False, "0", "false", "off"):
        return None
    raise ActionError("bad_field", N_("{field} must be true or false."), field=name)


def told(value, name) -> bool:
    """A yes-or-no fact told as it is (JSON true or false), kept either way: false says something
    too (a tournament's last turn no longer called)."""
    if not isinstance(value, bool):
        raise ActionError("bad_field", N_("{field} must be true or false."), field=name)
    return value


def die(value, name="dice") -> int:
    return whole(value, name, 1, 6)


def dice(value, name="dice") -> tuple[int, int]:
    """Two dice, 1 to 6 each."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ActionError("bad_field", N_("dice must be two numbers from 1 to 6."), field=name)
    return (die(value[0]), die(value[1]))


def player_id(value, name="player") -> int:
    return whole(value, name, 1, 10_000)


def square(value, name="square") -> int:
    return whole(value, name, 0, 39)


def payee(value, name="to"):
    """Another player's id, "bank" or "free_parking"."""
    if value in (BANK, POT):
        return value
    return player_id(value, name)


def text(limit: int):
    """Short printable text, stripped; a parser for names and memos."""

    def parse(value, name):
        if not isinstance(value, str):
            raise ActionError("bad_field", N_("{field} must be text."), field=name)
        value = " ".join(value.split())
        if len(value) > limit or not value.isprintable():
            raise ActionError(
                "bad_field", N_("{field} must be at most {limit} printable characters."),
                field=name, limit=limit,
            )
        return value

    return parse


def name(value, field_name="name") -> str:
    value = text(MAX_NAME)(value, field_name)
    if not value:
        raise ActionError("bad_field", N_("Type a name."), field=field_name)
    return value


def token(value, name="token") -> str:
    if value not in TOKENS:
        raise ActionError("bad_token", N_("Pick one of the eight tokens."))
    return value


def order(value, name="order") -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise ActionError("bad_field", N_("order must be a list of player ids."), field=name)
    return tuple(player_id(v, name) for v in value)


def levels(value, name="levels") -> dict[int, int]:
    """A colour group's building levels: {"<square>": 0..5}, 5 meaning a hotel."""
    if not isinstance(value, dict) or not 1 <= len(value) <= 4:
        raise ActionError("bad_field", N_("levels must map each lot of a group to 0-5."), field=name)
    return {square(k, "square"): whole(v, "level", 0, 5) for k, v in value.items()}


def squares(value, name="squares") -> list[int]:
    """Distinct board squares."""
    if not isinstance(value, (list, tuple)) or len(value) > 28:
        raise ActionError("bad_field", N_("{field} must be a list of squares."), field=name)
    found = [square(v, name) for v in value]
    if len(set(found)) != len(found):
        raise ActionError("bad_field", N_("{field} lists a square twice."), field=name)
    return found


def bundle(value, name="give") -> dict:
    """One side of a trade: {"cash", "squares", "jail_cards"}, each optional."""
    if not isinstance(value, dict) or set(value) - {"cash", "squares", "jail_cards"}:
        raise ActionError("bad_field", N_("{field} may hold cash, squares and jail_cards."), field=name)
    cards = value.get("jail_cards") or []
    if not isinstance(cards, list) or len(cards) > 2 or not all(isinstance(c, str) and len(c) <= 40 for c in cards):
        raise ActionError("bad_field", N_("jail_cards must list card ids."), field=name)
    if len(set(cards)) != len(cards):
        raise ActionError("bad_field", N_("{field} lists a card twice."), field=name)
    cash = value.get("cash") or 0
    return {"cash": whole(cash, "cash", 0, MAX_AMOUNT) if cash else 0,
            "squares": squares(value.get("squares") or [], name), "jail_cards": list(cards)}


def building(value, name="building") -> str:
    if value not in ("house", "hotel"):
        raise ActionError("bad_field", N_("building must be house or hotel."), field=name)
    return value


def serial(value, name) -> int:
    """The id of a debt or a trade."""
    return whole(value, name, 1, 10**9)


def seen_bid(value, name) -> int:
    """The high bid a countdown was started for: 0 (no bid yet) or more."""
    return whole(value, name, 0, MAX_AMOUNT)


def deck_name(value, name="deck") -> str:
    if value not in ("chance", "chest"):
        raise ActionError("bad_field", N_("deck must be chance or chest."), field=name)
    return value


def card_id(value, name="card") -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40:
        raise ActionError("bad_field", N_("card must be a card id."), field=name)
    return value


# What a card the app does not know may do ("Another card…"): the engine's own effect kinds, each
# with the fields it needs, as a printed card in rules/editions/ has them.
CARD_FIELDS = {
    "collect": ("amount",), "pay": ("amount",),
    "collect_from_each_player": ("amount",), "pay_each_player": ("amount",),
    "move_to": ("square",), "go_back_to": ("square",), "move_back": ("spaces",),
    "advance_to_nearest": ("type",), "move_to_nearest": ("type",),
    "repairs": ("per_house", "per_hotel"),
    "go_to_jail": (), "get_out_of_jail_free": (),
}


def square_type(value, name="type") -> str:
    if value not in ("railroad", "utility"):
        raise ActionError("bad_field", N_("type must be railroad or utility."), field=name)
    return value


CARD_FIELD_PARSERS = {
    "amount": amount, "square": square, "spaces": lambda v, name: whole(v, name, 1, 39), "type": square_type,
    "per_house": lambda v, name: whole(v, name, 0, MAX_AMOUNT), "per_hotel": lambda v, name: whole(v, name, 0, MAX_AMOUNT),
}


def card_effect(value, name="effect") -> dict:
    """What a card the app does not know does: {"kind": one of CARD_FIELDS, and that kind's fields}."""
    if not isinstance(value, dict) or value.get("kind") not in CARD_FIELDS:
        raise ActionError("bad_field", N_("effect must have a kind: {kinds}."), field=name,
                          kinds=", ".join(CARD_FIELDS))
    kind = value["kind"]
    wanted = CARD_FIELDS[kind]
    for key in value:
        if key != "kind" and key not in wanted:
            raise ActionError("bad_field", N_("A {kind} card has no field {field}."), kind=kind, field=str(key)[:30])
    effect = {"kind": kind}
    for key in wanted:
        if value.get(key) in (None, ""):
            raise ActionError("missing_field", N_("This card needs {field}."), field=key)
        effect[key] = CARD_FIELD_PARSERS[key](value[key], key)
    if kind == "repairs" and not effect["per_house"] and not effect["per_hotel"]:
        raise ActionError("bad_field", N_("A repairs card charges for a house, a hotel or both."), field="per_house")
    return effect


def claim_choice(value, name="choice") -> str:
    if value not in ("take", "auction"):
        raise ActionError("bad_field", N_("choice must be take or auction."), field=name)
    return value


def card_choice(value, name="choice") -> str:
    """What a "pay a fine or draw a card" card's drawer chooses."""
    if value not in ("pay", "draw"):
        raise ActionError("bad_field", N_("choice must be pay or draw."), field=name)
    return value


def tax_choice(value, name="choice") -> str:
    if value not in ("flat", "percent"):
        raise ActionError("bad_field", N_("choice must be flat or percent."), field=name)
    return value


def moment(value, name) -> int:
    """A moment as Unix time in whole seconds (a tournament's round clock)."""
    return whole(value, name, 0, 2**40)


def seconds(value, name) -> int:
    """A length of time in whole seconds, up to a day."""
    return whole(value, name, 0, 86_400)
