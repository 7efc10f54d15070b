"""The Free Parking jackpot house rule: taxes and fines into a pot that Free Parking pays out."""

import pytest

from banker.rules import RuleError, Settings

from . import ANN, act, cash, place, play, refusal, started, transfers

FREE_PARKING = 20


@pytest.fixture
def jackpot_game():
    return started(settings=Settings(free_parking_jackpot=True))


def test_taxes_go_to_the_pot(jackpot_game):
    state, effects = act(jackpot_game, ANN, "roll", dice=[1, 3])
    assert transfers(effects) == [(ANN, "free_parking", 200, "tax")]
    assert state.free_parking == 200


def test_a_player_can_pay_into_the_pot(jackpot_game):
    assert play(jackpot_game, ANN, "pay", to="free_parking", amount=30).free_parking == 30


def test_landing_on_free_parking_collects_the_pot(jackpot_game):
    state = play(jackpot_game, ANN, "pay", to="free_parking", amount=150)
    state, effects = act(place(state, ANN, 17), ANN, "roll", dice=[1, 2])
    assert state.player(ANN).position == FREE_PARKING
    assert transfers(effects) == [("free_parking", ANN, 150, "jackpot")]
    assert (state.free_parking, cash(state, ANN)) == (0, 1500)


def test_without_the_rule_taxes_go_to_the_bank_and_free_parking_pays_nothing(game):
    state = play(game, ANN, "roll", dice=[1, 3])
    state = play(state, ANN, "end_turn")
    state = play(play(state, state.turn, "roll", dice=[1, 2]), state.turn, "decline")
    state = play(play(state, 1, "pass"), 2, "pass")   # nobody bids in the auction
    state = play(state, state.turn, "end_turn")
    state = play(place(state, ANN, 17), ANN, "roll", dice=[1, 2])
    assert (state.free_parking, cash(state, ANN)) == (0, 1300)


def test_paying_into_the_pot_is_refused_without_the_rule(game):
    assert refusal(game, ANN, "pay", RuleError, to="free_parking", amount=10).code == "no_jackpot"
