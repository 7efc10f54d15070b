"""Joining, the opening rolls that order the seats, the seats fixed, and the start."""

import pytest

from banker.rules import ActionError, NotAllowed, RuleError, Settings, legal_actions, new_game, replay
from banker.rules.state import GameState
from banker.rules.lobby import tied_with
from banker.rules.state import TOKENS

from . import ANN, BOB, BANKER, CY, GUEST, lobby, play, refusal


def test_joining_seats_a_player_with_the_start_cash():
    state = play(new_game("us", Settings(start_cash=2000)), GUEST, "join", name="Ann", token="hat")
    [ann] = state.players
    assert (ann.id, ann.name, ann.token, ann.cash, ann.position) == (ANN, "Ann", "hat", 2000, 0)


def test_names_are_unique_ignoring_case():
    assert refusal(lobby(1), GUEST, "join", RuleError, name="ANN", token="car").code == "name_taken"


def test_tokens_are_unique():
    assert refusal(lobby(1), GUEST, "join", RuleError, name="Bob", token="hat").code == "token_taken"


def test_eight_players_at_most():
    state = new_game()
    for number, token in enumerate(TOKENS):
        state = play(state, GUEST, "join", name=f"P{number}", token=token)
    assert len(state.players) == 8
    assert refusal(state, GUEST, "join", RuleError, name="Ninth", token="hat").code == "table_full"


def test_joining_is_closed_once_the_game_has_started():
    state = play(lobby(2), BANKER, "start", order=[ANN, BOB])
    assert refusal(state, GUEST, "join", RuleError, name="Cy", token="dog").code == "game_started"


def test_a_seated_player_cannot_join_a_second_time():
    assert refusal(lobby(1), ANN, "join", RuleError, name="Ann2", token="car").code == "already_seated"


def test_opening_rolls_seat_the_highest_roll_first():
    state = lobby(3)
    for player, dice in ((ANN, [1, 2]), (BOB, [6, 5]), (CY, [4, 4])):
        state = play(state, player, "opening_roll", dice=dice)
    state = play(state, BANKER, "start")
    assert state.order == [BOB, CY, ANN]
    assert state.turn == BOB
    assert state.status == "playing"


def test_tied_opening_rolls_roll_again_and_only_the_tied_players_do():
    state = lobby(3)
    for player, dice in ((ANN, [4, 4]), (BOB, [5, 3]), (CY, [1, 1])):
        state = play(state, player, "opening_roll", dice=dice)
    assert "opening_roll" in legal_actions(state, ANN)
    assert "opening_roll" in legal_actions(state, BOB)
    assert "opening_roll" not in legal_actions(state, CY)
    assert refusal(state, CY, "opening_roll", RuleError, dice=[6, 6]).code == "already_rolled"
    assert refusal(state, BANKER, "start", RuleError).code == "waiting_for_rolls"

    state = play(state, ANN, "opening_roll", dice=[1, 2])
    state = play(state, BOB, "opening_roll", dice=[2, 2])
    state = play(state, BANKER, "start")
    assert state.order == [BOB, ANN, CY]


def test_tied_with_names_the_players_a_tie_sends_back_to_the_dice():
    state = lobby(3)
    assert tied_with(state, state.player(ANN)) == []  # no roll yet: no tie
    for player, dice in ((ANN, [4, 4]), (BOB, [5, 3]), (CY, [1, 1])):
        state = play(state, player, "opening_roll", dice=dice)
    assert [p.id for p in tied_with(state, state.player(ANN))] == [BOB]
    assert [p.id for p in tied_with(state, state.player(BOB))] == [ANN]
    assert tied_with(state, state.player(CY)) == []
    state = play(state, ANN, "opening_roll", dice=[1, 2])  # Ann rolled again, Bob not yet
    assert tied_with(state, state.player(ANN)) == []
    assert [p.id for p in tied_with(state, state.player(BOB))] == [ANN]


def test_a_tie_that_ties_again_rolls_again():
    state = lobby(2)
    for dice in ([3, 3], [2, 1]):
        state = play(state, ANN, "opening_roll", dice=dice)
        state = play(state, BOB, "opening_roll", dice=dice[::-1])
    assert refusal(state, BANKER, "start", RuleError).code == "waiting_for_rolls"
    state = play(state, BOB, "opening_roll", dice=[6, 6])
    assert "opening_roll" in legal_actions(state, ANN)
    state = play(state, ANN, "opening_roll", dice=[1, 1])
    assert play(state, BANKER, "start").order == [BOB, ANN]


def test_a_player_without_a_tie_cannot_roll_for_the_order_again():
    state = play(lobby(2), ANN, "opening_roll", dice=[3, 4])
    assert refusal(state, ANN, "opening_roll", RuleError, dice=[6, 6]).code == "already_rolled"


def test_start_with_an_explicit_order_needs_no_opening_rolls():
    state = play(lobby(3), BANKER, "start", order=[CY, ANN, BOB])
    assert state.order == [CY, ANN, BOB]
    assert state.turn == CY


@pytest.mark.parametrize("order", [[ANN, BOB], [ANN, BOB, BOB], [ANN, BOB, CY, 4]])
def test_an_explicit_order_must_name_every_player_exactly_once(order):
    assert refusal(lobby(3), BANKER, "start", ActionError, order=order).code == "bad_order"


@pytest.mark.parametrize("players", [0, 1])
def test_start_is_refused_with_fewer_than_two_players(players):
    assert refusal(lobby(players), BANKER, "start", RuleError, order=[]).code == "too_few_players"


def test_start_is_refused_while_opening_rolls_are_missing():
    state = play(lobby(2), ANN, "opening_roll", dice=[3, 4])
    error = refusal(state, BANKER, "start", RuleError)
    assert error.code == "waiting_for_rolls"
    assert error.params["player"] == BOB


def test_only_the_banker_starts_the_game():
    refusal(lobby(2), ANN, "start", NotAllowed, order=[ANN, BOB])


@pytest.mark.parametrize("action", [{"type": "roll", "dice": [1, 2]}, {"type": "end_turn"}])
def test_turn_actions_wait_for_the_start(action):
    assert refusal(lobby(2), ANN, error=RuleError, **action).code == "not_started"


def test_the_game_cannot_start_twice():
    state = play(lobby(2), BANKER, "start", order=[ANN, BOB])
    assert refusal(state, BANKER, "start", RuleError, order=[ANN, BOB]).code == "game_started"


def fixed(players: int = 3):
    """A tournament's table: its players seated, then the seats fixed by the banker."""
    return play(lobby(players), BANKER, "fix_seats")


def test_once_the_seats_are_fixed_nobody_else_joins():
    state = fixed()
    assert state.seats_fixed
    error = refusal(state, GUEST, "join", RuleError, name="Stranger", token="ship")
    assert (error.code, error.message) == ("seats_fixed", "This table's seats are set: nobody else can join.")
    error = refusal(state, BANKER, "join", RuleError, name="Dee", token="ship")  # nor the banker's seat without a phone
    assert error.code == "seats_fixed"


def test_at_fixed_seats_nobody_rolls_for_the_order_and_the_start_takes_the_seats_order():
    state = fixed()
    assert all(legal_actions(state, p.id) == set() for p in state.players)
    assert refusal(state, ANN, "opening_roll", RuleError, dice=[6, 6]).code == "order_fixed"
    state = play(state, BANKER, "start")
    assert (state.order, state.turn) == ([ANN, BOB, CY], ANN)


def test_the_seats_are_fixed_once_in_the_lobby_with_two_players_at_least():
    assert refusal(fixed(), BANKER, "fix_seats", RuleError).code == "seats_fixed"
    assert refusal(lobby(1), BANKER, "fix_seats", RuleError).code == "too_few_players"
    started = play(lobby(2), BANKER, "start", order=[ANN, BOB])
    assert refusal(started, BANKER, "fix_seats", RuleError).code == "game_started"
    refusal(lobby(2), ANN, "fix_seats", NotAllowed)


def test_fixed_seats_replay_and_an_old_snapshot_without_them_loads_as_before():
    log = [(GUEST, {"type": "join", "name": name, "token": token}) for name, token in (("Ann", "hat"), ("Bob", "car"))]
    log.append((BANKER, {"type": "fix_seats"}))
    state = replay("us", Settings(), log)
    assert state.to_dict() == play(lobby(2), BANKER, "fix_seats").to_dict() and state.seats_fixed
    old = lobby(2).to_dict()
    del old["seats_fixed"]  # a snapshot saved before seats could be fixed
    assert not GameState.from_dict(old).seats_fixed
    assert play(GameState.from_dict(old), GUEST, "join", name="Cy", token="dog").players[-1].name == "Cy"
