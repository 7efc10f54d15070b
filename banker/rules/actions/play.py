"""The actions of the play at the table: taking a seat and starting, a turn's roll, buying or
declining, jail, what the squares and the cards ask for, the banker putting a token right, and the
end called. Each is declared once, whole (package docstring); the rule modules of the play decide
and apply them. The Bank's business, money and deeds, is declared in bank.py.
"""

from .. import buying, cards, ending, jail, lobby, moves, turns
from ..declaration import Action, Counted, Who, action, arg
from ..errors import N_, ActionError
from ..inputs import (card_choice, card_effect, card_id, deck_name, dice, moment, name, order, seconds, square, tax_choice,
                      token, told)

# Before the start


@action("join", Who.NEWCOMER, in_lobby=True)
class Join(Action):
    """Take a seat, under a name and a token."""

    name: str = arg(name, missing=N_("Type a name."))
    token: str = arg(token, missing=N_("Pick one of the eight tokens."))

    def run(self, state, player, effects):
        lobby.join(state, self.name, self.token, effects)


@action("opening_roll", in_lobby=True)
class OpeningRoll(Action):
    """Roll for the seat order."""

    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))

    def run(self, state, player, effects):
        lobby.opening_roll(state, player, self.dice, effects)


@action("fix_seats", Who.BANKER, in_lobby=True)
class FixSeats(Action):
    """Fix the seats as they are, in the order they were taken: nobody else joins, and nobody rolls
    for the order. A tournament's table is told it once its players are seated (store/tournaments.py)."""

    def run(self, state, player, effects):
        lobby.fix_seats(state, effects)


@action("start", Who.BANKER, in_lobby=True)
class Start(Action):
    """Start the game, in the given seat order; else in that of the seats when they are fixed, or
    of the opening rolls."""

    order: tuple[int, ...] | None = arg(order, default=None)

    def run(self, state, player, effects):
        lobby.start(state, self.order, effects)


# A turn


@action("roll")
class Roll(Counted):
    """Move by the dice the table rolled (in jail: try for doubles)."""

    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))

    def run(self, state, player, effects):
        turns.roll(state, player, self.dice, effects)


@action("buy")
class Buy(Action):
    """Buy the deed offered at its printed price."""

    def run(self, state, player, effects):
        buying.buy(state, player, effects)


@action("decline")
class Decline(Action):
    """Decline the deed offered: it goes to auction."""

    def run(self, state, player, effects):
        buying.decline(state, player, effects)


@action("pay_jail_fine")
class PayJailFine(Action):
    """Leave jail by paying the fine."""

    def run(self, state, player, effects):
        jail.pay_fine(state, state.player(player), effects)


@action("use_jail_card")
class UseJailCard(Action):
    """Leave jail with a Get Out of Jail Free card (the first held unless one is named)."""

    card: str | None = arg(card_id, default=None)

    def run(self, state, player, effects):
        cards.use_jail_card(state, player, self.card, effects)


@action("end_turn")
class EndTurn(Action):
    """Pass the turn on, once the roll is done and settled."""

    def run(self, state, player, effects):
        turns.end_turn(state, player, effects)


# What the squares ask for


@action("draw")
class Draw(Counted):
    """Say which Chance or Community Chest card was drawn; it is applied in full. A card the app
    does not know is `card` "custom" with the `effect` it has (inputs.CARD_FIELDS)."""

    deck: str = arg(deck_name)
    card: str = arg(card_id, missing=N_("Pick the card you drew."))
    effect: dict | None = arg(card_effect, default=None)

    def __post_init__(self):
        # The shape of the input: an effect comes with a custom card, and only with one.
        if (self.card == cards.CUSTOM) != (self.effect is not None):
            if self.effect is None:
                raise ActionError("missing_field", N_("Say what the card does."), field="effect")
            raise ActionError("bad_field", N_("Only another card (custom) says what it does."), field="effect")

    def run(self, state, player, effects):
        cards.draw(state, player, self.deck, self.card, effects, self.effect)


@action("card_choice")
class CardChoice(Counted):
    """Answer a "pay a fine or draw a card" card: "pay" the fine, or "draw" from the other deck
    (the card drawn there is then said by `draw`)."""

    choice: str = arg(card_choice, missing=N_("Choose: pay the fine or draw a card."))

    def run(self, state, player, effects):
        cards.choose(state, player, self.choice, effects)


@action("utility_roll")
class UtilityRoll(Counted):
    """Roll again for the rent of the utility a card sent the player to (ten times the dice)."""

    dice: tuple[int, int] = arg(dice, missing=N_("Tap the number on each die."))

    def run(self, state, player, effects):
        cards.utility_roll(state, player, self.dice, effects)


@action("income_tax")
class IncomeTax(Counted):
    """Choose how to pay the Income Tax: the flat sum or a tenth of total worth."""

    choice: str = arg(tax_choice)

    def run(self, state, player, effects):
        moves.pay_income_tax(state, player, self.choice, effects)


# The banker's hand on the board


@action("move", Who.BANKER_FOR_SEAT)
class Move(Action):
    """The banker puts a token where it really is on the table; nothing is paid or resolved."""

    square: int = arg(square)

    def run(self, state, player, effects):
        moves.correct_position(state, player, self.square, effects)


# The end


@action("last_turn", Who.BANKER)
class LastTurn(Action):
    """Call the last turn (a tournament's round at time): the game then ends by itself once every
    seat still in has had as many turns as the first, ranked by net worth."""

    def run(self, state, player, effects):
        ending.call_last_turn(state, effects)


@action("round_clock", Who.BANKER, in_lobby=True)
class RoundClock(Action):
    """A tournament's round clock, told to its table (store/tournaments.py): running until `ends_at`
    (Unix seconds), paused with `paused_left` seconds left, or neither (the round's start undone);
    with `last_turn`, whether the last turn is called (false: its call undone). Also in the lobby: a
    table whose start is undone is told, and replays, the clock it had."""

    ends_at: int | None = arg(moment, default=None)
    paused_left: int | None = arg(seconds, default=None)
    last_turn: bool | None = arg(told, default=None)

    def run(self, state, player, effects):
        ending.set_round_clock(state, self.ends_at, self.paused_left, self.last_turn, effects)


@action("end_game", Who.BANKER)
class EndGame(Action):
    """End the game now: standings by net worth."""

    def run(self, state, player, effects):
        ending.finish(state, effects)
