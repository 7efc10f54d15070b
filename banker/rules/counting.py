"""A player who counts what they pay themselves ("I count it myself", docs/rules.md): which sums
wait for them to count, and how each one is worked out, for their phone to show after a wrong try.

Their own action says they count (`count` on the actions that may charge them: declaration.Counted);
the rent, tax or card's sum it brings then waits as a debt, as a sum their cash does not cover
does, until they pay it with the ordinary `pay_debt`. Nothing else changes: the same sums, to the
same players, in the same order."""

from dataclasses import dataclass, field

from .state import Debt, GameState

# The sums a counting player works out: those their own move or card brought. A fine, a bid, a
# payment they typed and the banker's charges are said with their sum already.
COUNTED = frozenset({"rent", "tax", "card", "repairs"})


def holds(state: GameState, payer: int, reason: str) -> bool:
    """Whether a charge waits as a debt for its payer to count, though their cash covers it."""
    return state.counting == payer and reason in COUNTED


def counts(debt: Debt) -> bool:
    """Whether a debt waits for its payer to count it: one their cash covered. A sum their cash does
    not cover is a debt as for anyone (they raise the cash first), and says its sum."""
    return bool(debt.why.get("counted"))


@dataclass(frozen=True)
class WorkedOut:
    """How a sum is made, in figures for the words of each kind (`how`):

    - "street": `rent` for `level` (0 to 4 houses, 5 a hotel), `doubled` for a complete group;
    - "railroad": `rent` for the `held` railroads;
    - "utility": `times` the `dice` (`held`: the utilities the owner holds; 0 after a card);
    - "tax": the printed `amount`; "tenth": a tenth of the `worth`, rounded;
    - "card": the card's `amount`; "each": `each` to every one of the `players`;
    - "repairs": `houses` at `per_house` and `hotels` at `per_hotel`;
    - "price": the deed's printed `price`.

    A card that doubles a rent sets `by_card`. `total` is the sum itself."""

    how: str
    square: int | None
    total: int
    figures: dict = field(default_factory=dict)
    by_card: bool = False


def worked_out(state: GameState, debt: Debt) -> WorkedOut:
    """How a debt's sum is made, from what the charge recorded (Debt.why): the figures as they were
    when it was charged, whatever was built or traded since."""
    why, board = debt.why, state.board
    square = board[debt.square] if debt.square is not None else None
    by_card = bool(why.get("doubled_by_card"))
    if debt.reason == "rent" and square.type == "street":
        level = why["level"]
        return WorkedOut("street", debt.square, debt.amount, {"level": level, "rent": square.rent[level],
                                                              "doubled": why["doubled"]}, by_card)
    if debt.reason == "rent" and square.type == "railroad":
        return WorkedOut("railroad", debt.square, debt.amount,
                         {"held": why["held"], "rent": square.rent[why["held"] - 1]}, by_card)
    if debt.reason == "rent":  # a utility: its rate times the dice, or ten times after a card
        held = why.get("held", 0)
        return WorkedOut("utility", debt.square, debt.amount,
                         {"held": held, "times": square.rent[held - 1] if held else 10, "dice": why["dice"]})
    if debt.reason == "tax" and why.get("choice") == "percent":
        return WorkedOut("tenth", debt.square, debt.amount, {"worth": why["worth"]})
    if debt.reason == "tax":
        return WorkedOut("tax", debt.square, debt.amount, {"amount": debt.amount})
    if debt.reason == "repairs":
        return WorkedOut("repairs", None, debt.amount,
                         {key: why[key] for key in ("houses", "per_house", "hotels", "per_hotel")})
    if debt.payees:
        return WorkedOut("each", None, debt.amount, {"each": why["each"], "players": len(debt.payees)})
    return WorkedOut("card", None, debt.amount, {"amount": debt.amount})


def purchase(state: GameState, player: int) -> WorkedOut | None:
    """The price of the deed offered to `player` now, as a sum they count; None when none is."""
    pending = state.pending
    if not pending or pending["kind"] != "buy" or pending["player"] != player:
        return None
    price = state.board[pending["square"]].price
    return WorkedOut("price", pending["square"], price, {"price": price})
