"""Every rent level of every deed, checked against the reference board
(tests/rules/reference/board_us.json) rather than the engine's own edition file, so the engine's
data is checked too: base rent, doubled base on a complete group, one to four houses, a hotel;
railroads by the number held; utilities by the dice (docs/rules.md, Rent).

Ownership is arranged with `owning` (a copy of the state); buildings are put up with
set_buildings, paid by the banker.
"""

import pytest

from banker.rules import Settings
from banker.rules.rent import rent_due

from . import (
    ANN, BOB, GROUPS, act, funded, owning, place, reference_board, set_buildings, started,
    transfers,
)

REFERENCE = reference_board()
STREETS = [s for s in REFERENCE["squares"] if s["type"] == "street"]
RAILROADS = tuple(REFERENCE["railroads"]["indices"])
UTILITIES = tuple(REFERENCE["utilities"]["indices"])
LEVELS = ("base", "doubled", 1, 2, 3, 4, "hotel")


def by_name(street) -> str:
    return street["name"]


def group_of(street) -> tuple[int, ...]:
    return tuple(REFERENCE["color_groups"][street["color_group"]]["indices"])


def bob_builds(game, group, level: int):
    """Bob holds the whole group with `level` on every lot (5 = a hotel)."""
    state = funded(owning(game, BOB, *group), BOB)
    return set_buildings(state, BOB, dict.fromkeys(group, level)) if level else state


def expected_rent(street, level) -> int:
    if level == "base":
        return street["rent"][0]
    if level == "doubled":
        return street["rent_unimproved_with_color_set"]
    return street["rent"][5 if level == "hotel" else level]


def arrange(game, street, level):
    """Bob's holding for one rent level of `street`: the lot alone for base rent, else the group."""
    if level == "base":
        return owning(game, BOB, street["index"])
    return bob_builds(game, group_of(street), {"doubled": 0, "hotel": 5}.get(level, level))


def rent_on_landing(state, square: int, dice=(1, 2)):
    """Ann, funded to pay any rent at once, rolls onto `square` from the right distance back:
    the rent transfers it caused."""
    state = place(funded(state, ANN), ANN, (square - sum(dice)) % 40)
    _, effects = act(state, ANN, "roll", dice=list(dice))
    return [t for t in transfers(effects) if t[3] == "rent"]


def test_the_engine_board_matches_the_reference(game):
    board = game.board
    for ref in REFERENCE["squares"]:
        square = board[ref["index"]]
        assert (square.name, square.type) == (ref["name"], ref["type"])
        if "price" in ref:
            assert (square.price, square.mortgage) == (ref["price"], ref["mortgage_value"])
        if ref["type"] == "street":
            assert (square.group, square.house_cost, list(square.rent)) == (
                ref["color_group"], ref["house_cost"], ref["rent"])
            assert ref["hotel_cost"] == ref["house_cost"]
    assert {name: tuple(g["indices"]) for name, g in REFERENCE["color_groups"].items()} == GROUPS
    for kind, key in (("railroad", "rent_by_number_owned"), ("utility", "rent_dice_multiplier_by_number_owned")):
        table = REFERENCE["railroads" if kind == "railroad" else "utilities"][key]
        for square in board.of_type(kind):
            assert list(square.rent) == [table[str(n)] for n in range(1, len(table) + 1)]


@pytest.mark.parametrize("street", STREETS, ids=by_name)
def test_every_rent_level_of_every_street(game, street):
    square = street["index"]
    assert street["rent_unimproved_with_color_set"] == 2 * street["rent"][0]
    for level in LEVELS:
        assert rent_due(arrange(game, street, level), square) == expected_rent(street, level), level


FIRST_OF_EACH_GROUP = [next(s for s in STREETS if s["color_group"] == g) for g in GROUPS]
LAST_OF_EACH_GROUP = [[s for s in STREETS if s["color_group"] == g][-1] for g in GROUPS]


@pytest.mark.parametrize("level", LEVELS, ids=str)
@pytest.mark.parametrize("street", FIRST_OF_EACH_GROUP + LAST_OF_EACH_GROUP, ids=by_name)
def test_landing_charges_the_reference_rent(game, street, level):
    state = arrange(game, street, level)
    assert rent_on_landing(state, street["index"]) == [(ANN, BOB, expected_rent(street, level), "rent")]


@pytest.mark.parametrize("setting", [True, False])
@pytest.mark.parametrize("street", FIRST_OF_EACH_GROUP, ids=by_name)
def test_double_base_rent_with_a_mortgaged_lot_in_the_group_follows_the_setting(street, setting):
    game = started(settings=Settings(double_rent_with_mortgaged_lot=setting))
    group = group_of(street)
    other = next(s for s in group if s != street["index"])
    state = owning(game, BOB, *group, mortgaged=[other])
    base = street["rent"][0]
    assert rent_due(state, street["index"]) == (2 * base if setting else base)
    assert rent_due(state, other) == 0
    assert rent_on_landing(state, street["index"]) == [(ANN, BOB, 2 * base if setting else base, "rent")]


@pytest.mark.parametrize("held", [1, 2, 3, 4])
def test_railroad_rent_by_the_number_held(game, held):
    state = owning(game, BOB, *RAILROADS[:held])
    expected = REFERENCE["railroads"]["rent_by_number_owned"][str(held)]
    assert all(rent_due(state, s) == expected for s in RAILROADS[:held])
    assert rent_on_landing(state, RAILROADS[0]) == [(ANN, BOB, expected, "rent")]


@pytest.mark.parametrize("dice", [(1, 2), (6, 5)])
@pytest.mark.parametrize("held", [1, 2])
def test_utility_rent_is_the_dice_times_the_multiplier_for_the_number_held(game, held, dice):
    state = owning(game, BOB, *UTILITIES[:held])
    multiplier = REFERENCE["utilities"]["rent_dice_multiplier_by_number_owned"][str(held)]
    assert rent_due(state, UTILITIES[0], sum(dice)) == multiplier * sum(dice)
    assert rent_due(state, UTILITIES[0]) == multiplier  # what the state JSON shows
    assert rent_on_landing(state, UTILITIES[0], dice) == [(ANN, BOB, multiplier * sum(dice), "rent")]


def test_houses_on_one_lot_leave_the_others_doubled(game):
    state = funded(owning(game, BOB, 6, 8, 9), BOB)
    state = set_buildings(state, BOB, {6: 1, 8: 0, 9: 0})
    ref = {s["index"]: s for s in STREETS}
    assert [rent_due(state, s) for s in (6, 8, 9)] == [
        ref[6]["rent"][1], ref[8]["rent_unimproved_with_color_set"], ref[9]["rent_unimproved_with_color_set"]]
