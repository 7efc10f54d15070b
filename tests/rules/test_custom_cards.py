"""A card the app does not know ("Another card…": an old printing, a house-rule card, a lost card):
the player says what it does with the engine's own effect kinds, and it goes through the same
rules as a printed card (docs/rules.md, Chance and Community Chest). Balances worked out by hand.

Every case starts with Ann, 1,500, rolling 1 and 2 from Income Tax (4) onto Chance (7) of a US
game of three; Bob and Cy hold 1,500 each.
"""

import pytest

from banker.rules import ActionError, RuleError
from banker.rules.cards import deck_of
from banker.rules.inputs import CARD_FIELDS

from . import ANN, BANKER, BOB, CY, Logged, act, cash, funded, owning, play, refusal, set_buildings, transfers
from .test_edition_cards import drawing


def custom(state, **effect):
    return act(state, ANN, "draw", deck="chance", card="custom", effect=effect)


@pytest.mark.parametrize("effect, ann, others, flows", [
    ({"kind": "collect", "amount": 50}, 1550, 1500, [("bank", ANN, 50, "card")]),
    ({"kind": "pay", "amount": 20}, 1480, 1500, [(ANN, "bank", 20, "card")]),
    ({"kind": "collect_from_each_player", "amount": 10}, 1520, 1490, [(BOB, ANN, 10, "card"), (CY, ANN, 10, "card")]),
    ({"kind": "pay_each_player", "amount": 50}, 1400, 1550, [(ANN, BOB, 50, "card"), (ANN, CY, 50, "card")]),
])
def test_a_custom_card_pays_or_collects_with_the_bank_or_each_player(effect, ann, others, flows):
    state, effects = custom(drawing(7, "us"), **effect)
    assert effects[0] == {"kind": "drew", "player": ANN, "deck": "chance", "card": "custom", "effect": effect}
    assert transfers(effects) == flows
    assert (cash(state, ANN), cash(state, BOB), cash(state, CY)) == (ann, others, others)
    assert state.pending is None


def test_advancing_to_a_square_ahead_offers_it_and_pays_no_salary():
    state, effects = custom(drawing(7, "us"), kind="move_to", square=39)
    assert state.player(ANN).position == 39 and transfers(effects) == [] and cash(state, ANN) == 1500
    assert state.pending == {"kind": "buy", "player": ANN, "square": 39}


def test_advancing_to_a_square_behind_passes_go_and_collects_the_salary():
    state, effects = custom(owning(drawing(7, "us"), BOB, 5), kind="move_to", square=5)
    assert transfers(effects) == [("bank", ANN, 200, "salary"), (ANN, BOB, 25, "rent")]
    assert cash(state, ANN) == 1675 and state.player(ANN).position == 5


def test_going_back_to_a_square_pays_no_salary_and_lands_there():
    state, effects = custom(owning(drawing(7, "us"), BOB, 39), kind="go_back_to", square=39)
    assert transfers(effects) == [(ANN, BOB, 50, "rent")]  # backwards from 7 to 39: GO is not passed forwards
    assert cash(state, ANN) == 1450 and state.player(ANN).position == 39


def test_going_back_n_squares_lands_on_what_is_there():
    state, effects = custom(drawing(7, "us"), kind="move_back", spaces=3)
    assert state.player(ANN).position == 4 and transfers(effects) == [(ANN, "bank", 200, "tax")]


@pytest.mark.parametrize("kind, rent", [("advance_to_nearest", 50), ("move_to_nearest", 25)])
def test_the_nearest_railroad_doubles_the_rent_or_not_as_the_card_says(kind, rent):
    state, effects = custom(owning(drawing(7, "us"), BOB, 15), kind=kind, type="railroad")
    assert state.player(ANN).position == 15 and transfers(effects) == [(ANN, BOB, rent, "rent")]


def test_the_nearest_utility_as_the_us_card_asks_for_a_new_roll():
    state, effects = custom(owning(drawing(7, "us"), BOB, 12), kind="advance_to_nearest", type="utility")
    assert state.pending == {"kind": "utility_roll", "player": ANN, "square": 12}
    state, effects = act(state, ANN, "utility_roll", dice=[4, 5])
    assert transfers(effects) == [(ANN, BOB, 90, "rent")]


def test_repairs_charge_per_house_and_per_hotel():
    state = set_buildings(funded(owning(drawing(7, "us"), ANN, 37, 39), ANN), ANN, {37: 4, 39: 5})
    before = cash(state, ANN)
    state, effects = custom(state, kind="repairs", per_house=40, per_hotel=115)
    assert transfers(effects) == [(ANN, "bank", 4 * 40 + 115, "repairs")] and cash(state, ANN) == before - 275


def test_go_to_jail_jails_the_drawer():
    state, _ = custom(drawing(7, "us"), kind="go_to_jail")
    assert state.player(ANN).in_jail and state.player(ANN).position == 10


def test_a_kept_custom_jail_card_is_its_own_card_traded_and_used_like_a_printed_one():
    state, effects = custom(drawing(7, "us"), kind="get_out_of_jail_free")
    [kept] = state.player(ANN).jail_cards
    assert effects[-1] == {"kind": "jail_card", "player": ANN, "card": kept} and deck_of(state, kept) == "chance"
    state = play(state, ANN, "offer_trade", to=BOB, give={"jail_cards": [kept]}, get={"cash": 50})
    state = play(state, BOB, "accept_trade", trade=state.trades[0].id)
    assert kept in state.player(BOB).jail_cards and kept not in state.player(ANN).jail_cards
    state = play(play(state, ANN, "end_turn"), BANKER, "move", player=BOB, square=27)
    state = play(play(state, BOB, "roll", dice=[1, 2]), BOB, "end_turn")  # Go to Jail (30)
    state = play(play(play(state, CY, "roll", dice=[1, 2]), CY, "buy"), CY, "end_turn")
    state = play(play(state, BANKER, "move", player=ANN, square=4), ANN, "roll", dice=[1, 2])
    state, _ = custom(state, kind="get_out_of_jail_free")
    assert len(state.player(ANN).jail_cards) == 1 and state.player(ANN).jail_cards != [kept]  # another card
    state = play(state, ANN, "end_turn")
    assert state.player(BOB).in_jail
    state, effects = act(state, BOB, "use_jail_card", card=kept)
    assert not state.player(BOB).in_jail and state.player(BOB).jail_cards == []
    assert {"kind": "left_jail", "player": BOB, "how": "card", "card": kept, "deck": "chance"} in effects


def test_every_kind_the_form_offers_is_one_the_rules_apply():
    examples = {"amount": 20, "square": 39, "spaces": 3, "type": "railroad", "per_house": 25, "per_hotel": 100}
    for kind, needs in CARD_FIELDS.items():
        custom(drawing(7, "us"), kind=kind, **{field: examples[field] for field in needs})


@pytest.mark.parametrize("effect, code", [
    ({"kind": "teleport"}, "bad_field"),
    ({"amount": 20}, "bad_field"),
    ("pay 20", "bad_field"),
    ({"kind": "pay"}, "missing_field"),
    ({"kind": "pay", "amount": 0}, "bad_field"),
    ({"kind": "pay", "amount": -20}, "bad_field"),
    ({"kind": "pay", "amount": 1_000_001}, "bad_field"),
    ({"kind": "pay", "amount": "twenty"}, "bad_field"),
    ({"kind": "pay", "amount": 20.5}, "bad_field"),
    ({"kind": "pay", "amount": 20, "square": 3}, "bad_field"),
    ({"kind": "move_to", "square": 40}, "bad_field"),
    ({"kind": "go_back_to", "square": -1}, "bad_field"),
    ({"kind": "move_back", "spaces": 0}, "bad_field"),
    ({"kind": "move_back", "spaces": 40}, "bad_field"),
    ({"kind": "advance_to_nearest", "type": "street"}, "bad_field"),
    ({"kind": "repairs", "per_house": 0, "per_hotel": 0}, "bad_field"),
    ({"kind": "repairs", "per_house": 25}, "missing_field"),
    ({"kind": "pay_or_draw", "amount": 10, "deck": "chance"}, "bad_field"),  # printed cards only
])
def test_a_bad_custom_card_is_refused_and_changes_nothing(effect, code):
    state = drawing(7, "us")
    error = refusal(state, ANN, "draw", ActionError, deck="chance", card="custom", effect=effect)
    assert error.code == code and type(error) is ActionError


def test_a_custom_card_needs_an_effect_and_a_printed_card_takes_none():
    state = drawing(7, "us")
    assert refusal(state, ANN, "draw", ActionError, deck="chance", card="custom").code == "missing_field"
    assert refusal(state, ANN, "draw", ActionError, deck="chance", card="ch_dividend",
                   effect={"kind": "pay", "amount": 20}).code == "bad_field"


def test_a_custom_card_is_drawn_only_when_a_card_is_due_and_from_that_deck():
    state = drawing(7, "us")
    assert refusal(state, ANN, "draw", RuleError, deck="chest", card="custom",
                   effect={"kind": "pay", "amount": 20}).code == "wrong_deck"
    assert refusal(state, BOB, "draw", RuleError, deck="chance", card="custom",
                   effect={"kind": "pay", "amount": 20}).code == "no_draw"


def test_undoing_a_custom_card_restores_the_state_before_it():
    game = Logged(3)
    game.do(BANKER, "move", player=ANN, square=4)
    game.do(ANN, "roll", dice=[1, 2])
    for effect in ({"kind": "pay_each_player", "amount": 50}, {"kind": "get_out_of_jail_free"},
                   {"kind": "go_back_to", "square": 1}):
        before = game.state
        game.do(ANN, "draw", deck="chance", card="custom", effect=effect)
        assert game.undone().to_dict() == before.to_dict()
        game.log.pop()
        game.state = before
