"""Benchmark: how long the first change of a fresh server takes to reach the host screen.

A family's evening starts on a server just started: the banker creates a game, the host screen opens,
and a moment later the first phone joins. Its seat shows on the host screen once the host's screen is
drawn, by the drawing process the server starts at its first render (banker/live/drawer.py), which
builds its app first, and compiles the templates it draws with as it first draws them.

For each of `--runs` fresh servers (live.Server: `banker`'s waitress on a new database), a game is
created through the API, the host page is opened as the banker's browser opens it (GET /t/<code>
with its cookie), then its live connection (live.Screen); `--join-after` seconds after the page
(0.5 by default: a quick first phone) a player joins through the API, and the figure is the time
from the join's answer to the host's live connection carrying its version. `--against CHECKOUT`
measures another checkout's code too (a commit's files, `git archive <commit> | tar -x -C DIR`),
the runs interleaved.

Run: .venv/bin/python benchmarks/first_change.py   (about half a minute; prints a table; asserts nothing)
     .venv/bin/python benchmarks/first_change.py --against /tmp/before --runs 5
"""

import argparse
import http.client
import statistics
import time
from pathlib import Path

from live import Client, Screen, Server, session_cookie


def first_change(code: Path | None, join_after: float) -> float:
    """Seconds from the first join's answer to the host screen showing it, on a fresh server."""
    server = Server(code)
    try:
        api = Client(server)
        _, created = api.call("POST", "/api/games", {})
        game = created["code"]
        cookie = session_cookie(server.database, server.secret_key, "banker", game)
        page = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        page.request("GET", f"/t/{game}", headers={"Cookie": cookie})
        assert page.getresponse().read() and page.sock is not None
        host = Screen(server.port, f"/t/{game}/live", cookie, 0)
        host.start()
        host.connected.wait(10)
        time.sleep(join_after)
        status, joined = api.call("POST", f"/api/games/{game}/players", {"name": "Ann", "token": "hat"})
        answered = time.perf_counter()
        assert status == 201, joined
        host.wait_for(1, timeout=30)
        arrived = host.arrived.get(1, time.perf_counter())
        host.close()
        return arrived - answered
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="A fresh server's first change on the host screen.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--join-after", type=float, default=0.5, help="seconds from the host page to the join")
    parser.add_argument("--against", type=Path, help="another checkout, measured too")
    options = parser.parse_args()
    codes = {"this checkout": None, **({str(options.against): options.against} if options.against else {})}
    figures: dict[str, list[float]] = {label: [] for label in codes}
    for _ in range(options.runs):
        for label, code in codes.items():
            figures[label].append(first_change(code, options.join_after))
    print(f"\nthe first join's seat on the host screen, {options.join_after} s after the page opened on a fresh "
          f"server ({options.runs} runs each):")
    for label, runs in figures.items():
        shown = ", ".join(f"{seconds * 1000:.0f}" for seconds in runs)
        print(f"  {label:<40} median {statistics.median(runs) * 1000:6.0f} ms   runs: {shown} ms")


if __name__ == "__main__":
    main()
