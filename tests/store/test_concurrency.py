"""Many writers on one game at once, calling the store from threads (issue 13, item 2): each waits its
turn, none is told the table is busy, undo gets through, the log still replays to the snapshot; and
what Busy means: every try lost the race, and nothing was applied."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import update

from banker import store
from banker.store import actions, engine
from banker.models import Game, db
from banker.rules import GameError

from .tables import BANKER, assert_replay_gives_the_snapshot, cash, events, fresh, new_browser, new_table

pytestmark = pytest.mark.storage  # writers take turns by the database's locks

WRITERS, ROUNDS = 16, 8


def in_threads(app, count: int, work) -> list:
    """work(i) for i in range(count), each in a thread of its own with its own app context (so its
    own database session), all starting together; their results in order."""
    barrier = threading.Barrier(count)

    def run(i: int):
        with app.app_context():
            barrier.wait()
            return work(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_sixteen_writers_and_undos_on_one_game_each_apply_exactly_once(app):
    table = new_table(3)
    for _ in range(ROUNDS):  # as many charges as there will be undos: no undo can reach the start
        store.act(table.code, {"type": "bank_charge", "player": 1, "amount": 1}, actor=BANKER)
    start = fresh(table.code).version

    def write(i: int) -> list[object]:
        """Writer 0 is the banker undoing; the others charge a seat 1 each, with a nonce of their own.
        Each answer: the outcome, or the exception raised."""
        answers = []
        for round_ in range(ROUNDS):
            body = ({"type": "undo"} if i == 0 else
                    {"type": "bank_charge", "player": i % 3 + 1, "amount": 1, "nonce": f"w{i}r{round_}"})
            try:
                answers.append(store.act(table.code, body, table.banker))
            except (GameError, store.Busy) as error:
                answers.append(error)
        return answers

    results = in_threads(app, WRITERS, write)

    answers = [answer for answers in results for answer in answers]
    assert [answer for answer in answers if not isinstance(answer, store.Outcome)] == []  # none busy
    assert not any(answer.repeated for answer in answers)
    charges, undos = (WRITERS - 1) * ROUNDS, ROUNDS
    logged = events(table.code)
    assert len(logged) == start + charges + undos
    assert [e.seq for e in logged] == list(range(1, len(logged) + 1))
    assert [e.type for e in logged if e.undone] == ["bank_charge"] * undos
    assert sum(cash(store.load_state(fresh(table.code))).values()) == 3 * 1500 - ROUNDS - charges + undos
    assert_replay_gives_the_snapshot(table.code)


def test_one_nonce_sent_by_eight_threads_at_once_is_applied_once(app):
    """A double tap times eight: the writers that waited for the lock must see the first one's
    event (on PostgreSQL a read that began before the wait would not)."""
    table = new_table(2)
    start = fresh(table.code).version
    for tap in range(1, 6):
        answers = in_threads(app, 8, lambda _: store.act(
            table.code, {"type": "bank_pay", "player": 1, "amount": 100, "nonce": f"tap-{tap}"}, table.banker))
        assert {answer.version for answer in answers} == {start + tap}
        assert sorted(answer.repeated for answer in answers) == [False] + [True] * 7
        assert cash(store.load_state(fresh(table.code)))[1] == 1500 + 100 * tap


def test_one_join_submitted_by_four_threads_at_once_takes_one_seat(app):
    table = new_table(2, start=False)
    phone = new_browser()
    answers = in_threads(app, 4, lambda _: store.act(
        table.code, {"type": "join", "name": "Cy", "token": "dog", "nonce": "join-form"}, browser=phone))
    assert {answer.player for answer in answers} == {3}
    assert sorted(answer.repeated for answer in answers) == [False, True, True, True]
    assert [p.name for p in store.load_state(fresh(table.code)).players] == ["Ann", "Bob", "Cy"]
    assert store.visit(table.code, browser=phone)[1].player == 3


def losing(monkeypatch, races: int) -> list[int]:
    """The next `races` saves lose the race: another writer moved the game's version between this
    writer's read and its save (here: within its own transaction, which the lost save rolls back).
    Returns the version each save had read."""
    tries, save = [], actions._save

    def contested(row, *args):
        tries.append(row.version)
        if len(tries) <= races:
            db.session.execute(update(Game).where(Game.id == row.id).values(version=Game.version + 1))
        return save(row, *args)

    monkeypatch.setattr(actions, "_save", contested)
    monkeypatch.setattr(engine, "BACKOFF", 0)
    return tries


def test_busy_means_every_try_lost_the_race_and_nothing_was_applied(app, monkeypatch, announced):
    table = new_table(2)
    before = fresh(table.code)
    version, state, logged = before.version, before.state, len(events(table.code))
    announced.clear()
    tries = losing(monkeypatch, store.TRIES)
    with pytest.raises(store.Busy):
        store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap"}, table.seats[1])
    assert tries == [version] * store.TRIES  # each try read the game afresh: nothing was left behind
    after = fresh(table.code)
    assert (after.version, after.state, len(events(table.code))) == (version, state, logged)
    assert announced == []
    # The same tap, sent again once the table is calm, is applied (its nonce was never used).
    again = store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap"}, table.seats[1])
    assert not again.repeated and cash(again.state) == {1: 1425, 2: 1575}


def test_a_writer_that_lost_some_races_applies_once_on_a_later_try(app, monkeypatch, announced):
    table = new_table(2)
    version = fresh(table.code).version
    announced.clear()
    tries = losing(monkeypatch, store.TRIES - 1)
    paid = store.act(table.code, {"type": "pay", "to": 2, "amount": 75}, table.seats[1])
    assert len(tries) == store.TRIES and paid.version == version + 1
    assert cash(paid.state) == {1: 1425, 2: 1575}
    assert [e.seq for e in events(table.code)] == list(range(1, version + 2))
    assert announced == [(table.code, version + 1)]
