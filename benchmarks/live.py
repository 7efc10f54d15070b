"""Benchmark: the live protocol against a real server, as a table plays.

The server runs in its own process: waitress with the options `banker` uses, the app wrapped only
to count the requests it receives. A host screen (the banker's) and eight phones follow the pages'
protocol exactly: each holds one live connection (GET <screen>/live?v=<version> with the page's
session cookie, then Server-Sent Events; on a dropped connection, reconnect with Last-Event-ID)
and sends nothing else. Players act through the JSON API (benchmarks/bot.py decides what).

At 10, 1,000 and 5,000 events it prints: how long a change takes to reach every screen (from the
moment the action is sent), requests per screen per change and while idle, server CPU per change
(the action and all nine screens), the action's round trip, and undo's; then, with 64 live
connections open (8 tables of 8), how many actions per second one process answers.

Run: .venv/bin/python benchmarks/live.py   (about two minutes; prints a table; asserts nothing)
"""

import http.client
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from bot import next_move

TOKENS = ("hat", "car", "dog", "cat", "ship", "iron", "thimble", "wheelbarrow")
LENGTHS = (10, 1000, 5000)
CHANGES = 60        # measured changes at each length
IDLE_SECONDS = 5
LOAD_SECONDS = 8
TICK = os.sysconf("SC_CLK_TCK")


def serve(port: int, instance: str) -> None:
    """The server process: the app as `banker` serves it, counting requests (GET /_requests)."""
    from waitress import serve as waitress_serve

    from banker import create_app
    from banker.cli import server_options

    # Every table of the benchmark joins from 127.0.0.1: faster than the rate limits allow.
    app = create_app({"RATELIMIT_ENABLED": False}, instance_path=instance)
    app.config["HTMX_CDN"] = False
    counted = [0]
    inner = app.wsgi_app

    def counting(environ, start_response):
        if environ["PATH_INFO"] == "/_requests":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [str(counted[0]).encode()]
        counted[0] += 1
        return inner(environ, start_response)

    app.wsgi_app = counting
    print("serving", flush=True)
    waitress_serve(app, host="127.0.0.1", port=port, **server_options(app))


class Server:
    """The server process, its CPU time and its request count."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp())
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(self.port), str(self.folder)],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "serving"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.secret_key = (self.folder / "secret_key").read_text().strip()

    def cpu(self) -> float:
        """Seconds of CPU the server process has used."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def requests(self) -> int:
        return int(Client(self).call("GET", "/_requests", raw=True))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Client:
    """One keep-alive HTTP connection to the server, for the JSON API."""

    def __init__(self, server: Server):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.calls = 0

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None, raw=False):
        self.calls += 1
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = response.read()
        return data.decode() if raw else (response.status, json.loads(data))


def session_cookie(server: Server, secret_key: str, kind: str, code: str, token: str) -> str:
    """The cookie of a browser that created the game (kind "banker") or joined it ("seat"): a
    cookie of the kind browsers kept before badges (the game's secret in it, signed as Flask signs
    it with the server's key) is shown to the server once, which answers with the browser's key
    and keeps the badge."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    app = Flask("cookie")
    app.secret_key = secret_key
    signer = SecureCookieSessionInterface().get_signing_serializer(app)
    old = "session=" + signer.dumps({kind: {code: token}, "_permanent": True})
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", f"/{'t' if kind == 'banker' else 'p'}/{code}", headers={"Cookie": old})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.getheader("Set-Cookie").split(";", 1)[0]


class Screen(threading.Thread):
    """One page's live connection to the server on `port`, following the pages' protocol; notes
    when each version arrives (in the order they come) and the status of each connection it opens."""

    def __init__(self, port: int, path: str, cookie: str, version: int):
        super().__init__(daemon=True)
        self.port, self.path, self.cookie, self.version = port, path, cookie, version
        self.arrived: dict[int, float] = {}
        self.statuses: Counter = Counter()
        self.connected = threading.Event()
        self.stopping = False
        self.changed = threading.Condition()
        self.socket: socket.socket | None = None

    def close(self):
        """The page is closed: its connection ends."""
        self.stopping = True
        if self.socket:
            try:
                self.socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # closed already
        self.join(5)
        assert not self.is_alive()

    def run(self):
        while not self.stopping:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=None)
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache", "Cookie": self.cookie,
                       "Last-Event-ID": str(self.version)}
            try:
                connection.request("GET", f"{self.path}?v={self.version}", headers=headers)
                self.socket = connection.sock  # the response takes it over from the connection
                response = connection.getresponse()
                self.statuses[response.status] += 1
                self.connected.set()
                buffer = b""
                while chunk := response.read1(65536):
                    buffer += chunk
                    while b"\n\n" in buffer:
                        block, buffer = buffer.split(b"\n\n", 1)
                        self._event(block)
            except (OSError, http.client.HTTPException):
                pass  # the server went away or this page closed: as a browser, try again
            finally:
                connection.close()
            if not self.stopping:
                time.sleep(1)  # the browser's retry delay (the stream's `retry: 1000`)

    def _event(self, block: bytes):
        for line in block.split(b"\n"):
            if line.startswith(b"id: "):
                with self.changed:
                    self.version = int(line[4:])
                    self.arrived[self.version] = time.perf_counter()
                    self.changed.notify_all()

    def wait_for(self, version: int, timeout: float = 5) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.version >= version, timeout)


class Table:
    """A game of eight seats through the API, with the banker's and every seat's token."""

    def __init__(self, server: Server, rng: random.Random):
        self.server, self.rng, self.api = server, rng, Client(server)
        _, created = self.api.call("POST", "/api/games", {})
        self.code, self.banker = created["code"], created["banker_token"]
        self.seats = {}
        for n, token in enumerate(TOKENS, 1):
            _, joined = self.api.call("POST", f"/api/games/{self.code}/players", {"name": f"P{n}", "token": token})
            self.seats[joined["player_id"]] = joined["player_token"]
        _, body = self.act("banker", {"type": "start", "order": list(self.seats)})
        self.state = body["state"]

    def act(self, who, action: dict):
        token = self.banker if who == "banker" else self.seats[who]
        return self.api.call("POST", f"/api/games/{self.code}/actions", action, token)

    def move(self) -> tuple[int, float]:
        """The bot's next move; (status, round trip in seconds). Keeps the state it gets back."""
        who, action = next_move(self.state, self.rng)
        start = time.perf_counter()
        status, body = self.act(who, action)
        took = time.perf_counter() - start
        if status == 200:
            self.state = body["state"]
        else:
            _, self.state = self.api.call("GET", f"/api/games/{self.code}", token=self.banker)
        return status, took

    def play_until(self, events: int) -> None:
        while self.state["version"] < events:
            self.move()

    def screens(self, phones: int = 8) -> list[Screen]:
        """The banker's host screen and `phones` phones, connected at the current version."""
        key, version = self.server.secret_key, self.state["version"]
        screens = [Screen(self.server.port, f"/t/{self.code}/live", session_cookie(self.server, key, "banker", self.code, self.banker),
                          version)]
        screens += [Screen(self.server.port, f"/p/{self.code}/live", session_cookie(self.server, key, "seat", self.code, token), version)
                    for token in list(self.seats.values())[:phones]]
        for screen in screens:
            screen.start()
        for screen in screens:
            screen.connected.wait(10)
        return screens


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(server: Server, table: Table) -> dict:
    screens = table.screens()
    time.sleep(0.5)
    idle_requests, idle_cpu = server.requests(), server.cpu()
    time.sleep(IDLE_SECONDS)
    idle = {"requests": server.requests() - idle_requests, "cpu_ms_per_s": (server.cpu() - idle_cpu) * 1000 / IDLE_SECONDS}

    latencies, round_trips, changes = [], [], 0
    requests, cpu, calls = server.requests(), server.cpu(), table.api.calls
    while changes < CHANGES:
        sent = time.perf_counter()
        before = table.state["version"]
        status, took = table.move()
        if status != 200:
            continue
        version = table.state["version"]
        if version == before:
            continue
        changes += 1
        round_trips.append(took)
        for screen in screens:
            screen.wait_for(version)
            latencies.append(screen.arrived.get(version, time.perf_counter() + 60) - sent)
    cpu_per_change = (server.cpu() - cpu) * 1000 / changes
    # What the server received, less the players' own API calls: what the screens asked for.
    screen_requests = (server.requests() - requests - (table.api.calls - calls)) / (changes * len(screens))

    back_to_back = []
    for _ in range(100):
        start = time.perf_counter()
        table.act("banker", {"type": "bank_pay", "player": 1 + len(back_to_back) % 8, "amount": 1})
        back_to_back.append(time.perf_counter() - start)
    undos = []
    for _ in range(20):
        table.act("banker", {"type": "bank_pay", "player": 1, "amount": 1})
        start = time.perf_counter()
        status, body = table.act("banker", {"type": "undo"})
        undos.append(time.perf_counter() - start)
        table.state = body["state"]
    for screen in screens:
        screen.close()
    return {"events": before, "p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95),
            "per_change": screen_requests, "idle": idle["requests"] / len(screens), "idle_cpu": idle["cpu_ms_per_s"],
            "cpu": cpu_per_change, "rt50": percentile(round_trips, 0.5), "rt95": percentile(round_trips, 0.95),
            "bb50": percentile(back_to_back, 0.5), "bb95": percentile(back_to_back, 0.95),
            "undo50": percentile(undos, 0.5), "undo95": percentile(undos, 0.95)}


def throughput(server: Server, rng: random.Random) -> tuple[float, float]:
    """Actions per second from four clients while 64 live connections (8 tables of 8: the banker's
    screen and seven phones each) are open and get every push. The 64 pages are read by one thread
    that only counts what arrives, so that the benchmark's own work stays small beside the server's."""
    tables = [Table(server, random.Random(rng.random())) for _ in range(8)]
    streams = []
    for table in tables:
        key, version = server.secret_key, table.state["version"]
        cookies = [("t", session_cookie(server, key, "banker", table.code, table.banker))]
        cookies += [("p", session_cookie(server, key, "seat", table.code, token)) for token in list(table.seats.values())[:7]]
        for screen, cookie in cookies:
            stream = socket.create_connection(("127.0.0.1", server.port))
            stream.sendall(f"GET /{screen}/{table.code}/live?v={version} HTTP/1.1\r\nHost: x\r\n"
                           f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode())
            streams.append(stream)
    assert len(streams) == 64
    pushed, reading = [0], [True]

    def read_all():
        with selectors.DefaultSelector() as selector:
            for stream in streams:
                selector.register(stream, selectors.EVENT_READ)
            while reading[0]:
                for key, _ in selector.select(timeout=0.2):
                    pushed[0] += key.fileobj.recv(1 << 20).count(b"id: ")

    reader = threading.Thread(target=read_all)
    reader.start()
    time.sleep(1)
    done, times, stop = [0], [], time.perf_counter() + LOAD_SECONDS

    def client():
        api = Client(server)
        while time.perf_counter() < stop:
            table = tables[rng.randrange(8)]
            start = time.perf_counter()
            api.call("POST", f"/api/games/{table.code}/actions",
                     {"type": "bank_pay", "player": rng.randint(1, 8), "amount": 5}, table.banker)
            times.append(time.perf_counter() - start)
            done[0] += 1

    workers = [threading.Thread(target=client) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    time.sleep(1)
    reading[0] = False
    reader.join()
    for stream in streams:
        stream.close()
    return done[0] / LOAD_SECONDS, percentile(times, 0.95), pushed[0]


def main() -> None:
    server = Server()
    rng = random.Random(2026)
    try:
        table = Table(server, rng)
        rows = []
        for events in LENGTHS:
            table.play_until(events)
            rows.append(measure(server, table))
        per_second, load_p95, pushes = throughput(server, rng)
    finally:
        server.stop()
    ms = lambda a, b: f"{a * 1e3:.1f} / {b * 1e3:.1f} ms"
    figures = [
        ("change visible on all 9 screens, p50 / p95", lambda r: ms(r["p50"], r["p95"]), "p95 <= 50 ms"),
        ("requests per screen per change", lambda r: f"{r['per_change']:.2f}", "<= 1"),
        ("requests per screen while idle (5 s)", lambda r: f"{r['idle']:.2f}", "0"),
        ("server CPU while idle", lambda r: f"{r['idle_cpu']:.1f} ms/s", ""),
        ("server CPU per change (action + 9 screens)", lambda r: f"{r['cpu']:.1f} ms", "<= 40 ms"),
        ("action round trip, one at a time, p50 / p95", lambda r: ms(r["rt50"], r["rt95"]), "p95 <= 5 ms"),
        ("action round trip, back to back, p50 / p95", lambda r: ms(r["bb50"], r["bb95"]), "p95 <= 5 ms"),
        ("undo round trip, p50 / p95", lambda r: ms(r["undo50"], r["undo95"]), "<= 20 ms, flat"),
    ]
    print(f"{'events in the game:':<46}" + "".join(f"{r['events']:>18,}" for r in rows) + "   target")
    for label, show, target in figures:
        print(f"{label:<46}" + "".join(f"{show(r):>18}" for r in rows) + f"   {target}")
    print(f"\n64 live connections open (8 tables of 8), 4 clients acting at once: {per_second:.0f} actions/s "
          f"(target >= 200), action p95 {load_p95 * 1e3:.1f} ms; the screens got {pushes:,} pushes, "
          f"{pushes / (per_second * LOAD_SECONDS * 8):.0%} of one per screen per action (under load a screen "
          "shows the newest version, skipping those in between)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), sys.argv[3])
    else:
        main()
