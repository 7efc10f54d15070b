"""apply, replay and legal_actions: the fold over actions."""

import copy

import pytest

from banker.rules import GameError, Settings, legal_actions, new_game, replay

from . import ANN, BANKER, BOB, GUEST, act, as_actor, lobby, place, play, started

JACKPOT = Settings(free_parking_jackpot=True)


def busy_game():
    """A jackpot game mid-turn: the pot holds Ann's tax, Ann owes Bob more than she has,
    and Bob rolled doubles onto an unowned deed."""
    state = play(started(3, JACKPOT), ANN, "roll", dice=[1, 3])
    state = play(state, ANN, "end_turn")
    state = play(state, ANN, "pay", to=BOB, amount=1400)
    state = play(state, BOB, "roll", dice=[3, 3])
    return state


@pytest.mark.parametrize("who, action", [
    (BOB, {"type": "decline"}),
    (BOB, {"type": "buy"}),
    (BOB, {"type": "roll", "dice": [1, 2]}),
    (ANN, {"type": "pay", "to": BOB, "amount": 5000}),
    (ANN, {"type": "pay", "to": "free_parking", "amount": 10}),
    (BANKER, {"type": "bank_charge", "player": 3, "amount": 1}),
    (BANKER, {"type": "move", "player": ANN, "square": 20}),
    (BOB, {"type": "end_turn"}),
    (ANN, {"type": "pay_debt"}),
])
def test_apply_never_changes_the_state_it_is_given(who, action):
    state = busy_game()
    before = copy.deepcopy(state.to_dict())
    try:
        act(state, who, **action)
    except GameError:
        pass
    assert state.to_dict() == before


def test_apply_leaves_the_lobby_untouched_too():
    state = lobby(1)
    before = copy.deepcopy(state.to_dict())
    play(state, GUEST, "join", name="Bob", token="car")
    play(state, ANN, "opening_roll", dice=[2, 3])
    assert state.to_dict() == before


def test_replaying_the_log_gives_the_same_state():
    steps = [
        (GUEST, {"type": "join", "name": "Ann", "token": "hat"}),
        (GUEST, {"type": "join", "name": "Bob", "token": "car"}),
        (BANKER, {"type": "start", "order": [2, 1]}),
        (BOB, {"type": "roll", "dice": [2, 3]}),
        (BOB, {"type": "buy"}),
        (BOB, {"type": "end_turn"}),
        (ANN, {"type": "roll", "dice": [1, 4]}),
        (ANN, {"type": "pay", "to": "free_parking", "amount": 12}),
    ]
    log = [(as_actor(who), data) for who, data in steps]
    state = new_game("us", JACKPOT)
    for actor, data in log:
        state = play(state, actor, **data)
    assert replay("us", JACKPOT, log).to_dict() == state.to_dict()
    assert state.player(ANN).cash == 1500 - 25 - 12


def test_a_state_round_trips_through_its_dict():
    state = busy_game()
    assert type(state).from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_legal_actions_offer_the_roll_to_the_current_player_only(game):
    assert legal_actions(game, ANN) == {"roll", "pay"}
    assert legal_actions(game, BOB) == {"pay"}


def test_legal_actions_after_a_roll_offer_the_end_of_the_turn(game):
    assert legal_actions(play(game, ANN, "roll", dice=[1, 3]), ANN) == {"end_turn", "pay"}


def test_legal_actions_with_an_open_debt_offer_paying_it_only_with_the_cash(game):
    state = play(game, ANN, "pay", to=BOB, amount=1600)
    assert legal_actions(state, ANN) == {"pay", "bankrupt"}  # nothing to sell or mortgage
    state = play(state, BANKER, "bank_pay", player=ANN, amount=100)
    assert legal_actions(state, ANN) == {"pay", "pay_debt"}


def test_legal_actions_are_what_apply_accepts(game):
    state = place(game, ANN, 27)
    state = play(state, ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "end_turn")
    state = play(play(state, BOB, "roll", dice=[4, 6]), BOB, "end_turn")
    offered = legal_actions(state, ANN)
    assert offered == {"roll", "pay", "pay_jail_fine"}
    for kind in ("roll", "pay_jail_fine", "end_turn", "buy", "decline", "pay_debt"):
        fields = {"dice": [1, 2]} if kind == "roll" else {}
        try:
            act(state, ANN, kind, **fields)
            accepted = True
        except GameError:
            accepted = False
        assert accepted == (kind in offered), kind
