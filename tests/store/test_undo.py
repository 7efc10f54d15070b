"""Undo in constant work: it replays from the newest checkpoint before the event it takes back, never
from the start, and replaying the whole log still gives exactly the snapshot."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, select

from banker import store
from banker.store import undo
from banker.models import Checkpoint, db
from banker.rules import Actor, GameError, GameState, RuleError, Settings, replay

from .tables import BANKER, assert_replay_gives_the_snapshot, counting_replays, events, fresh, new_table, play_randomly

pytestmark = pytest.mark.storage  # undo rewrites the log and the checkpoints in one transaction


def replayed(game, drop_last: bool = False) -> GameState:
    """The state the whole log gives (without its newest live action: what undo must give)."""
    log = store.live_log(game.id)
    return replay(game.edition, Settings(**game.settings), log[:-1] if drop_last else log)


def without_the_newest(game, count: int) -> list[GameState]:
    """What each of `count` undos in a row must give: the states the live log gives without its
    newest action, its newest two, ... (one replay from the start, then a step at a time)."""
    log, rules = store.live_log(game.id), Settings(**game.settings)
    state = replay(game.edition, rules, log[:-count])
    states = [state.copy()]
    for entry in log[-count:-1]:
        state = replay(game.edition, rules, [entry], state)
        states.append(state.copy())
    return states[::-1]


# Thousands of events: on SQLite alone. Each is a few round trips to the PostgreSQL server, which
# would make this test most of the module's time there, and what it checks (which checkpoint undo
# starts from) is the store's own logic, the same on both databases; the tests below run on both.
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_undo_at_two_thousand_events_replays_less_than_a_checkpoint_apart(app, monkeypatch):
    code = new_table().code
    play_randomly(code, random.Random(7), 2_300, undo=False)
    game = fresh(code)
    assert game.version > 2_000
    replays = counting_replays(monkeypatch, undo)
    for expected in without_the_newest(game, 40):  # back past at least one checkpoint
        assert store.act(code, {"type": "undo"}, actor=BANKER).state == expected
    assert len(replays) == 40 and max(replays) < store.CHECKPOINT_EVERY
    assert_replay_gives_the_snapshot(code)


def test_undo_after_undo_across_checkpoints_replays_from_the_newest_one_before(app, monkeypatch):
    """The same on both databases, at a smaller scale: with a checkpoint every four events, twelve
    undos in a row (back past three checkpoints, each undo writing one of its own) each give the
    state the log gives without its newest action, replaying fewer than four."""
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", 4)
    code = new_table().code
    play_randomly(code, random.Random(5), 40, undo=False)
    game = fresh(code)
    replays = counting_replays(monkeypatch, undo)
    for expected in without_the_newest(game, 12):
        assert store.act(code, {"type": "undo"}, actor=BANKER).state == expected
    assert len(replays) == 12 and max(replays) < 4
    assert_replay_gives_the_snapshot(code)


def test_checkpoints_are_a_small_share_of_the_events(app, monkeypatch):
    """One checkpoint every CHECKPOINT_EVERY events and no more (at one every eight, so that a
    hundred events make a dozen on both databases)."""
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", 8)
    code = new_table().code
    play_randomly(code, random.Random(11), 100, undo=False)
    game = fresh(code)
    kept = db.session.scalar(select(func.count()).select_from(Checkpoint).where(Checkpoint.game_id == game.id))
    assert kept == game.version // 8 and kept >= 10


def test_a_game_saved_before_checkpoints_existed_still_undoes_exactly(app, monkeypatch):
    """A database from before this change has no checkpoints: undo replays that game from its start
    (past where five checkpoints were, at one every eight events)."""
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", 8)
    code = new_table().code
    play_randomly(code, random.Random(3), 40, undo=False)
    game = fresh(code)
    db.session.execute(delete(Checkpoint).where(Checkpoint.game_id == game.id))
    db.session.commit()
    expected = replayed(game, drop_last=True)
    assert store.act(code, {"type": "undo"}, actor=BANKER).state == expected
    assert_replay_gives_the_snapshot(code)


# On SQLite alone: a dozen evenings, a few hundred actions and a full replay after each step, each
# a few round trips to the PostgreSQL server (there, most of the module's time). The checkpoints it
# varies are the store's own logic, the same on both databases; the undo tests above run on both.
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), every=st.integers(2, 6))
def test_random_evenings_with_undos_replay_to_the_snapshot_after_every_step(app, monkeypatch, seed, every):
    """Checkpoints every few events, undos now and then and in bursts: after each step, replaying the
    whole log from the start gives exactly the snapshot the store saved."""
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", every)
    rng = random.Random(seed)
    code = new_table(rng.choice([2, 3])).code
    for _ in range(12):
        play_randomly(code, rng, rng.randint(1, 8))
        assert_replay_gives_the_snapshot(code)
        for _ in range(rng.randint(0, 4)):
            try:
                store.act(code, {"type": "undo"}, actor=BANKER)
            except GameError:
                break
            assert_replay_gives_the_snapshot(code)


# A player's take_back, and the banker's undo of a named entry


def test_a_player_takes_back_their_own_purchase_while_it_is_the_newest_entry(app):
    table = new_table(2)
    ann = Actor(player=1)
    store.act(table.code, {"type": "roll", "dice": [1, 2]}, actor=ann)  # Baltic Avenue, for sale
    before = store.load_state(fresh(table.code))
    store.act(table.code, {"type": "buy"}, actor=ann)
    outcome = store.act(table.code, {"type": "take_back"}, table.seats[1])  # her API secret
    assert outcome.state.to_dict() == before.to_dict()
    assert outcome.effects == [{"kind": "undone", "seq": fresh(table.code).version - 1, "type": "buy", "player": 1}]
    [taken] = [e for e in events(table.code) if e.type == "undo"]
    assert taken.actor == "1"
    assert_replay_gives_the_snapshot(table.code)


def test_a_take_back_is_refused_once_anything_came_after_it_and_changes_nothing(app):
    table = new_table(2)
    ann, bob = Actor(player=1), Actor(player=2)
    store.act(table.code, {"type": "roll", "dice": [1, 2]}, actor=ann)
    store.act(table.code, {"type": "buy"}, actor=ann)
    store.act(table.code, {"type": "pay", "to": 1, "amount": 5}, actor=bob)
    store.act(table.code, {"type": "undo"}, actor=BANKER)        # Bob's payment: an entry after the purchase
    version = fresh(table.code).version
    for who in (ann, bob):
        with pytest.raises(GameError) as refused:
            store.act(table.code, {"type": "take_back"}, actor=who)
        assert refused.value.code == "nothing_to_take_back" and isinstance(refused.value, RuleError)
    with pytest.raises(GameError) as refused:
        store.act(table.code, {"type": "take_back", "seq": 3}, actor=ann)
    assert refused.value.code == "unknown_field"
    assert fresh(table.code).version == version


def test_the_banker_undoes_the_entry_they_read_or_nothing(app):
    table = new_table(2)
    store.act(table.code, {"type": "roll", "dice": [1, 2]}, actor=Actor(player=1))
    bought = store.act(table.code, {"type": "buy"}, actor=Actor(player=1)).version
    store.act(table.code, {"type": "pay", "to": 1, "amount": 5}, actor=Actor(player=2))
    with pytest.raises(GameError) as refused:  # "Undo: Ann bought…" was read before Bob paid
        store.act(table.code, {"type": "undo", "seq": bought}, actor=BANKER)
    assert refused.value.code == "undo_moved_on"
    assert store.act(table.code, {"type": "undo", "seq": bought + 1}, actor=BANKER).effects[0]["seq"] == bought + 1
