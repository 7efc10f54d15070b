"""House rules and rule settings, each on and off (docs/rules.md, Settings, and its sections
on taxes and GO): the Free Parking jackpot, 400 for landing exactly on GO, no auctions, the pre-2008
Income Tax choice, the old Luxury Tax, start cash and GO salary.

Ownership is arranged with `owning` (a copy of the state); buildings are built with set_buildings.
"""

import pytest

from banker.rules import ActionError, NotAllowed, RuleError, Settings, legal_actions

from . import (
    ANN, BANKER, BOB, BROWN, CY, act, cash, owning, place, play, refusal, set_buildings, started,
    transfers,
)
from .test_cards import drawing, next_turn

JACKPOT = Settings(free_parking_jackpot=True)
FREE_PARKING = 20


# Free Parking jackpot


def rolled_onto(square, settings, dice=(1, 2)):
    """Ann rolls onto `square` from just short of it."""
    state = place(started(3, settings), ANN, square - sum(dice))
    return act(state, ANN, "roll", dice=list(dice))


@pytest.mark.parametrize("luxury_tax", [100, 75])
@pytest.mark.parametrize("jackpot", [True, False])
def test_taxes_go_to_the_pot_only_under_the_jackpot_rule(jackpot, luxury_tax):
    settings = Settings(free_parking_jackpot=jackpot, luxury_tax=luxury_tax)
    for square, amount in ((4, 200), (38, luxury_tax)):
        state, effects = rolled_onto(square, settings)
        payee = "free_parking" if jackpot else "bank"
        assert transfers(effects) == [(ANN, payee, amount, "tax")]
        assert state.free_parking == (amount if jackpot else 0)


@pytest.mark.parametrize("jackpot", [True, False])
def test_card_payments_and_repairs_go_to_the_pot_only_under_the_jackpot_rule(jackpot):
    settings = Settings(free_parking_jackpot=jackpot)
    payee = "free_parking" if jackpot else "bank"
    state, effects = act(drawing(7, settings=settings), ANN, "draw", deck="chance", card="ch_speeding_fine")
    assert transfers(effects) == [(ANN, payee, 15, "card")]
    state = owning(drawing(17, settings=settings), ANN, *BROWN)
    state = set_buildings(state, ANN, {1: 1, 3: 1})
    state, effects = act(state, ANN, "draw", deck="chest", card="cc21_home_improvement")
    assert transfers(effects) == [(ANN, payee, 80, "repairs")]
    assert state.free_parking == (80 if jackpot else 0)


def test_a_card_payment_owed_goes_to_the_pot_when_paid():
    state = play(drawing(17, settings=JACKPOT), ANN, "pay", to="bank", amount=1450)
    state = play(state, ANN, "draw", deck="chest", card="cc21_car_wash_windows")
    [debt] = state.debts
    assert (debt.creditor, debt.amount) == ("free_parking", 100)
    state = play(play(state, BANKER, "bank_pay", player=ANN, amount=50), ANN, "pay_debt")
    assert state.free_parking == 100


def test_the_third_failed_jail_roll_pays_its_fine_into_the_pot():
    state = play(place(started(2, JACKPOT), ANN, 27), ANN, "roll", dice=[1, 2])
    for _ in range(2):
        state = play(next_turn(state), ANN, "roll", dice=[1, 2])
    state, effects = act(next_turn(state), ANN, "roll", dice=[1, 2])
    assert (ANN, "free_parking", 50, "jail_fine") in transfers(effects)
    assert state.free_parking == 50


def test_a_short_pay_each_player_card_is_owed_to_the_bank_not_the_pot():
    state = play(drawing(7, settings=JACKPOT), BANKER, "bank_charge", player=ANN, amount=1450)
    state = play(state, ANN, "draw", deck="chance", card="ch_chairman")
    assert [(d.creditor, d.amount) for d in state.debts] == [("bank", 100)]
    assert state.free_parking == 0


def test_landing_on_free_parking_collects_the_whole_pot():
    state = play(started(3, JACKPOT), ANN, "pay", to="free_parking", amount=40)
    state = play(state, BANKER, "seed_jackpot", amount=500)
    state, effects = act(place(state, ANN, FREE_PARKING - 3), ANN, "roll", dice=[1, 2])
    assert transfers(effects) == [("free_parking", ANN, 540, "jackpot")]
    assert (state.free_parking, cash(state, ANN)) == (0, 1500 - 40 + 540)


def test_an_empty_pot_pays_nothing():
    state, effects = act(place(started(3, JACKPOT), ANN, FREE_PARKING - 3), ANN, "roll", dice=[1, 2])
    assert transfers(effects) == [] and cash(state, ANN) == 1500


def test_without_the_jackpot_free_parking_pays_nothing():
    state, effects = act(place(started(3), ANN, FREE_PARKING - 3), ANN, "roll", dice=[1, 2])
    assert transfers(effects) == [] and state.pending is None


def test_the_banker_seeds_the_jackpot_from_the_bank():
    state, effects = act(started(3, JACKPOT), BANKER, "seed_jackpot", amount=300)
    assert transfers(effects) == [("bank", "free_parking", 300, "seed")]
    assert state.free_parking == 300


def test_only_the_banker_seeds_the_jackpot():
    assert refusal(started(3, JACKPOT), ANN, "seed_jackpot", NotAllowed, amount=300).code == "banker_only"


def test_the_jackpot_cannot_be_seeded_without_the_rule():
    assert refusal(started(3), BANKER, "seed_jackpot", RuleError, amount=300).code == "no_jackpot"


@pytest.mark.parametrize("amount", [0, -5, "lots", 1_000_001])
def test_a_seed_must_be_a_sensible_amount(amount):
    assert refusal(started(3, JACKPOT), BANKER, "seed_jackpot", ActionError, amount=amount).code == "bad_field"


# Landing exactly on GO


@pytest.mark.parametrize("bonus, salary", [(True, 400), (False, 200)])
def test_landing_on_go_by_a_card_pays_double_only_under_the_go_exact_bonus_rule(bonus, salary):
    settings = Settings(go_exact_bonus=bonus)
    state, effects = act(drawing(22, settings=settings), ANN, "draw", deck="chance", card="ch_advance_go")
    assert transfers(effects) == [("bank", ANN, salary, "salary")]
    state, effects = act(drawing(33, settings=settings), ANN, "draw", deck="chest", card="cc21_foot_race_go")
    assert transfers(effects) == [("bank", ANN, salary, "salary")]


def test_passing_go_by_a_card_under_the_go_exact_bonus_rule_pays_the_plain_salary():
    state, effects = act(drawing(36, settings=Settings(go_exact_bonus=True)), ANN, "draw", deck="chance",
                         card="ch_trip_reading")
    assert transfers(effects)[0] == ("bank", ANN, 200, "salary")


# No auctions


def test_with_auctions_off_a_declined_deed_stays_with_the_bank():
    state = play(started(3, Settings(auctions=False)), ANN, "roll", dice=[2, 3])
    state, effects = act(state, ANN, "decline")
    assert (state.auction, state.pending, state.deeds[5].owner) == (None, None, None)
    assert not any(e["kind"] == "auction_opened" for e in effects)
    assert play(state, ANN, "end_turn").turn == BOB


def test_with_auctions_on_a_declined_deed_is_auctioned_at_once():
    state = play(play(started(3), ANN, "roll", dice=[2, 3]), ANN, "decline")
    assert state.auction.square == 5 and sorted(state.auction.bidders) == [ANN, BOB, CY]


def test_with_auctions_off_a_deed_declined_after_a_card_stays_with_the_bank():
    state = drawing(7, settings=Settings(auctions=False))
    state = play(play(state, ANN, "draw", deck="chance", card="ch_nearest_utility"), ANN, "decline")
    assert (state.auction, state.deeds[12].owner) == (None, None)


# Income Tax: flat 200, or the pre-2008 choice of 200 or 10% of total worth


CHOICE = Settings(income_tax="choice")


def landed_on_income_tax(state):
    return play(place(state, ANN, 1), ANN, "roll", dice=[1, 2])


def test_under_the_choice_rule_income_tax_asks_before_counting():
    state = landed_on_income_tax(started(2, CHOICE))
    assert state.pending == {"kind": "income_tax", "player": ANN, "square": 4}
    assert legal_actions(state, ANN) == {"income_tax", "pay"}
    assert cash(state, ANN) == 1500
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"


def test_the_flat_choice_pays_200():
    state, effects = act(landed_on_income_tax(started(2, CHOICE)), ANN, "income_tax", choice="flat")
    assert transfers(effects) == [(ANN, "bank", 200, "tax")]
    assert state.pending is None and play(state, ANN, "end_turn").turn == BOB


def test_ten_percent_counts_deeds_at_full_price_even_mortgaged_and_buildings_at_cost():
    """Ann: a hotel and 4 houses on brown (450 paid), Boardwalk mortgaged (+200): cash 1250;
    worth 1250 + 60 + 60 + 400 (full price, mortgaged or not) + 450 = 2220; 10% is 222."""
    state = owning(started(2, CHOICE), ANN, *BROWN, 39)
    state = play(set_buildings(state, ANN, {1: 5, 3: 4}), ANN, "mortgage", square=39)
    state, effects = act(landed_on_income_tax(state), ANN, "income_tax", choice="percent")
    assert transfers(effects) == [(ANN, "bank", 222, "tax")]
    assert cash(state, ANN) == 1250 - 222


def test_ten_percent_goes_to_the_pot_under_the_jackpot_rule():
    settings = Settings(income_tax="choice", free_parking_jackpot=True)
    state = play(landed_on_income_tax(started(2, settings)), ANN, "income_tax", choice="percent")
    assert state.free_parking == 150


def test_going_back_three_onto_income_tax_asks_too():
    state = play(drawing(7, settings=CHOICE), ANN, "draw", deck="chance", card="ch_go_back_3")
    assert state.pending == {"kind": "income_tax", "player": ANN, "square": 4}


def test_with_the_flat_rule_income_tax_is_200_and_asks_nothing():
    state, effects = act(place(started(2), ANN, 1), ANN, "roll", dice=[1, 2])
    assert transfers(effects) == [(ANN, "bank", 200, "tax")] and state.pending is None
    assert refusal(state, ANN, "income_tax", RuleError, choice="flat").code == "no_tax_choice"


def test_only_the_lander_chooses_and_the_choice_is_flat_or_percent():
    state = landed_on_income_tax(started(2, CHOICE))
    assert refusal(state, BOB, "income_tax", RuleError, choice="flat").code == "no_tax_choice"
    assert refusal(state, ANN, "income_tax", ActionError, choice="half").code == "bad_field"


# Start cash and GO salary


@pytest.mark.parametrize("start_cash", [1500, 2000, 300])
def test_every_player_starts_with_the_start_cash(start_cash):
    state = started(3, Settings(start_cash=start_cash))
    assert [p.cash for p in state.players] == [start_cash] * 3


@pytest.mark.parametrize("go_salary, bonus", [(200, False), (100, False), (100, True)])
def test_the_go_salary_is_paid_passing_and_landing_by_dice_and_by_card(go_salary, bonus):
    settings = Settings(go_salary=go_salary, go_exact_bonus=bonus)
    landing = go_salary * 2 if bonus else go_salary
    state, effects = act(place(started(2, settings), ANN, 36), ANN, "roll", dice=[2, 3])
    assert transfers(effects) == [("bank", ANN, go_salary, "salary")]
    state, effects = act(place(started(2, settings), ANN, 35), ANN, "roll", dice=[2, 3])
    assert transfers(effects) == [("bank", ANN, landing, "salary")]
    state, effects = act(drawing(36, settings=settings), ANN, "draw", deck="chance", card="ch_advance_st_charles")
    assert transfers(effects)[0] == ("bank", ANN, go_salary, "salary")
    state, effects = act(drawing(36, settings=settings), ANN, "draw", deck="chance", card="ch_advance_go")
    assert transfers(effects) == [("bank", ANN, landing, "salary")]


@pytest.mark.parametrize("settings, code", [
    ({"start_cash": -1}, "bad_setting"),
    ({"go_salary": "lots"}, "bad_setting"),
    ({"free_parking_jackpot": "yes"}, "bad_setting"),
    ({"go_exact_bonus": 1}, "bad_setting"),
    ({"auctions": None}, "bad_setting"),
    ({"income_tax": "percent"}, "bad_setting"),
    ({"luxury_tax": 50}, "bad_setting"),
    ({"community_chest": "1999"}, "bad_setting"),
    ({"mortgage_transfer_fee": "no"}, "bad_setting"),
    ({"speed_die": True}, "unknown_setting"),
])
def test_bad_settings_are_refused(settings, code):
    with pytest.raises(ActionError) as caught:
        Settings.parse(settings)
    assert caught.value.code == code
