"""Many writers on one game at once (issue 13, item 2): each waits its turn, none is told the
table is busy, undo gets through, and the log still replays to the snapshot."""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from banker import store
from banker.rules import GameState

from .games import bearer, new_game

WRITERS, ROUNDS = 16, 12


def test_sixteen_writers_and_undos_on_one_game_each_apply_exactly_once(app, client):
    game = new_game(client, players=3)
    start = game.state()["version"]
    barrier = threading.Barrier(WRITERS)

    def write(i: int) -> list[tuple[int, dict]]:
        """Writer 0 is the banker undoing; the others pay the bank 1 each, as seats and banker."""
        writer = app.test_client()
        barrier.wait()
        answers = []
        for round_ in range(ROUNDS):
            if i == 0:
                body, token = {"type": "undo"}, game.banker
            else:
                body, token = {"type": "bank_charge", "player": i % 3 + 1, "amount": 1,
                               "nonce": f"w{i}r{round_}"}, game.banker
            response = writer.post(f"/api/games/{game.code}/actions", headers=bearer(token), json=body)
            answers.append((response.status_code, response.get_json()))
        return answers

    with ThreadPoolExecutor(WRITERS) as pool:
        results = list(pool.map(write, range(WRITERS)))

    statuses = Counter(status for answers in results for status, _ in answers)
    undos = [body for status, body in results[0] if status == 200]
    assert statuses[503] == 0, statuses
    # Every undo either took back a charge or found nothing left to undo (never busy).
    assert all(status in (200, 409, 422) for status, _ in results[0]), results[0]
    assert set(statuses) <= {200, 409, 422}
    charges = (WRITERS - 1) * ROUNDS
    events = game.events()
    assert len(events) == start + charges + len(undos)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    undone = sum(e["undone"] for e in events)
    assert undone == len(undos)
    cash = game.cash()
    assert sum(cash.values()) == 3 * 1500 - (charges - undone)
    with app.app_context():
        saved = store.find_game(game.code)
        assert store.replay_game(saved) == GameState.from_dict(saved.state)


def test_one_nonce_sent_by_eight_threads_at_once_is_applied_once(app, client):
    """A double tap times eight: the writers that waited for the lock must see the first one's
    event (on PostgreSQL a read that began before the wait would not)."""
    game = new_game(client)
    start = game.state()["version"]
    barrier = threading.Barrier(8)

    def send(tap):
        writer = app.test_client()
        barrier.wait()
        response = writer.post(f"/api/games/{game.code}/actions", headers=bearer(game.banker),
                               json={"type": "bank_pay", "player": 1, "amount": 100, "nonce": f"tap-{tap}"})
        return response.status_code, response.get_json()

    for tap in range(1, 6):
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(send, [tap] * 8))
        assert [status for status, _ in answers] == [200] * 8
        assert {body["version"] for _, body in answers} == {start + tap}
        assert sorted(body["repeated"] for _, body in answers) == [False] + [True] * 7
        assert game.cash()[1] == 1500 + 100 * tap
