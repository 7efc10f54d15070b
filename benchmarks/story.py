"""Benchmark, in process: the story page (/t/<code>/story) of a long game, the first time a game
version is read and from its cache.

Eight players play by themselves (benchmarks/bot.py) to 1,000 and 5,000 events; at each length it
times the banker's story page (the game is still going: the banker's "story so far"): the first
time, with the story, its HTML and the net-worth history forgotten before each request (each is
kept per game version: the first reader of a version pays for all three), and again with them
kept, as every later reader of that version in that language is served; and apart, two parts of
the first time: counting the story from the log (one query of every live event's effects) and the
net-worth chart's replay of the game.

Run: .venv/bin/python benchmarks/story.py   (about two minutes; prints a table; asserts nothing)
"""

import random
import statistics
import tempfile
import time
from pathlib import Path

from live_and_actions import a_table, play

from banker import create_app, store
from banker.web.chart import worth_history
from banker.web.context import known
from banker.web.story import told_story


def median_ms(fn, rounds: int, before=lambda: None) -> float:
    samples = []
    for _ in range(rounds):
        before()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
                      "SECRET_KEY": "bench", "HTMX_CDN": False}, instance_path=folder)
    client = app.test_client()
    rng = random.Random(8)
    rows = []

    def forget():
        for kept in ("banker.story", "banker.story_pages", "banker.worth_history"):
            app.extensions.pop(kept, None)

    with app.app_context():
        code = a_table(client)

        def page():
            response = client.get(f"/t/{code}/story")
            assert response.status_code == 200, response.status_code

        for events in (1000, 5000):
            play(code, rng, events)
            first = median_ms(page, 10, before=forget)
            cached = median_ms(page, 30)
            with app.test_request_context():
                now = known(store.find_game(code))
                counting = median_ms(lambda: told_story(now), 10, before=forget)
                replay = median_ms(lambda: worth_history(now), 10, before=forget)
            size = len(client.get(f"/t/{code}/story").data)
            rows.append((store.find_game(code).version, first, cached, counting, replay, size))
    print(f"{'events':>7} {'first ms':>9} {'cached ms':>10} {'counting ms':>12} {'chart replay ms':>16} {'page bytes':>11}")
    for events, first, cached, counting, replay, size in rows:
        print(f"{events:>7,} {first:>9.1f} {cached:>10.1f} {counting:>12.1f} {replay:>16.1f} {size:>11,}")


if __name__ == "__main__":
    main()
