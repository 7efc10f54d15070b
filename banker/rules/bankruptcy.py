"""Debt's last step: what selling and mortgaging everything would raise, bankruptcy to a player
or to the bank, and the end of the game when one player is left."""

from .effects import bank as happened
from .auctions import leave, open_deed_auction
from .buildings import HOTEL, level, refund, set_level
from .errors import N_, RuleError
from .jail import fine as fine_amount
from .money import charge, require_cash, transfer
from .mortgages import lift_cost, transfer_fee
from .ending import finish
from .state import BANK, GameState
from .trades import drop_impossible
from .turns import pass_turn, require_no_decision


def raisable_cash(state: GameState, player_id: int) -> int:
    """What selling every building (half cost) and then mortgaging every deed would raise."""
    total = 0
    for deed in state.deeds.values():
        if deed.owner == player_id:
            square = state.board[deed.square]
            total += level(deed) * refund(square)
            if not deed.mortgaged:
                total += square.mortgage
    return total


def owed(state: GameState, player_id: int) -> int:
    return sum(d.amount for d in state.debts_of(player_id))


def declare(state: GameState, player_id: int, effects: list) -> None:
    """Give up: everything goes to the creditor of the oldest debt (a player, or the bank)."""
    debts = state.debts_of(player_id)
    if not debts:
        raise RuleError("not_in_debt", N_("{player} owes nothing and cannot go bankrupt."), player=player_id)
    player = state.player(player_id)
    can_raise = player.cash + raisable_cash(state, player_id)
    if can_raise >= owed(state, player_id):
        raise RuleError("solvent", N_("{player} can still raise {amount} by selling buildings and mortgaging: enough to pay."),
                        player=player_id, amount=can_raise)
    require_no_decision(state, but=player_id)  # what the bankruptcy brings must not replace it
    claimant = fine_claimant(state, player_id, debts[0])
    creditor = debts[0].creditor
    to_player = isinstance(creditor, int)
    heir = creditor if to_player else BANK
    state.debts = [d for d in state.debts if d.debtor != player_id]
    effects.append(happened.bankrupt(player_id, heir))
    _pass_debts_owed(state, player_id, heir, effects)
    _sell_buildings(state, player_id, effects)
    if player.cash:
        transfer(state, player_id, creditor if to_player else BANK, player.cash, effects, "bankruptcy")
    deeds = sorted(sq for sq, d in state.deeds.items() if d.owner == player_id)
    for square in deeds:
        state.deeds[square].owner = creditor if to_player else None
        if not to_player and claimant is None:  # (a claimant takes them as they are)
            state.deeds[square].mortgaged = False
    if to_player:
        state.player(creditor).jail_cards.extend(player.jail_cards)
    player.jail_cards = []
    player.bankrupt, player.in_jail, player.jail_rolls = True, False, 0
    player.place, player.bankrupt_to = 1 + sum(not p.bankrupt for p in state.players), heir
    if state.pending and state.pending.get("player") == player_id:
        state.pending = None
    leave(state, player_id, effects)
    drop_impossible(state, effects)
    if state.turn == player_id:
        pass_turn(state, player_id, effects)
    if state.status == "ended" or _last_player_wins(state, effects):  # (the last turn may end it)
        return
    if claimant is not None and deeds:
        state.pending = {"kind": "claim", "player": claimant, "from": player_id, "squares": deeds}
        effects.append(happened.claim_offered(claimant, player_id))
        return
    mortgaged = [sq for sq in deeds if state.deeds[sq].mortgaged]
    if to_player and mortgaged and state.settings.mortgage_transfer_fee:
        state.pending = {"kind": "inherit", "player": creditor, "squares": mortgaged}
    if not to_player and deeds and state.settings.auctions:
        state.auction_queue.extend(deeds)
        if not state.auction:
            open_deed_auction(state, state.auction_queue.pop(0), effects)


def fine_claimant(state: GameState, player_id: int, debt) -> int | None:
    """Under `jail_fee_bankruptcy_claim` (JMA), a player bankrupt over the jail fine is bankrupt to
    the bank, but the owner of the square their roll out of jail would have reached may pay the
    bank the fine and take their deeds instead of the auction: that owner, if any."""
    pending = state.pending
    if not (state.settings.jail_fee_bankruptcy_claim and debt.reason == "jail_fine" and pending
            and pending["kind"] == "jail_move" and pending["player"] == player_id):
        return None
    square = (state.board.jail + sum(pending["dice"])) % 40
    deed = state.deeds.get(square)
    owner = deed.owner if deed else None
    return owner if owner not in (None, player_id) and not state.player(owner).bankrupt else None


def claim_deeds(state: GameState, player_id: int, choice: str, effects: list) -> None:
    """The owner offered a jail-fine bankrupt's deeds (JMA) takes them for the fine, as they are
    (a mortgaged deed then as from any bankruptcy: lift it or pay the fee), or lets the bank
    auction them (unmortgaged), as after any bankruptcy to the bank."""
    pending = state.pending
    if not pending or pending["kind"] != "claim" or pending["player"] != player_id:
        raise RuleError("no_claim", N_("{player} has no deeds to claim."), player=player_id)
    squares = pending["squares"]
    if choice == "take":
        require_cash(state, player_id, fine_amount(state), N_("The fine is {amount}; {player} has only {cash}."),
                     amount=fine_amount(state))
        state.pending = None
        transfer(state, player_id, BANK, fine_amount(state), effects, "claim")
        for square in squares:
            state.deeds[square].owner = player_id
        effects.append(happened.deeds_claimed(player_id, pending["from"], squares))
        mortgaged = [sq for sq in squares if state.deeds[sq].mortgaged]
        if mortgaged and state.settings.mortgage_transfer_fee:
            state.pending = {"kind": "inherit", "player": player_id, "squares": mortgaged}
        return
    state.pending = None
    effects.append(happened.claim_declined(player_id, pending["from"]))
    for square in squares:
        state.deeds[square].mortgaged = False
    if state.settings.auctions:
        state.auction_queue.extend(squares)
        if not state.auction:
            open_deed_auction(state, state.auction_queue.pop(0), effects)


def _pass_debts_owed(state: GameState, player_id: int, heir, effects: list) -> None:
    """What others still owe the bankrupt player goes, like everything else, to their creditor (a
    player or the bank): nothing is made or lost. A debt the heir owes themself is settled."""
    for debt in [d for d in state.debts if d.creditor == player_id]:
        if debt.debtor == heir:
            state.debts.remove(debt)
            effects.append(happened.debt_cancelled(debt.id, debt.debtor, debt.amount))
        else:
            debt.creditor = heir
            effects.append(happened.debt_passed(debt.id, debt.debtor, player_id, heir, debt.amount))


def _sell_buildings(state: GameState, player_id: int, effects: list) -> None:
    """Every building back to the bank at half its cost; the cash goes with the rest."""
    for deed in state.deeds.values():
        now = level(deed)
        if deed.owner != player_id or not now:
            continue
        if now == HOTEL:
            state.bank_hotels += 1
        else:
            state.bank_houses += now
        set_level(deed, 0)
        transfer(state, BANK, player_id, now * refund(state.board[deed.square]), effects,
                 "building_sale", deed.square)


def _last_player_wins(state: GameState, effects: list) -> bool:
    left = [p for p in state.players if not p.bankrupt]
    if len(left) > 1:
        return False
    finish(state, effects)
    return True


def receive_deeds(state: GameState, player_id: int, lifts: list[int], effects: list) -> None:
    """A creditor who received mortgaged deeds lifts each now (value + 10%) or pays the 10% fee."""
    pending = state.pending
    if not pending or pending["kind"] != "inherit" or pending["player"] != player_id:
        raise RuleError("nothing_received", N_("{player} has no mortgaged deeds to settle."), player=player_id)
    for square in lifts:
        if square not in pending["squares"]:
            raise RuleError("bad_lift", N_("{square} is not a mortgaged deed {player} received."),
                            square=square, player=player_id)
    state.pending = None
    for square in pending["squares"]:
        value = state.board[square].mortgage
        if square in lifts:
            charge(state, player_id, BANK, lift_cost(value), effects, "unmortgage", square)
            state.deeds[square].mortgaged = False
        else:
            charge(state, player_id, BANK, transfer_fee(value), effects, "mortgage_fee", square)
