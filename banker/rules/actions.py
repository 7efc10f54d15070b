"""The action vocabulary: every change to a game is one of these. Each is declared once, whole: its
type name, who may take it and when (declaration.Who, `in_lobby`, `deal`), its fields with how each
is parsed, and `run`, which hands it to the rule module that decides and applies it.

Parsing checks only the shape of the input; whether the action is legal now is for `run` to decide.
"""

from . import auctions, bankruptcy, buildings, buying, cards, ending, jail, lobby, money, mortgages, moves, trades, turns
# Re-exported: the store, the web layer and the tests read the vocabulary from here.
from .declaration import ACTIONS, CONTROL, TAKE_BACK, UNDO, Action, Counted, Who, action, arg, only_fields, parse
from .errors import N_, ActionError
from .inputs import (
    MAX_MEMO,
    amount,
    building,
    bundle,
    card_choice,
    card_effect,
    card_id,
    claim_choice,
    deck_name,
    dice,
    levels,
    moment,
    name,
    order,
    payee,
    player_id,
    seconds,
    seen_bid,
    serial,
    square,
    squares,
    tax_choice,
    text,
    token,
    told,
)
from .state import BANK

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


@action("start", Who.BANKER, in_lobby=True)
class Start(Action):
    """Start the game, in the given seat order or else in that of the opening rolls."""

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


# Money


@action("pay")
class Pay(Action):
    """Pay another player, the bank or the Free Parking pot."""

    to: int | str = arg(payee)
    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")

    def run(self, state, player, effects):
        money.pay(state, player, self.to, self.amount, self.memo, effects)


@action("pay_debt")
class PayDebt(Action):
    """Pay an open debt in full (the oldest unless one is named)."""

    debt: int | None = arg(serial, default=None)

    def run(self, state, player, effects):
        money.pay_debt(state, player, self.debt, effects)
        jail.after_debt_paid(state, player, effects)  # a fine owed before moving (JMA) lets them move


@action("bank_pay", Who.BANKER_FOR_SEAT)
class BankPay(Action):
    """The bank pays a player (what the board does not pay by itself)."""

    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")

    def run(self, state, player, effects):
        money.transfer(state, BANK, player, self.amount, effects, "bank_payment", memo=self.memo)


@action("bank_charge", Who.BANKER_FOR_SEAT)
class BankCharge(Action):
    """The bank charges a player (a debt when the cash is short)."""

    amount: int = arg(amount)
    memo: str = arg(text(MAX_MEMO), default="")

    def run(self, state, player, effects):
        money.charge(state, player, BANK, self.amount, effects, "bank_charge", memo=self.memo)


@action("seed_jackpot", Who.BANKER)
class SeedJackpot(Action):
    """The banker puts money from the bank into the Free Parking pot."""

    amount: int = arg(amount)

    def run(self, state, player, effects):
        money.seed_jackpot(state, self.amount, effects)


@action("move", Who.BANKER_FOR_SEAT)
class Move(Action):
    """The banker puts a token where it really is on the table; nothing is paid or resolved."""

    square: int = arg(square)

    def run(self, state, player, effects):
        moves.correct_position(state, player, self.square, effects)


# Buildings and mortgages


@action("build", deal=True)
class Build(Action):
    """Buy the next building on a lot (or place one won at auction)."""

    square: int = arg(square)

    def run(self, state, player, effects):
        buildings.build(state, player, self.square, effects)


@action("sell_building", deal=True)
class SellBuilding(Action):
    """Sell a lot's top building back to the bank at half its cost."""

    square: int = arg(square)

    def run(self, state, player, effects):
        buildings.sell(state, player, self.square, effects)


@action("set_buildings", deal=True)
class SetBuildings(Action):
    """Set every lot of a group to a level (5 = hotel) in one step."""

    levels: dict = arg(levels)

    def run(self, state, player, effects):
        buildings.set_levels(state, player, self.levels, effects)


@action("mortgage", deal=True)
class Mortgage(Action):
    """Mortgage a deed with no buildings in its group."""

    square: int = arg(square)

    def run(self, state, player, effects):
        mortgages.mortgage(state, player, self.square, effects)


@action("unmortgage", deal=True)
class Unmortgage(Action):
    """Repay a mortgage: its value plus 10%."""

    square: int = arg(square)

    def run(self, state, player, effects):
        mortgages.unmortgage(state, player, self.square, effects)


# Auctions


@action("bid")
class Bid(Action):
    """Raise the high bid of the open auction."""

    amount: int = arg(amount)

    def run(self, state, player, effects):
        auctions.bid(state, player, self.amount, effects)


@action("pass")
class Pass(Action):
    """Leave the open auction."""

    def run(self, state, player, effects):
        auctions.pass_(state, player, effects)


@action("close_auction", Who.BANKER)
class CloseAuction(Action):
    """Close the auction for the high bid (refused if it is no longer the one the banker saw)."""

    high_bid: int | None = arg(seen_bid, default=None)

    def run(self, state, player, effects):
        auctions.close(state, self.high_bid, effects)


@action("auction_building", Who.BANKER)
class AuctionBuilding(Action):
    """Auction one of the bank's houses or hotels in a shortage."""

    building: str = arg(building)

    def run(self, state, player, effects):
        auctions.open_building_auction(state, self.building, effects)


# Trades


@action("offer_trade", deal=True)
class OfferTrade(Action):
    """Offer another player cash, deeds and cards for theirs (`lift`: mortgages to repay on receipt)."""

    to: int = arg(player_id)
    give: dict = arg(bundle, default=None)
    get: dict = arg(bundle, default=None)
    lift: list = arg(squares, default=None)

    def run(self, state, player, effects):
        trades.offer(state, player, self.to, self.give or trades.nothing(), self.get or trades.nothing(),
                     self.lift or [], effects)


@action("accept_trade", deal=True)
class AcceptTrade(Action):
    """Accept an offer: everything moves at once (`lift`: mortgages to repay on receipt)."""

    trade: int = arg(serial)
    lift: list = arg(squares, default=None)

    def run(self, state, player, effects):
        trades.accept(state, player, self.trade, self.lift or [], effects)


@action("reject_trade")
class RejectTrade(Action):
    """Reject an offer made to the player."""

    trade: int = arg(serial)

    def run(self, state, player, effects):
        trades.reject(state, player, self.trade, effects)


@action("withdraw_trade")
class WithdrawTrade(Action):
    """Withdraw the player's own offer."""

    trade: int = arg(serial)

    def run(self, state, player, effects):
        trades.withdraw(state, player, self.trade, effects)


# Bankruptcy and the end


@action("bankrupt")
class Bankrupt(Action):
    """Give up, owing more than everything would raise: all goes to the creditor."""

    def run(self, state, player, effects):
        bankruptcy.declare(state, player, effects)


@action("claim_deeds")
class ClaimDeeds(Action):
    """Take the deeds of a player bankrupt over the jail fine for that fine, or leave them to the
    bank's auction (tournament rules)."""

    choice: str = arg(claim_choice)

    def run(self, state, player, effects):
        bankruptcy.claim_deeds(state, player, self.choice, effects)


@action("receive_deeds")
class ReceiveDeeds(Action):
    """Settle the mortgaged deeds received from a bankrupt: lift those in `lift`, pay 10% on the rest."""

    lift: list = arg(squares, default=None)

    def run(self, state, player, effects):
        bankruptcy.receive_deeds(state, player, self.lift or [], effects)


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
        bankruptcy.end_game(state, effects)
