"""Benchmark, in process: one step of the timeline (/t/<code>/timeline?v=<n>) as the slider asks for
it (htmx: the version's part alone), at 5,000 events.

Eight players play by themselves (benchmarks/bot.py) to 5,000 events on a SQLite file, the banker
undoing now and then. It then times the slider's request at versions spread over the whole game,
and at the versions worst placed for the checkpoints (just before one: the most events replayed),
each asked once (the first time, as a step is) and its squares made once before (fragments.py keeps
them, as the host screen would have); the share of it that is the store's `state_at`; and, to
compare, the host screen's own page.

Run: .venv/bin/python benchmarks/timeline.py   (prints a table; asserts nothing)
"""

import random
import statistics
import time

from live_and_actions import a_table, an_app, play

from banker import store

EVENTS = 5_000
UNDOS = 0.02  # about every fiftieth move is an undo by the banker


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    app = an_app()
    client = app.test_client()
    rng = random.Random(23)
    with app.app_context():
        code = a_table(client)
        play(code, rng, EVENTS, UNDOS)
        game = store.find_game(code)
        every = store.CHECKPOINT_EVERY
        spread = list(range(1, game.version, game.version // 200))
        worst = [v for v in range((every - 1), game.version, every)][-100:]

        def step(version):
            response = client.get(f"/t/{code}/timeline?v={version}", headers={"HX-Request": "true"})
            assert response.status_code == 200

        for v in spread + worst:  # the squares and rows as the host screen would have made them
            step(v)
        rows = []
        for name, versions in (("spread over the game", spread), ("just before a checkpoint", worst)):
            steps = [timed(lambda: step(v)) for v in versions]
            states = [timed(lambda: store.state_at(game, v)) for v in versions]
            rows.append((name, len(versions), statistics.median(steps), max(steps), statistics.median(states)))
        host = statistics.median(timed(lambda: client.get(f"/t/{code}")) for _ in range(30))
        undone = sum(1 for e in store.log_page(game, 0, 10_000) if e.undone)
    print(f"{game.version:,} events, {undone} of them undone; a checkpoint every {every}")
    print(f"{'versions':<26} {'n':>4} {'step median ms':>15} {'step max ms':>12} {'state_at median ms':>19}")
    for name, n, median, most, state in rows:
        print(f"{name:<26} {n:>4} {median:>15.1f} {most:>12.1f} {state:>19.1f}")
    print(f"for comparison, the host page (/t/<code>) at the same version: median {host:.1f} ms")


if __name__ == "__main__":
    main()
