"""Benchmark, against a real `banker`: twenty game files of 7.9 MB imported at once, all refused, and
what they cost the server: its memory (RSS) before, at the worst and after, the imported games'
rows, and how long another table's host screen takes to load meanwhile. The server replays a large
file in a process of its own (web/files/imports.py): their memory is counted beside the server's.

The file is a long evening (about 30,000 events: eight players playing by themselves, bot.py, the
banker undoing an entry every 100 events) whose last event is edited to give other effects, so that
an import that is let through replays every event before it is refused: the most an import costs.
First one accepted import of the evening as it was exported, for the size the database grows by.
Then the twenty at once, as one client address sends them (`banker` as it starts, with its rate
limits), and as twenty addresses behind a proxy send them (`PROXY_FIX` and `X-Forwarded-For`).

Run: .venv/bin/python benchmarks/imports.py [FILE]   (prints its figures; asserts nothing; about a
minute, and one to ten more to make the file). With FILE, the evening is read from it if it exists,
else made and written there: the same file for a run before a change and after it.
"""

import http.client
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from live_and_actions import BANKER, NAMES, an_app, play

from banker import store

ROOT = Path(__file__).resolve().parent.parent
EVENTS = 30_000
AT_ONCE = 20


def evening() -> bytes:
    """The exported file of a long evening (EVENTS events), made in process."""
    app = an_app()
    rng = random.Random(23)
    with app.app_context():
        game, token = store.create_game()
        for name, piece in NAMES:
            store.act(game.code, {"type": "join", "name": name, "token": piece})
        store.act(game.code, {"type": "start", "order": list(range(1, 9))}, actor=BANKER)
        while (version := store.find_game(game.code).version) < EVENTS:
            play(game.code, rng, min(EVENTS, version + 100))
            store.act(game.code, {"type": "undo"}, actor=BANKER)
    return app.test_client().get(f"/api/games/{game.code}/export",
                                 headers={"Authorization": f"Bearer {token}"}).get_data()


def refused(file: bytes) -> bytes:
    """The same file, its last event claiming no effects: the replay is refused at its very end. The
    export writes an event a line, the last one just before the closing `]}`."""
    lines = file.split(b"\n")
    last = json.loads(lines[-3])
    lines[-3] = json.dumps({**last, "effects": []}, ensure_ascii=False, separators=(",", ":")).encode()
    return b"\n".join(lines)


class Banker:
    """`banker` in a process of its own on a free port, in a new instance folder (SQLite)."""

    def __init__(self, config: str = ""):
        self.folder = Path(tempfile.mkdtemp())
        (self.folder / "config.py").write_text(config)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "banker", "--offline", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, env={**os.environ, "BANKER_INSTANCE": str(self.folder)}, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            if "Ctrl+C to stop" in line:
                break
        threading.Thread(target=self.process.stdout.read, daemon=True).start()  # its log, unread
        for _ in range(100):  # the banner comes just before it listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

    def request(self, method: str, path: str, body: bytes | None = None, **headers) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            connection.request(method, path, body, {"Content-Type": "application/json", **headers})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def memory(self, field: str = "VmRSS") -> float:
        """The process's resident memory now (VmRSS) or at its highest (VmHWM), in MB."""
        return _memory(self.process.pid, field)

    def apart(self, highest: dict | None = None) -> float:
        """The resident memory of the processes it started (those replaying large imports) now, in MB;
        each one's highest so far (VmHWM) kept in `highest`, by process id."""
        total = 0.0
        for children in Path(f"/proc/{self.process.pid}/task").glob("*/children"):
            for pid in children.read_text().split():
                try:
                    total += _memory(int(pid))
                    if highest is not None:
                        highest[pid] = _memory(int(pid), "VmHWM")
                except (OSError, LookupError):  # it ended meanwhile
                    pass
        return total

    def database(self) -> tuple[int, int]:
        """The SQLite file's size and its write-ahead log's, in bytes."""
        path = self.folder / "banker.sqlite"
        wal = path.with_name(path.name + "-wal")
        return path.stat().st_size, wal.stat().st_size if wal.exists() else 0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def _memory(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


def stored(file: bytes) -> None:
    """One accepted import of the file: what the database file and its log grew by."""
    server = Banker()
    try:
        server.request("POST", "/api/games", b"{}")
        before = server.database()
        status, _ = server.request("POST", "/api/games/import", file)
        after = server.database()
        server.request("POST", "/api/games", b"{}")  # the next write: the log is cut back (journal_size_limit)
        later = server.database()
    finally:
        server.stop()
    path = server.folder / "banker.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    print(f"one import of the {len(file) / 1e6:.1f} MB file: {status}; the database {before[0] / 1e6:.1f} → "
          f"{after[0] / 1e6:.1f} MB and its log {before[1] / 1e6:.1f} → {after[1] / 1e6:.1f} MB, "
          f"{later[1] / 1e6:.1f} MB after the next write; checkpointed, the database is "
          f"{path.stat().st_size / 1e6:.1f} MB ({path.stat().st_size / len(file):.2f} × the file)")


def at_once(file: bytes, addresses: int) -> None:
    """AT_ONCE imports of the refused file sent together, from one address or `addresses`."""
    server = Banker("PROXY_FIX = 1\n" if addresses > 1 else "")
    try:
        code = json.loads(server.request("POST", "/api/games", b"{}")[1])["code"]
        page = f"/t/{code}"
        quiet = []
        for _ in range(20):
            start = time.perf_counter()
            server.request("GET", page)
            quiet.append(time.perf_counter() - start)
            time.sleep(0.05)
        time.sleep(1)
        before = server.memory()
        done, loads, worst, together, apart = threading.Event(), [], [before], [before], {}

        def watch():
            while not done.is_set():
                start = time.perf_counter()
                status, _ = server.request("GET", page)
                loads.append((time.perf_counter() - start, status))
                worst.append(server.memory())
                together.append(worst[-1] + server.apart(apart))
                time.sleep(0.05)

        def send(i: int) -> int:
            headers = {"X-Forwarded-For": f"10.0.{i // 250}.{i % 250 + 1}"} if addresses > 1 else {}
            return server.request("POST", "/api/games/import", file, **headers)[0]

        watcher = threading.Thread(target=watch)
        watcher.start()
        start = time.perf_counter()
        with ThreadPoolExecutor(AT_ONCE) as pool:
            answers = Counter(pool.map(send, range(AT_ONCE)))
        took = time.perf_counter() - start
        done.set()
        watcher.join()
        time.sleep(2)
        after, highest = server.memory(), server.memory("VmHWM")
        home = server.request("GET", "/")[0]  # still answering
    finally:
        server.stop()
    times, quiet = sorted(t for t, _ in loads), sorted(quiet[1:])
    print(f"{AT_ONCE} refused imports at once from {addresses} address(es), in {took:.1f} s: answers "
          f"{dict(sorted(answers.items()))}; RSS {before:.0f} MB before, {max(worst):.0f} MB at the worst seen "
          f"(VmHWM {highest:.0f} MB), {after:.0f} MB 2 s after, {max(together):.0f} MB at the worst seen with the processes "
          f"it started ({len(apart)} seen, each at its highest seen up to {max(apart.values(), default=0):.0f} MB); "
          f"another table's host screen, {len(times)} loads: "
          f"median {statistics.median(times) * 1e3:.0f} ms, worst {times[-1] * 1e3:.0f} ms (before the imports, "
          f"19 loads: median {statistics.median(quiet) * 1e3:.0f} ms, worst {quiet[-1] * 1e3:.0f} ms), "
          f"statuses {dict(Counter(s for _, s in loads))}; the home page after: {home}")


def main() -> None:
    start, kept = time.perf_counter(), Path(sys.argv[1]) if sys.argv[1:] else None
    file = kept.read_bytes() if kept and kept.exists() else evening()
    if kept:
        kept.write_bytes(file)
    print(f"the evening: {len(file):,} bytes, made or read in {time.perf_counter() - start:.0f} s")
    stored(file)
    bad = refused(file)
    print(f"the file refused at its end: {len(bad):,} bytes")
    at_once(bad, 1)
    at_once(bad, AT_ONCE)


if __name__ == "__main__":
    main()
