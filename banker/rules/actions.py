"""The action vocabulary: every change to a game is one of these, parsed from a dict and validated.

Parsing checks only the shape of the input (types, ranges, known fields); whether the action is
legal now is for the rule modules to decide.
"""

from dataclasses import MISSING, dataclass, field, fields

from .errors import N_, ActionError
from .inputs import (
    MAX_MEMO,
    amount,
    building,
    bundle,
    card_id,
    claim_choice,
    deck_name,
    dice,
    levels,
    name,
    order,
    payee,
    player_id,
    seen_bid,
    serial,
    square,
    squares,
    tax_choice,
    text,
    token,
)


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
    debt: int | None = arg(serial, default=None)


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
    high_bid: int | None = arg(seen_bid, default=None)


@action("auction_building")
@dataclass(frozen=True, kw_only=True)
class AuctionBuilding(Action):
    building: str = arg(building)


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
    trade: int = arg(serial)
    lift: list = arg(squares, default=None)


@action("reject_trade")
@dataclass(frozen=True, kw_only=True)
class RejectTrade(Action):
    trade: int = arg(serial)


@action("withdraw_trade")
@dataclass(frozen=True, kw_only=True)
class WithdrawTrade(Action):
    trade: int = arg(serial)


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


@action("income_tax")
@dataclass(frozen=True, kw_only=True)
class IncomeTax(Action):
    choice: str = arg(tax_choice)


@action("bankrupt")
@dataclass(frozen=True, kw_only=True)
class Bankrupt(Action):
    pass


@action("claim_deeds")
@dataclass(frozen=True, kw_only=True)
class ClaimDeeds(Action):
    choice: str = arg(claim_choice)


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


def only_fields(data: dict, known) -> None:
    """Refuse a field the action does not have (undo has none), rather than ignore it."""
    for key in data:
        if key not in known and key != "type" and key not in CONTROL:
            raise ActionError("unknown_field", N_("{type} has no field {field}."),
                              type=data["type"], field=str(key)[:30])


def parse(data) -> Action:
    """Turn a dict from a form or the API into an Action, or raise ActionError saying what is wrong."""
    if not isinstance(data, dict):
        raise ActionError("bad_action", N_("An action must be a JSON object."))
    kind = data.get("type")
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
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

