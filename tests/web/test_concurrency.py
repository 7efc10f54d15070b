"""Phones acting at once: real threads, each with its own client, on the real SQLite file."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from banker import store
from banker.rules import GameState

from .games import bearer

pytestmark = pytest.mark.storage  # writers take turns by the database's locks

THREADS = 8


def test_eight_payments_posted_at_once_are_each_applied_exactly_once(app, game3):
    start = game3.state()["version"]
    barrier = threading.Barrier(THREADS)

    def pay(i: int):
        """Thread i: seat i % 3 + 1 pays the next seat i + 1 (so every sum is different)."""
        client = app.test_client()
        payer, payee = i % 3 + 1, (i + 1) % 3 + 1
        barrier.wait()
        response = client.post(f"/api/games/{game3.code}/actions", headers=bearer(game3.seats[payer]),
                               json={"type": "pay", "to": payee, "amount": i + 1, "memo": f"thread {i}"})
        return payer, payee, i + 1, response.status_code, response.get_json()

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(pay, range(THREADS)))

    assert [status for *_, status, _ in results] == [200] * THREADS
    assert sorted(body["version"] for *_, body in results) == list(range(start + 1, start + THREADS + 1))
    expected = {1: 1500, 2: 1500, 3: 1500}
    for payer, payee, amount, *_ in results:
        expected[payer] -= amount
        expected[payee] += amount
    assert game3.cash() == expected

    events = game3.events()
    paid = [e for e in events if e["type"] == "pay"]
    assert sorted(e["action"]["memo"] for e in paid) == sorted(f"thread {i}" for i in range(THREADS))
    assert [e["seq"] for e in events] == list(range(1, start + THREADS + 1))
    assert game3.state()["version"] == start + THREADS
    with app.app_context():
        saved = store.find_game(game3.code)
        assert store.replay_game(saved) == GameState.from_dict(saved.state)


def test_pages_and_the_api_acting_at_once_lose_nothing(app, game, host, phone):
    """Threads mixing the banker's form, a phone's form and the API, a few rounds each."""
    banker, ann = host(game), phone(game, 1)
    barrier = threading.Barrier(4)

    def banker_pays(_):
        barrier.wait()
        return [banker.post({"type": "bank_pay", "player": 2, "amount": 10}, htmx=True).status_code
                for _ in range(5)]

    def ann_pays(_):
        barrier.wait()
        return [ann.post({"type": "pay", "to": 2, "amount": 1}, htmx=True).status_code for _ in range(5)]

    def bob_pays(_):
        client = app.test_client()
        barrier.wait()
        return [client.post(f"/api/games/{game.code}/actions", headers=bearer(game.seats[2]),
                            json={"type": "pay", "to": "bank", "amount": 3}).status_code for _ in range(5)]

    def bank_charges(_):
        client = app.test_client()
        barrier.wait()
        return [client.post(f"/api/games/{game.code}/actions", headers=bearer(game.banker),
                            json={"type": "bank_charge", "player": 1, "amount": 7}).status_code for _ in range(5)]

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(task, None) for task in (banker_pays, ann_pays, bob_pays, bank_charges)]
        statuses = [status for f in futures for status in f.result()]

    assert statuses == [200] * 20
    assert game.cash() == {1: 1500 - 5 * 1 - 5 * 7, 2: 1500 + 5 * 10 + 5 * 1 - 5 * 3}
    assert [e["seq"] for e in game.events()] == list(range(1, game.state()["version"] + 1))
