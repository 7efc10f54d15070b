"""A turn: moving by the dice, GO salary, buying, taxes, doubles and ending the turn."""

import pytest

from banker.rules import RuleError, Settings, legal_actions

from . import ANN, BANKER, BOB, act, cash, place, play, refusal, started, transfers


def test_a_roll_moves_the_token_by_the_dice_total(game):
    state = play(game, ANN, "roll", dice=[3, 4])
    assert state.player(ANN).position == 7
    assert state.last_roll == [3, 4]


def test_passing_go_pays_the_salary(game):
    state, effects = act(place(game, ANN, 36), ANN, "roll", dice=[2, 3])
    assert state.player(ANN).position == 1
    assert ("bank", ANN, 200, "salary") in transfers(effects)
    assert cash(state, ANN) == 1700


def test_landing_on_go_pays_the_salary(game):
    state = play(place(game, ANN, 35), ANN, "roll", dice=[2, 3])
    assert state.player(ANN).position == 0
    assert cash(state, ANN) == 1700


def test_landing_on_go_pays_double_under_the_go_exact_bonus_rule():
    state = place(started(settings=Settings(go_exact_bonus=True)), ANN, 35)
    assert cash(play(state, ANN, "roll", dice=[2, 3]), ANN) == 1900


def test_passing_go_under_the_go_exact_bonus_rule_pays_the_plain_salary():
    state = place(started(settings=Settings(go_exact_bonus=True)), ANN, 36)
    assert cash(play(state, ANN, "roll", dice=[2, 3]), ANN) == 1700


def test_the_go_salary_is_a_setting():
    state = place(started(settings=Settings(go_salary=150)), ANN, 36)
    assert cash(play(state, ANN, "roll", dice=[2, 3]), ANN) == 1650


def test_landing_on_an_unowned_deed_offers_it_to_the_player(game):
    state = play(game, ANN, "roll", dice=[2, 3])
    assert state.pending == {"kind": "buy", "player": ANN, "square": 5}
    assert legal_actions(state, ANN) >= {"buy", "decline"}


def test_buying_pays_the_printed_price_to_the_bank(game):
    state, effects = act(play(game, ANN, "roll", dice=[2, 3]), ANN, "buy")
    assert state.deeds[5].owner == ANN
    assert cash(state, ANN) == 1300
    assert transfers(effects) == [(ANN, "bank", 200, "purchase")]
    assert state.pending is None


def test_declining_leaves_the_deed_with_the_bank(game):
    state = play(play(game, ANN, "roll", dice=[2, 3]), ANN, "decline")
    assert state.deeds[5].owner is None
    assert cash(state, ANN) == 1500
    assert state.pending is None


def test_buying_is_refused_without_the_cash(game):
    state = play(game, BANKER, "bank_charge", player=ANN, amount=1350)
    state = play(state, ANN, "roll", dice=[2, 3])
    assert refusal(state, ANN, "buy", RuleError).code == "short_of_cash"
    assert "buy" not in legal_actions(state, ANN)


def test_only_the_player_who_landed_can_buy(game):
    state = play(game, ANN, "roll", dice=[2, 3])
    assert refusal(state, BOB, "buy", RuleError).code == "no_offer"


def test_buying_is_refused_with_no_offer(game):
    assert refusal(game, ANN, "buy", RuleError).code == "no_offer"


def test_income_tax_is_200(game):
    state, effects = act(game, ANN, "roll", dice=[1, 3])
    assert transfers(effects) == [(ANN, "bank", 200, "tax")]
    assert cash(state, ANN) == 1300


@pytest.mark.parametrize("luxury_tax", [100, 75])
def test_luxury_tax_is_100_or_75_by_setting(luxury_tax):
    state = place(started(settings=Settings(luxury_tax=luxury_tax)), ANN, 35)
    state = play(state, ANN, "roll", dice=[1, 2])
    assert cash(state, ANN) == 1500 - luxury_tax


def test_go_to_jail_square_sends_the_player_to_jail_without_salary(game):
    state = play(place(game, ANN, 27), ANN, "roll", dice=[1, 2])
    ann = state.player(ANN)
    assert (ann.position, ann.in_jail, ann.cash) == (10, True, 1500)
    assert state.rolled


def test_go_to_jail_on_doubles_ends_the_rolling(game):
    state = play(place(game, ANN, 28), ANN, "roll", dice=[1, 1])
    assert state.player(ANN).in_jail
    assert refusal(state, ANN, "roll", RuleError, dice=[3, 4]).code == "already_rolled"
    assert play(state, ANN, "end_turn").turn == BOB


def test_doubles_roll_again(game):
    state = play(game, ANN, "roll", dice=[2, 2])
    assert not state.rolled and state.doubles == 1
    assert refusal(state, ANN, "end_turn", RuleError).code == "roll_again"
    state = play(state, ANN, "roll", dice=[2, 4])
    assert state.player(ANN).position == 10
    assert play(state, ANN, "end_turn").turn == BOB


def test_third_double_in_a_row_goes_to_jail_without_moving(game):
    state = play(game, ANN, "roll", dice=[5, 5])
    state = play(state, ANN, "roll", dice=[5, 5])
    assert state.player(ANN).position == 20
    state = play(state, ANN, "roll", dice=[1, 1])
    ann = state.player(ANN)
    assert (ann.position, ann.in_jail, ann.cash) == (10, True, 1500)
    assert state.rolled and state.doubles == 0


def test_doubles_in_different_turns_do_not_add_up(game):
    state = play(play(game, ANN, "roll", dice=[5, 5]), ANN, "roll", dice=[4, 6])
    state = play(play(state, ANN, "end_turn"), BOB, "roll", dice=[4, 6])
    state = play(play(state, BOB, "end_turn"), ANN, "roll", dice=[1, 1])
    assert not state.player(ANN).in_jail and state.doubles == 1


def test_only_the_current_player_rolls(game):
    assert refusal(game, BOB, "roll", RuleError, dice=[1, 2]).code == "not_your_turn"


def test_the_banker_rolls_for_the_current_player(game):
    assert play(game, BANKER, "roll", dice=[3, 4]).player(ANN).position == 7


def test_the_banker_cannot_roll_for_a_player_out_of_turn(game):
    assert refusal(game, BANKER, "roll", RuleError, dice=[1, 2], player=BOB).code == "not_your_turn"


def test_a_roll_after_doubles_waits_for_the_buy_decision(game):
    state = play(game, ANN, "roll", dice=[3, 3])
    assert refusal(state, ANN, "roll", RuleError, dice=[1, 2]).code == "decision_pending"


def test_a_second_roll_without_doubles_is_refused(game):
    state = play(game, ANN, "roll", dice=[4, 6])
    assert refusal(state, ANN, "roll", RuleError, dice=[1, 2]).code == "already_rolled"


def test_ending_the_turn_passes_it_to_the_next_seat(game3):
    state = play(play(game3, ANN, "roll", dice=[4, 6]), ANN, "end_turn")
    assert (state.turn, state.rolled, state.doubles, state.last_roll) == (BOB, False, 0, None)


def test_end_turn_is_refused_before_rolling(game):
    assert refusal(game, ANN, "end_turn", RuleError).code == "not_rolled"


def test_end_turn_is_refused_after_doubles(game):
    state = play(game, ANN, "roll", dice=[2, 2])
    assert refusal(state, ANN, "end_turn", RuleError).code == "roll_again"


def test_end_turn_is_refused_with_a_buy_decision_pending(game):
    state = play(game, ANN, "roll", dice=[2, 3])
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"


def test_end_turn_is_refused_with_an_open_debt(game):
    state = play(game, BANKER, "bank_charge", player=ANN, amount=1400)
    state = play(state, ANN, "roll", dice=[1, 3])
    assert state.debts_of(ANN)
    assert refusal(state, ANN, "end_turn", RuleError).code == "in_debt"


def test_end_turn_is_refused_out_of_turn(game):
    state = play(game, ANN, "roll", dice=[3, 4])
    assert refusal(state, BOB, "end_turn", RuleError).code == "not_your_turn"
