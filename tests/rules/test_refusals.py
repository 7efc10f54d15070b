"""Every refusal of tests/refusals.py, decided by the rules alone: the state its steps lead to
refuses the action with an error of its kind (the API's status: 400 malformed, 403 not this actor's,
409 illegal now, web/answers/respond.STATUS) and a code, and is left as it was. (The sentence
each refusal reads as, and a few of them through the API, are the web's: tests/web/test_bad_input.py.)"""

import pytest

from banker.rules import ActionError, GameError, NotAllowed, RuleError, apply, parse

from ..refusals import REFUSALS
from . import BANKER, as_actor, edition_settings, play, started


# Each status of the table, by the kind of refusal the rules raise for it.
KINDS = {400: ActionError, 403: NotAllowed, 409: RuleError}


def seat_or_banker(who):
    return BANKER if who == "banker" else as_actor(who)


def reached(rules: dict | None, steps: tuple):
    """A two-seat game on the US board with these settings, after these (who, action) steps."""
    state = started(2, edition_settings("us", **(rules or {})))
    for who, action in steps:
        state = play(state, seat_or_banker(who), **action)
    return state


def refused(state, who, action: dict) -> GameError:
    """The error the rules refuse the action with (the test fails if they accept it); parsed as the
    store parses what it is sent, a missing type included."""
    with pytest.raises(GameError) as caught:
        apply(state, parse(action), seat_or_banker(who))
    return caught.value


@pytest.mark.parametrize("rules, steps, who, action, status, says", REFUSALS)
def test_each_refusal_has_its_kind_and_a_code_and_changes_nothing(rules, steps, who, action, status, says):
    state = reached(rules, steps)
    before = state.to_dict()
    error = refused(state, who, action)
    assert type(error) is KINDS[status], (error.code, str(error))
    assert error.code
    assert state.to_dict() == before
