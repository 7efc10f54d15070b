"""Taking back the newest entry (docs/rules.md, Undo and take back): the banker's undo of any entry
but a join, of a named entry only if it is still the newest; a player's take_back of their own
newest action of a kind that only they chose, while nothing came after it. The store replays the
log without the entry (tests/store/test_undo.py): here, that the replay gives the state before it."""

import pytest

from banker.rules import Actor, NotAllowed, RuleError
from banker.rules.undo import TAKEN_BACK, Entry, check_take_back, check_undo, may_take_back

from . import ANN, BANKER, BOB, Logged

ANN_ACTS, BOB_ACTS = Actor(player=ANN), Actor(player=BOB)


def newest(actor: str, type: str, newest: bool = True) -> Entry:
    return Entry(seq=12, actor=actor, type=type, newest=newest)


@pytest.mark.parametrize("type", sorted(TAKEN_BACK))
def test_a_player_takes_back_their_own_newest_choice(type):
    check_take_back(ANN_ACTS, newest("1", type))
    assert may_take_back(ANN_ACTS, newest("1", type))


@pytest.mark.parametrize("entry", [
    newest("1", "buy", newest=False),      # an undo came after it
    newest("2", "buy"),                    # Bob's
    newest("banker", "buy"),               # the banker bought it for Ann
    newest("1", "roll"),                   # dice and cards are the table's, not a choice to take back
    newest("1", "draw"),
    newest("1", "end_turn"),
    newest("1", "bid"),
    newest("1", "accept_trade"),           # the other side agreed to it too
    None,                                  # a new game
])
def test_anything_else_needs_the_banker(entry):
    assert not may_take_back(ANN_ACTS, entry)
    with pytest.raises(RuleError) as refused:
        check_take_back(ANN_ACTS, entry)
    assert refused.value.code == "nothing_to_take_back" and type(refused.value) is RuleError


def test_the_banker_undoes_rather_than_takes_back():
    with pytest.raises(NotAllowed):
        check_take_back(Actor(banker=True), newest("1", "buy"))


def test_the_banker_undoes_anything_but_a_join_or_the_seats_fixed_and_a_player_cannot_undo():
    check_undo(BANKER, newest("2", "roll", newest=False))
    for entry, code in ((None, "nothing_to_undo"), (newest("guest", "join"), "join_not_undoable"),
                        (newest("banker", "fix_seats"), "seats_not_undoable")):
        with pytest.raises(RuleError) as refused:
            check_undo(BANKER, entry)
        assert refused.value.code == code
    with pytest.raises(NotAllowed):
        check_undo(ANN_ACTS, newest("1", "buy"))


def test_an_undo_naming_an_entry_takes_back_only_that_one():
    check_undo(BANKER, newest("1", "buy"), seq=12)
    with pytest.raises(RuleError) as refused:
        check_undo(BANKER, newest("1", "buy"), seq=11)
    assert refused.value.code == "undo_moved_on"


def test_taking_back_a_purchase_gives_the_state_before_it_and_the_offer_again():
    game = Logged(2)
    game.do(ANN, "roll", dice=[1, 2])           # Baltic Avenue (3), for sale
    before = game.state
    game.do(ANN, "buy")
    after = game.undone()
    assert after.to_dict() == before.to_dict()
    assert after.pending == {"kind": "buy", "player": ANN, "square": 3} and after.deeds[3].owner is None
