"""The action vocabulary: every change to a game is one of these, parsed from a dict and validated.

Parsing checks only the shape of the input (types, ranges, known fields); whether the action is
legal now is for the rule modules to decide.
"""

from dataclasses import MISSING, dataclass, field, fields

from .errors import ActionError, N_
from .state import BANK, POT, TOKENS

MAX_AMOUNT = 1_000_000
MAX_NAME = 20
MAX_MEMO = 80


def _int(value, name: str, low: int, high: int) -> int:
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
    return _int(value, name, 1, MAX_AMOUNT)


def die(value, name="dice") -> int:
    return _int(value, name, 1, 6)


def dice(value, name="dice") -> tuple[int, int]:
    """Two dice, 1 to 6 each."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ActionError("bad_field", N_("dice must be two numbers from 1 to 6."), field=name)
    return (die(value[0]), die(value[1]))


def player_id(value, name="player") -> int:
    return _int(value, name, 1, 10_000)


def square(value, name="square") -> int:
    return _int(value, name, 0, 39)


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
    return {square(k, "square"): _int(v, "level", 0, 5) for k, v in value.items()}


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
    return {"cash": _int(cash, "cash", 0, MAX_AMOUNT) if cash else 0,
            "squares": squares(value.get("squares") or [], name), "jail_cards": list(cards)}


def building(value, name="building") -> str:
    if value not in ("house", "hotel"):
        raise ActionError("bad_field", N_("building must be house or hotel."), field=name)
    return value


def arg(parse, missing: str | None = None, **kw):
    """A field of an action, parsed by `parse`; required unless a default is given.

    `missing` is the message when a required field is absent (default: "<type> needs <field>").
    """
    return field(metadata={"parse": parse, "missing": missing}, **kw)


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base of every action. `player` lets the banker act for a seat."""

    type = ""
    player: int | None = arg(player_id, default=None)

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


ACTIONS: dict[str, type[Action]] = {}


def action(type_name: str):
    """Register an action class under its type name."""

    def register(cls):
        cls.type = type_name
        ACTIONS[type_name] = cls
        return cls

    return register


@action("join")
@dataclass(frozen=True, kw_only=True)
class Join(Action):
    name: str = arg(name, missing=N_("Type a name."))
    token: str = arg(token, missing=N_("Pick one of the eight tokens."))


@action("opening_roll")
@dataclass(frozen=True, kw_only=True)
class OpeningRoll(Action):
    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))


@action("start")
@dataclass(frozen=True, kw_only=True)
class Start(Action):
    order: tuple[int, ...] | None = arg(order, default=None)


@action("roll")
@dataclass(frozen=True, kw_only=True)
class Roll(Action):
    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))


@action("buy")
@dataclass(frozen=True, kw_only=True)
class Buy(Action):
    pass


@action("decline")
@dataclass(frozen=True, kw_only=True)
class Decline(Action):
    pass


@action("pay_jail_fine")
@dataclass(frozen=True, kw_only=True)
class PayJailFine(Action):
    pass


@action("end_turn")
@dataclass(frozen=True, kw_only=True)
class EndTurn(Action):
    pass


@action("pay")
@dataclass(frozen=True, kw_only=True)
class Pay(Action):
    to: int | str = arg(payee)
    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")


@action("bank_pay")
@dataclass(frozen=True, kw_only=True)
class BankPay(Action):
    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")


@action("bank_charge")
@dataclass(frozen=True, kw_only=True)
class BankCharge(Action):
    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")


@action("pay_debt")
@dataclass(frozen=True, kw_only=True)
class PayDebt(Action):
    debt: int | None = arg(lambda v, n: _int(v, n, 1, 10**9), default=None)


@action("move")
@dataclass(frozen=True, kw_only=True)
class Move(Action):
    square: int = arg(square)


@action("build")
@dataclass(frozen=True, kw_only=True)
class Build(Action):
    square: int = arg(square)


@action("sell_building")
@dataclass(frozen=True, kw_only=True)
class SellBuilding(Action):
    square: int = arg(square)


@action("set_buildings")
@dataclass(frozen=True, kw_only=True)
class SetBuildings(Action):
    levels: dict = arg(levels)


@action("mortgage")
@dataclass(frozen=True, kw_only=True)
class Mortgage(Action):
    square: int = arg(square)


@action("unmortgage")
@dataclass(frozen=True, kw_only=True)
class Unmortgage(Action):
    square: int = arg(square)


@action("bid")
@dataclass(frozen=True, kw_only=True)
class Bid(Action):
    amount: int = arg(amount)


@action("pass")
@dataclass(frozen=True, kw_only=True)
class Pass(Action):
    pass


@action("close_auction")
@dataclass(frozen=True, kw_only=True)
class CloseAuction(Action):
    high_bid: int | None = arg(lambda v, n: _int(v, n, 0, MAX_AMOUNT), default=None)


@action("auction_building")
@dataclass(frozen=True, kw_only=True)
class AuctionBuilding(Action):
    building: str = arg(building)


def _id(value, name):
    return _int(value, name, 1, 10**9)


@action("offer_trade")
@dataclass(frozen=True, kw_only=True)
class OfferTrade(Action):
    to: int = arg(player_id)
    give: dict = arg(bundle, default=None)
    get: dict = arg(bundle, default=None)
    lift: list = arg(squares, default=None)


@action("accept_trade")
@dataclass(frozen=True, kw_only=True)
class AcceptTrade(Action):
    trade: int = arg(_id)
    lift: list = arg(squares, default=None)


@action("reject_trade")
@dataclass(frozen=True, kw_only=True)
class RejectTrade(Action):
    trade: int = arg(_id)


@action("withdraw_trade")
@dataclass(frozen=True, kw_only=True)
class WithdrawTrade(Action):
    trade: int = arg(_id)


def deck_name(value, name="deck") -> str:
    if value not in ("chance", "chest"):
        raise ActionError("bad_field", N_("deck must be chance or chest."), field=name)
    return value


def card_id(value, name="card") -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40:
        raise ActionError("bad_field", N_("card must be a card id."), field=name)
    return value


@action("draw")
@dataclass(frozen=True, kw_only=True)
class Draw(Action):
    deck: str = arg(deck_name)
    card: str = arg(card_id, missing=N_("Pick the card you drew."))


@action("utility_roll")
@dataclass(frozen=True, kw_only=True)
class UtilityRoll(Action):
    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))


@action("use_jail_card")
@dataclass(frozen=True, kw_only=True)
class UseJailCard(Action):
    card: str | None = arg(card_id, default=None)


def tax_choice(value, name="choice") -> str:
    if value not in ("flat", "percent"):
        raise ActionError("bad_field", N_("choice must be flat or percent."), field=name)
    return value


@action("income_tax")
@dataclass(frozen=True, kw_only=True)
class IncomeTax(Action):
    choice: str = arg(tax_choice)


@action("bankrupt")
@dataclass(frozen=True, kw_only=True)
class Bankrupt(Action):
    pass


@action("receive_deeds")
@dataclass(frozen=True, kw_only=True)
class ReceiveDeeds(Action):
    lift: list = arg(squares, default=None)


@action("end_game")
@dataclass(frozen=True, kw_only=True)
class EndGame(Action):
    pass


@action("seed_jackpot")
@dataclass(frozen=True, kw_only=True)
class SeedJackpot(Action):
    amount: int = arg(amount)


# Not parsed into the rules: the store implements undo by replaying the log without the last event.
UNDO = "undo"
CONTROL = {"nonce", "csrf_token"}


def parse(data) -> Action:
    """Turn a dict from a form or the API into an Action, or raise ActionError saying what is wrong."""
    if not isinstance(data, dict):
        raise ActionError("bad_action", N_("An action must be a JSON object."))
    kind = data.get("type")
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError("unknown_action", N_("Unknown action type: {type}."), type=str(kind)[:30])
    known = {f.name: f for f in fields(cls)}
    for key in data:
        if key not in known and key != "type" and key not in CONTROL:
            raise ActionError("unknown_field", N_("{type} has no field {field}."), type=kind, field=str(key)[:30])
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

