"""Mortgages: the bank lends the printed mortgage value on an unimproved deed; lifting costs the
value plus 10%, rounded up to a whole unit (docs/rules.md, Mortgages).

Every amount is checked against the reference board (tests/rules/reference/board_us.json), not
against the engine's own edition file. Ownership is arranged with `owning` (a copy of the state).
"""

import math

import pytest

from banker.rules import RuleError
from banker.rules.mortgages import lift_cost
from banker.rules.rent import rent_due

from . import (
    ANN, BANKER, BOB, BROWN, LIGHT_BLUE, act, cash, funded, owning, place, play, reference_board, refusal,
    set_buildings, transfers,
)

REFERENCE = reference_board()
DEEDS = [s for s in REFERENCE["squares"] if "mortgage_value" in s]
RAILROADS = tuple(REFERENCE["railroads"]["indices"])


def by_name(deed) -> str:
    return deed["name"]


def test_the_reference_and_the_engine_list_the_same_28_deeds(game):
    assert [d["index"] for d in DEEDS] == [s.index for s in game.board.deeds]
    assert len(DEEDS) == 28


@pytest.mark.parametrize("deed", DEEDS, ids=by_name)
def test_mortgaging_pays_the_printed_mortgage_value(game, deed):
    square = deed["index"]
    assert deed["mortgage_value"] * 2 == deed["price"]
    state, effects = act(owning(game, ANN, square), ANN, "mortgage", square=square)
    assert transfers(effects) == [("bank", ANN, deed["mortgage_value"], "mortgage")]
    assert cash(state, ANN) == 1500 + deed["mortgage_value"]
    assert state.deeds[square].mortgaged
    assert {"kind": "mortgaged", "player": ANN, "square": square} in effects


@pytest.mark.parametrize("deed", DEEDS, ids=by_name)
def test_lifting_costs_the_mortgage_value_plus_ten_percent_rounded_up(game, deed):
    square = deed["index"]
    lift = math.ceil(deed["unmortgage_cost"])
    assert lift == math.ceil(deed["mortgage_value"] * 1.1 - 1e-9)
    state = play(owning(game, ANN, square), ANN, "mortgage", square=square)
    state, effects = act(state, ANN, "unmortgage", square=square)
    assert transfers(effects) == [(ANN, "bank", lift, "unmortgage")]
    assert cash(state, ANN) == 1500 + deed["mortgage_value"] - lift
    assert not state.deeds[square].mortgaged
    assert lift_cost(game.board[square].mortgage) == lift


@pytest.mark.parametrize("square, lift", [(37, 193), (12, 83), (28, 83), (39, 220), (1, 33)])
def test_half_unit_interest_rounds_up(game, square, lift):
    state = play(owning(game, ANN, square, mortgaged=[square]), ANN, "unmortgage", square=square)
    assert cash(state, ANN) == 1500 - lift


def test_mortgaging_twice_is_refused(game):
    state = play(owning(game, ANN, 5), ANN, "mortgage", square=5)
    error = refusal(state, ANN, "mortgage", RuleError, square=5)
    assert (error.code, error.params["square"]) == ("already_mortgaged", 5)


def test_lifting_what_is_not_mortgaged_is_refused(game):
    error = refusal(owning(game, ANN, 5), ANN, "unmortgage", RuleError, square=5)
    assert (error.code, error.params["square"]) == ("not_mortgaged", 5)


@pytest.mark.parametrize("built", LIGHT_BLUE)
@pytest.mark.parametrize("target", LIGHT_BLUE)
def test_no_mortgage_while_any_lot_of_the_group_has_buildings_and_the_refusal_names_it(game, built, target):
    state = owning(game, ANN, *LIGHT_BLUE)
    state = set_buildings(state, ANN, {s: int(s == built) for s in LIGHT_BLUE})
    error = refusal(state, ANN, "mortgage", RuleError, square=target)
    assert (error.code, error.params["other_square"], error.params["square"]) == (
        "group_has_buildings", built, target)
    state = play(state, ANN, "sell_building", square=built)
    assert play(state, ANN, "mortgage", square=target).deeds[target].mortgaged


def test_buildings_on_another_group_do_not_stop_a_mortgage(game):
    state = set_buildings(owning(game, ANN, *LIGHT_BLUE, *BROWN), ANN, {6: 1, 8: 1, 9: 1})
    assert play(state, ANN, "mortgage", square=1).deeds[1].mortgaged


@pytest.mark.parametrize("mortgaged", LIGHT_BLUE)
def test_no_building_anywhere_in_a_group_with_a_mortgaged_lot(game, mortgaged):
    state = play(owning(game, ANN, *LIGHT_BLUE), ANN, "mortgage", square=mortgaged)
    for square in LIGHT_BLUE:
        error = refusal(state, ANN, "build", RuleError, square=square)
        assert (error.code, error.params["other_square"]) == ("group_mortgaged", mortgaged)


@pytest.mark.parametrize("square", [3, 5, 12, 39])
def test_a_mortgaged_deed_collects_no_rent(game, square):
    state = play(owning(game, BOB, *BROWN, *RAILROADS, 12, 28, 37, 39), BOB, "mortgage", square=square)
    assert rent_due(state, square, 7) == 0
    state, effects = act(place(state, ANN, square - 3), ANN, "roll", dice=[1, 2])
    assert [t for t in transfers(effects) if t[3] == "rent"] == []
    assert {"kind": "no_rent", "player": ANN, "square": square} in effects


@pytest.mark.parametrize("mortgaged, rent", [((), 200), ((25,), 200), ((5, 25, 35), 200)])
def test_mortgaged_railroads_still_count_for_the_rent_of_the_others(game, mortgaged, rent):
    state = owning(game, BOB, *RAILROADS)
    for square in mortgaged:
        state = play(state, BOB, "mortgage", square=square)
    state, effects = act(place(state, ANN, 12), ANN, "roll", dice=[1, 2])  # lands on 15
    assert [t for t in transfers(effects) if t[3] == "rent"] == [(ANN, BOB, rent, "rent")]


@pytest.mark.parametrize("held, mortgaged, rent", [(2, 1, 50), (3, 2, 100), (4, 3, 200)])
def test_railroad_rent_counts_the_mortgaged_railroads_held(game, held, mortgaged, rent):
    state = owning(game, BOB, *RAILROADS[:held], mortgaged=RAILROADS[1:mortgaged + 1])
    assert rent_due(state, RAILROADS[0]) == rent
    assert all(rent_due(state, s) == 0 for s in RAILROADS[1:mortgaged + 1])


def test_mortgaging_is_allowed_out_of_turn_and_with_a_debt_open(game):
    state = play(owning(game, BOB, 39), BOB, "pay", to=ANN, amount=1600)
    assert state.turn == ANN and state.debts
    state = play(state, BOB, "mortgage", square=39)
    state = play(state, BOB, "pay_debt")
    assert (cash(state, BOB), state.debts) == (100, [])


def test_lifting_is_refused_while_a_debt_is_open(game):
    """Lifting spends cash the debt is owed, like building: it waits until the debt is paid."""
    state = owning(game, ANN, 39, mortgaged=[39])
    state = play(state, ANN, "pay", to=BOB, amount=1600)
    error = refusal(state, ANN, "unmortgage", RuleError, square=39)
    assert (error.code, error.params["amount"]) == ("in_debt", 1600)
    state = play(funded(state, ANN, 100), ANN, "pay_debt")
    assert not play(funded(state, ANN, 220), ANN, "unmortgage", square=39).deeds[39].mortgaged


def test_lifting_with_too_little_cash_is_refused_with_the_numbers(game):
    state = play(owning(game, ANN, 39, mortgaged=[39]), ANN, "pay", to="bank", amount=1300)
    error = refusal(state, ANN, "unmortgage", RuleError, square=39)
    assert (error.code, error.params["price"], error.params["cash"]) == ("short_of_cash", 220, 200)
    assert "220" in str(error) and "200" in str(error)
    state = funded(state, ANN, 20)
    assert cash(play(state, ANN, "unmortgage", square=39), ANN) == 0


@pytest.mark.parametrize("kind", ["mortgage", "unmortgage"])
def test_only_the_owner_mortgages_or_lifts(game, kind):
    state = owning(game, BOB, 39, mortgaged=[39] if kind == "unmortgage" else [])
    error = refusal(state, ANN, kind, RuleError, square=39)
    assert (error.code, error.params["player"], error.params["square"]) == ("not_yours", ANN, 39)
    error = refusal(game, ANN, kind, RuleError, square=39)  # the bank's deed
    assert error.code == "not_yours"


@pytest.mark.parametrize("square", [0, 2, 4, 7, 10, 20, 30, 38])
@pytest.mark.parametrize("kind", ["mortgage", "unmortgage"])
def test_squares_that_are_not_deeds_cannot_be_mortgaged(game, kind, square):
    error = refusal(game, ANN, kind, RuleError, square=square)
    assert (error.code, error.params["square"]) == ("not_a_deed", square)


def test_the_banker_mortgages_for_a_seat(game):
    state = play(owning(game, BOB, 5), BANKER, "mortgage", player=BOB, square=5)
    assert (state.deeds[5].mortgaged, cash(state, BOB)) == (True, 1600)
