"""Benchmark, in process: what one change costs the TV screen's live update against the host
screen's (the banker's), each rendered as the game's renderer renders it (from the memory's Known;
a part whose inputs did not change is not rendered again), and the bytes each sends, at about 60,
1,000 and 5,000 events of eight players played by bot.py.

Run: .venv/bin/python benchmarks/tv.py   (prints a table; asserts nothing)
"""

import random
import time

from live_and_actions import a_table, an_app, play
from flask import g

from banker import store
from banker.screens import TableScreen, TvScreen, changes, render_parts

CHANGES = 100
SCREENS = {"host": lambda known: TableScreen(known, True), "tv": TvScreen}


def main() -> None:
    app = an_app(RATELIMIT_ENABLED=False)
    rng = random.Random(23)
    with app.app_context():
        code = a_table()

        def move() -> None:
            play(code, rng, store.find_game(code).version + 1)

        for name in app.jinja_env.list_templates(extensions=["html"]):  # compiled once, as a running server has
            app.jinja_env.get_template(name)
        memory = app.extensions["banker.memory"]
        print(f"{'events':>7}  {'screen':6} {'ms per change':>14} {'p95 ms':>7} {'bytes per change':>17}")
        for events in (60, 1000, 5000):
            play(code, rng, events)
            spent = {name: [] for name in SCREENS}
            sent = dict.fromkeys(SCREENS, 0)
            shown: dict = {}
            with app.test_request_context():
                g.live_marks = True
                for _ in range(CHANGES):
                    move()
                    game = memory.newest(code, store.find_game(code).version)
                    for name, make in SCREENS.items():
                        start = time.perf_counter()
                        screen = make(game)
                        before = shown.get(name)
                        if before is not None:
                            screen.previous, before[1].previous = before[1], None
                        parts = render_parts(screen, before[0] if before else None, {})
                        html = "".join(changes(before[0][part].html if before else None, drawn.html)
                                       for part, drawn in parts.items())
                        spent[name].append(time.perf_counter() - start)
                        sent[name] += len(html.encode())
                        shown[name] = (parts, screen)
            for name in SCREENS:
                times = sorted(spent[name])
                print(f"{events:>7,}  {name:6} {sum(times) / CHANGES * 1000:14.2f} {times[int(CHANGES * .95)] * 1000:7.2f}"
                      f" {sent[name] / CHANGES:17,.0f}")


if __name__ == "__main__":
    main()
