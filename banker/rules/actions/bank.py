"""The actions of the Bank's business: money paid and owed, buildings, mortgages, auctions, trades,
and a bankrupt's deeds. Each is declared once, whole (package docstring); the rule modules of money
and deeds decide and apply them. The play at the table is declared in play.py.
"""

from .. import auctions, bankruptcy, buildings, jail, money, mortgages, trades
from ..declaration import Action, Who, action, arg
from ..inputs import (MAX_MEMO, amount, building, bundle, claim_choice, levels, payee, player_id, seen_bid, serial, square,
                      squares, text)
from ..state import BANK

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


# Bankruptcy


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
