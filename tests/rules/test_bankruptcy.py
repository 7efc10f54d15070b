"""Debt and bankruptcy (docs/rules.md, Debt and bankruptcy): what selling buildings and
mortgaging would raise, raising it and paying, and giving up: to a player (buildings back to the
bank at half cost, cash, deeds and cards to the creditor, mortgaged deeds lifted or charged 10%)
or to the bank (cash to the bank, cards back to their decks, every deed unmortgaged and auctioned
in board order from GO). A bankrupt seat owns nothing and plays no more; the last one left wins.

Ownership is arranged with `owning` (a copy of the state); buildings are built with set_buildings,
the Get Out of Jail Free card is drawn. Values are worked out by hand from the reference board.
"""

import pytest

from banker.rules import RuleError, Settings, legal_actions
from banker.rules.bankruptcy import raisable_cash
from banker.rules.cards import holder

from . import (
    ANN, BANKER, BOB, BROWN, CY, GREEN, HOTELS, HOUSES, Logged, act, cash, funded, owning, place,
    play, refusal, set_buildings, started, supply, transfers,
)
from .test_cards import drawing

CARD = "ch_get_out_of_jail_free"


def debtor(players=3, settings=None, owes=BOB, amount=5000):
    """Ann drew a Get Out of Jail Free card on her turn, holds both brown lots with two houses
    each (4 houses: 100 when sold at half cost), Reading Railroad and Electric Company (mortgaged),
    has 1300 cash, and owes `owes` (a player, or "bank") `amount`.

    She can raise 1300 + 100 (houses) + 30 + 30 + 100 (mortgages) = 1560.
    """
    state = play(drawing(7, players, settings), ANN, "draw", deck="chance", card=CARD)
    state = owning(state, ANN, *BROWN, 5, 12, mortgaged=[12])
    state = set_buildings(state, ANN, {1: 2, 3: 2})
    if owes == "bank":
        return play(state, BANKER, "bank_charge", player=ANN, amount=amount)
    return play(state, ANN, "pay", to=owes, amount=amount)


def owned(state, player) -> list[int]:
    return sorted(sq for sq, d in state.deeds.items() if d.owner == player)


# What can be raised


@pytest.mark.parametrize("deeds, mortgaged, buildings, raisable", [
    ((), (), {}, 0),
    (BROWN, (), {1: 5, 3: 4}, 9 * 25 + 30 + 30),                       # a hotel sells as 5 levels
    ((*BROWN, 5, 12), (12,), {1: 5, 3: 4}, 9 * 25 + 30 + 30 + 100),    # nothing more from 12
    (GREEN, (), {31: 1, 32: 1, 34: 1}, 3 * 100 + 150 + 150 + 160),
    ((37, 39), (37, 39), {}, 0),
])
def test_raisable_cash_is_buildings_at_half_cost_then_every_mortgage(game, deeds, mortgaged, buildings, raisable):
    state = funded(owning(game, ANN, *deeds, mortgaged=mortgaged), ANN)
    if buildings:
        state = set_buildings(state, ANN, buildings)
    assert raisable_cash(state, ANN) == raisable


def test_a_debtor_raises_the_cash_by_selling_and_mortgaging_then_pays():
    state = debtor(amount=1500)
    assert legal_actions(state, ANN) >= {"pay"} and not legal_actions(state, ANN) & {"pay_debt", "bankrupt"}
    for square in (1, 3, 1, 3):
        state = play(state, ANN, "sell_building", square=square)
    state = play(state, ANN, "mortgage", square=5)
    assert cash(state, ANN) == 1500
    assert "pay_debt" in legal_actions(state, ANN)
    state, effects = act(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, BOB, 1500, "payment")]
    assert (cash(state, ANN), cash(state, BOB), state.debts) == (0, 3000, [])


def test_bankruptcy_is_refused_while_selling_and_mortgaging_would_pay_and_says_how_much():
    state = debtor(amount=1560)
    assert "bankrupt" not in legal_actions(state, ANN)
    error = refusal(state, ANN, "bankrupt", RuleError)
    assert (error.code, error.params["amount"]) == ("solvent", 1560)
    assert "1560" in str(error)


def test_bankruptcy_is_refused_without_a_debt(game):
    assert refusal(game, ANN, "bankrupt", RuleError).code == "not_in_debt"


def test_bankruptcy_is_allowed_when_one_unit_more_is_owed_than_can_be_raised():
    assert "bankrupt" in legal_actions(debtor(amount=1561), ANN)


# Bankrupt to a player


def test_bankrupt_to_a_player_sells_the_buildings_and_gives_everything_to_the_creditor():
    state, effects = act(debtor(), ANN, "bankrupt")
    assert transfers(effects) == [("bank", ANN, 50, "building_sale"), ("bank", ANN, 50, "building_sale"),
                                  (ANN, BOB, 1300 + 100, "bankruptcy")]
    assert {"kind": "bankrupt", "player": ANN, "creditor": BOB} in effects
    assert (cash(state, ANN), cash(state, BOB), cash(state, CY)) == (0, 1500 + 1400, 1500)
    assert owned(state, BOB) == [*BROWN, 5, 12] and owned(state, ANN) == []
    assert [state.deeds[s].houses for s in BROWN] == [0, 0]
    assert supply(state) == (HOUSES, HOTELS)
    assert state.deeds[12].mortgaged and not state.deeds[5].mortgaged
    assert (state.player(ANN).jail_cards, state.player(BOB).jail_cards) == ([], [CARD])
    assert state.debts == []


def test_the_creditor_lifts_or_pays_ten_percent_on_each_mortgaged_deed_received():
    state = play(debtor(), ANN, "bankrupt")
    assert state.pending == {"kind": "inherit", "player": BOB, "squares": [12]}
    assert "receive_deeds" in legal_actions(state, BOB)
    assert refusal(state, BOB, "roll", RuleError, dice=[1, 2]).code == "decision_pending"
    lifted, effects = act(state, BOB, "receive_deeds", lift=[12])
    assert transfers(effects) == [(BOB, "bank", 83, "unmortgage")]
    assert not lifted.deeds[12].mortgaged and lifted.pending is None
    kept, effects = act(state, BOB, "receive_deeds")
    assert transfers(effects) == [(BOB, "bank", 8, "mortgage_fee")]   # 7.5 rounded up
    assert kept.deeds[12].mortgaged and kept.pending is None


@pytest.mark.parametrize("square, fee, lift", [(1, 3, 33), (12, 8, 83), (37, 18, 193), (39, 20, 220)])
def test_the_fee_and_the_lift_are_ten_percent_of_the_mortgage_value_rounded_up(square, fee, lift):
    state = owning(started(3), ANN, square, mortgaged=[square])
    state = play(play(state, ANN, "pay", to=BOB, amount=5000), ANN, "bankrupt")
    assert transfers(act(state, BOB, "receive_deeds")[1]) == [(BOB, "bank", fee, "mortgage_fee")]
    assert transfers(act(state, BOB, "receive_deeds", lift=[square])[1]) == [(BOB, "bank", lift, "unmortgage")]


def test_only_the_creditor_settles_and_only_the_deeds_received():
    state = play(debtor(), ANN, "bankrupt")
    assert refusal(state, CY, "receive_deeds", RuleError).code == "nothing_received"
    assert refusal(state, BOB, "receive_deeds", RuleError, lift=[5]).code == "bad_lift"
    assert refusal(started(), BOB, "receive_deeds", RuleError).code == "nothing_received"


def test_a_jailed_creditor_may_leave_jail_before_settling_but_rolls_after():
    state = play(place(started(3), ANN, 27), ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "end_turn")
    for seat in (BOB, CY):
        state = play(play(place(state, seat, 0), seat, "roll", dice=[4, 6]), seat, "end_turn")
    state = play(owning(state, BOB, 12, mortgaged=[12]), BOB, "pay", to=ANN, amount=5000)
    state = play(state, BOB, "bankrupt")
    assert state.pending["kind"] == "inherit" and state.turn == ANN and state.player(ANN).in_jail
    assert legal_actions(state, ANN) == {"pay", "receive_deeds", "pay_jail_fine"}
    assert refusal(state, ANN, "roll", RuleError, dice=[1, 2]).code == "decision_pending"
    state = play(state, ANN, "pay_jail_fine")
    assert not state.player(ANN).in_jail
    assert legal_actions(play(state, ANN, "receive_deeds"), ANN) == {"pay", "roll"}


def test_without_the_transfer_fee_the_creditor_keeps_the_mortgages_for_nothing():
    state, effects = act(debtor(settings=Settings(mortgage_transfer_fee=False)), ANN, "bankrupt")
    assert state.pending is None
    assert [t for t in transfers(effects) if t[0] == BOB] == []
    assert state.deeds[12].mortgaged and state.deeds[12].owner == BOB
    assert cash(state, BOB) == 2900


def test_a_creditor_short_of_cash_for_the_fee_owes_it_to_the_bank():
    state = play(debtor(), BOB, "pay", to="bank", amount=1500)
    state = play(play(state, ANN, "bankrupt"), BOB, "pay", to="bank", amount=1400)
    state = play(state, BOB, "receive_deeds")
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (BOB, "bank", 8, "mortgage_fee")


def test_everything_goes_to_the_creditor_of_the_oldest_debt():
    state = debtor(amount=1600)
    state = play(state, ANN, "pay", to=CY, amount=2000)
    state = play(state, ANN, "bankrupt")
    assert owned(state, BOB) == [*BROWN, 5, 12] and cash(state, BOB) == 2900
    assert cash(state, CY) == 1500 and state.debts == []


# Bankrupt to the bank


def test_bankrupt_to_the_bank_hands_over_cash_returns_buildings_and_cards_and_auctions_every_deed():
    state = owning(debtor(owes="bank"), ANN, 39)
    state, effects = act(state, ANN, "bankrupt")
    assert transfers(effects) == [("bank", ANN, 50, "building_sale"), ("bank", ANN, 50, "building_sale"),
                                  (ANN, "bank", 1400, "bankruptcy")]
    assert {"kind": "bankrupt", "player": ANN, "creditor": "bank"} in effects
    assert supply(state) == (HOUSES, HOTELS)
    assert holder(state, CARD) is None
    assert owned(state, ANN) == [] and state.player(ANN).jail_cards == []
    for square in (*BROWN, 5, 12, 39):
        assert (state.deeds[square].owner, state.deeds[square].mortgaged) == (None, False)
    assert (state.auction.square, state.auction_queue) == (1, [3, 5, 12, 39])
    assert sorted(state.auction.bidders) == [BOB, CY]


def test_the_bankrupts_deeds_are_auctioned_one_after_another_in_board_order():
    state = play(owning(debtor(owes="bank"), ANN, 39), ANN, "bankrupt")
    opened = [state.auction.square]
    for square in (1, 3, 5, 12):
        bidder = CY if square == 12 else None
        if bidder:
            state = play(play(state, CY, "bid", amount=90), BOB, "pass")
        else:
            state = play(play(state, BOB, "pass"), CY, "pass")
        opened.append(state.auction.square)
    assert opened == [1, 3, 5, 12, 39]
    state = play(state, BOB, "bid", amount=300)
    state, effects = act(state, CY, "pass")
    assert state.auction is None and state.auction_queue == []
    assert (state.deeds[12].owner, state.deeds[12].mortgaged) == (CY, False)
    assert state.deeds[39].owner == BOB
    assert [state.deeds[s].owner for s in (1, 3, 5)] == [None, None, None]
    assert (cash(state, BOB), cash(state, CY)) == (1200, 1410)


def test_the_bankrupts_card_can_be_drawn_again():
    state = play(debtor(owes="bank"), ANN, "bankrupt")
    while state.auction:
        state = play(play(state, BOB, "pass"), CY, "pass")
    state = play(drawing(22, who=BOB, state=state), BOB, "draw", deck="chance", card=CARD)
    assert state.player(BOB).jail_cards == [CARD]


def test_with_auctions_off_the_bank_keeps_the_bankrupts_deeds():
    state = play(debtor(owes="bank", settings=Settings(auctions=False)), ANN, "bankrupt")
    assert state.auction is None and state.auction_queue == []
    for square in (*BROWN, 5, 12):
        assert (state.deeds[square].owner, state.deeds[square].mortgaged) == (None, False)


def test_a_bank_bankruptcy_during_an_auction_queues_its_deeds_after_it():
    state = play(owning(started(3), ANN, 5, 12), ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "decline")                       # Baltic Avenue goes to auction
    state = play(state, BANKER, "bank_charge", player=ANN, amount=5000)
    state = play(state, ANN, "bankrupt")
    assert (state.auction.square, state.auction_queue) == (3, [5, 12])
    assert ANN in state.auction.passed
    state = play(play(state, BOB, "pass"), CY, "pass")
    assert (state.auction.square, state.auction_queue) == (5, [12])


# A bankrupt seat


@pytest.fixture
def bankrupt_ann():
    """Ann went bankrupt to Bob on her turn; Bob settled the mortgaged deed; it is Bob's turn."""
    state = play(play(debtor(), ANN, "bankrupt"), BOB, "receive_deeds")
    assert state.turn == BOB
    return state


def test_a_bankrupt_player_owns_nothing(bankrupt_ann):
    ann = bankrupt_ann.player(ANN)
    assert (ann.bankrupt, ann.cash, ann.jail_cards, ann.in_jail) == (True, 0, [], False)
    assert owned(bankrupt_ann, ANN) == []
    assert not [d for d in bankrupt_ann.debts if ANN in (d.debtor, d.creditor)]


@pytest.mark.parametrize("who, action", [
    (ANN, {"type": "pay", "to": BOB, "amount": 1}),
    (ANN, {"type": "roll", "dice": [1, 2]}),
    (ANN, {"type": "offer_trade", "to": BOB, "get": {"cash": 1}}),
    (BANKER, {"type": "bank_pay", "player": ANN, "amount": 100}),
    (BANKER, {"type": "bank_charge", "player": ANN, "amount": 100}),
    (BOB, {"type": "pay", "to": ANN, "amount": 1}),
    (BOB, {"type": "offer_trade", "to": ANN, "give": {"cash": 1}}),
])
def test_a_bankrupt_player_cannot_act_nor_be_dealt_with(bankrupt_ann, who, action):
    assert refusal(bankrupt_ann, who, **action).code == "bankrupt"


def test_a_bankrupt_player_keeps_the_place_they_finish_in_and_whom_they_went_bankrupt_to(bankrupt_ann):
    """One after the players still in when they go: the first out of three is third, and stays so."""
    assert (bankrupt_ann.player(ANN).place, bankrupt_ann.player(ANN).bankrupt_to) == (3, BOB)
    assert (bankrupt_ann.player(BOB).place, bankrupt_ann.player(BOB).bankrupt_to) == (None, None)
    state = play(play(bankrupt_ann, BANKER, "bank_charge", player=BOB, amount=9000), BOB, "bankrupt")
    assert (state.player(BOB).place, state.player(BOB).bankrupt_to) == (2, "bank")
    assert state.player(ANN).place == 3 and state.status == "ended"
    assert state.player(CY).place is None  # the winner is not out


def test_a_bankrupt_player_has_no_legal_action(bankrupt_ann):
    assert legal_actions(bankrupt_ann, ANN) == set()


def test_turns_skip_a_bankrupt_player(bankrupt_ann):
    state = bankrupt_ann
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        state = play(place(state, state.turn, 0), state.turn, "roll", dice=[4, 6])
        state = play(state, state.turn, "end_turn")
    assert seen == [BOB, CY, BOB, CY]


def test_a_bankrupt_player_is_no_longer_paid_by_the_cards():
    state = play(play(started(3), BANKER, "bank_charge", player=BOB, amount=5000), BOB, "bankrupt")
    state, effects = act(drawing(7, state=state), ANN, "draw", deck="chance", card="ch_chairman")
    assert transfers(effects) == [(ANN, CY, 50, "card")]


def test_a_bankrupt_players_open_trades_are_dropped():
    state = debtor()
    state = play(state, ANN, "offer_trade", to=CY, give={"squares": [5]}, get={"cash": 100})
    state = play(state, CY, "offer_trade", to=ANN, give={"cash": 10}, get={"jail_cards": [CARD]})
    state, effects = act(state, ANN, "bankrupt")
    assert state.trades == []
    assert [e["kind"] for e in effects].count("trade_dropped") == 2


def test_a_bankrupt_players_high_bid_is_void_and_the_others_bid_on():
    state = play(started(3), ANN, "roll", dice=[1, 2])
    state = play(play(state, ANN, "decline"), BOB, "bid", amount=100)
    state = play(play(state, BANKER, "bank_charge", player=BOB, amount=5000), BOB, "bankrupt")
    assert (state.auction.high_bid, state.auction.high_bidder) == (0, None)
    state = play(play(state, ANN, "pass"), CY, "pass")
    assert state.auction is None and state.deeds[3].owner is None
    assert state.debts == [] and owned(state, BOB) == []


def test_an_auction_closes_when_the_bankrupt_was_the_last_bidder_against_the_high_bid():
    state = play(started(3), ANN, "roll", dice=[1, 2])
    state = play(play(play(state, ANN, "decline"), ANN, "bid", amount=40), CY, "pass")
    state = play(state, BANKER, "bank_charge", player=BOB, amount=5000)
    state, effects = act(state, BOB, "bankrupt")
    assert state.auction is None
    assert (state.deeds[3].owner, cash(state, ANN)) == (ANN, 1460)


def test_bankruptcy_waits_until_another_players_open_decision_is_made():
    state = owning(started(3), BOB, 12, mortgaged=[12])
    state = play(state, BOB, "pay", to=ANN, amount=5000)
    state = play(state, ANN, "roll", dice=[2, 3])          # Ann is offered Reading Railroad
    assert "bankrupt" not in legal_actions(state, BOB)
    assert refusal(state, BOB, "bankrupt", RuleError).code == "decision_pending"
    state = play(state, ANN, "buy")
    assert "bankrupt" in legal_actions(state, BOB)
    state = play(state, BOB, "bankrupt")
    assert state.pending == {"kind": "inherit", "player": ANN, "squares": [12]}
    assert owned(state, ANN) == [5, 12]


def test_a_bankrupt_player_on_turn_with_a_decision_open_drops_it():
    state = play(owning(started(3), ANN, 39), ANN, "roll", dice=[1, 2])   # Baltic Avenue offered
    state = play(state, ANN, "pay", to=BOB, amount=5000)
    state = play(state, ANN, "bankrupt")
    assert state.pending is None and state.turn == BOB and state.deeds[3].owner is None


def test_a_jailed_player_who_goes_bankrupt_leaves_jail():
    state = play(place(started(3), ANN, 27), ANN, "roll", dice=[1, 2])
    state = play(play(state, ANN, "pay", to=BOB, amount=5000), ANN, "bankrupt")
    assert not state.player(ANN).in_jail


# The last player left


def test_the_last_player_left_wins():
    state, effects = act(debtor(players=2), ANN, "bankrupt")
    assert state.status == "ended"
    assert {"kind": "ended", "winner": BOB} in effects
    assert state.standings == [
        {"player": BOB, "cash": 2900, "deeds": 60 + 60 + 200 + 75, "buildings": 0, "total": 3295},
        {"player": ANN, "cash": 0, "deeds": 0, "buildings": 0, "total": 0, "bankrupt": True},
    ]
    assert state.pending is None
    assert refusal(state, BOB, "roll", RuleError, dice=[1, 2]).code == "game_over"


def test_with_three_players_the_game_goes_on_after_one_bankruptcy_and_ends_at_the_second():
    state = play(debtor(owes="bank"), ANN, "bankrupt")
    assert state.status == "playing"
    state = play(play(state, BANKER, "close_auction"), BANKER, "close_auction")
    state = play(play(state, BANKER, "close_auction"), BANKER, "close_auction")
    state = play(play(state, BANKER, "bank_charge", player=CY, amount=9000), CY, "bankrupt")
    assert state.status == "ended" and state.standings[0]["player"] == BOB
    assert [s.get("bankrupt", False) for s in state.standings] == [False, True, True]


# Undo


def test_undoing_a_bankruptcy_to_a_player_restores_everything():
    game = Logged(3)
    game.do(ANN, "roll", dice=[2, 3])
    game.do(ANN, "buy")
    game.do(ANN, "mortgage", square=5)
    game.do(ANN, "pay", to=BOB, amount=5000)
    before = game.state
    game.do(ANN, "bankrupt")
    assert game.state.pending == {"kind": "inherit", "player": BOB, "squares": [5]}
    assert game.undone().to_dict() == before.to_dict()


def test_undoing_a_bankruptcy_to_the_bank_restores_the_deeds_and_closes_the_auctions():
    game = Logged(3)
    game.do(ANN, "roll", dice=[2, 3])
    game.do(ANN, "buy")
    game.do(BANKER, "bank_charge", player=ANN, amount=5000)
    before = game.state
    game.do(ANN, "bankrupt")
    assert game.state.auction.square == 5
    assert game.undone().to_dict() == before.to_dict()


def test_undoing_the_bankruptcy_that_ended_the_game_resumes_it():
    game = Logged(2)
    game.do(ANN, "pay", to=BOB, amount=5000)
    before = game.state
    game.do(ANN, "bankrupt")
    assert game.state.status == "ended"
    undone = game.undone()
    assert undone.to_dict() == before.to_dict() and undone.status == "playing"


# Debts owed to the bankrupt player


def owing_ann(to):
    """Cy owes Ann 5,000 (a payment he could not make), then Ann is charged 5,000 by
    the bank (`to` "bank") or owes Bob 5,000 (`to` BOB) and goes bankrupt."""
    state = play(started(3), CY, "pay", to=ANN, amount=5000)
    if to == "bank":
        state = play(state, BANKER, "bank_charge", player=ANN, amount=5000)
    else:
        state = play(state, ANN, "pay", to=BOB, amount=5000)
    return act(state, ANN, "bankrupt")


@pytest.mark.parametrize("to", ["bank", BOB])
def test_a_debt_owed_to_the_bankrupt_passes_to_their_creditor(to):
    before = play(started(3), CY, "pay", to=ANN, amount=5000)
    state, effects = owing_ann(to)
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount) == (CY, to, 5000)
    assert {"kind": "debt_passed", "id": debt.id, "debtor": CY, "from": ANN, "to": to, "amount": 5000} in effects
    # Nothing made or lost: Cy still owes what he owed, now to Ann's creditor.
    assert cash(state, CY) == cash(before, CY) == 1500


def test_a_debt_the_heir_owed_the_bankrupt_is_settled():
    state = play(started(3), CY, "pay", to=ANN, amount=5000)
    state = play(state, ANN, "pay", to=CY, amount=5000)
    state, effects = act(state, ANN, "bankrupt")
    assert state.debts == []
    assert any(e["kind"] == "debt_cancelled" and e["debtor"] == CY for e in effects)
