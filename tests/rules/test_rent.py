"""Rent for landing on another player's deed."""

import pytest

from banker.rules import Settings

from . import ANN, BOB, act, cash, owning, place, started, transfers

RAILROADS = (5, 15, 25, 35)


def rent_paid(state, dice, start=0):
    """Ann rolls `dice` from `start`: the rent transfers the landing caused."""
    _, effects = act(place(state, ANN, start), ANN, "roll", dice=dice)
    return [t for t in transfers(effects) if t[3] == "rent"]


def test_a_street_charges_its_base_rent(game):
    assert rent_paid(owning(game, BOB, 3), [1, 2]) == [(ANN, BOB, 4, "rent")]


def test_rent_moves_the_cash_from_the_tenant_to_the_owner(game):
    state, _ = act(owning(game, BOB, 3), ANN, "roll", dice=[1, 2])
    assert (cash(state, ANN), cash(state, BOB)) == (1496, 1504)


def test_an_unimproved_lot_of_a_complete_group_charges_double_rent(game):
    assert rent_paid(owning(game, BOB, 1, 3), [1, 2]) == [(ANN, BOB, 8, "rent")]


def test_a_lot_with_houses_charges_the_rent_for_its_houses(game):
    state = owning(game, BOB, 1, 3)
    state.deeds[3].houses = 2
    assert rent_paid(state, [1, 2]) == [(ANN, BOB, 60, "rent")]


def test_a_lot_with_a_hotel_charges_hotel_rent(game):
    state = owning(game, BOB, 1, 3)
    state.deeds[3].hotel = True
    assert rent_paid(state, [1, 2]) == [(ANN, BOB, 450, "rent")]


@pytest.mark.parametrize("setting, rent", [(True, 8), (False, 4)])
def test_a_mortgaged_lot_in_the_group_keeps_double_rent_only_under_the_classic_reading(setting, rent):
    state = started(settings=Settings(double_rent_with_mortgaged_lot=setting))
    state = owning(state, BOB, 1, 3, mortgaged=[1])
    assert rent_paid(state, [1, 2]) == [(ANN, BOB, rent, "rent")]


@pytest.mark.parametrize("held, rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_grows_with_the_railroads_the_owner_holds(game, held, rent):
    assert rent_paid(owning(game, BOB, *RAILROADS[:held]), [2, 3]) == [(ANN, BOB, rent, "rent")]


def test_mortgaged_railroads_still_count_for_railroad_rent(game):
    state = owning(game, BOB, *RAILROADS, mortgaged=[15, 25])
    assert rent_paid(state, [2, 3]) == [(ANN, BOB, 200, "rent")]


def test_one_utility_charges_four_times_the_dice(game):
    assert rent_paid(owning(game, BOB, 12), [2, 3], start=7) == [(ANN, BOB, 20, "rent")]


def test_both_utilities_charge_ten_times_the_dice(game):
    assert rent_paid(owning(game, BOB, 12, 28), [2, 3], start=7) == [(ANN, BOB, 50, "rent")]


def test_a_mortgaged_deed_charges_no_rent(game):
    state = owning(game, BOB, 5, mortgaged=[5])
    state, effects = act(state, ANN, "roll", dice=[2, 3])
    assert transfers(effects) == []
    assert {"kind": "no_rent", "player": ANN, "square": 5} in effects
    assert state.pending is None


def test_landing_on_your_own_deed_costs_nothing(game):
    state, effects = act(owning(game, ANN, 5), ANN, "roll", dice=[2, 3])
    assert transfers(effects) == []
    assert state.pending is None


def test_rent_larger_than_cash_becomes_a_debt_to_the_owner(game):
    state = owning(game, BOB, 37, 39)
    state.deeds[39].hotel = True
    state, _ = act(place(state, ANN, 36), ANN, "roll", dice=[1, 2])
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason, debt.square) == (
        ANN, BOB, 2000, "rent", 39)
    assert (cash(state, ANN), cash(state, BOB)) == (1500, 1500)
