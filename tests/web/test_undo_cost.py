"""Undo in constant work: it replays from the newest checkpoint before the event it takes back, never
from the start, and replaying the whole log still gives exactly the snapshot."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, select

from banker import store
from banker.models import Checkpoint, db
from banker.rules import Actor, GameError, GameState, Settings, replay
from banker.rules.view import state_json

from .test_undo import _next_move

BANKER = Actor(banker=True)


def who(name) -> Actor:
    return BANKER if name == "banker" else Actor(player=name)


def new_table(players: int = 3) -> str:
    """A started game of `players` seats, made through the store; its code."""
    game, _ = store.create_game()
    for name, token in (("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"))[:players]:
        store.act(game.code, {"type": "join", "name": name, "token": token})
    store.act(game.code, {"type": "start", "order": list(range(1, players + 1))}, actor=BANKER)
    return game.code


def play_randomly(code: str, rng: random.Random, steps: int, undo: bool = True) -> None:
    """What a table might do (test_undo's random evening), refusals included."""
    for _ in range(steps):
        game = store.find_game(code)
        name, action = _next_move(state_json(store.load_state(game), game.version), rng)
        if action["type"] == "undo" and not undo:
            continue
        try:
            store.act(code, action, actor=who(name))
        except GameError:
            pass


def replayed(game, drop_last: bool = False) -> GameState:
    """The state the whole log gives (without its newest live action: what undo must give)."""
    log = store.live_log(game.id)
    return replay(game.edition, Settings(**game.settings), log[:-1] if drop_last else log)


def assert_replay_gives_the_snapshot(code: str) -> None:
    game = store.find_game(code)
    assert replayed(game) == GameState.from_dict(game.state)


def counting_replays(monkeypatch) -> list[int]:
    """The number of logged actions each undo replays (the store's replays: the test's own go
    through the rules' replay directly)."""
    counts, replay = [], store.replay

    def counted(edition, settings, log, start=None):
        counts.append(len(log))
        return replay(edition, settings, log, start)

    monkeypatch.setattr(store, "replay", counted)
    return counts


def test_undo_at_two_thousand_events_replays_less_than_a_checkpoint_apart(app, monkeypatch):
    with app.app_context():
        code = new_table()
        play_randomly(code, random.Random(7), 2_300, undo=False)
        game = store.find_game(code)
        assert game.version > 2_000
        replays = counting_replays(monkeypatch)
        for _ in range(40):  # back past at least one checkpoint
            expected = replayed(game, drop_last=True)
            assert store.act(code, {"type": "undo"}, actor=BANKER).state == expected
            game = store.find_game(code)
        assert_replay_gives_the_snapshot(code)
        assert len(replays) == 40 and max(replays) < store.CHECKPOINT_EVERY


def test_checkpoints_are_a_small_share_of_the_events(app):
    with app.app_context():
        code = new_table()
        play_randomly(code, random.Random(11), 400, undo=False)
        game = store.find_game(code)
        kept = db.session.scalar(select(func.count()).select_from(Checkpoint).where(Checkpoint.game_id == game.id))
        assert kept == game.version // store.CHECKPOINT_EVERY


def test_a_game_saved_before_checkpoints_existed_still_undoes_exactly(app):
    """A database from before this change has no checkpoints: undo replays that game from its start."""
    with app.app_context():
        code = new_table()
        play_randomly(code, random.Random(3), 120, undo=False)
        game = store.find_game(code)
        db.session.execute(delete(Checkpoint).where(Checkpoint.game_id == game.id))
        db.session.commit()
        expected = replayed(game, drop_last=True)
        assert store.act(code, {"type": "undo"}, actor=BANKER).state == expected
        assert_replay_gives_the_snapshot(code)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), every=st.integers(2, 6))
def test_random_evenings_with_undos_replay_to_the_snapshot_after_every_step(app, monkeypatch, seed, every):
    """Checkpoints every few events, undos now and then and in bursts: after each step, replaying the
    whole log from the start gives exactly the snapshot the store saved."""
    monkeypatch.setattr(store, "CHECKPOINT_EVERY", every)
    rng = random.Random(seed)
    with app.app_context():
        code = new_table(rng.choice([2, 3]))
        for _ in range(12):
            play_randomly(code, rng, rng.randint(1, 8))
            assert_replay_gives_the_snapshot(code)
            for _ in range(rng.randint(0, 4)):
                try:
                    store.act(code, {"type": "undo"}, actor=BANKER)
                except GameError:
                    break
                assert_replay_gives_the_snapshot(code)
