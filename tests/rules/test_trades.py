"""Trades: cash, deeds and Get Out of Jail Free cards between two players, offered by one and
carried out in one step when the other accepts; a mortgaged deed received is lifted now (value
+ 10%) or keeps its mortgage for a 10% fee, both rounded up (docs/rules.md, Trades and
Mortgages, setting `mortgage_transfer_fee`).

Ownership is arranged with `owning` (a copy of the state); everything else through actions.
Every money movement is checked against the ledger with `go` (see `conserved`).
"""

import pytest

from banker.rules import ActionError, RuleError, Settings
from banker.rules.cards import holder

from . import (
    ANN, BANKER, BOB, BROWN, CY, act, cash, go, owning, place, play, refusal, started, transfers,
)

MEDITERRANEAN, BALTIC, READING, ELECTRIC, PARK_PLACE, BOARDWALK = 1, 3, 5, 12, 37, 39
CHANCE_CARD, CHEST_CARD = "ch_get_out_of_jail_free", "cc08_get_out_of_jail_free"


def offer(state, who, to, give=None, get=None, lift=None):
    """`who` offers `to` a trade; returns (new_state, the new offer's id)."""
    fields = {k: v for k, v in (("give", give), ("get", get), ("lift", lift)) if v is not None}
    state, effects = go(state, who, "offer_trade", to=to, **fields)
    made = [e for e in effects if e["kind"] == "trade_offered"]
    assert made == [{"kind": "trade_offered", "id": made[0]["id"], "player": who, "to": to}]
    return state, made[0]["id"]


def open_ids(state) -> list[int]:
    return [t.id for t in state.trades]


def owners(state, *squares) -> tuple:
    return tuple(state.deeds[s].owner for s in squares)


@pytest.fixture
def deeds(game3):
    """Ann holds Mediterranean, Baltic and Reading; Bob holds Park Place and Boardwalk."""
    return owning(owning(game3, ANN, *BROWN, READING), BOB, PARK_PLACE, BOARDWALK)


def with_jail_cards():
    """Ann drew Chance's Get Out of Jail Free card, Bob the 2008 Community Chest one."""
    state = started(3, Settings(community_chest="2008"))
    state = play(place(state, ANN, 4), ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "draw", deck="chance", card=CHANCE_CARD)
    state = play(state, ANN, "end_turn")
    state = play(place(state, BOB, 14), BOB, "roll", dice=[1, 2])
    state = play(state, BOB, "draw", deck="chest", card=CHEST_CARD)
    assert (state.player(ANN).jail_cards, state.player(BOB).jail_cards) == ([CHANCE_CARD], [CHEST_CARD])
    return state


# What may be offered


def test_a_trade_needs_two_different_players(deeds):
    error = refusal(deeds, ANN, "offer_trade", RuleError, to=ANN, give={"cash": 5})
    assert (error.code, str(error)) == ("trade_self", "A trade needs two different players.")


def test_a_trade_with_an_unknown_player_is_refused(deeds):
    error = refusal(deeds, ANN, "offer_trade", ActionError, to=9, give={"cash": 5})
    assert (error.code, error.params) == ("no_such_player", {"id": 9})


def test_a_trade_with_a_bankrupt_player_is_refused_and_open_offers_with_them_are_dropped(deeds):
    state, kept = offer(deeds, ANN, BOB, give={"cash": 10}, get={"squares": [BOARDWALK]})
    state, with_cy = offer(state, ANN, CY, give={"squares": [READING]}, get={"cash": 150})
    state, from_cy = offer(state, CY, BOB, give={"cash": 10})
    state = play(state, BANKER, "bank_charge", player=CY, amount=5000)
    state, effects = go(state, CY, "bankrupt")
    assert open_ids(state) == [kept]
    dropped = {e["id"] for e in effects if e["kind"] == "trade_dropped"}
    assert dropped == {with_cy, from_cy}
    error = refusal(state, ANN, "offer_trade", RuleError, to=CY, give={"cash": 5})
    assert (error.code, error.params) == ("bankrupt", {"player": CY})


@pytest.mark.parametrize("side", ["give", "get"])
def test_only_deeds_the_giver_owns_can_be_traded(deeds, side):
    giver = ANN if side == "give" else BOB
    for square, code in ((PARK_PLACE if side == "give" else READING, "not_yours"),
                         (ELECTRIC, "not_yours"), (0, "not_a_deed")):
        error = refusal(deeds, ANN, "offer_trade", RuleError, to=BOB, **{side: {"squares": [square]}})
        assert error.code == code
        if code == "not_yours":
            assert error.params == {"player": giver, "square": square}


def test_no_deed_of_a_group_with_buildings_changes_hands(deeds):
    state = play(deeds, ANN, "build", square=BALTIC)
    error = refusal(state, ANN, "offer_trade", RuleError, to=BOB, give={"squares": [MEDITERRANEAN]})
    assert (error.code, error.params) == ("group_has_buildings", {"other_square": BALTIC, "square": MEDITERRANEAN})
    error = refusal(state, BOB, "offer_trade", RuleError, to=ANN, get={"squares": [BALTIC]})
    assert error.params == {"other_square": BALTIC, "square": BALTIC}
    assert play(state, ANN, "offer_trade", to=BOB, give={"squares": [READING]}).trades  # other deeds are fine


def test_no_offer_of_more_cash_than_the_giver_has(deeds):
    error = refusal(deeds, ANN, "offer_trade", RuleError, to=BOB, give={"cash": 1501})
    assert (error.code, error.params) == ("short_of_cash", {"player": ANN, "cash": 1500, "amount": 1501})
    assert str(error) == f"{ANN} has 1500: not enough for this trade (1501)."
    error = refusal(deeds, ANN, "offer_trade", RuleError, to=BOB, get={"cash": 1501})
    assert error.params == {"player": BOB, "cash": 1500, "amount": 1501}
    # What a player receives does not pay what they give: each hands over cash they hold now.
    error = refusal(deeds, ANN, "offer_trade", RuleError, to=BOB, give={"cash": 1600}, get={"cash": 200})
    assert (error.code, error.params) == ("short_of_cash", {"player": ANN, "cash": 1500})
    assert play(deeds, ANN, "offer_trade", to=BOB, give={"cash": 1500}).trades


def test_an_empty_offer_is_refused(deeds):
    for fields in ({}, {"give": {"cash": 0, "squares": [], "jail_cards": []}, "get": {}}):
        error = refusal(deeds, ANN, "offer_trade", RuleError, to=BOB, **fields)
        assert (error.code, str(error)) == ("empty_trade", "The offer is empty: add cash, deeds or cards.")


def test_only_a_jail_card_the_giver_holds_can_be_traded():
    state = with_jail_cards()
    error = refusal(state, ANN, "offer_trade", RuleError, to=BOB, give={"jail_cards": [CHEST_CARD]})
    assert (error.code, error.params) == ("no_card", {"player": ANN})
    error = refusal(state, ANN, "offer_trade", RuleError, to=CY, get={"jail_cards": [CHANCE_CARD]})
    assert error.params == {"player": CY}
    with pytest.raises(ActionError):  # the same card twice
        act(state, ANN, "offer_trade", to=BOB, give={"jail_cards": [CHANCE_CARD, CHANCE_CARD]})


def test_a_lift_names_a_mortgaged_deed_the_lifter_receives(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)
    state = play(state, ANN, "mortgage", square=READING)
    for lift, get in (([BOARDWALK], [BOARDWALK]),  # not mortgaged
                      ([READING], [PARK_PLACE]),  # mortgaged, but Ann's own
                      ([PARK_PLACE], [BOARDWALK])):  # mortgaged, but not part of the trade
        error = refusal(state, ANN, "offer_trade", RuleError, to=BOB, get={"squares": get}, lift=lift)
        assert (error.code, error.params) == ("bad_lift", {"square": lift[0], "player": ANN})
    state, trade = offer(state, ANN, BOB, give={"squares": [READING]}, get={"squares": [BOARDWALK]})
    for lift in ([BOARDWALK], [PARK_PLACE]):  # Bob lifts only what he receives, mortgaged
        error = refusal(state, BOB, "accept_trade", RuleError, trade=trade, lift=lift)
        assert (error.code, error.params) == ("bad_lift", {"square": lift[0], "player": BOB})


# Carrying a trade out


def test_cash_deeds_and_jail_cards_move_both_ways_in_one_step():
    state = owning(owning(with_jail_cards(), ANN, READING), BOB, BOARDWALK)
    state, trade = offer(state, ANN, BOB, give={"cash": 100, "squares": [READING], "jail_cards": [CHANCE_CARD]},
                         get={"cash": 30, "squares": [BOARDWALK], "jail_cards": [CHEST_CARD]})
    assert (cash(state, ANN), cash(state, BOB), owners(state, READING, BOARDWALK)) == (1500, 1500, (ANN, BOB))
    state, effects = go(state, BOB, "accept_trade", trade=trade)
    assert transfers(effects) == [(ANN, BOB, 100, "trade"), (BOB, ANN, 30, "trade")]
    assert (cash(state, ANN), cash(state, BOB)) == (1430, 1570)
    assert owners(state, READING, BOARDWALK) == (BOB, ANN)
    assert (state.player(ANN).jail_cards, state.player(BOB).jail_cards) == ([CHEST_CARD], [CHANCE_CARD])
    assert (holder(state, CHANCE_CARD).id, holder(state, CHEST_CARD).id) == (BOB, ANN)
    done = [e for e in effects if e["kind"] == "trade_done"]
    assert [(e["id"], e["player"], e["to"]) for e in done] == [(trade, ANN, BOB)]
    assert state.trades == []


def test_a_received_mortgaged_deed_costs_the_receiver_10_percent_rounded_up(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)  # mortgage value 175
    state, trade = offer(state, BOB, ANN, give={"squares": [PARK_PLACE]}, get={"cash": 50})
    before = cash(state, ANN)
    state, effects = go(state, ANN, "accept_trade", trade=trade)
    assert transfers(effects) == [(ANN, BOB, 50, "trade"), (ANN, "bank", 18, "mortgage_fee")]
    assert state.deeds[PARK_PLACE].owner == ANN and state.deeds[PARK_PLACE].mortgaged
    assert cash(state, ANN) == before - 68
    state, effects = go(state, ANN, "unmortgage", square=PARK_PLACE)  # lifting later: another 10%
    assert transfers(effects) == [(ANN, "bank", 193, "unmortgage")]


def test_the_receiver_may_lift_the_mortgage_at_acceptance_instead(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)
    state, trade = offer(state, BOB, ANN, give={"squares": [PARK_PLACE]}, get={"cash": 50})
    state, effects = go(state, ANN, "accept_trade", trade=trade, lift=[PARK_PLACE])
    assert transfers(effects) == [(ANN, BOB, 50, "trade"), (ANN, "bank", 193, "unmortgage")]
    assert state.deeds[PARK_PLACE].owner == ANN and not state.deeds[PARK_PLACE].mortgaged


def test_the_offerer_pays_the_fee_or_lifts_what_they_receive(deeds):
    state = play(owning(deeds, BOB, ELECTRIC), BOB, "mortgage", square=ELECTRIC)  # value 75
    state, fee = offer(state, ANN, BOB, give={"cash": 80}, get={"squares": [ELECTRIC]})
    state, lift = offer(state, ANN, BOB, give={"cash": 90}, get={"squares": [ELECTRIC]}, lift=[ELECTRIC])
    paid, effects = go(state, BOB, "accept_trade", trade=fee)
    assert transfers(effects) == [(ANN, BOB, 80, "trade"), (ANN, "bank", 8, "mortgage_fee")]
    assert paid.deeds[ELECTRIC].mortgaged and paid.deeds[ELECTRIC].owner == ANN
    lifted, effects = go(state, BOB, "accept_trade", trade=lift)
    assert transfers(effects) == [(ANN, BOB, 90, "trade"), (ANN, "bank", 83, "unmortgage")]
    assert not lifted.deeds[ELECTRIC].mortgaged and lifted.deeds[ELECTRIC].owner == ANN


def test_mortgaged_deeds_both_ways_each_side_pays_for_what_it_receives(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)
    state = play(state, ANN, "mortgage", square=READING)  # value 100
    state, trade = offer(state, ANN, BOB, give={"squares": [READING]}, get={"squares": [PARK_PLACE]},
                         lift=[PARK_PLACE])
    state, effects = go(state, BOB, "accept_trade", trade=trade)
    assert sorted(transfers(effects)) == sorted([(ANN, "bank", 193, "unmortgage"), (BOB, "bank", 10, "mortgage_fee")])
    assert (state.deeds[PARK_PLACE].mortgaged, state.deeds[READING].mortgaged) == (False, True)


@pytest.mark.parametrize("lifted", [False, True])
def test_without_the_transfer_fee_setting_only_a_lift_costs_anything(lifted):
    state = owning(started(2, Settings(mortgage_transfer_fee=False)), BOB, PARK_PLACE)
    state = play(state, BOB, "mortgage", square=PARK_PLACE)
    state, trade = offer(state, BOB, ANN, give={"squares": [PARK_PLACE]}, get={"cash": 50})
    state, effects = go(state, ANN, "accept_trade", trade=trade, **({"lift": [PARK_PLACE]} if lifted else {}))
    lift = [(ANN, "bank", 193, "unmortgage")] if lifted else []
    assert transfers(effects) == [(ANN, BOB, 50, "trade"), *lift]
    assert state.deeds[PARK_PLACE].mortgaged is not lifted


def test_the_fee_counts_in_what_the_receiver_must_afford(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1400)  # Ann keeps 100
    error = refusal(state, BOB, "offer_trade", RuleError, to=ANN, give={"squares": [PARK_PLACE]},
                    get={"cash": 100})
    assert (error.code, error.params) == ("short_of_cash", {"player": ANN, "cash": 100, "amount": 118})
    state, trade = offer(state, BOB, ANN, give={"squares": [PARK_PLACE]}, get={"cash": 82})
    error = refusal(state, ANN, "accept_trade", RuleError, trade=trade, lift=[PARK_PLACE])
    assert (error.code, error.params) == ("short_of_cash", {"player": ANN, "cash": 100, "amount": 275})
    state, effects = go(state, ANN, "accept_trade", trade=trade)
    assert cash(state, ANN) == 0


def test_cash_received_in_the_trade_can_pay_the_fee(deeds):
    state = play(deeds, BOB, "mortgage", square=PARK_PLACE)
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1500)  # Ann has nothing
    state, trade = offer(state, BOB, ANN, give={"cash": 200, "squares": [PARK_PLACE]})
    state, effects = go(state, ANN, "accept_trade", trade=trade, lift=[PARK_PLACE])
    assert transfers(effects) == [(BOB, ANN, 200, "trade"), (ANN, "bank", 193, "unmortgage")]
    assert cash(state, ANN) == 7


# Offers that became impossible


def test_an_offer_the_offerer_can_no_longer_pay_is_refused_at_acceptance_and_changes_nothing(deeds):
    state, trade = offer(deeds, ANN, BOB, give={"cash": 1450}, get={"squares": [BOARDWALK]})
    state = play(state, ANN, "roll", dice=[2, 4])  # Oriental Avenue, 100
    state = play(state, ANN, "buy")
    error = refusal(state, BOB, "accept_trade", RuleError, trade=trade)
    assert (error.code, error.params) == ("short_of_cash", {"player": ANN, "cash": 1400, "amount": 1450})
    assert str(error) == f"{ANN} has 1400: not enough for this trade (1450)."
    assert open_ids(state) == [trade]  # still open: it may become possible again
    state = play(state, BANKER, "bank_pay", player=ANN, amount=50)
    state, _ = go(state, BOB, "accept_trade", trade=trade)
    assert state.deeds[BOARDWALK].owner == ANN


def test_an_offer_of_a_deed_whose_group_was_built_on_meanwhile_is_refused_at_acceptance(deeds):
    state, trade = offer(deeds, ANN, BOB, give={"squares": [MEDITERRANEAN]}, get={"cash": 100})
    state = play(state, ANN, "build", square=BALTIC)
    error = refusal(state, BOB, "accept_trade", RuleError, trade=trade)
    assert (error.code, error.params) == ("group_has_buildings", {"other_square": BALTIC, "square": MEDITERRANEAN})
    assert str(error) == (f"{BALTIC} has buildings: the group's buildings must be sold before "
                          f"{MEDITERRANEAN} can change hands.")
    assert open_ids(state) == [trade]
    state = play(state, ANN, "sell_building", square=BALTIC)
    state, _ = go(state, BOB, "accept_trade", trade=trade)
    assert state.deeds[MEDITERRANEAN].owner == BOB


def test_a_deed_mortgaged_after_the_offer_brings_its_fee_at_acceptance(deeds):
    state, trade = offer(deeds, ANN, BOB, give={"squares": [READING]}, get={"cash": 150})
    state = play(state, ANN, "mortgage", square=READING)
    state, effects = go(state, BOB, "accept_trade", trade=trade)
    assert transfers(effects) == [(BOB, ANN, 150, "trade"), (BOB, "bank", 10, "mortgage_fee")]


def test_an_offer_whose_deed_went_to_someone_else_in_another_trade_is_dropped(deeds):
    state, to_bob = offer(deeds, ANN, BOB, give={"squares": [READING]}, get={"cash": 150})
    state, to_cy = offer(state, ANN, CY, give={"squares": [READING]}, get={"cash": 170})
    state, asks = offer(state, BOB, ANN, give={"cash": 160}, get={"squares": [READING, BALTIC]})
    state, other = offer(state, BOB, CY, give={"squares": [BOARDWALK]}, get={"cash": 300})
    state, effects = go(state, CY, "accept_trade", trade=to_cy)
    assert state.deeds[READING].owner == CY
    assert {e["id"] for e in effects if e["kind"] == "trade_dropped"} == {to_bob, asks}
    assert open_ids(state) == [other]
    error = refusal(state, BOB, "accept_trade", RuleError, trade=to_bob)
    assert (error.code, error.params) == ("no_trade", {"id": to_bob})


# Who answers an offer


def test_only_the_receiver_accepts_or_rejects_and_only_the_offerer_withdraws(deeds):
    state, trade = offer(deeds, ANN, BOB, give={"cash": 10}, get={"squares": [BOARDWALK]})
    for who in (ANN, CY):
        error = refusal(state, who, "accept_trade", RuleError, trade=trade)
        assert (error.code, error.params) == ("not_yours_to_accept", {"player": BOB})
        error = refusal(state, who, "reject_trade", RuleError, trade=trade)
        assert (error.code, error.params) == ("not_yours_to_reject", {"player": BOB})
    for who in (BOB, CY):
        error = refusal(state, who, "withdraw_trade", RuleError, trade=trade)
        assert (error.code, error.params) == ("not_yours_to_withdraw", {"player": ANN})
    rejected, effects = go(state, BOB, "reject_trade", trade=trade)
    assert (rejected.trades, effects) == ([], [{"kind": "trade_rejected", "id": trade, "player": BOB, "offerer": ANN}])
    withdrawn, effects = go(state, ANN, "withdraw_trade", trade=trade)
    assert (withdrawn.trades, effects) == ([], [{"kind": "trade_withdrawn", "id": trade, "player": ANN, "to": BOB}])
    for gone in (rejected, withdrawn):
        assert refusal(gone, BOB, "accept_trade", RuleError, trade=trade).code == "no_trade"
        assert (cash(gone, ANN), gone.deeds[BOARDWALK].owner) == (1500, BOB)


def test_the_banker_may_answer_for_a_seat(deeds):
    state, trade = offer(deeds, ANN, BOB, give={"cash": 10}, get={"squares": [BOARDWALK]})
    state, _ = go(state, BANKER, "accept_trade", player=BOB, trade=trade)
    assert state.deeds[BOARDWALK].owner == ANN


def test_several_offers_stay_open_at_once_and_are_answered_one_by_one(deeds):
    state, first = offer(deeds, ANN, BOB, give={"cash": 10}, get={"squares": [BOARDWALK]})
    state, second = offer(state, ANN, BOB, give={"cash": 20}, get={"squares": [PARK_PLACE]})
    state, third = offer(state, CY, ANN, give={"cash": 200}, get={"squares": [READING]})
    state, fourth = offer(state, BOB, CY, give={"cash": 5})
    assert len({first, second, third, fourth}) == 4
    assert open_ids(state) == [first, second, third, fourth]
    state, _ = go(state, BOB, "accept_trade", trade=second)
    state, _ = go(state, CY, "reject_trade", trade=fourth)
    assert open_ids(state) == [first, third]
    state, _ = go(state, ANN, "accept_trade", trade=third)
    state, _ = go(state, BOB, "accept_trade", trade=first)
    assert state.trades == []
    assert owners(state, PARK_PLACE, BOARDWALK, READING) == (ANN, ANN, CY)
    assert [cash(state, p) for p in (ANN, BOB, CY)] == [1500 - 30 + 200, 1530, 1300]


# Money and deeds over a run of trades


def test_money_deeds_and_cards_are_conserved_across_trades_fees_and_lifts():
    state = owning(with_jail_cards(), ANN, *BROWN, READING)
    state = owning(state, BOB, PARK_PLACE, BOARDWALK, ELECTRIC)
    state = owning(state, CY, 15, 25, 35)
    state, _ = go(state, BOB, "mortgage", square=PARK_PLACE)
    state, _ = go(state, CY, "mortgage", square=25)
    state, _ = go(state, ANN, "mortgage", square=MEDITERRANEAN)
    state, a = offer(state, ANN, BOB, give={"cash": 300, "squares": [MEDITERRANEAN], "jail_cards": [CHANCE_CARD]},
                     get={"squares": [PARK_PLACE, BOARDWALK]}, lift=[PARK_PLACE])
    state, b = offer(state, CY, ANN, give={"squares": [15, 25]}, get={"cash": 400, "squares": [READING]})
    state, c = offer(state, BOB, CY, give={"jail_cards": [CHEST_CARD], "cash": 40}, get={"squares": [35]})
    state, _ = go(state, BOB, "accept_trade", trade=a, lift=[MEDITERRANEAN])
    state, _ = go(state, ANN, "accept_trade", trade=b, lift=[25])
    state, _ = go(state, CY, "accept_trade", trade=c)
    state, _ = go(state, ANN, "mortgage", square=BOARDWALK)
    state, d = offer(state, ANN, CY, give={"squares": [BOARDWALK]}, get={"cash": 150})
    state, _ = go(state, CY, "accept_trade", trade=d)
    held = {sq: d.owner for sq, d in state.deeds.items() if d.owner}
    assert held == {BALTIC: ANN, MEDITERRANEAN: BOB, READING: CY, ELECTRIC: BOB, 15: ANN, 25: ANN,
                    PARK_PLACE: ANN, BOARDWALK: CY, 35: BOB}
    assert [p.jail_cards for p in state.players] == [[], [CHANCE_CARD], [CHEST_CARD]]
    mortgaged = sorted(sq for sq, d in state.deeds.items() if d.mortgaged)
    assert mortgaged == [BOARDWALK]
    # Ann: +30 mortgage, -300, -193 lift, -400, -110 lift, +200 mortgage, +150;
    # Bob: +175 mortgage, +300, -33 lift, -40; Cy: +100 mortgage, +400, +40, -150, -20 fee.
    assert [cash(state, p) for p in (ANN, BOB, CY)] == [877, 1902, 1870]


def test_a_player_in_debt_may_trade_deeds_for_cash_but_not_give_cash_away():
    """Cash owed is not spent elsewhere first, as with building and repaying mortgages."""
    state = owning(started(3), ANN, READING)
    state = play(state, ANN, "pay", to=CY, amount=2000)          # Ann owes Cy more than she has
    assert refusal(state, ANN, "offer_trade", RuleError, to=BOB, give={"cash": 10}).code == "in_debt"
    state, _ = go(state, ANN, "offer_trade", to=BOB, give={"squares": [READING]}, get={"cash": 300})
    trade = state.trades[-1].id
    state, _ = go(state, BOB, "accept_trade", trade=trade)
    assert state.deeds[READING].owner == BOB and cash(state, ANN) == 1800
