"""Payments, debts, and who may act for whom."""

import pytest

from banker.rules import NotAllowed, RuleError

from . import ANN, BANKER, BOB, CY, act, cash, lobby, play, refusal, transfers


def test_a_player_pays_another_player(game):
    state, effects = act(game, ANN, "pay", to=BOB, amount=120, memo="lunch")
    assert (cash(state, ANN), cash(state, BOB)) == (1380, 1620)
    [effect] = [e for e in effects if e["kind"] == "transfer"]
    assert effect == {"kind": "transfer", "from": ANN, "to": BOB, "amount": 120,
                      "reason": "payment", "memo": "lunch"}


def test_a_player_pays_the_bank(game):
    state, effects = act(game, BOB, "pay", to="bank", amount=75)
    assert cash(state, BOB) == 1425
    assert transfers(effects) == [(BOB, "bank", 75, "payment")]


def test_payments_need_not_wait_for_your_turn(game):
    assert cash(play(game, BOB, "pay", to=ANN, amount=10), BOB) == 1490


def test_a_player_cannot_pay_themselves(game):
    assert refusal(game, ANN, "pay", RuleError, to=ANN, amount=10).code == "pay_self"


def test_paying_a_player_who_is_not_in_the_game_is_refused(game):
    assert refusal(game, ANN, "pay", to=7, amount=10).code == "no_such_player"


def test_a_payment_larger_than_cash_becomes_a_debt(game):
    state, effects = act(game, ANN, "pay", to=BOB, amount=1600, memo="deal")
    assert (cash(state, ANN), cash(state, BOB)) == (1500, 1500)
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason, debt.memo) == (
        ANN, BOB, 1600, "payment", "deal")
    assert transfers(effects) == []
    assert any(e["kind"] == "debt" and e["id"] == debt.id for e in effects)


def test_a_bank_charge_larger_than_cash_becomes_a_debt_to_the_bank(game):
    state = play(game, BANKER, "bank_charge", player=BOB, amount=2000)
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (BOB, "bank", 2000, "bank_charge")
    assert cash(state, BOB) == 1500


def test_a_debt_is_paid_in_full_once_the_debtor_has_the_cash(game):
    state = play(game, ANN, "pay", to=BOB, amount=1600)
    state = play(state, BANKER, "bank_pay", player=ANN, amount=100)
    state, effects = act(state, ANN, "pay_debt")
    assert state.debts == []
    assert (cash(state, ANN), cash(state, BOB)) == (0, 3100)
    assert transfers(effects) == [(ANN, BOB, 1600, "payment")]


def test_pay_debt_is_refused_while_short_of_cash(game):
    state = play(game, ANN, "pay", to=BOB, amount=1600)
    assert refusal(state, ANN, "pay_debt", RuleError).code == "short_of_cash"
    assert refusal(state, ANN, "pay_debt", RuleError, debt=state.debts[0].id).code == "short_of_cash"


def test_pay_debt_is_refused_with_nothing_owed(game):
    assert refusal(game, ANN, "pay_debt", RuleError).code == "no_debt"


def test_pay_debt_names_one_of_the_debtors_own_debts(game):
    state = play(game, BOB, "pay", to=ANN, amount=1600)
    assert refusal(state, ANN, "pay_debt", RuleError, debt=state.debts[0].id).code == "no_debt"


def test_pay_debt_without_a_number_settles_the_oldest_debt(game3):
    state = play(game3, ANN, "pay", to=BOB, amount=1510)
    state = play(state, ANN, "pay", to=CY, amount=1520)
    state = play(state, BANKER, "bank_pay", player=ANN, amount=100)
    state = play(state, ANN, "pay_debt")
    assert [(d.creditor, d.amount) for d in state.debts] == [(CY, 1520)]


def test_the_bank_pays_and_charges_a_player(game):
    state, effects = act(game, BANKER, "bank_pay", player=BOB, amount=50, memo="beauty contest")
    assert transfers(effects) == [("bank", BOB, 50, "bank_payment")]
    state, effects = act(state, BANKER, "bank_charge", player=BOB, amount=30)
    assert transfers(effects) == [(BOB, "bank", 30, "bank_charge")]
    assert cash(state, BOB) == 1520


@pytest.mark.parametrize("action", [
    {"type": "bank_pay", "amount": 100},
    {"type": "bank_charge", "amount": 100},
    {"type": "move", "square": 5},
])
def test_banker_only_actions_are_refused_to_players(game, action):
    assert refusal(game, ANN, error=NotAllowed, **action).code == "banker_only"


def test_start_is_refused_to_players():
    assert refusal(lobby(2), ANN, "start", NotAllowed).code == "banker_only"


@pytest.mark.parametrize("action", [
    {"type": "pay", "to": "bank", "amount": 10},
    {"type": "roll", "dice": [1, 2]},
    {"type": "pay_debt"},
])
def test_a_player_cannot_act_for_another_seat(game, action):
    assert refusal(game, BOB, error=NotAllowed, player=ANN, **action).code == "not_your_seat"


def test_the_banker_acts_for_any_seat(game):
    state = play(game, BANKER, "pay", player=BOB, to=ANN, amount=40)
    assert (cash(state, ANN), cash(state, BOB)) == (1540, 1460)


def test_the_banker_acting_without_a_seat_acts_for_the_current_player(game):
    assert cash(play(game, BANKER, "pay", to="bank", amount=40), ANN) == 1460


def test_the_banker_must_name_a_seat_before_the_game_has_turns():
    assert refusal(lobby(2), BANKER, "opening_roll", RuleError, dice=[1, 2]).code == "which_player"
