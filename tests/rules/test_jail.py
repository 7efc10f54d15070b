"""Jail: the fine before rolling, doubles out, and the third failed roll."""

import pytest

from banker.rules import RuleError, Settings, legal_actions

from . import ANN, BANKER, BOB, act, cash, place, play, refusal, started, transfers

FAIL = [1, 2]


def next_turn(state):
    """The current player ends their turn; whoever is not Ann takes a quiet turn too."""
    state = play(state, state.turn, "end_turn")
    while state.turn != ANN:
        state = play(place(state, state.turn, 0), state.turn, "roll", dice=[4, 6])
        state = play(state, state.turn, "end_turn")
    return state


def ann_in_jail(settings=None):
    """Ann went to jail on her last turn; it is her turn again."""
    state = play(place(started(settings=settings), ANN, 27), ANN, "roll", dice=[1, 2])
    assert state.player(ANN).in_jail
    return next_turn(state)


@pytest.fixture
def jailed():
    return ann_in_jail()


def test_paying_the_fine_before_rolling_frees_the_player(jailed):
    assert "pay_jail_fine" in legal_actions(jailed, ANN)
    state, effects = act(jailed, ANN, "pay_jail_fine")
    assert not state.player(ANN).in_jail
    assert transfers(effects) == [(ANN, "bank", 50, "jail_fine")]


def test_after_paying_the_fine_the_player_rolls_as_usual(jailed):
    state = play(play(jailed, ANN, "pay_jail_fine"), ANN, "roll", dice=[3, 3])
    assert state.player(ANN).position == 16
    assert not state.rolled and state.doubles == 1


def test_the_fine_cannot_be_paid_after_rolling(jailed):
    state = play(jailed, ANN, "roll", dice=FAIL)
    assert refusal(state, ANN, "pay_jail_fine", RuleError).code == "already_rolled"


def test_the_fine_is_refused_without_the_cash(jailed):
    state = play(jailed, BANKER, "bank_charge", player=ANN, amount=1460)
    assert refusal(state, ANN, "pay_jail_fine", RuleError).code == "short_of_cash"


def test_the_fine_is_paid_on_your_own_turn(jailed):
    state = play(play(jailed, ANN, "roll", dice=FAIL), ANN, "end_turn")
    assert "pay_jail_fine" not in legal_actions(state, ANN)
    assert refusal(state, ANN, "pay_jail_fine", RuleError).code == "not_your_turn"


def test_the_fine_waits_until_open_debts_are_paid(jailed):
    state = play(jailed, ANN, "pay", to=BOB, amount=1400)
    state = play(state, ANN, "pay", to=BOB, amount=200)
    assert "pay_jail_fine" not in legal_actions(state, ANN)
    assert refusal(state, ANN, "pay_jail_fine", RuleError).code == "in_debt"


def test_only_a_jailed_player_pays_the_fine(game):
    assert refusal(game, ANN, "pay_jail_fine", RuleError).code == "not_in_jail"


def test_a_failed_roll_stays_in_jail_and_ends_the_rolling(jailed):
    state = play(jailed, ANN, "roll", dice=FAIL)
    ann = state.player(ANN)
    assert (ann.in_jail, ann.position, ann.jail_rolls, ann.cash) == (True, 10, 1, 1500)
    assert play(state, ANN, "end_turn").turn == BOB


def test_doubles_leave_jail_and_move_without_an_extra_roll(jailed):
    state = play(jailed, ANN, "roll", dice=[2, 2])
    ann = state.player(ANN)
    assert (ann.in_jail, ann.position, ann.cash) == (False, 14, 1500)
    state = play(play(play(state, ANN, "decline"), ANN, "pass"), BOB, "pass")
    assert refusal(state, ANN, "roll", RuleError, dice=[3, 4]).code == "already_rolled"
    assert play(state, ANN, "end_turn").turn == BOB


def test_the_third_failed_roll_pays_the_fine_and_moves(jailed):
    state = next_turn(play(jailed, ANN, "roll", dice=FAIL))
    state = next_turn(play(state, ANN, "roll", dice=FAIL))
    assert state.player(ANN).jail_rolls == 2
    state, effects = act(state, ANN, "roll", dice=FAIL)
    ann = state.player(ANN)
    assert (ann.in_jail, ann.position, ann.jail_rolls) == (False, 13, 0)
    assert (ANN, "bank", 50, "jail_fine") in transfers(effects)
    assert state.pending == {"kind": "buy", "player": ANN, "square": 13}


def test_the_third_failed_roll_short_of_cash_owes_the_fine_to_the_bank(jailed):
    state = next_turn(play(jailed, ANN, "roll", dice=FAIL))
    state = next_turn(play(state, ANN, "roll", dice=FAIL))
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1480)
    state = play(state, ANN, "roll", dice=FAIL)
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (ANN, "bank", 50, "jail_fine")
    ann = state.player(ANN)
    assert (ann.cash, ann.in_jail, ann.position) == (20, False, 13)


def test_the_jail_fine_goes_to_the_free_parking_jackpot_under_that_rule():
    state = play(ann_in_jail(Settings(free_parking_jackpot=True)), ANN, "pay_jail_fine")
    assert state.free_parking == 50


def test_a_player_sent_to_jail_collects_no_salary_on_the_way(game):
    state = play(place(game, ANN, 28), ANN, "roll", dice=[1, 1])
    assert cash(state, ANN) == 1500 and state.player(ANN).position == 10


def test_just_visiting_is_not_jail(game):
    state = play(game, ANN, "roll", dice=[5, 5])
    assert state.player(ANN).position == 10
    assert not state.player(ANN).in_jail


def test_the_banker_cannot_move_a_jailed_token_out_of_jail(jailed):
    assert refusal(jailed, BANKER, "move", RuleError, player=ANN, square=11).code == "in_jail"
