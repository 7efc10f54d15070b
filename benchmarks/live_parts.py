"""Benchmark, in process: what one change costs the renderer of a table's nine screens (the host
and eight phones), drawn as the game's renderer draws them (screens.drawing and screens.draw, from
the memory's Known: a part whose values did not change is not rendered again; then each screen's
swaps for the page that showed the version before), at about 60 and 1,000 events: the time per
change and its CPU (which the other processes of a loaded machine disturb less), the parts rendered
per change (counted by Flask's template signals), and which templates that time goes to.
`--profile [PATTERN]` prints where the time goes, by function, instead (only the functions whose
file or name matches PATTERN, a regular expression; or the first N of them), by cumulative time, or
with `--self` by each function's own time.

Run: .venv/bin/python benchmarks/live_parts.py   (prints a table; asserts nothing). With
PYTHONPATH=<another checkout> it measures that checkout's code (git archive <commit> | tar -x -C ...).
"""

import collections
import contextlib
import cProfile
import pstats
import random
import sys
import time

from flask import before_render_template, template_rendered
from live_and_actions import a_table, an_app, play

from banker import screens, store
from banker.screens import Kind, PhoneScreen, TableScreen

CHANGES = 60
ADDRESS = "http://192.168.1.20:8000/"  # where the pages were opened: the laptop's address on the LAN
KINDS = [Kind(TableScreen, (True,))] + [Kind(PhoneScreen, (player,)) for player in range(1, 9)]


if hasattr(screens, "drawing"):
    drawing, draw = screens.drawing, screens.draw
else:  # an older checkout measured (PYTHONPATH=<checkout>): its draw made its own request context
    @contextlib.contextmanager
    def drawing(locale: str, address: str):
        drawing.where = (locale, address)
        yield

    def draw(kind, known, before, shared, give_way):
        return screens.draw(kind, known, *drawing.where, before, {drawing.where: shared}, give_way)


def main() -> None:
    app = an_app(RATELIMIT_ENABLED=False)
    rng = random.Random(8)
    with app.app_context():
        code = a_table()
        memory = app.extensions["banker.memory"]

        def move() -> None:  # one change: a refused move is tried again
            play(code, rng, store.find_game(code).version + 1)

        for name in app.jinja_env.list_templates(extensions=["html"]):  # compiled once, as a running server has
            app.jinja_env.get_template(name)
        with drawing("en", ADDRESS):  # and each part's template read once (screens/reads.py)
            for kind in KINDS[:2]:
                draw(kind, memory.newest(code, store.find_game(code).version), None, {}, lambda: None)
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
            frames: dict = {}
            total, cpu = 0.0, 0.0
            profile = cProfile.Profile() if "--profile" in sys.argv else None
            for _ in range(CHANGES):
                move()
                version = store.find_game(code).version
                start, cpu_start = time.perf_counter(), time.process_time()
                if profile:
                    profile.enable()
                game = memory.newest(code, version)
                shared: dict = {}  # the parts the screens share, rendered once per change
                with drawing("en", ADDRESS):  # as the renderer does: each screen from its frame before
                    drawn = {kind: draw(kind, game, frames.get(kind), shared, lambda: None) for kind in KINDS}
                for kind, frame in drawn.items():  # what the page showing the frame before is sent
                    frame.swaps(frames[kind].parts if kind in frames else {})
                frames = drawn
                if profile:
                    profile.disable()
                total += time.perf_counter() - start
                cpu += time.process_time() - cpu_start
            before_render_template.disconnect(starts, app)
            template_rendered.disconnect(ends, app)
            print(f"about {events:,} events: {total / CHANGES * 1000:.1f} ms per change for nine screens "
                  f"({cpu / CHANGES * 1000:.1f} ms of CPU), {sum(renders.values()) / CHANGES:.1f} parts rendered per change")
            if profile:
                shown = sys.argv[sys.argv.index("--profile") + 1:] or ["60"]
                stats = pstats.Stats(profile).sort_stats("tottime" if "--self" in sys.argv else "cumtime")
                stats.print_stats(*(int(arg) if arg.isdigit() else arg for arg in shown if arg != "--self"))
                continue
            for name, seconds in spent.most_common(8):
                print(f"  {name:28} {seconds / CHANGES * 1000:6.2f} ms  {renders[name] / CHANGES:4.1f} renders per change")


if __name__ == "__main__":
    main()
