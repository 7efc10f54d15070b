"""Benchmark, in process: exporting a game as its JSON archive, its ledger as CSV, and importing the
archive into a new game (every event replayed through the rules), at 1,000 and 5,000 events.

Eight players play by themselves (benchmarks/bot.py) through the store, with an undo every 100
events or so, on a SQLite file; each figure is one request through Flask's test client, whole
answer read, the median of a few.

Run: .venv/bin/python benchmarks/archive.py   (prints a table; asserts nothing)
"""

import random
import statistics
import time

from live_and_actions import BANKER, NAMES, an_app, play

from banker import store


def timed(fn, rounds: int) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main() -> None:
    app = an_app()
    client = app.test_client()
    rng = random.Random(23)
    rows = []
    with app.app_context():
        game, token = store.create_game()
        code = game.code
        for name, piece in NAMES:
            store.act(code, {"type": "join", "name": name, "token": piece})
        store.act(code, {"type": "start", "order": list(range(1, 9))}, actor=BANKER)
        auth = {"Authorization": f"Bearer {token}"}
        for events in (1000, 5000):
            while store.find_game(code).version < events:
                play(code, rng, min(events, store.find_game(code).version + 100))
                store.act(code, {"type": "undo"}, actor=BANKER)
            export, body = timed(lambda: client.get(f"/api/games/{code}/export", headers=auth).get_data(), 5)
            ledger, csv = timed(lambda: client.get(f"/api/games/{code}/ledger.csv", headers=auth).get_data(), 5)
            brought, answer = timed(lambda: client.post("/api/games/import", data=body,
                                                        content_type="application/json"), 3)
            assert answer.status_code == 201, answer.get_json()
            rows.append((store.find_game(code).version, len(body), export, len(csv), ledger, brought))
    print(f"{'events':>7} {'JSON bytes':>11} {'export ms':>10} {'CSV bytes':>10} {'ledger ms':>10} {'import ms':>10}")
    for events, size, export, csv_size, ledger, brought in rows:
        print(f"{events:>7} {size:>11,} {export * 1e3:>10.0f} {csv_size:>10,} {ledger * 1e3:>10.0f} "
              f"{brought * 1e3:>10.0f}")


if __name__ == "__main__":
    main()
