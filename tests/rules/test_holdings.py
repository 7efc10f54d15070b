"""holdings(): what a phone offers for each deed agrees with what apply does. Where holdings gives
a price the action is accepted and moves exactly that much cash; where it gives a refusal, apply
raises the same code with the same parameters.

Ownership is arranged with `owning` (a copy of the state); buildings, mortgages, debts and the
bank's supply through legitimate actions.
"""

import pytest

from banker.rules import RuleError
from banker.rules.holdings import holdings
from banker.rules.mortgages import lift_cost
from banker.rules.rent import rent_due

from . import (
    ANN, BOB, BROWN, GREEN, LIGHT_BLUE, ORANGE, PINK, RED, YELLOW, act, cash, funded, owning, play,
    set_buildings, started,
)

# holdings key: (action type, +1 when the player receives the amount, -1 when paying it)
BUTTONS = {"build": ("build", -1), "sell": ("sell_building", 1), "mortgage": ("mortgage", 1),
           "unmortgage": ("unmortgage", -1)}


def mixed():
    """Ann: light blue built (2, 2, 1), brown with Baltic mortgaged, Reading mortgaged, Pennsylvania
    Railroad, Electric Company, green unbuilt. Bob: orange hotels, half of pink, yellow with four
    houses a lot."""
    state = started(2)
    state = owning(state, ANN, *LIGHT_BLUE, *BROWN, 5, 15, 12, *GREEN)
    state = owning(state, BOB, *ORANGE, 11, 13, *YELLOW)
    state = set_buildings(state, ANN, {6: 2, 8: 2, 9: 1})
    state = play(play(state, ANN, "mortgage", square=3), ANN, "mortgage", square=5)
    state = set_buildings(funded(state, BOB), BOB, {16: 5, 18: 5, 19: 5})
    return set_buildings(state, BOB, {26: 4, 27: 4, 29: 4})


def in_debt():
    """As `mixed`, with Ann owing Bob more than she holds."""
    return play(mixed(), ANN, "pay", to=BOB, amount=5000)


def short_of_cash():
    """As `mixed`, with Ann down to 30 (less than any building or lift)."""
    state = mixed()
    return play(state, ANN, "pay", to="bank", amount=cash(state, ANN) - 30)


def no_houses_left():
    """As `mixed`, with Bob's red and pink completed and built until the bank has no houses."""
    state = owning(mixed(), BOB, *RED, 14)
    state = set_buildings(state, BOB, {21: 4, 23: 4, 24: 4})
    state = set_buildings(state, BOB, {11: 1, 13: 1, 14: 1})
    assert state.bank_houses == 0
    return state


def no_hotels_left():
    """As `mixed`, with Bob's yellow, red and pink at hotels and Ann's light blue at four houses:
    the bank has no hotels, and a few houses."""
    state = owning(mixed(), BOB, *RED, 14)
    state = set_buildings(state, ANN, {6: 4, 8: 4, 9: 4})
    for group in (YELLOW, RED, PINK):
        state = set_buildings(state, BOB, dict.fromkeys(group, 5))
    assert state.bank_hotels == 0
    return state


SCENARIOS = [mixed, in_debt, short_of_cash, no_houses_left, no_hotels_left]


def compare(state, player: int) -> dict:
    """Try every offered button of the player's holdings with apply; returns counts of
    (allowed, refused) to show the check was not vacuous."""
    seen = {"allowed": 0, "refused": 0}
    for section in holdings(state, player):
        for lot in section["lots"]:
            square = lot["square"]
            assert lot["rent"] == rent_due(state, square)
            assert (lot["loan"], lot["lift"]) == (state.board[square].mortgage, lift_cost(state.board[square].mortgage))
            for key, (kind, sign) in BUTTONS.items():
                if key not in lot:
                    assert lot["type"] != "street" and key in ("build", "sell")
                    continue
                value, error = lot[key]
                try:
                    new, _ = act(state, player, kind, square=square)
                except RuleError as refused:
                    assert error is not None, f"holdings offers {key} on {square} for {value}: {refused}"
                    assert (refused.code, refused.params) == (error.code, error.params)
                    seen["refused"] += 1
                else:
                    assert error is None, f"holdings refuses {key} on {square} ({error.code}) but apply accepts"
                    assert cash(new, player) - cash(state, player) == sign * value, (key, square)
                    seen["allowed"] += 1
        if section["built"]:
            squares = [lot["square"] for lot in section["lots"]]
            try:
                new, _ = act(state, player, "set_buildings", levels={str(s): 0 for s in squares})
            except RuleError:
                continue
            assert cash(new, player) - cash(state, player) == section["sell_all"]
    return seen


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
@pytest.mark.parametrize("player", [ANN, BOB])
def test_every_button_holdings_offers_or_refuses_agrees_with_apply(scenario, player):
    seen = compare(scenario(), player)
    assert seen["allowed"] and seen["refused"]


def test_holdings_groups_the_deeds_and_says_what_is_built():
    sections = {s["key"]: s for s in holdings(mixed(), ANN)}
    assert list(sections) == ["brown", "railroad", "light_blue", "utility", "green"]
    light_blue = sections["light_blue"]
    assert (light_blue["complete"], light_blue["built"], light_blue["hotels"], light_blue["sell_all"]) == (
        True, True, 0, 125)
    assert [lot["level"] for lot in light_blue["lots"]] == [2, 2, 1]
    assert (sections["railroad"]["size"], sections["railroad"]["complete"]) == (4, False)
    assert [lot["mortgaged"] for lot in sections["brown"]["lots"]] == [False, True]


def test_holdings_explains_each_refusal_with_the_engines_reason():
    sections = {s["key"]: s for s in holdings(mixed(), ANN)}
    mediterranean, baltic = sections["brown"]["lots"]
    assert mediterranean["build"][1].code == "group_mortgaged"
    assert mediterranean["mortgage"] == (30, None)
    assert baltic["unmortgage"] == (33, None)
    oriental = sections["light_blue"]["lots"][0]
    assert oriental["build"][1].code == "uneven"
    assert oriental["sell"] == (25, None)
    assert oriental["mortgage"][1].code == "group_has_buildings"
