"""Benchmark: where the action's tail comes from, one client acting back to back (issue 35, item 9).

The same server and clients as benchmarks/live.py (its Server, Table and Screen): a game of eight
played to about 60 events, then ACTIONS of the banker's bank_pay sent back to back from one client,
each as the last is answered, and the round trip's p50, p99 and worst, in six set-ups:

- no page open: nothing is rendered (the floor: the action, the commit, waitress, the client);
- the host screen and eight phones open (as live.py measures them), their screens drawn in the
  renderer's thread (LIVE_DRAWER = "thread"), then in a process of their own ("process", what
  `banker` does: banker/live/drawer.py);
- the same nine pages, but each render replaced by RENDER_CPU seconds of pure Python on the
  renderer's thread (live.busy_renders: no template, no query, no C call holding the interpreter),
  with the renders' switch interval at 5 ms (Python's), 1 ms (the renderer's) and 0.2 ms.

The stand-in's tail is the real renders' in the thread: the tail is not in what a render does but
in sharing the interpreter with it: each time the answer's thread lets go of the interpreter (a
socket's read or write, an SQLite call, a lock), it waits to get it back from a thread that never
lets go by itself (CPython's "convoy effect"). docs/benchmarks.md, The live path's tail, has the
figures and what follows from them.

Run: .venv/bin/python benchmarks/tail.py   (about three minutes; prints a table; asserts nothing)
     .venv/bin/python benchmarks/tail.py --actions 2000 --runs 5
"""

import argparse
import os
import random
import time

from live import Server, Table, percentile

RENDER_CPU = 0.012  # about a change's renders' CPU for nine pages on the development machine
SETUPS = (
    ("no page open", {}, False),
    ("host + 8 phones open, drawn in the renderer's thread", {"BENCH_DRAWER": "thread"}, True),
    ("host + 8 phones open, drawn in a process of their own", {"BENCH_DRAWER": "process"}, True),
    ("render replaced by 12 ms of Python, switch 5 ms", {"BENCH_BUSY_RENDER": RENDER_CPU, "BENCH_SWITCH_SECONDS": 0.005}, True),
    ("the same, switch 1 ms (the renderer's)", {"BENCH_BUSY_RENDER": RENDER_CPU, "BENCH_SWITCH_SECONDS": 0.001}, True),
    ("the same, switch 0.2 ms", {"BENCH_BUSY_RENDER": RENDER_CPU, "BENCH_SWITCH_SECONDS": 0.0002}, True),
)


def back_to_back(environment: dict, pages: bool, actions: int) -> list[float]:
    """The round trips (seconds) of `actions` bank_pay from one client, back to back."""
    saved = dict(os.environ)
    os.environ.update({key: str(value) for key, value in environment.items()})
    try:
        server = Server()  # the server process takes this environment
    finally:
        os.environ.clear()
        os.environ.update(saved)
    try:
        table = Table(server, random.Random(2026))
        table.play_until(60)
        screens = table.screens() if pages else []
        time.sleep(1)  # every page shown its first screen
        trips = []
        for n in range(actions):
            start = time.perf_counter()
            table.act("banker", {"type": "bank_pay", "player": 1 + n % 8, "amount": 1}, state=False)
            trips.append(time.perf_counter() - start)
        for screen in screens:
            screen.close()
        return trips
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="Where the action's tail comes from.")
    parser.add_argument("--actions", type=int, default=1000, help="actions back to back per run (default 1000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each set-up, interleaved (default 3)")
    options = parser.parse_args()
    figures: dict[str, list[tuple[float, float, float]]] = {label: [] for label, *_ in SETUPS}
    for _ in range(options.runs):
        for label, environment, pages in SETUPS:
            trips = back_to_back(environment, pages, options.actions)
            figures[label].append((percentile(trips, 0.5), percentile(trips, 0.99), max(trips)))
    print(f"\n{options.actions} actions back to back from one client, {options.runs} run(s) of each set-up "
          f"(load average {os.getloadavg()[0]:.1f} at the end); p50 / p99 / worst in ms, run by run:")
    for label, runs in figures.items():
        shown = ", ".join(f"{a * 1e3:.1f} / {b * 1e3:.1f} / {c * 1e3:.1f}" for a, b, c in runs)
        print(f"  {label:<50} {shown}")


if __name__ == "__main__":
    main()
