"""The timeline's state at any version (store.state_at): the game that counts at that version (its
live events up to it), rebuilt from the newest checkpoint at or before it in constant work, however
long the game and whatever its undos did to the checkpoints."""

import random

import pytest

from banker import store
from banker.rules import Actor, Settings, replay
from banker.store import timeline, undo

from .tables import counting_replays, events, fresh, new_table, play_randomly

pytestmark = pytest.mark.storage  # what the checkpoints hold after undos is the store's writing


def the_game_that_counts(game) -> list:
    """The reference, from the start, at every version: the events up to it that are live now,
    folded (one step at a time, each state copied)."""
    state, states = replay(game.edition, Settings(**game.settings), []), []
    for e in events(game.code):
        states.append(state.copy())
        if not e.undone and e.type != "undo":
            state = replay(game.edition, Settings(**game.settings), [(Actor.parse(e.actor), e.payload)], state)
    return [*states, state]


def test_every_version_opens_from_a_checkpoint_at_most_a_few_events_back(app, monkeypatch):
    """With a checkpoint every four events and a table that undoes now and then (undos delete the
    checkpoints they make wrong and write their own), every version of the game gives the reference
    state, replaying fewer than four events: constant work at any point, whatever the length."""
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", 4)
    code = new_table().code
    play_randomly(code, random.Random(11), 120)
    game = fresh(code)
    undone = [e for e in events(code) if e.undone]
    assert len(undone) >= 3 and game.version > 60  # the undos this test is about did happen
    expected, replays = the_game_that_counts(game), counting_replays(monkeypatch, timeline)
    for version in range(game.version + 1):
        assert store.state_at(game, version) == expected[version], version
    assert len(replays) == game.version + 1 and max(replays) < 4
    # Between an entry later undone and its undo, the timeline shows the game without it.
    entry = undone[0]
    assert store.state_at(game, entry.seq) == store.state_at(game, entry.seq - 1)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_version_deep_in_a_long_game_replays_less_than_a_checkpoint_apart(app, monkeypatch):
    """At the store's own CHECKPOINT_EVERY, far into a game of hundreds of events: each version
    between two checkpoints replays only the events since the first of them."""
    code = new_table().code
    play_randomly(code, random.Random(3), 150, undo=False)
    game = fresh(code)
    assert game.version > 3 * store.CHECKPOINT_EVERY
    expected, replays = the_game_that_counts(game), counting_replays(monkeypatch, timeline)
    last = game.version - 1
    for version in (last - 40, last - 1, last):
        assert store.state_at(game, version) == expected[version]
    assert replays == [version % store.CHECKPOINT_EVERY for version in (last - 40, last - 1, last)]


def test_a_version_the_game_never_had_is_refused(app):
    game = fresh(new_table().code)
    with pytest.raises(ValueError):
        store.state_at(game, game.version + 1)
    assert store.state_at(game, 0).players == []
