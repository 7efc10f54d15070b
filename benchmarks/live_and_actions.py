"""Benchmark: what an idle poll costs, and whether an action slows as the game's log grows.

Run: .venv/bin/python benchmarks/live_and_actions.py   (prints a table; asserts nothing)
"""

import statistics
import tempfile
import time
from pathlib import Path

from banker import create_app, store
from banker.rules import Actor


def timed(fn, rounds: int) -> float:
    """Median wall time of one call, in microseconds."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
                      "SECRET_KEY": "bench", "HTMX_CDN": False}, instance_path=folder)
    client = app.test_client()
    with app.app_context():
        game, _ = store.create_game()
        code = game.code
        for name, token in (("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"), ("Di", "cat")):
            store.act(code, {"type": "join", "name": name, "token": token})
        store.act(code, {"type": "start", "order": [1, 2, 3, 4]}, actor=Actor(banker=True))
        banker = Actor(banker=True)

        def pay():
            store.act(code, {"type": "bank_pay", "player": 1, "amount": 1}, actor=banker)

        rows = []
        for events in (10, 1000, 5000):
            while store.version_of(code) < events:
                pay()
            version = store.version_of(code)
            idle = timed(lambda: client.get(f"/live/{code}/{version}"), 2000)
            action = timed(pay, 300)
            page = timed(lambda: client.get(f"/t/{code}"), 50)
            rows.append((store.version_of(code), idle, action, page))
    print(f"{'events':>8} {'idle poll µs':>14} {'action µs':>12} {'host page µs':>14}")
    for events, idle, action, page in rows:
        print(f"{events:>8} {idle:>14.0f} {action:>12.0f} {page:>14.0f}")


if __name__ == "__main__":
    main()
