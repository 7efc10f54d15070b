"""Benchmark: a long evening, to see whether the server's memory, descriptors and threads stay flat.

The server runs in its own process, as `banker` serves it (waitress with `banker`'s options), on a
SQLite file in a temporary instance folder, or with `--postgres URL` on a database of its own on
that PostgreSQL server (a URL without a database name, as BANKER_TEST_POSTGRES gives it: the
benchmark creates the database and drops it at the end). One table of eight plays by itself through
the JSON API (benchmarks/bot.py decides what), an action every 50 ms (or at once when the last took
longer), while nine pages follow it as the browsers do (benchmarks/live.py's Screen: the banker's
host screen and eight phones, each one live connection that reconnects with Last-Event-ID).

Every 30 seconds it prints the server process's resident memory (RSS), its open descriptors and
threads, the game's length, and the round trip of the actions sent in those 30 seconds (p50 / p95);
at the end, a verdict against the target: RSS flat within 20% after the first two minutes (no
sample after the two-minute one more than 20% above it).

Run from the top of the checkout (about 10 minutes by default; asserts nothing):

    .venv/bin/python benchmarks/soak.py                     # 10 minutes on SQLite
    .venv/bin/python benchmarks/soak.py --minutes 3         # a shorter run
    .venv/bin/python benchmarks/soak.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432

As with live.py, the server imports `banker` from where this script does (PYTHONPATH first).
"""

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

from live import Table, percentile

PACE = 0.05          # seconds between two actions
EVERY = 30           # seconds between two reports
SETTLE = 120         # the target: RSS flat after this many seconds
FLAT = 1.20          # ... within 20%


def serve(port: int, instance: str, database: str) -> None:
    """The server process: the app as `banker` serves it (its waitress, behind its door), on `database`."""
    import banker
    from banker import create_app
    from banker.cli import make_server

    # The benchmark's table joins from 127.0.0.1 faster than the rate limits allow.
    app = create_app({"RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database}, instance_path=instance)
    app.config["HTMX_CDN"] = False
    print("serving", banker.__file__, flush=True)
    make_server(app, "127.0.0.1", port).run()


class Server:
    """The server process on SQLite (its instance folder's file) or on a new database of the
    PostgreSQL server `postgres`; what live.Table and live.Screen need of it (port, database,
    secret_key), and what the process holds: RSS, descriptors, threads."""

    def __init__(self, postgres: str | None):
        import banker

        self.folder = Path(tempfile.mkdtemp(prefix="banker-soak-"))
        self.postgres, self.name = postgres, f"soak_{uuid.uuid4().hex[:8]}"
        if postgres:
            self._admin(f"CREATE DATABASE {self.name}")
            self.database = f"{postgres}/{self.name}"
        else:
            self.database = "sqlite:///" + str(self.folder / "banker.sqlite")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.code = Path(banker.__file__).resolve().parent.parent
        paths = [str(self.code), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(self.port), str(self.folder),
                                         self.database], stdout=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout.readline().strip() == f"serving {banker.__file__}"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.secret_key = (self.folder / "secret_key").read_text().strip()

    def _admin(self, sql: str) -> None:
        from sqlalchemy import create_engine, text

        engine = create_engine(f"{self.postgres}/postgres", isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.execute(text(sql))
        finally:
            engine.dispose()

    def held(self) -> dict:
        """The process's resident memory (bytes), open descriptors and threads, from /proc."""
        status = dict(line.split(":", 1) for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines())
        return {"rss": int(status["VmRSS"].split()[0]) * 1024, "threads": int(status["Threads"]),
                "fds": len(os.listdir(f"/proc/{self.process.pid}/fd"))}

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        if self.postgres:
            self._admin(f"DROP DATABASE {self.name} WITH (FORCE)")
        shutil.rmtree(self.folder, ignore_errors=True)


def soak(server: Server, seconds: float, every: float) -> list[dict]:
    """Play for `seconds` with nine pages open; a sample of what the server holds every `every`
    seconds (the first at the start)."""
    table = Table(server, random.Random(2026))
    screens = table.screens()
    samples, times, statuses = [], [], Counter()
    start = time.perf_counter()
    print(f"{'time':>6} {'events':>8} {'RSS MB':>8} {'fds':>5} {'threads':>8} {'actions':>8} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'not 200':>8}", flush=True)
    samples.append(sample(server, table, 0.0, [], Counter()))
    tick, next_report = start, start + every
    try:
        while time.perf_counter() < start + seconds:
            status, took = table.move()
            times.append(took)
            statuses[status] += 1
            if time.perf_counter() >= next_report:
                samples.append(sample(server, table, time.perf_counter() - start, times, statuses))
                times, statuses, next_report = [], Counter(), next_report + every
            tick = max(tick + PACE, time.perf_counter() - PACE)  # late: go on at once, without a burst
            time.sleep(max(0.0, tick - time.perf_counter()))
        if times:  # the last moments, since the last report
            samples.append(sample(server, table, time.perf_counter() - start, times, statuses))
        behind = sum(not screen.wait_for(table.state["version"], 5) for screen in screens)
        if behind:
            print(f"{behind} of the 9 pages did not show the last change within 5 s")
    finally:
        for screen in screens:
            screen.close()
    return samples


def sample(server: Server, table: Table, at: float, times: list[float], statuses: Counter) -> dict:
    """What the server holds now, and the round trips of the actions since the last sample; printed."""
    taken = {"at": at, "events": table.state["version"], **server.held(), "actions": len(times),
             "p50": percentile(times, 0.5) if times else None, "p95": percentile(times, 0.95) if times else None,
             "refused": len(times) - statuses[200]}
    report(taken)
    return taken


def report(sample: dict) -> None:
    ms = lambda value: "" if value is None else f"{value * 1e3:.1f}"  # noqa: E731
    print(f"{sample['at']:>5.0f}s {sample['events']:>8,} {sample['rss'] / 2**20:>8.1f} {sample['fds']:>5} "
          f"{sample['threads']:>8} {sample['actions']:>8} {ms(sample['p50']):>7} {ms(sample['p95']):>7} "
          f"{sample['refused']:>8}", flush=True)


def verdict(samples: list[dict]) -> str:
    """The target: after the first two minutes, RSS stays within 20% of what it was then."""
    settled = next((s for s in samples if s["at"] >= SETTLE), None)
    later = [s for s in samples if settled is not None and s["at"] > settled["at"]]
    if not later:
        return f"no verdict: the run needs samples after the first {SETTLE} s"
    top = max(later, key=lambda s: s["rss"])
    growth = top["rss"] / settled["rss"] - 1
    met = "met" if top["rss"] <= settled["rss"] * FLAT else "NOT met"
    return (f"RSS at {settled['at']:.0f} s {settled['rss'] / 2**20:.1f} MB, highest after it "
            f"{top['rss'] / 2**20:.1f} MB at {top['at']:.0f} s ({growth:+.0%}); "
            f"target: flat within {FLAT - 1:.0%} after the first two minutes: {met}")


def main() -> None:
    parser = argparse.ArgumentParser(description="A long evening: is the server's memory flat?")
    parser.add_argument("--minutes", type=float, default=10, help="how long to play (default 10)")
    parser.add_argument("--postgres", metavar="URL",
                        help="a PostgreSQL server's URL without a database name (default: SQLite)")
    parser.add_argument("--every", type=float, default=EVERY, help=f"seconds between reports (default {EVERY})")
    args = parser.parse_args()
    server = Server(args.postgres)
    try:
        print(f"code measured: {server.code}; database: {'PostgreSQL' if args.postgres else 'SQLite'}; "
              f"an action every {PACE * 1e3:.0f} ms, 9 pages open, for {args.minutes:g} minutes", flush=True)
        samples = soak(server, args.minutes * 60, args.every)
    finally:
        server.stop()
    print(verdict(samples))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        main()
