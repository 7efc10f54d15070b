"""Moving money: every change of cash goes through `transfer`, so the effects form a full ledger."""

from .effects import bank as happened
from .counting import holds
from .errors import N_, RuleError
from .state import BANK, POT, Debt, GameState


def transfer(state: GameState, payer, payee, amount: int, effects: list, reason: str,
             square: int | None = None, memo: str = "", **detail) -> None:
    """Move `amount` from payer to payee (player ids, BANK or POT) and record it.

    The caller has checked that the payer can afford it; the bank never runs out. `detail`
    (such as the buildings a rent was for) goes into the record for the history to tell.
    """
    _add(state, payer, -amount)
    _add(state, payee, amount)
    effects.append(happened.transfer(payer, payee, amount, reason, square, memo, **detail))


def _add(state: GameState, party, amount: int) -> None:
    if party == BANK:
        return
    if party == POT:
        state.free_parking += amount
    else:
        state.player(party).cash += amount


def charge(state: GameState, payer: int, payee, amount: int, effects: list, reason: str,
           square: int | None = None, memo: str = "", **detail) -> None:
    """Make a player pay: at once if their cash covers it, otherwise the whole sum becomes a debt
    (so does a sum the player counts themselves, until they have: counting.py)."""
    if state.player(payer).cash >= amount:
        if not holds(state, payer, reason):
            transfer(state, payer, payee, amount, effects, reason, square, memo, **detail)
            return
        detail["counted"] = True
    owe(state, Debt(id=state.next_id(), debtor=payer, creditor=payee, amount=amount,
                    reason=reason, square=square, memo=memo), effects, **detail)


def owe(state: GameState, debt: Debt, effects: list, **detail) -> None:
    """Open a debt, and record it (with `detail`, what the sum was made of)."""
    debt.why = detail
    state.debts.append(debt)
    effects.append(happened.debt(debt.id, debt.debtor, debt.creditor, debt.amount, debt.reason, debt.square,
                                 debt.payees, debt.memo, **detail))


def pay(state: GameState, player: int, to, amount: int, memo: str, effects: list) -> None:
    """A free-form payment to another player, the bank or the Free Parking pot (a debt when the
    cash is short)."""
    if to == player:
        raise RuleError("pay_self", N_("You cannot pay yourself."))
    if to == POT:
        _require_jackpot(state)
    if to not in (BANK, POT) and state.player(to).bankrupt:
        raise RuleError("bankrupt", N_("{player} is bankrupt and out of the game."), player=to)
    require_bid_covered(state, player, amount)
    charge(state, player, to, amount, effects, "payment", memo=memo)


def seed_jackpot(state: GameState, amount: int, effects: list) -> None:
    """The banker puts money from the bank into the Free Parking pot."""
    _require_jackpot(state)
    transfer(state, BANK, POT, amount, effects, "seed")


def _require_jackpot(state: GameState) -> None:
    """Money goes into the Free Parking pot only under the jackpot house rule."""
    if not state.settings.free_parking_jackpot:
        raise RuleError("no_jackpot", N_("This game has no Free Parking jackpot."))


def to_bank(state: GameState) -> str:
    """Where taxes and fines go: the Free Parking pot under that house rule, else the bank."""
    return POT if state.settings.free_parking_jackpot else BANK


def pay_debt(state: GameState, debtor: int, debt_id: int | None, effects: list) -> None:
    """Settle one open debt in full (the oldest when no id is given)."""
    owed = state.debts_of(debtor)
    if not owed:
        raise RuleError("no_debt", N_("{player} has no debt to pay."), player=debtor)
    debt = next((d for d in owed if d.id == debt_id), None) if debt_id else owed[0]
    if debt is None:
        raise RuleError("no_debt", N_("{player} has no debt number {id}."), player=debtor, id=debt_id)
    cash = state.player(debtor).cash
    if cash < debt.amount:
        raise RuleError(
            "short_of_cash", N_("{player} owes {amount} but has only {cash}."),
            player=debtor, amount=debt.amount, cash=cash,
        )
    state.debts.remove(debt)
    if debt.payees:
        share = debt.amount // len(debt.payees)
        for payee in debt.payees:  # a payee gone bankrupt meanwhile is out: the bank keeps that share
            to = BANK if state.player(payee).bankrupt else payee
            transfer(state, debtor, to, share, effects, debt.reason, debt.square, debt.memo)
    else:
        transfer(state, debtor, debt.creditor, debt.amount, effects, debt.reason, debt.square, debt.memo)
    effects.append(happened.debt_paid(debt.id, debtor))


def require_cash(state: GameState, player_id: int, cost: int, message: str, **params) -> None:
    """Refuse a voluntary spend the player's cash does not cover (unlike `charge`, no debt is
    opened), or that would spend the cash behind their standing high bid: `message` names the
    cost; `player` and `cash` are filled in here."""
    cash = state.player(player_id).cash
    if cash < cost:
        raise RuleError("short_of_cash", message, player=player_id, cash=cash, **params)
    require_bid_covered(state, player_id, cost)


def require_bid_covered(state: GameState, player_id: int, spend: int) -> None:
    """Refuse a voluntary spend that would leave less cash than the player's standing high bid:
    the bid is paid from that cash when the auction closes, and spending it first would turn the
    purchase into a debt to the bank."""
    auction = state.auction
    if auction and auction.high_bidder == player_id and state.player(player_id).cash - spend < auction.high_bid:
        raise RuleError("bid_held", N_("{player} holds the high bid of {amount}: that much cash must stay until the auction closes."),
                        player=player_id, amount=auction.high_bid)


def require_no_debt(state: GameState, player: int) -> None:
    """Refuse while the player still owes money (rolling, buying, ending the turn)."""
    owed = state.debts_of(player)
    if owed:
        raise RuleError(
            "in_debt", N_("{player} must first pay the {amount} still owed."),
            player=player, amount=sum(d.amount for d in owed),
        )
