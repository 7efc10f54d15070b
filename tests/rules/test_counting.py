"""A player who counts it themselves (docs/rules.md, I count it myself): the sum their own move
brings waits as a debt until they pay it, and the rules say how it is worked out.

Ann rolls from GO with 1,500 (1 and 2 lands on Baltic Avenue, 3; 1 and 3 on Income Tax, 4; 2 and 3
on Reading Railroad, 5)."""

import pytest

from banker.rules import Actor, Settings, legal_actions, parse, replay
from banker.rules.counting import counts, purchase, worked_out

from . import ANN, BANKER, BOB, CY, act, cash, funded, owning, place, play, set_buildings, started, transfers
from .test_edition_cards import drawing


def counted(state, type="roll", **fields):
    """Ann takes an action saying she counts it; return (state, effects)."""
    return act(state, ANN, type, count=True, **fields)


def test_a_counted_rent_waits_as_a_debt_though_the_cash_covers_it(game):
    state, effects = counted(owning(game, BOB, 3), dice=[1, 2])
    assert transfers(effects) == []
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (ANN, BOB, 4, "rent")
    assert [e for e in effects if e["kind"] == "debt"][0]["counted"] is True and counts(debt)
    assert (cash(state, ANN), cash(state, BOB)) == (1500, 1500)


def test_paying_the_counted_debt_moves_the_same_sum_as_the_rent_would(game):
    state, _ = counted(owning(game, BOB, 3), dice=[1, 2])
    state, effects = act(state, ANN, "pay_debt", debt=state.debts[0].id)
    assert transfers(effects) == [(ANN, BOB, 4, "rent")]
    assert (cash(state, ANN), cash(state, BOB), state.debts) == (1496, 1504, [])


def test_a_counted_debt_holds_the_turn_as_any_debt_does(game):
    state, _ = counted(owning(game, BOB, 3), dice=[1, 2])
    legal = legal_actions(state, ANN)
    assert "pay_debt" in legal and "end_turn" not in legal


def test_a_sum_the_cash_does_not_cover_is_a_debt_as_for_anyone(game):
    state = play(owning(game, BOB, 3), BANKER, "bank_charge", player=ANN, amount=1498)
    state, _ = counted(state, dice=[1, 2])
    [rent] = state.debts
    assert (rent.amount, cash(state, ANN), counts(rent)) == (4, 2, False)


def test_without_count_the_rent_is_paid_at_once(game):
    state, effects = act(owning(game, BOB, 3), ANN, "roll", dice=[1, 2])
    assert transfers(effects) == [(ANN, BOB, 4, "rent")] and state.debts == []


def test_the_flag_is_kept_in_the_log_and_replays_to_the_same_state(game):
    action = {"type": "roll", "dice": [1, 2], "count": True}
    assert parse(action).to_dict() == action
    assert parse({**action, "count": False}).to_dict() == {"type": "roll", "dice": [1, 2]}
    state, _ = counted(owning(game, BOB, 3), dice=[1, 2])
    again = replay("us", game.settings, [(Actor(player=ANN), action)], start=owning(game, BOB, 3))
    assert again.to_dict() == state.to_dict()


def test_the_snapshot_never_holds_who_is_counting(game):
    state, _ = counted(owning(game, BOB, 3), dice=[1, 2])
    assert "counting" not in state.to_dict() and state.counting is None


def test_a_fine_is_not_counted_only_rent_taxes_and_cards(game):
    state = play(game, BANKER, "bank_charge", player=ANN, amount=30)
    assert state.debts == [] and cash(state, ANN) == 1470


@pytest.mark.parametrize("level, doubled, rent", [(0, False, 4), (0, True, 8), (2, False, 60), (5, False, 450)])
def test_a_street_rent_is_worked_out_from_its_buildings_and_group(game, level, doubled, rent):
    state = owning(game, BOB, 1, 3) if doubled or level else owning(game, BOB, 3)
    if level:
        state = set_buildings(funded(state, BOB), BOB, {1: level, 3: level})
    state, _ = counted(state, dice=[1, 2])
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.square, sum_.total) == ("street", 3, rent)
    assert sum_.figures == {"level": level, "rent": state.board[3].rent[level], "doubled": doubled}


def test_a_railroad_rent_is_worked_out_from_the_railroads_held(game):
    state, _ = counted(owning(game, BOB, 5, 15), dice=[2, 3])
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.total, sum_.figures) == ("railroad", 50, {"held": 2, "rent": 50})


def test_a_utility_rent_is_the_rate_times_the_dice(game):
    state, _ = counted(owning(place(game, ANN, 6), BOB, 12), dice=[2, 4])
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.total, sum_.figures) == ("utility", 24, {"held": 1, "times": 4, "dice": 6})


def test_the_luxury_tax_is_the_printed_sum(game):
    state, _ = counted(place(game, ANN, 36), dice=[1, 1])
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.square, sum_.total) == ("tax", 38, 100)


def test_income_tax_at_ten_percent_is_worked_out_from_the_worth():
    state = started(settings=Settings(income_tax="choice"))
    state, _ = act(state, ANN, "roll", dice=[1, 3])
    state, _ = counted(state, "income_tax", choice="percent")
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.total, sum_.figures) == ("tenth", 150, {"worth": 1500})


def test_a_card_that_says_pay_is_its_sum():
    state, _ = counted(drawing(7, "us"), "draw", deck="chance", card="custom", effect={"kind": "pay", "amount": 20})
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.total, cash(state, ANN)) == ("card", 20, 1500)


def test_paying_each_player_is_one_counted_debt_shared_when_paid():
    state, _ = counted(drawing(7, "us"), "draw", deck="chance", card="custom",
                       effect={"kind": "pay_each_player", "amount": 50})
    [debt] = state.debts
    assert (debt.amount, debt.payees) == (100, [BOB, CY])
    assert worked_out(state, debt).figures == {"each": 50, "players": 2}
    state, effects = act(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, BOB, 50, "card"), (ANN, CY, 50, "card")]


def test_repairs_are_worked_out_per_house_and_per_hotel():
    state = funded(owning(drawing(7, "us"), ANN, 1, 3), ANN, 1000)
    state = set_buildings(state, ANN, {1: 5, 3: 4})
    before = cash(state, ANN)
    state, _ = counted(state, "draw", deck="chance", card="custom",
                       effect={"kind": "repairs", "per_house": 25, "per_hotel": 100})
    sum_ = worked_out(state, state.debts[0])
    assert (sum_.how, sum_.total, cash(state, ANN)) == ("repairs", 200, before)
    assert sum_.figures == {"houses": 4, "per_house": 25, "hotels": 1, "per_hotel": 100}


def test_a_purchase_asks_for_the_printed_price(game):
    state, _ = act(game, ANN, "roll", dice=[1, 2])
    assert purchase(state, ANN).total == 60 and purchase(state, BOB) is None
