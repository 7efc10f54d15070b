"""Benchmark, in process: what one change costs the renderer of a table's nine screens (the host
and eight phones), rendered as the game's renderer renders them (from the memory's Known; a part
whose inputs did not change is not rendered again), at about 60 and 1,000 events: the time per
change and its CPU (which the other processes of a loaded machine disturb less), the parts rendered
per change (counted by Flask's template signals), and which templates that time goes to. `--profile [PATTERN]` prints where the time goes, by function, instead
(only the functions whose file or name matches PATTERN, a regular expression), by cumulative time, or with `--self` by each function's own time.

Run: .venv/bin/python benchmarks/live_parts.py   (prints a table; asserts nothing)
"""

import collections
import cProfile
import pstats
import random
import sys
import time

from flask import before_render_template, g, template_rendered
from live_and_actions import a_table, an_app, play

from banker import store
from banker.screens import PhoneScreen, TableScreen, render_parts

CHANGES = 60


def main() -> None:
    app = an_app(RATELIMIT_ENABLED=False)
    rng = random.Random(8)
    with app.app_context():
        code = a_table()

        def move() -> None:  # one change: a refused move is tried again
            play(code, rng, store.find_game(code).version + 1)

        for name in app.jinja_env.list_templates(extensions=["html"]):  # compiled once, as a running server has
            app.jinja_env.get_template(name)
        with app.test_request_context():  # and each part's template read once (screens/reads.py)
            g.live_marks = True
            known = app.extensions["banker.memory"].newest(code, store.find_game(code).version)
            render_parts(TableScreen(known, True)), render_parts(PhoneScreen(known, 1))
        for events in (60, 1000):
            play(code, rng, events)
            spent, renders, started = collections.Counter(), collections.Counter(), []

            def starts(sender, template, context):  # Flask's signals, around each render_template
                started.append(time.perf_counter())

            def ends(sender, template, context):
                spent[template.name] += time.perf_counter() - started.pop()
                renders[template.name] += 1

            before_render_template.connect(starts, app)
            template_rendered.connect(ends, app)
            shown: dict = {}
            total, cpu = 0.0, 0.0
            profile = cProfile.Profile() if "--profile" in sys.argv else None
            memory = app.extensions["banker.memory"]
            with app.test_request_context():
                g.live_marks = True
                for _ in range(CHANGES):
                    move()
                    version = store.find_game(code).version
                    start, cpu_start = time.perf_counter(), time.process_time()
                    if profile:
                        profile.enable()
                    game = memory.newest(code, version)
                    screens = [("host", TableScreen(game, True))] + [(p, PhoneScreen(game, p)) for p in range(1, 9)]
                    shared: dict = {}  # the parts the screens share, rendered once per change
                    for key, screen in screens:
                        if key in shown:
                            screen.previous = shown[key][1]  # as the renderer does: pieces may be kept
                            screen.previous.previous = None
                        shown[key] = (render_parts(screen, shown[key][0] if key in shown else None, shared), screen)
                    if profile:
                        profile.disable()
                    total += time.perf_counter() - start
                    cpu += time.process_time() - cpu_start
            before_render_template.disconnect(starts, app)
            template_rendered.disconnect(ends, app)
            print(f"about {events:,} events: {total / CHANGES * 1000:.1f} ms per change for nine screens "
                  f"({cpu / CHANGES * 1000:.1f} ms of CPU), {sum(renders.values()) / CHANGES:.1f} parts rendered per change")
            if profile:
                stats = pstats.Stats(profile); stats.sort_stats(*(["tottime"] if "--self" in sys.argv else ["cumtime"])).print_stats(*(sys.argv[sys.argv.index("--profile") + 1:] or [60]))
                continue
            for name, seconds in spent.most_common(8):
                print(f"  {name:28} {seconds / CHANGES * 1000:6.2f} ms  {renders[name] / CHANGES:4.1f} renders per change")


if __name__ == "__main__":
    main()
