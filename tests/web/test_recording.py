"""A piece made from the state alone is kept from the version before while the state reads the same
(banker/screens/recording.py, Screen.kept): what it read is recorded as it reads, listed by nobody."""

import pytest

from banker import store
from banker.models import db
from banker.rules.state import Player, new_game as new_state
from banker.screens import PhoneScreen
from banker.screens.recording import Recording, reads_the_same

from .games import new_game


def test_a_recording_keeps_each_field_read_and_each_methods_answer_and_reads_the_same_only_while_they_do():
    state = new_state()
    state.players = [Player(id=1, name="Ann", token="hat", cash=1500), Player(id=2, name="Bob", token="car", cash=1500)]
    recording = Recording(state)
    assert recording.status == "lobby" and recording.player(2).name == "Bob" and recording.deeds is state.deeds
    assert recording.read == {"status": "lobby", ("player", (2,)): state.player(2), "deeds": state.deeds}
    with pytest.raises(AttributeError):
        recording.status = "playing"
    assert reads_the_same(recording.read, state.copy())
    ann_paid = state.copy()
    ann_paid.player(1).cash -= 50  # another player's cash: not read
    assert reads_the_same(recording.read, ann_paid)
    bob_paid = state.copy()
    bob_paid.player(2).cash -= 50
    assert not reads_the_same(recording.read, bob_paid)
    gone = state.copy()
    gone.players = gone.players[:1]  # the method answered then, and raises now
    assert not reads_the_same(recording.read, gone)


def test_a_phones_deeds_are_kept_while_what_they_are_made_of_stays_and_made_again_when_it_changes(app, game3):
    """Bob's phone: Cy's money leaves his deeds as they were (kept); a deed he buys is new."""
    def phone(before=None):
        db.session.remove()
        screen = PhoneScreen(store.known(store.find_game(game3.code)), 2)
        screen.previous = before
        return screen, screen.holdings

    with app.test_request_context():
        first, deeds = phone()
        game3.ok("banker", type="bank_pay", player=3, amount=5)
        second, same = phone(first)
        assert same is deeds
        game3.ok(1, type="roll", dice=[4, 6])  # Just Visiting
        game3.ok(1, type="end_turn")
        game3.ok(2, type="roll", dice=[2, 3])  # Reading Railroad
        game3.ok(2, type="buy")
        _, bought = phone(second)
        assert deeds["holdings"] == [] and [section["key"] for section in bought["holdings"]] == ["railroad"]
