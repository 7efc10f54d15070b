"""Benchmark, in process: the story page (/t/<code>/story) of a long game, the first time a game
version is read and from its cache.

Eight players play by themselves (benchmarks/bot.py) to 1,000 and 5,000 events; at each length it
times the banker's story page (the game is still going: the banker's "story so far"): the first
time, with the story, its HTML and the net-worth history forgotten before each request (each is
kept per game version: the first reader of a version pays for all three), and again with them
kept, as every later reader of that version in that language is served; and apart, three parts of
the first time: reading the log (one query of every live event's effects), counting the story from
it, and counting the net-worth chart from it (rules/networth.py's WorthTally).

Run: .venv/bin/python benchmarks/story.py   (about 20 seconds; prints a table; asserts nothing)
"""

import random
import statistics
import time

from live_and_actions import a_table, an_app, play

from banker import store
from banker.drawings.chart import _replay
from banker.screens.story import count


def median_ms(fn, rounds: int, before=lambda: None) -> float:
    samples = []
    for _ in range(rounds):
        before()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def main() -> None:
    app = an_app()
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
                now = store.known(store.find_game(code))
                log = store.live_effects(now.id, upto=now.version)
                reading = median_ms(lambda: store.live_effects(now.id, upto=now.version), 10)
                counting = median_ms(lambda: count(now.state.board, log), 10)
                chart = median_ms(lambda: _replay(now, None, lambda: log), 10)
            size = len(client.get(f"/t/{code}/story").data)
            rows.append((store.find_game(code).version, first, cached, reading, counting, chart, size))
    print(f"{'events':>7} {'first ms':>9} {'cached ms':>10} {'reading ms':>11} {'counting ms':>12} "
          f"{'chart ms':>9} {'page bytes':>11}")
    for events, first, cached, reading, counting, chart, size in rows:
        print(f"{events:>7,} {first:>9.1f} {cached:>10.1f} {reading:>11.1f} {counting:>12.1f} {chart:>9.1f} {size:>11,}")


if __name__ == "__main__":
    main()
