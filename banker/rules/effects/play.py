"""What happened in the play at the table: seats taken, the start, the dice, the turn, tokens moved,
what the squares and the cards ask for, jail, and the end. One constructor per kind (package
docstring); the rule modules of the play import this module as `happened`.
"""

from collections.abc import Sequence

from . import kind

# The lobby and the turn


@kind
def joined(player: int) -> dict:
    """A newcomer took seat `player`."""
    return {"player": player}


@kind
def opening_roll(player: int, dice: Sequence[int]) -> dict:
    """`player` rolled `dice` (two numbers) for the seat order."""
    return {"player": player, "dice": list(dice)}


@kind
def seats_fixed(order: list[int]) -> dict:
    """The seats are fixed: nobody else joins, and `order` (the seats as they were taken) is the
    turn order."""
    return {"order": order}


@kind
def started(order: list[int]) -> dict:
    """The game started; `order` is the seats in turn order, the first to roll first."""
    return {"order": order}


@kind
def rolled(player: int, dice: Sequence[int]) -> dict:
    """`player` rolled `dice` (two numbers): to move, in jail, or for a utility's rent."""
    return {"player": player, "dice": list(dice)}


@kind
def turn(player: int) -> dict:
    """It is `player`'s turn now."""
    return {"player": player}


# Moving and landing


@kind
def moved(player: int, from_square: int, square: int, correction: bool = False) -> dict:
    """`player`'s token went from `from_square` to `square`: by the dice or a card, or put there by
    the banker (`correction`, present only then: nothing is paid or resolved)."""
    effect = {"player": player, "from_square": from_square, "square": square}
    if correction:
        effect["correction"] = True
    return effect


@kind
def offer(player: int, square: int) -> dict:
    """`player` landed on the unowned deed of `square` and may buy it."""
    return {"player": player, "square": square}


@kind
def no_rent(player: int, square: int) -> dict:
    """`player` landed on `square`, owned by another but mortgaged: no rent."""
    return {"player": player, "square": square}


@kind
def utility_roll_due(player: int, square: int) -> dict:
    """A card sent `player` to the utility on `square`: a new roll decides its rent (ten times)."""
    return {"player": player, "square": square}


@kind
def tax_choice(player: int, square: int) -> dict:
    """`player` landed on the Income Tax (`square`) and chooses: the flat sum or 10% of worth."""
    return {"player": player, "square": square}


@kind
def card_due(player: int, square: int, deck: str) -> dict:
    """`player` landed on `square` and draws from `deck` ("chance" or "chest")."""
    return {"player": player, "square": square, "deck": deck}


@kind
def drew(player: int, deck: str, card: str, effect: dict | None = None) -> dict:
    """`player` drew the card `card` (its id) from `deck`, or a card the app does not know ("custom")
    with the `effect` the player said it has; its own effects follow."""
    if effect is not None:
        return {"player": player, "deck": deck, "card": card, "effect": effect}
    return {"player": player, "deck": deck, "card": card}


@kind
def card_choice_due(player: int, amount: int, deck: str) -> dict:
    """`player` drew a card that asks: pay `amount` to the bank, or draw from `deck` instead."""
    return {"player": player, "amount": amount, "deck": deck}


@kind
def no_repairs(player: int) -> dict:
    """A repairs card found no building of `player`'s: nothing to pay."""
    return {"player": player}


@kind
def jail_card(player: int, card: str) -> dict:
    """`player` keeps the Get Out of Jail Free card `card` (its id)."""
    return {"player": player, "card": card}


# Jail


@kind
def jailed(player: int, why: str) -> dict:
    """`player` went to jail; `why`: "square" (Go to Jail), "three_doubles" or "card"."""
    return {"player": player, "why": why}


@kind
def stayed_in_jail(player: int, tries: int) -> dict:
    """`player` rolled no doubles in jail: this was try `tries` of three."""
    return {"player": player, "tries": tries}


@kind
def third_miss(player: int) -> dict:
    """`player` missed a third time, and pays the fine or uses a card before moving (tournament rules)."""
    return {"player": player}


@kind
def fine_first(player: int) -> dict:
    """`player` owes the fine of a third miss and moves only once it is paid (tournament rules)."""
    return {"player": player}


@kind
def left_jail(player: int, how: str, card: str | None = None, deck: str | None = None) -> dict:
    """`player` left jail; `how`: "doubles", "fine", "third_roll" (the fine after a third miss) or
    "card", which adds the `card` used and the `deck` it goes back to."""
    if how == "card":
        return {"player": player, "how": how, "card": card, "deck": deck}
    return {"player": player, "how": how}


# The end


@kind
def round_clock(ends_at: int | None, paused_left: int | None) -> dict:
    """A tournament's round clock runs until `ends_at` (Unix seconds), or is paused with
    `paused_left` seconds left."""
    return {"ends_at": ends_at, "paused_left": paused_left}


@kind
def last_turn() -> dict:
    """The banker (a tournament's organiser) called the last turn: the game ends once every seat
    still in has had as many turns as the first."""
    return {}


@kind
def last_turn_withdrawn() -> dict:
    """The tournament's organiser undid the call of the last turn: the game goes on as before it."""
    return {}


@kind
def ended(winner: int) -> dict:
    """The game is over; `winner` heads the standings (kept in the state)."""
    return {"winner": winner}
