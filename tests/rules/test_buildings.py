"""Houses and hotels: even building and selling, the bank's supply of 32 houses and 12 hotels,
and set_buildings (docs/rules.md, Buildings).

Ownership is arranged with `owning` (a copy of the state). The bank's supply is arranged through
legitimate actions only: another group is built up with set_buildings, paid by the banker.
"""

import pytest

from banker.rules import ActionError, NotAllowed, RuleError

from . import (
    ANN, BANKER, BOB, BROWN, GREEN, HOTELS, HOUSES, LIGHT_BLUE, ORANGE, PINK, RED, YELLOW, act,
    cash, funded, levels, on_board, owning, place, play, refusal, set_buildings, supply,
    transfers,
)


@pytest.fixture
def brown(game):
    """Ann holds both brown lots (Mediterranean 1, Baltic 3; a house costs 50) and 1500 cash."""
    return owning(game, ANN, *BROWN)


@pytest.fixture
def light_blue(game):
    """Ann holds the three light blue lots (6, 8, 9; a house costs 50) and 1500 cash."""
    return owning(game, ANN, *LIGHT_BLUE)


def bob_uses_houses(state, count: int):
    """Bob builds `count` houses (at most 32) on pink, orange and red, which he is given, each
    group evenly and filled before the next: the bank keeps 32 - count less what others use."""
    state = funded(owning(state, BOB, *PINK, *ORANGE, *RED), BOB)
    for group in (PINK, ORANGE, RED):
        take = min(count, 12)
        count -= take
        if take:
            state = set_buildings(state, BOB, {s: take // 3 + (i < take % 3) for i, s in enumerate(group)})
    return state


def bob_uses_hotels(state, count: int):
    """Bob puts `count` hotels (at most 12) on orange, red, yellow and green, which he is given;
    a group short of three hotels gets four houses on its other lots."""
    state = funded(owning(state, BOB, *ORANGE, *RED, *YELLOW, *GREEN), BOB, 50_000)
    for group in (ORANGE, RED, YELLOW, GREEN):
        take = min(count, 3)
        count -= take
        if take:
            state = set_buildings(state, BOB, {s: 5 if i < take else 4 for i, s in enumerate(group)})
    return state


# Even building


def test_a_house_costs_the_house_cost_and_comes_from_the_bank(brown):
    state, effects = act(brown, ANN, "build", square=1)
    assert levels(state, *BROWN) == (1, 0)
    assert cash(state, ANN) == 1450
    assert supply(state) == (HOUSES - 1, HOTELS)
    assert transfers(effects) == [(ANN, "bank", 50, "building")]
    assert {"kind": "built", "player": ANN, "square": 1, "level": 1} in effects


def test_houses_go_up_evenly_across_the_group(light_blue):
    state = play(light_blue, ANN, "build", square=6)
    error = refusal(state, ANN, "build", RuleError, square=6)
    assert (error.code, error.params["other_square"], error.params["square"]) == ("uneven", 8, 6)
    state = play(state, ANN, "build", square=8)
    assert refusal(state, ANN, "build", RuleError, square=8).params["other_square"] == 9
    state = play(state, ANN, "build", square=9)
    state = play(state, ANN, "build", square=6)
    assert levels(state, *LIGHT_BLUE) == (2, 1, 1)


def test_houses_come_down_evenly_in_reverse(light_blue):
    state = set_buildings(light_blue, ANN, {6: 2, 8: 2, 9: 1})
    error = refusal(state, ANN, "sell_building", RuleError, square=9)
    assert (error.code, error.params["other_square"]) == ("uneven", 6)
    state = play(state, ANN, "sell_building", square=6)
    assert refusal(state, ANN, "sell_building", RuleError, square=6).params["other_square"] == 8
    state = play(state, ANN, "sell_building", square=8)
    state = play(state, ANN, "sell_building", square=9)
    assert levels(state, *LIGHT_BLUE) == (1, 1, 0)


@pytest.mark.parametrize("baltic_owner", [None, BOB])
def test_building_needs_every_lot_of_the_group_and_names_the_missing_one(game, baltic_owner):
    state = owning(game, ANN, 1)
    if baltic_owner:
        state = owning(state, baltic_owner, 3)
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["other_square"]) == ("group_not_complete", 3)


def test_building_is_refused_while_a_lot_of_the_group_is_mortgaged_and_names_it(brown):
    state = play(brown, ANN, "mortgage", square=3)
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["other_square"]) == ("group_mortgaged", 3)
    state = play(state, ANN, "unmortgage", square=3)
    assert levels(play(state, ANN, "build", square=1), *BROWN) == (1, 0)


def test_a_hotel_needs_four_houses_on_every_lot(brown):
    state = set_buildings(funded(brown, ANN), ANN, {1: 4, 3: 3})
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["other_square"]) == ("uneven", 3)


def test_a_hotel_costs_the_house_cost_and_returns_four_houses_to_the_bank(brown):
    state = set_buildings(brown, ANN, {1: 4, 3: 4})
    assert (cash(state, ANN), supply(state)) == (1100, (HOUSES - 8, HOTELS))
    state, effects = act(state, ANN, "build", square=1)
    assert levels(state, *BROWN) == (5, 4)
    assert (state.deeds[1].houses, state.deeds[1].hotel) == (0, True)
    assert supply(state) == (HOUSES - 4, HOTELS - 1)
    assert transfers(effects) == [(ANN, "bank", 50, "building")]
    assert cash(state, ANN) == 1050


def test_a_lot_holds_at_most_one_hotel(brown):
    state = set_buildings(brown, ANN, {1: 5, 3: 5})
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["square"]) == ("has_hotel", 1)


def test_building_is_allowed_when_it_is_not_your_turn(game):
    state = owning(game, BOB, *BROWN)
    assert state.turn == ANN
    assert levels(play(state, BOB, "build", square=3), *BROWN) == (0, 1)


def test_building_is_allowed_in_jail_on_your_turn_and_after_it(brown):
    state = play(place(brown, ANN, 27), ANN, "roll", dice=[1, 2])  # Go To Jail
    assert state.player(ANN).in_jail
    state = play(state, ANN, "build", square=1)
    state = play(state, ANN, "end_turn")
    assert state.turn == BOB
    state = play(state, ANN, "build", square=3)
    assert levels(state, *BROWN) == (1, 1)


def test_the_banker_builds_for_a_seat_but_another_seat_cannot(brown):
    assert levels(play(brown, BANKER, "build", player=ANN, square=1), *BROWN) == (1, 0)
    assert refusal(brown, BOB, "build", NotAllowed, player=ANN, square=1).code == "not_your_seat"


def test_building_is_refused_while_a_debt_is_open(brown):
    state = play(brown, ANN, "pay", to=BOB, amount=2000)
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["amount"]) == ("in_debt", 2000)
    assert refusal(state, ANN, "set_buildings", RuleError, levels={"1": 1, "3": 1}).code == "in_debt"


def test_selling_is_allowed_while_a_debt_is_open(brown):
    state = set_buildings(brown, ANN, {1: 2, 3: 2})
    state = play(state, ANN, "pay", to=BOB, amount=2000)
    state = play(state, ANN, "sell_building", square=1)
    state = set_buildings(state, ANN, {1: 0, 3: 0})
    assert cash(state, ANN) == 1500 - 200 + 100
    assert state.debts


def test_building_with_too_little_cash_is_refused_with_the_numbers(brown):
    state = play(brown, ANN, "pay", to="bank", amount=1460)
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["price"], error.params["cash"]) == ("short_of_cash", 50, 40)
    assert "50" in str(error) and "40" in str(error)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 1, "3": 1})
    assert (error.code, error.params["price"], error.params["cash"]) == ("short_of_cash", 100, 40)


def test_building_with_exactly_the_cash_it_costs_is_allowed(brown):
    state = play(brown, ANN, "pay", to="bank", amount=1450)
    assert cash(play(state, ANN, "build", square=1), ANN) == 0


# Selling


def test_a_house_sells_back_for_half_its_cost(game):
    state = set_buildings(funded(owning(game, ANN, *GREEN), ANN), ANN, {31: 2, 32: 2, 34: 2})
    before = cash(state, ANN)
    state, effects = act(state, ANN, "sell_building", square=31)
    assert transfers(effects) == [("bank", ANN, 100, "building_sale")]
    assert cash(state, ANN) == before + 100
    assert levels(state, *GREEN) == (1, 2, 2)
    assert supply(state) == (HOUSES - 5, HOTELS)
    assert {"kind": "sold", "player": ANN, "square": 31, "level": 1} in effects


def test_a_hotel_sells_as_the_fifth_level_and_takes_four_houses_from_the_bank(brown):
    state = set_buildings(brown, ANN, {1: 5, 3: 5})
    assert supply(state) == (HOUSES, HOTELS - 2)
    state, effects = act(state, ANN, "sell_building", square=1)
    assert transfers(effects) == [("bank", ANN, 25, "building_sale")]
    assert levels(state, *BROWN) == (4, 5)
    assert supply(state) == (HOUSES - 4, HOTELS - 1)
    error = refusal(state, ANN, "sell_building", RuleError, square=1)
    assert (error.code, error.params["other_square"]) == ("uneven", 3)
    state = play(state, ANN, "sell_building", square=3)
    assert levels(state, *BROWN) == (4, 4)
    assert supply(state) == (HOUSES - 8, HOTELS)


def test_breaking_a_hotel_is_refused_with_the_numbers_when_the_bank_lacks_four_houses(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 5, 3: 5}), 29)
    assert supply(state) == (3, HOTELS - 2)
    error = refusal(state, ANN, "sell_building", RuleError, square=1)
    assert (error.code, error.params["square"], error.params["count"]) == ("no_houses_for_hotel", 1, 3)
    assert "4 houses" in str(error) and "has 3" in str(error)


def test_without_four_houses_in_the_bank_the_hotels_sell_outright(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 5, 3: 5}), 29)
    before = cash(state, ANN)
    state, effects = act(state, ANN, "set_buildings", levels={"1": 0, "3": 0})
    assert levels(state, *BROWN) == (0, 0)
    assert transfers(effects) == [("bank", ANN, 250, "building_sale")]  # 10 levels at 25
    assert cash(state, ANN) == before + 250
    assert supply(state) == (3, HOTELS)


def test_a_house_the_bank_does_not_have_is_refused_in_words_that_count_it(brown):
    state = bob_uses_houses(brown, 32)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 1, "3": 0})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 1, 0)
    assert str(error) == "That needs a house from the bank, which has none."


def test_without_four_houses_in_the_bank_the_group_sells_down_as_far_as_the_supply_allows(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 5, 3: 5}), 29)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 2, "3": 2})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 4, 3)
    assert "needs 4 houses" in str(error) and "has 3" in str(error)
    before = cash(state, ANN)
    state = set_buildings(state, ANN, {1: 2, 3: 1})
    assert levels(state, *BROWN) == (2, 1)
    assert cash(state, ANN) == before + 7 * 25
    assert supply(state) == (0, HOTELS)


def test_the_last_four_houses_break_one_hotel_and_the_other_then_sells_outright(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 5, 3: 5}), 28)
    state = play(state, ANN, "sell_building", square=1)
    assert (levels(state, *BROWN), supply(state)) == ((4, 5), (0, HOTELS - 1))
    error = refusal(state, ANN, "sell_building", RuleError, square=3)
    assert (error.code, error.params["count"]) == ("no_houses_for_hotel", 0)
    assert refusal(state, ANN, "set_buildings", RuleError, levels={"1": 4, "3": 4}).code == "no_houses"
    state = set_buildings(state, ANN, {1: 0, 3: 0})
    assert supply(state) == (4, HOTELS)


# The bank's supply


def test_the_last_house_in_the_bank_can_be_bought_and_then_no_more(brown):
    state = bob_uses_houses(brown, 31)
    assert supply(state) == (1, HOTELS)
    state = play(state, ANN, "build", square=1)
    assert supply(state) == (0, HOTELS)
    assert refusal(state, ANN, "build", RuleError, square=3).code == "no_houses"
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 1, "3": 1})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 1, 0)


def test_a_house_sold_back_can_be_bought_again(brown):
    state = play(bob_uses_houses(brown, 31), ANN, "build", square=1)
    state = play(state, BOB, "sell_building", square=21)
    assert supply(state) == (1, HOTELS)
    assert levels(play(state, ANN, "build", square=3), *BROWN) == (1, 1)


def test_with_no_houses_in_the_bank_four_houses_still_become_a_hotel(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 4, 3: 4}), 24)
    assert supply(state) == (0, HOTELS)
    state = play(state, ANN, "build", square=1)
    assert supply(state) == (4, HOTELS - 1)


def test_the_last_hotel_can_be_bought_and_then_no_more(brown):
    state = bob_uses_hotels(set_buildings(brown, ANN, {1: 4, 3: 4}), 11)
    assert supply(state)[1] == 1
    state = play(state, ANN, "build", square=1)
    assert supply(state)[1] == 0
    error = refusal(state, ANN, "build", RuleError, square=3)
    assert error.code == "no_hotels"


def test_with_no_hotels_in_the_bank_set_buildings_is_refused_with_the_numbers(brown):
    state = bob_uses_hotels(set_buildings(brown, ANN, {1: 4, 3: 4}), 12)
    assert supply(state) == (HOUSES - 8, 0)
    assert refusal(state, ANN, "build", RuleError, square=1).code == "no_hotels"
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 5, "3": 5})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_hotels", 2, 0)
    assert "needs 2 hotels" in str(error) and "has 0" in str(error)


def test_a_sold_hotel_goes_back_to_the_bank_for_the_next_buyer(brown):
    state = bob_uses_hotels(set_buildings(brown, ANN, {1: 4, 3: 4}), 12)
    state = set_buildings(state, BOB, {31: 4, 32: 4, 34: 4})
    assert supply(state)[1] == 3
    state = set_buildings(state, ANN, {1: 5, 3: 5})
    assert (levels(state, *BROWN), supply(state)[1]) == ((5, 5), 1)


def test_set_buildings_that_needs_more_houses_than_the_bank_has_is_refused_with_the_numbers(light_blue):
    state = bob_uses_houses(light_blue, 29)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"6": 2, "8": 1, "9": 1})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 4, 3)
    state = set_buildings(state, ANN, {6: 1, 8: 1, 9: 1})
    assert supply(state) == (0, HOTELS)


def test_set_buildings_cannot_skip_the_four_houses_every_lot_needs_before_a_hotel(brown):
    """Hotels on bare lots take the group through four houses a lot: the bank must have them."""
    state = bob_uses_houses(funded(brown, ANN), 25)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"1": 5, "3": 5})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 8, 7)
    state = play(state, BOB, "sell_building", square=21)
    state = set_buildings(state, ANN, {1: 5, 3: 5})
    assert supply(state) == (8, HOTELS - 2)


def test_set_buildings_to_hotels_needs_the_houses_missing_from_four_a_lot(light_blue):
    state = bob_uses_houses(set_buildings(light_blue, ANN, {6: 4, 8: 4, 9: 3}), 21)
    assert supply(state) == (0, HOTELS)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"6": 5, "8": 5, "9": 4})
    assert (error.code, error.params["need"], error.params["count"]) == ("no_houses", 1, 0)
    assert refusal(state, ANN, "build", RuleError, square=9).code == "no_houses"  # the same, one at a time


def test_set_buildings_turns_four_houses_a_lot_into_hotels_with_no_houses_in_the_bank(brown):
    state = bob_uses_houses(set_buildings(brown, ANN, {1: 4, 3: 4}), 24)
    assert supply(state) == (0, HOTELS)
    state = set_buildings(state, ANN, {1: 5, 3: 5})
    assert supply(state) == (8, HOTELS - 2)


# set_buildings


def test_set_buildings_charges_the_house_cost_for_each_level_added(light_blue):
    state, effects = act(light_blue, ANN, "set_buildings", levels={"6": 2, "8": 2, "9": 1})
    assert levels(state, *LIGHT_BLUE) == (2, 2, 1)
    assert transfers(effects) == [(ANN, "bank", 250, "building")]
    assert cash(state, ANN) == 1250
    assert supply(state) == (HOUSES - 5, HOTELS)
    assert {"kind": "levels_set", "player": ANN, "square": 6,
            "levels": {"6": 2, "8": 2, "9": 1}} in effects


def test_set_buildings_refunds_half_the_cost_of_each_level_removed(game):
    state = set_buildings(funded(owning(game, ANN, *GREEN), ANN), ANN, {31: 5, 32: 5, 34: 5})
    before = cash(state, ANN)
    state, effects = act(state, ANN, "set_buildings", levels={"31": 3, "32": 3, "34": 2})
    assert transfers(effects) == [("bank", ANN, 700, "building_sale")]  # 7 levels at 100
    assert cash(state, ANN) == before + 700
    assert supply(state) == (HOUSES - 8, HOTELS)


def test_set_buildings_that_sells_one_lot_and_builds_another_pays_the_difference(light_blue):
    state = set_buildings(light_blue, ANN, {6: 2, 8: 2, 9: 1})
    state, effects = act(state, ANN, "set_buildings", levels={"6": 1, "8": 2, "9": 2})
    assert transfers(effects) == [(ANN, "bank", 25, "building")]  # 50 for one, 25 back for the other
    assert supply(state) == (HOUSES - 5, HOTELS)


def test_set_buildings_takes_the_whole_group_and_only_it(game):
    state = owning(game, ANN, *LIGHT_BLUE, *BROWN)
    for partial in ({"6": 1, "8": 1}, {"6": 1, "8": 1, "9": 1, "1": 1}, {"1": 1, "6": 1}):
        assert refusal(state, ANN, "set_buildings", RuleError, levels=partial).code == "whole_group"


def test_set_buildings_must_leave_the_group_even(light_blue):
    error = refusal(light_blue, ANN, "set_buildings", RuleError, levels={"6": 2, "8": 0, "9": 1})
    assert error.code == "uneven"


def test_set_buildings_that_changes_nothing_is_refused(light_blue):
    state = set_buildings(light_blue, ANN, {6: 1, 8: 1, 9: 0})
    assert refusal(state, ANN, "set_buildings", RuleError, levels={"6": 1, "8": 1, "9": 0}).code == "no_change"
    assert refusal(light_blue, ANN, "set_buildings", RuleError, levels={"6": 0, "8": 0, "9": 0}).code == "no_change"


@pytest.mark.parametrize("vermont_owner", [None, BOB])
def test_set_buildings_needs_the_complete_group(game, vermont_owner):
    state = owning(owning(game, ANN, 6, 9), vermont_owner, 8)
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"6": 1, "8": 1, "9": 1})
    assert (error.code, error.params["square"]) == ("not_yours", 8)


def test_set_buildings_needs_the_group_unmortgaged(game):
    state = owning(game, ANN, *LIGHT_BLUE, mortgaged=[9])
    error = refusal(state, ANN, "set_buildings", RuleError, levels={"6": 1, "8": 1, "9": 1})
    assert (error.code, error.params["other_square"]) == ("group_mortgaged", 9)


# Bad input


@pytest.mark.parametrize("square", [5, 12, 0, 7])
@pytest.mark.parametrize("kind", ["build", "sell_building"])
def test_only_streets_take_buildings(game, square, kind):
    state = owning(game, ANN, 5, 12)
    error = refusal(state, ANN, kind, RuleError, square=square)
    assert (error.code, error.params["square"]) == ("not_a_street", square)


def test_set_buildings_on_a_railroad_is_refused(game):
    state = owning(game, ANN, 5, 15, 25, 35)
    levels_ = {"5": 1, "15": 1, "25": 1, "35": 1}
    assert refusal(state, ANN, "set_buildings", RuleError, levels=levels_).code == "not_a_street"


def test_building_or_selling_on_someone_elses_lot_is_refused(game):
    state = set_buildings(owning(game, BOB, *BROWN), BOB, {1: 1, 3: 1})
    for kind in ("build", "sell_building"):
        error = refusal(state, ANN, kind, RuleError, square=1)
        assert (error.code, error.params["player"], error.params["square"]) == ("not_yours", ANN, 1)
    assert refusal(state, ANN, "set_buildings", RuleError, levels={"1": 0, "3": 0}).code == "not_yours"


def test_selling_where_there_is_nothing_is_refused(brown):
    error = refusal(brown, ANN, "sell_building", RuleError, square=3)
    assert (error.code, error.params["square"]) == ("no_buildings", 3)


@pytest.mark.parametrize("levels_", [{}, {"1": 6}, {"1": -1}, {"1": "x"}, [1, 3], {"40": 1},
                                     {"1": 1, "3": 1, "6": 1, "8": 1, "9": 1}])
def test_malformed_levels_are_refused_before_the_rules_look(brown, levels_):
    assert refusal(brown, ANN, "set_buildings", ActionError, levels=levels_).code == "bad_field"


def test_a_refused_building_action_changes_nothing(brown):
    before = brown.to_dict()
    refusal(brown, ANN, "build", RuleError, square=5)
    refusal(brown, ANN, "sell_building", RuleError, square=1)
    refusal(brown, ANN, "set_buildings", RuleError, levels={"1": 3, "3": 1})
    assert brown.to_dict() == before


def test_buildings_are_neither_made_nor_lost(brown):
    state = bob_uses_houses(brown, 20)
    state = set_buildings(funded(state, ANN), ANN, {1: 5, 3: 5})
    state = play(state, ANN, "sell_building", square=3)
    state = play(state, BOB, "sell_building", square=11)
    houses, hotels = on_board(state)
    assert (houses + state.bank_houses, hotels + state.bank_hotels) == (HOUSES, HOTELS)
