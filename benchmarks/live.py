"""Benchmark: the live protocol against a real server, as a table plays.

The server runs in its own process: waitress with the options `banker` uses, the app wrapped only
to count the requests it receives. A host screen (the banker's) and eight phones follow the pages'
protocol exactly: each holds one live connection (GET <screen>/live?v=<version> with the page's
session cookie, then Server-Sent Events; on a dropped connection, reconnect with Last-Event-ID)
and sends nothing else. Players act through the JSON API (benchmarks/bot.py decides what).

Each browser holds the cookie a page would have given it (a random browser key, Flask-signed with
the server's secret key) and the server its badge, which the benchmark writes into the server's
database (the SQLite file of its instance folder) as creating or joining the game would have: see
session_cookie.

At 10, 1,000 and 5,000 events it prints: how long a change takes to reach every screen (from the
moment the action is sent), requests per screen per change and while idle, the bytes one change
pushes to the host screen and to a phone (the median over the changes, and over the phones, of the
`update` events' bytes as the stream carries them: the `id:`, `event:` and `data:` lines and the
blank line that ends them, without HTTP's chunk framing), server CPU per change (the action and all
nine screens; the server's drawing process's CPU with its own), the action's round trip one at a time (with its state, as the bot asks) and back to
back (BACK_TO_BACK of the banker's bank_pay from one client, each sent as the last is answered: its
p50 and p99, and actions a second), and undo's. Then, two load phases of four clients sending
the banker's bank_pay at once, as fast as they are answered, for LOAD_SECONDS: with 64 live
connections open (8 tables of 8: host + 7 phones each; each action to a table drawn at random), and
at one table of 8 (host + 7 phones watching; every action to it): actions per second one process
answers, and the action's p95.

The server imports `banker` from where this script does: PYTHONPATH first, else the installed
project; so `cd <worktree> && PYTHONPATH=<worktree> .venv/bin/python benchmarks/live.py` measures
another checkout's code (the line "code measured" names it). `--against CHECKOUT` measures both,
side by side: another checkout's code (a commit's files, `git archive <commit> | tar -x -C DIR`),
then this one's, `--runs` times each, interleaved, and the median of each figure over the runs of
each. `--trace` also prints where the server's time went in each phase (Trace), `--lengths` other
game lengths.

Run: .venv/bin/python benchmarks/live.py   (about two minutes; prints a table; asserts nothing)
     .venv/bin/python benchmarks/live.py --against /tmp/before --runs 3 --trace
"""

import argparse
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
BACK_TO_BACK = 300  # actions one client sends back to back at each length
IDLE_SECONDS = 5
LOAD_SECONDS = 8
TICK = os.sysconf("SC_CLK_TCK")


class Trace:
    """`--trace`: where a change's time goes inside the server process, from outside its code (its
    classes wrapped here, in the benchmark's server alone; nothing of it runs in `banker` itself).
    Spans, each a list of seconds, read and emptied by GET /_trace:

    - gc: each garbage collection's pause (gc.callbacks), with the generation collected;
    - gil: how late a probe thread wakes from a 1 ms sleep (the interpreter lock's wait: a thread
      that becomes ready, to write a page's bytes or to answer a tap, waits this long for it);
    - render: each render of the game's screens (the renderer's `_render`), and its thread's CPU;
    - heard: from a version's publication to its render's start (the render slot's wait and rest);
    - answer: a POST from its first line in the app to its last (the action, in the app);
    - commit: the database's commit (SQLAlchemy's session events: the fsync on SQLite)."""

    def __init__(self, app):
        import gc

        from sqlalchemy import event
        from sqlalchemy.orm import Session

        from banker.live import renderer

        self.spans: dict[str, list] = {}
        self.lock = threading.Lock()
        self.heard_at: dict[tuple, float] = {}
        started: dict[str, float] = {}

        def collected(phase, info):
            if phase == "start":
                started["gc"] = time.perf_counter()
            elif "gc" in started:
                self.add(f"gc{info['generation']}", time.perf_counter() - started.pop("gc"))

        gc.callbacks.append(collected)

        def probe():
            while True:
                before = time.perf_counter()
                time.sleep(0.001)
                self.add("gil", time.perf_counter() - before - 0.001)

        threading.Thread(target=probe, daemon=True).start()
        render = renderer.Renderer._render

        def heard_traced(listener):
            def heard(code, version):
                self.heard_at.setdefault((code, version), time.perf_counter())
                return listener(code, version)
            return heard

        listeners = app.extensions["banker.notifier"].listeners
        listeners[:] = [heard_traced(listener) for listener in listeners]

        def render_traced(renderer, known, watchers):
            start, cpu = time.perf_counter(), time.thread_time()
            at = self.heard_at.pop((renderer.code, known.version), None)
            if at is not None:
                self.add("heard", start - at)
            try:
                return render(renderer, known, watchers)
            finally:
                self.add("render", time.perf_counter() - start)
                self.add("render_cpu", time.thread_time() - cpu)

        renderer.Renderer._render = render_traced

        def before_commit(session):
            session.info["commit_started"] = time.perf_counter()

        def after_commit(session):
            if "commit_started" in session.info:
                self.add("commit", time.perf_counter() - session.info.pop("commit_started"))

        event.listen(Session, "before_commit", before_commit)
        event.listen(Session, "after_commit", after_commit)

        from flask import g, request

        @app.before_request
        def answer_started():
            if request.method == "POST":
                g.trace_started = time.perf_counter()

        @app.teardown_request
        def answer_ended(_error):
            if "trace_started" in g:
                self.add("answer", time.perf_counter() - g.pop("trace_started"))

    def add(self, name: str, seconds: float) -> None:
        with self.lock:
            self.spans.setdefault(name, []).append(seconds)

    def taken(self) -> dict:
        """The spans since the last call (and forget them)."""
        with self.lock:
            spans, self.spans = self.spans, {}
        return spans


def traced(spans: dict) -> str:
    """The spans of a phase, one line each: count, p50 / p95 / worst and total in ms."""
    lines = []
    for name, values in sorted(spans.items()):
        lines.append(f"    {name:<11}{len(values):>6} × p50 {percentile(values, 0.5) * 1e3:6.2f} / p95 "
                     f"{percentile(values, 0.95) * 1e3:6.2f} / worst {max(values) * 1e3:6.2f} ms, "
                     f"{sum(values) * 1e3:8.1f} ms in all")
    return "\n".join(lines)


def busy_renders(seconds: float) -> None:
    """Each render (but a page's first, which it waits for) replaced by `seconds` of the renderer
    thread's CPU in a pure Python loop, and nothing handed to the pages: benchmarks/tail.py's
    stand-in for a render, with no template, no query and no C call that holds the interpreter."""
    from banker.live import renderer

    render = renderer.Renderer._render

    def busy(self, known, watchers):
        if self.rendered < 0:
            return render(self, known, watchers)
        end, total = time.thread_time() + seconds, 0
        while time.thread_time() < end:
            for n in range(200):
                total += n
        self.rendered = known.version

    renderer.Renderer._render = busy


def serve(port: int, instance: str, trace: bool = False) -> None:
    """The server process: the app as `banker` serves it, counting requests (GET /_requests);
    with `trace`, where the time goes (Trace, GET /_trace)."""
    from waitress import serve as waitress_serve

    import banker
    from banker import create_app
    from banker.cli import server_options

    # Every table of the benchmark joins from 127.0.0.1: faster than the rate limits allow, and
    # with more screens than one address may follow.
    # benchmarks/tail.py sets BENCH_DRAWER to compare the screens drawn in the renderer's thread.
    drawer = {"LIVE_DRAWER": os.environ["BENCH_DRAWER"]} if os.environ.get("BENCH_DRAWER") else {}
    app = create_app({"RATELIMIT_ENABLED": False, "LIVE_PER_ADDRESS": 10_000, **drawer}, instance_path=instance)
    app.config["HTMX_CDN"] = False
    counted = [0]
    tracing = Trace(app) if trace else None
    inner = app.wsgi_app

    def counting(environ, start_response):
        if environ["PATH_INFO"] == "/_requests":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [str(counted[0]).encode()]
        if environ["PATH_INFO"] == "/_trace":
            start_response("200 OK", [("Content-Type", "application/json")])
            return [json.dumps(tracing.taken() if tracing else {}).encode()]
        counted[0] += 1
        return inner(environ, start_response)

    app.wsgi_app = counting
    if os.environ.get("BENCH_SWITCH_SECONDS"):  # benchmarks/tail.py: the renders' switch interval
        from banker.live import renderer

        renderer.SWITCH_SECONDS = float(os.environ["BENCH_SWITCH_SECONDS"])
    if os.environ.get("BENCH_BUSY_RENDER"):  # benchmarks/tail.py: each render replaced by pure Python
        busy_renders(float(os.environ["BENCH_BUSY_RENDER"]))
    print("serving", banker.__file__, flush=True)
    waitress_serve(app, host="127.0.0.1", port=port, **server_options(app))


class Server:
    """The server process, its CPU time and its request count; its database is the SQLite file of
    its instance folder (create_app's default)."""

    def __init__(self, code: Path | None = None, trace: bool = False):
        import banker

        self.folder = Path(tempfile.mkdtemp())
        self.database = "sqlite:///" + str(self.folder / "banker.sqlite")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # The server imports `banker` from `code`, or from where this process does (PYTHONPATH, else
        # the installed project): the code measured. session_cookie writes badges with this
        # process's models (the tables' schema is the same).
        self.code = (code or Path(banker.__file__).parent.parent).resolve()
        paths = [str(self.code), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(self.port), str(self.folder),
                                         *(["--trace"] if trace else [])],
                                        stdout=subprocess.PIPE, text=True, env=env)
        serving = self.process.stdout.readline().strip().split(" ", 1)
        assert Path(serving[1]).resolve() == self.code / "banker" / "__init__.py", serving
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.secret_key = (self.folder / "secret_key").read_text().strip()

    def cpu(self) -> float:
        """Seconds of CPU the server process and its own (the drawing process: banker/live/drawer.py)
        have used."""
        used = 0
        for pid in family(self.process.pid):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            used += int(fields[11]) + int(fields[12])
        return used / TICK

    def requests(self) -> int:
        return int(Client(self).call("GET", "/_requests", raw=True))

    def trace(self) -> dict:
        """Where the server's time went since the last call (with --trace; else nothing)."""
        return json.loads(Client(self).call("GET", "/_trace", raw=True))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def family(pid: int) -> list[int]:
    """A process and every process under it (/proc's parent ids): a server and its drawing process,
    a gunicorn master, its workers and theirs."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += parents.get(found[-1], [])
    return found


def resident_mb(pid: int) -> float:
    """The resident memory of a process and every process under it, in MB."""
    total = 0
    for member in family(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


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


def session_cookie(database: str, secret_key: str, role: str, code: str, player: int | None = None) -> str:
    """The session cookie of a browser holding the banker's badge (role "banker") or seat
    `player`'s (role "seat") in game `code`, as creating the game on the home page or joining it
    leaves it. The benchmark's tables are made through the API, which gives no browser a badge (a
    browser's cookie keeps only its random key; what it holds in each game is kept on the server,
    see banker/web/answers/seats.py): so the benchmark does what a join does, straight in the server's
    database (`database`, an SQLAlchemy URL): a new browser key, the badge under the key's hash,
    and a cookie keeping the key, signed as Flask signs it, with the server's secret key."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface
    from sqlalchemy import create_engine, insert, select

    from banker.models import Badge, Game
    from banker.store import new_token, token_hash

    key = new_token()
    # Each statement its own transaction: the server writes to the same database meanwhile.
    engine = create_engine(database, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            games = Game.__table__
            game = connection.execute(select(games.c.id).where(games.c.code == code)).scalar_one()
            connection.execute(insert(Badge.__table__).values(browser_hash=token_hash(key), game_id=game,
                                                              role=role, player_id=player))
    finally:
        engine.dispose()
    with _making_apps:
        app = Flask("cookie")
    app.secret_key = secret_key
    signer = SecureCookieSessionInterface().get_signing_serializer(app)
    return "session=" + signer.dumps({"browser": key, "_permanent": True})


# Flask compiles its routes with ast.parse, which raised "AST constructor recursion depth mismatch"
# when two threads made an app at once (hosted.py, Python 3.11.7): one app made at a time.
_making_apps = threading.Lock()


class Screen(threading.Thread):
    """One page's live connection to the server on `port`, following the pages' protocol; notes
    when each version arrives (in the order they come), the bytes of the `update` event that
    brought it, and the status of each connection it opens."""

    def __init__(self, port: int, path: str, cookie: str, version: int):
        super().__init__(daemon=True)
        self.port, self.path, self.cookie, self.version = port, path, cookie, version
        self.arrived: dict[int, float] = {}
        self.sizes: dict[int, int] = {}  # version: bytes of its event (its lines and the blank line)
        self.statuses: Counter = Counter()
        self.connected = threading.Event()
        self.stopping = False
        self.changed = threading.Condition()
        self.socket: socket.socket | None = None

    def close(self):
        """The page is closed: its connection ends. Shut again while the thread runs: a page that
        was reconnecting may have opened a new connection since (a slow TLS handshake, under load)."""
        self.stopping = True
        for _ in range(50):
            if self.socket:
                try:
                    self.socket.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # closed already
            self.join(0.1)
            if not self.is_alive():
                return
        assert not self.is_alive()

    def connect(self) -> http.client.HTTPConnection:
        """A new connection to the server (benchmarks/hosted.py's screens go through a TLS proxy)."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=None)

    def run(self):
        while not self.stopping:
            connection = self.connect()
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
        lines = block.split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                with self.changed:
                    self.version = int(line[4:])
                    self.arrived[self.version] = time.perf_counter()
                    if b"event: update" in lines:
                        self.sizes[self.version] = len(block) + 2
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

    def act(self, who, action: dict, state: bool = True):
        token = self.banker if who == "banker" else self.seats[who]
        # The bot decides its next move from the state: it asks for it with the action (?state=1).
        return self.api.call("POST", f"/api/games/{self.code}/actions{'?state=1' if state else ''}", action, token)

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
        server, version = self.server, self.state["version"]
        screens = [Screen(server.port, f"/t/{self.code}/live",
                          session_cookie(server.database, server.secret_key, "banker", self.code), version)]
        screens += [Screen(server.port, f"/p/{self.code}/live",
                           session_cookie(server.database, server.secret_key, "seat", self.code, player), version)
                    for player in list(self.seats)[:phones]]
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

    latencies, round_trips, changes, host_bytes, phone_bytes = [], [], 0, [], []
    requests, cpu, calls = server.requests(), server.cpu(), table.api.calls
    server.trace()
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
        # What the change pushed to each screen: its event (its events, if it made more than one version).
        pushed = [sum(screen.sizes.get(v, 0) for v in range(before + 1, version + 1)) for screen in screens]
        host_bytes.append(pushed[0])
        phone_bytes += pushed[1:]
    cpu_per_change = (server.cpu() - cpu) * 1000 / changes
    # What the server received, less the players' own API calls: what the screens asked for.
    screen_requests = (server.requests() - requests - (table.api.calls - calls)) / (changes * len(screens))

    traces = {"one change at a time": server.trace()}
    back_to_back, started = [], time.perf_counter()
    for _ in range(BACK_TO_BACK):
        start = time.perf_counter()
        table.act("banker", {"type": "bank_pay", "player": 1 + len(back_to_back) % 8, "amount": 1}, state=False)
        back_to_back.append(time.perf_counter() - start)
    per_second = BACK_TO_BACK / (time.perf_counter() - started)
    for screen in screens:  # the screens catch up before the undos are timed
        screen.wait_for(table.state["version"] + BACK_TO_BACK)
    traces["back to back"] = server.trace()
    undos = []
    for _ in range(20):
        table.act("banker", {"type": "bank_pay", "player": 1, "amount": 1}, state=False)
        start = time.perf_counter()
        status, body = table.act("banker", {"type": "undo"})
        undos.append(time.perf_counter() - start)
        table.state = body["state"]
    for screen in screens:
        screen.close()
    return {"events": before, "p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95),
            "per_change": screen_requests, "idle": idle["requests"] / len(screens), "idle_cpu": idle["cpu_ms_per_s"],
            "cpu": cpu_per_change,
            "host_bytes": percentile(host_bytes, 0.5), "phone_bytes": percentile(phone_bytes, 0.5),
            "rt50": percentile(round_trips, 0.5), "rt95": percentile(round_trips, 0.95),
            "bb50": percentile(back_to_back, 0.5), "bb99": percentile(back_to_back, 0.99), "bb_per_s": per_second,
            "rt99": percentile(round_trips, 0.99), "traces": traces,
            "undo50": percentile(undos, 0.5), "undo95": percentile(undos, 0.95)}


def throughput(server: Server, rng: random.Random, count: int) -> dict:
    """Actions per second (the banker's bank_pay, each to a table drawn at random) from four clients
    at once while `count` tables of 8 have their live connections open (the banker's screen and
    seven phones each) and get every push; the actions' p95, how many were answered otherwise than
    200, and the pushes the screens got. The pages are read by one thread that only counts what
    arrives, so that the benchmark's own work stays small beside the server's."""
    tables = [Table(server, random.Random(rng.random())) for _ in range(count)]
    streams = []
    for table in tables:
        version = table.state["version"]
        cookies = [("t", session_cookie(server.database, server.secret_key, "banker", table.code))]
        cookies += [("p", session_cookie(server.database, server.secret_key, "seat", table.code, player))
                    for player in list(table.seats)[:7]]
        for screen, cookie in cookies:
            stream = socket.create_connection(("127.0.0.1", server.port))
            stream.sendall(f"GET /{screen}/{table.code}/live?v={version} HTTP/1.1\r\nHost: x\r\n"
                           f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode())
            streams.append(stream)
    assert len(streams) == 8 * count
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
    done, times, statuses, stop = [0], [], Counter(), time.perf_counter() + LOAD_SECONDS

    def client():
        api = Client(server)
        while time.perf_counter() < stop:
            table = tables[rng.randrange(count)]
            start = time.perf_counter()
            status, _ = api.call("POST", f"/api/games/{table.code}/actions",
                                 {"type": "bank_pay", "player": rng.randint(1, 8), "amount": 5}, table.banker)
            times.append(time.perf_counter() - start)
            statuses[status] += 1
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
    return {"per_second": done[0] / LOAD_SECONDS, "p95": percentile(times, 0.95), "pushes": pushed[0],
            "refused": done[0] - statuses[200]}


def run(code: Path | None, trace: bool, lengths: list[int]) -> dict:
    """One measurement of the code at `code` (None: the code this script imports): its rows at each
    length and its two load phases."""
    server = Server(code, trace)
    rng = random.Random(2026)
    try:
        table = Table(server, rng)
        rows = []
        for events in lengths:
            table.play_until(events)
            rows.append(measure(server, table))
        loads = [("64 live connections open (8 tables of 8)", throughput(server, rng, 8), " (target >= 200)"),
                 ("one table of 8 (host + 7 phones watching)", throughput(server, rng, 1), " (target >= 800)")]
    finally:
        server.stop()
    return {"code": server.code, "rows": rows, "loads": loads}


def median_run(runs: list[dict]) -> dict:
    """The median of each figure over runs of the same code."""
    def middle(values):
        return sorted(values)[len(values) // 2]

    rows = [{key: middle([run["rows"][n][key] for run in runs]) if key != "traces" else {}
             for key in runs[0]["rows"][n]} for n in range(len(runs[0]["rows"]))]
    loads = [(what, {key: middle([run["loads"][n][1][key] for run in runs]) for key in load}, target)
             for n, (what, load, target) in enumerate(runs[0]["loads"])]
    return {"code": runs[0]["code"], "rows": rows, "loads": loads}


def show(result: dict, title: str) -> None:
    rows, loads = result["rows"], result["loads"]
    ms = lambda a, b: f"{a * 1e3:.1f} / {b * 1e3:.1f} ms"
    figures = [
        ("change visible on all 9 screens, p50 / p95", lambda r: ms(r["p50"], r["p95"]), "p95 <= 2 x p50"),
        ("requests per screen per change", lambda r: f"{r['per_change']:.2f}", "<= 1"),
        ("host bytes per change", lambda r: f"{r['host_bytes']:,.0f} B", "<= 2,000 B (a payment)"),
        ("phone bytes per change", lambda r: f"{r['phone_bytes']:,.0f} B", "<= 600 B (watching)"),
        ("requests per screen while idle (5 s)", lambda r: f"{r['idle']:.2f}", "0"),
        ("server CPU while idle", lambda r: f"{r['idle_cpu']:.1f} ms/s", ""),
        ("server CPU per change (action + 9 screens)", lambda r: f"{r['cpu']:.1f} ms", "no more than before"),
        ("action with its state, one at a time, p50 / p99", lambda r: ms(r["rt50"], r["rt99"]), ""),
        ("action round trip, back to back, p50 / p99", lambda r: ms(r["bb50"], r["bb99"]), "p99 <= 10 ms"),
        ("one client back to back, actions/s", lambda r: f"{r['bb_per_s']:.0f}", ">= 250"),
        ("undo round trip, p50 / p95", lambda r: ms(r["undo50"], r["undo95"]), "<= 20 ms, flat"),
    ]
    print(f"\n{title}\ncode measured: {result['code']}")
    print(f"{'events in the game:':<50}" + "".join(f"{r['events']:>18,}" for r in rows) + "   target")
    for label, figure, target in figures:
        print(f"{label:<50}" + "".join(f"{figure(r):>18}" for r in rows) + f"   {target}")
    for what, load, target in loads:
        refused = f" ({load['refused']} answered otherwise than 200)" if load["refused"] else ""
        print(f"{what}, 4 clients acting at once: {load['per_second']:.0f} actions/s{refused}{target}, "
              f"action p95 {load['p95'] * 1e3:.1f} ms; the screens got {load['pushes']:,} pushes, "
              f"{load['pushes'] / (load['per_second'] * LOAD_SECONDS * 8):.0%} of one per screen per action")
    for r in rows:
        for phase, spans in r["traces"].items():
            print(f"where the server's time went at {r['events']:,} events, {phase}:\n{traced(spans)}")


def main() -> None:
    parser = argparse.ArgumentParser(description="The live protocol against a real server, as a table plays.")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="also measure the code of another checkout, run for run before this one's")
    parser.add_argument("--runs", type=int, default=1, help="runs of each code, interleaved (default 1)")
    parser.add_argument("--lengths", default=",".join(map(str, LENGTHS)),
                        help="the game lengths measured, in events (default %(default)s)")
    parser.add_argument("--trace", action="store_true", help="where the server's time goes (Trace)")
    options = parser.parse_args()
    lengths = [int(n) for n in options.lengths.split(",")]
    codes = [options.against, None] if options.against else [None]
    results: dict = {code: [] for code in codes}
    for number in range(1, options.runs + 1):
        for code in codes:
            result = run(code, options.trace, lengths)
            results[code].append(result)
            show(result, f"run {number} of {options.runs}, {'before' if code else 'this checkout'} "
                         f"(load average {os.getloadavg()[0]:.1f} at its end)")
    if options.runs > 1 or options.against:
        for code in codes:
            show(median_run(results[code]), f"the median of {options.runs} run(s): "
                                            f"{'before' if code else 'this checkout'}")
    print("(under load a screen shows the newest version, skipping those in between)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), sys.argv[3], "--trace" in sys.argv)
    else:
        main()
