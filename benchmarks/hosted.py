"""Benchmark: hosted mode, 16 tables of 8 on four server processes sharing one PostgreSQL database.

The servers run as the hosted recipe runs them (docs/hosting.md, Hosted mode): gunicorn with the
shipped config module (`-c python:banker.gunicorn_config`: `gthread` workers of 128 threads, each
open page holding one of them, the app `banker:create_app()`), BANKER_BIND and BANKER_WORKERS set
per layout, DATABASE_URL naming a database of a throwaway PostgreSQL 15 server (tests/postgres.py)
and BANKER_INSTANCE one instance folder for all of them (its config.py turns the rate limits off:
every table here is made and joined from 127.0.0.1 within a second).
The tables' API clients keep their connections between actions (`--keep-alive 75`), as nginx keeps
a browser's. Four gunicorn processes of one worker each listen on four ports, and each table's host
screen and eight phones are dealt round-robin over them, starting after the process its players act
on: seven of its nine screens are on another process than its actions, so nearly every change
reaches its screens through LISTEN/NOTIFY. `--one-port` runs one gunicorn of four workers on one
port instead, the recipe's own layout: which worker gets which connection is then the kernel's
choice.

`--through-nginx`, a club behind one address: ten tables of nine screens, every screen and every
table's API client reaching one gunicorn of four workers through Debian's nginx with the docs' own
site (deploy/nginx/, over TLS with a self-signed certificate: tests/nginx.py), all from 127.0.0.1,
which nginx forwards and the app believes (PROXY_FIX = 1) as it would a club's one public address.

Every screen follows the pages' protocol as benchmarks/live.py does (GET <screen>/live?v=<version>
with the page's session cookie, then Server-Sent Events; on a dropped connection, reconnect with
Last-Event-ID). Its cookie and its badge are made as live.session_cookie makes them: the badge
written into the benchmark's PostgreSQL database (DATABASE_URL), as joining the game would. Each
table plays through the JSON API (benchmarks/bot.py decides what) at a table's pace: one action
every PACE seconds, so the sixteen tables together make about 25 changes a second. After a
warm-up it measures, over MEASURE seconds: the action's round trip; how long a change takes
to be on all nine screens of its table (from the moment the action is sent until every screen has
received an update carrying that version or a newer one), and apart, on the screens of the process
that took the action and of the others; the share of 503 (busy) and other answers; the CPU of the
server processes (gunicorn's masters and workers: utime + stime) per change, PostgreSQL's, its
own, and what else the machine was running meanwhile (other load there slows every figure); and
what the database did.

The servers run the `banker` this script imports (PYTHONPATH first, else the installed project;
gunicorn starts in its folder): `PYTHONPATH=<worktree> .venv/bin/python benchmarks/hosted.py`
measures another checkout's code.

Run: .venv/bin/python benchmarks/hosted.py   (about 75 seconds; prints a table; asserts nothing)
     .venv/bin/python benchmarks/hosted.py --pace 1.5-3   (a table's pace at a real table)
     .venv/bin/python benchmarks/hosted.py --one-port
     .venv/bin/python benchmarks/hosted.py --through-nginx
"""

import bisect
import datetime
import http.client
import json
import os
import platform
import random
import resource
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot import next_move
import live
from live import TOKENS, percentile, session_cookie

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # for tests.postgres; `banker` comes from PYTHONPATH first, as below

import banker
from banker import gunicorn_config
from tests.nginx import UNVERIFIED, Proxy
from tests.postgres import Server as Postgres
from tests.postgres import free_port

# The code measured: the `banker` this process imports (PYTHONPATH first, else the installed
# project), which the servers run too and whose models session_cookie writes badges with.
CODE = Path(banker.__file__).resolve().parent.parent

TABLES = 16
CLUB_TABLES = 10    # --through-nginx: a club's tables
PROCESSES = 4
THREADS = gunicorn_config.threads  # per worker (128): its ~36 open pages, and room for actions and page loads
PACE = (0.4, 0.9)   # seconds between one table's actions (uniform): ~25 changes/s for 16 tables
WARM_UP = 8
MEASURE = 45
TICK = os.sysconf("SC_CLK_TCK")
TLS: ssl.SSLContext | None = None  # --through-nginx: every client speaks TLS to nginx


def connect(port: int, timeout: float | None) -> http.client.HTTPConnection:
    """A new connection to a server process, or through nginx to the servers."""
    if TLS is None:
        return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=TLS)


class Database:
    """A throwaway PostgreSQL server and one database on it for the benchmark."""

    def __init__(self):
        from sqlalchemy import create_engine

        self.postgres = Postgres().start()
        self.name = f"hosted_{uuid.uuid4().hex[:8]}"
        self.url = f"{self.postgres.url}/{self.name}"
        self.admin = create_engine(f"{self.postgres.url}/postgres", isolation_level="AUTOCOMMIT")
        try:
            self.query(f"CREATE DATABASE {self.name}")
        except BaseException:
            self.stop()
            raise

    def query(self, sql: str):
        from sqlalchemy import text

        with self.admin.connect() as connection:
            return connection.execute(text(sql)).all() if sql.startswith("SELECT") else connection.execute(text(sql))

    def transactions(self) -> int:
        """Transactions on the benchmark's database so far, committed or rolled back (a live
        connection's read ends with a rollback)."""
        return self.query("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                          f"WHERE datname = '{self.name}'")[0][0]

    def cpu(self) -> dict[int, float]:
        """Seconds of CPU PostgreSQL's processes have used: the postmaster (with its children
        that ended, through cutime + cstime) and the running ones (backends, writers)."""
        postmaster = int((self.postgres.data / "postmaster.pid").read_text().split()[0])
        return cpu_times([postmaster, *children({postmaster})])

    def events(self) -> tuple[int, int]:
        """(games, events) stored."""
        from sqlalchemy import create_engine, text

        engine = create_engine(self.url)
        try:
            with engine.connect() as connection:
                return (connection.execute(text("SELECT count(*) FROM games")).scalar(),
                        connection.execute(text("SELECT count(*) FROM events")).scalar())
        finally:
            engine.dispose()

    def stop(self):
        self.admin.dispose()
        self.postgres.stop()


class Servers:
    """The gunicorn processes, on one instance folder (config.py, the secret key) and the database:
    four of one worker (layout "ports"), or one of four ("one-port", "nginx")."""

    def __init__(self, database: Database, layout: str):
        self.folder = Path(tempfile.mkdtemp(prefix="banker-hosted-"))
        instance = self.folder / "instance"
        instance.mkdir()
        (instance / "config.py").write_text(("PROXY_FIX = 1\n" if layout == "nginx" else "") + "RATELIMIT_ENABLED = False\n")
        # Written before any process starts: four processes making it at once would each write their own.
        self.secret_key = os.urandom(32).hex()
        (instance / "secret_key").write_text(self.secret_key)
        self.ports = [free_port() for _ in range(PROCESSES if layout == "ports" else 1)]
        self.masters = []
        for port in self.ports:
            env = {**os.environ, "DATABASE_URL": database.url, "BANKER_INSTANCE": str(instance),
                   "BANKER_BIND": f"127.0.0.1:{port}", "BANKER_WORKERS": "1" if layout == "ports" else str(PROCESSES)}
            with open(self.folder / f"gunicorn-{port}.log", "w") as log:
                self.masters.append(subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "python:banker.gunicorn_config", "--keep-alive", "75"],
                    cwd=CODE, env=env, stdout=log, stderr=subprocess.STDOUT))
        try:
            for port, master in zip(self.ports, self.masters):
                self._wait_ready(port, master)
        except BaseException:
            self.stop()
            raise
        self.started = self.workers()

    def _wait_ready(self, port: int, master: subprocess.Popen):
        """Until a worker answers (gunicorn listens before its workers have loaded the app)."""
        for _ in range(300):
            if master.poll() is not None:
                raise RuntimeError(f"gunicorn on port {port} stopped:\n" + self.log(port))
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/api/games/ZZZZ")
                connection.getresponse().read()
                connection.close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn on port {port} did not answer:\n" + self.log(port))

    def log(self, port: int) -> str:
        return (self.folder / f"gunicorn-{port}.log").read_text()[-3000:]

    def pids(self) -> list[int]:
        """The masters, their workers and the workers' drawing processes."""
        workers = self.workers()
        return workers + children(set(workers) - {master.pid for master in self.masters})

    def workers(self) -> list[int]:
        """The masters and their workers (a worker restarted is a new pid among them)."""
        masters = {master.pid for master in self.masters}
        return sorted(masters) + children(masters)

    def cpu(self) -> dict[int, float]:
        """Seconds of CPU each server process has used (utime + stime)."""
        return cpu_times(self.pids(), ended=False)

    def stop(self):
        for master in self.masters:
            if master.poll() is None:
                master.terminate()
        for master in self.masters:
            try:
                master.wait(timeout=15)
            except subprocess.TimeoutExpired:
                master.kill()
                master.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command's name (state is [0], ppid [1], utime [11])."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def children(parents: set[int]) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) in parents:
                    found.append(int(entry.name))
            except (OSError, IndexError):
                pass
    return sorted(found)


def cpu_times(pids: list[int], ended: bool = True) -> dict[int, float]:
    """Seconds of CPU of each process (utime + stime; with `ended`, also its children that ended:
    cutime + cstime)."""
    used = {}
    for pid in pids:
        try:
            fields = _stat(pid)
        except OSError:
            continue
        used[pid] = sum(int(f) for f in fields[11:15 if ended else 13]) / TICK
    return used


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two samples (a process born in between counts from zero)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def machine_cpu() -> tuple[float, float]:
    """(busy, total) seconds of CPU of the whole machine so far, all cores (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(values) - values[3] - values[4]) / TICK, sum(values) / TICK


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Client:
    """One keep-alive HTTP connection to one server process (or nginx), for the JSON API; counts the
    answers."""

    def __init__(self, port: int):
        self.port = port
        self.connection = connect(port, 30)
        self.statuses: Counter = Counter()

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next call connects again
            self.statuses["no answer"] += 1
            return 0, {}
        self.statuses[response.status] += 1
        try:
            return response.status, json.loads(data)
        except ValueError:
            return response.status, {}


class Screen(live.Screen):
    """One page's live connection, as in benchmarks/live.py; and when it first had a version."""

    def connect(self) -> http.client.HTTPConnection:
        return connect(self.port, None)

    def seen(self, version: int) -> float | None:
        """When this screen first had `version` or a newer one (under load a screen may skip to
        the newest); None if it never did."""
        arrived = list(self.arrived.items())  # in the order they came: the versions rise
        at = bisect.bisect_left([v for v, _ in arrived], version)
        return arrived[at][1] if at < len(arrived) else None


class Table:
    """A game of eight seats through the API of one process, its nine screens on the processes
    after it, and the record of its actions: (sent, round trip, status, version made or None)."""

    def __init__(self, number: int, ports: list[int], database: str, secret_key: str, rng: random.Random):
        self.rng = rng
        self.port = ports[number % len(ports)]
        self.api = Client(self.port)
        _, created = self.api.call("POST", "/api/games", {})
        self.code, self.banker = created["code"], created["banker_token"]
        self.seats = {}
        for n, token in enumerate(TOKENS, 1):
            _, joined = self.api.call("POST", f"/api/games/{self.code}/players", {"name": f"P{n}", "token": token})
            self.seats[joined["player_id"]] = joined["player_token"]
        _, body = self.act("banker", {"type": "start", "order": list(self.seats)})
        self.state = body["state"]
        # The host screen, then the phones, dealt over the processes from the one after the API's.
        pages = [("t", "banker", None)] + [("p", "seat", player) for player in self.seats]
        self.screens = []
        for i, (area, role, player) in enumerate(pages):
            port = ports[(number + 1 + i) % len(ports)]
            cookie = session_cookie(database, secret_key, role, self.code, player)
            self.screens.append(Screen(port, f"/{area}/{self.code}/live", cookie, self.state["version"]))
        self.actions: list[tuple[float, float, int, int | None]] = []

    def act(self, who, action: dict):
        token = self.banker if who == "banker" else self.seats[who]
        # The bot decides its next move from the state: it asks for it with the action (?state=1).
        return self.api.call("POST", f"/api/games/{self.code}/actions?state=1", action, token)

    def play(self, until: float):
        """The bot's moves at a table's pace until `until`; keeps the state each answer gives back."""
        due = time.perf_counter() + self.rng.uniform(0, PACE[1])
        while due < until:
            time.sleep(max(0.0, due - time.perf_counter()))
            who, action = next_move(self.state, self.rng)
            sent = time.perf_counter()
            status, body = self.act(who, action)
            took = time.perf_counter() - sent
            made = None
            if status == 200:
                made = body["version"] if body["version"] > self.state["version"] else None
                self.state = body["state"]
            else:
                status_now, state = self.api.call("GET", f"/api/games/{self.code}", token=self.banker)
                if status_now == 200:
                    self.state = state
            self.actions.append((sent, took, status, made))
            due = sent + self.rng.uniform(*PACE)


def proxy_cpu(proxy: Proxy) -> dict[int, float]:
    """Seconds of CPU nginx's master and workers have used."""
    return cpu_times([proxy.process.pid, *children({proxy.process.pid})], ended=False)


def run(layout: str, count: int) -> dict:
    """`count` tables on the servers of `layout` ("ports", "one-port" or "nginx"), measured."""
    global TLS
    database = Database()
    servers = proxy = None
    tables: list[Table] = []
    try:
        servers = Servers(database, layout)
        ports = servers.ports
        if layout == "nginx":
            proxy = Proxy(servers.ports[0]).start()
            ports, TLS = [proxy.port], UNVERIFIED
        rng = random.Random(2026)
        seeds = [rng.random() for _ in range(count)]
        with ThreadPoolExecutor(8) as pool:
            tables = list(pool.map(lambda n: Table(n, ports, database.url, servers.secret_key,
                                                   random.Random(seeds[n])), range(count)))
        screens = [screen for table in tables for screen in table.screens]
        for screen in screens:
            screen.start()
        for screen in screens:
            screen.connected.wait(10)
        time.sleep(1)

        start = time.perf_counter()
        begin, end = start + WARM_UP, start + WARM_UP + MEASURE
        players = [threading.Thread(target=table.play, args=(end,), daemon=True) for table in tables]
        for player in players:
            player.start()
        time.sleep(max(0.0, begin - time.perf_counter()))
        cpu, machine, mine = servers.cpu(), machine_cpu(), own_cpu()
        nginx = proxy_cpu(proxy) if proxy else {}
        postgres, transactions = database.cpu(), database.transactions()
        versions = sum(table.state["version"] for table in tables)
        time.sleep(max(0.0, end - time.perf_counter()))
        cpu_after, machine_after, mine_after = servers.cpu(), machine_cpu(), own_cpu()
        nginx_after = proxy_cpu(proxy) if proxy else {}
        postgres_after, transactions_after = database.cpu(), database.transactions()
        window = time.perf_counter() - begin
        for player in players:
            player.join()
        time.sleep(2)  # the last changes reach their screens
        pids_after = servers.workers()

        trips, visible, each, statuses, missing = [], [], [], Counter(), 0
        missed = Counter()  # changes of its table that each screen never got
        where = {True: {}, False: {}}  # the screens on the process of the action or on others
        changes = 0
        for table in tables:
            for sent, took, status, made in table.actions:
                if not begin <= sent < end:
                    continue
                statuses[status] += 1
                trips.append(took)
                if made is None:
                    continue
                changes += 1
                seen = [screen.seen(made) for screen in table.screens]
                each.extend(at - sent for at in seen if at is not None)
                missed.update(screen for screen, at in zip(table.screens, seen) if at is None)
                if None in seen:
                    missing += 1
                    continue
                visible.append(max(seen) - sent)
                for screen, at in zip(table.screens, seen):
                    where[screen.port == table.port].setdefault((table.code, made), []).append(at - sent)
        screen_statuses = sum((screen.statuses for screen in screens), Counter())
        for screen in screens:
            screen.close()
        games, events = database.events()
        per_process = {pid: cpu_after.get(pid, 0) - cpu.get(pid, 0) for pid in cpu_after}
        return {
            "local": [max(times) for times in where[True].values()],
            "remote": [max(times) for times in where[False].values()],
            "window": window, "changes": changes, "statuses": statuses, "trips": trips, "visible": visible,
            "each": each, "missing": missing, "screen_statuses": screen_statuses, "screens": len(screens),
            "connected": sum(1 for screen in screens if screen.statuses[200]),
            "live_screens": sum(1 for screen in screens if not missed[screen]),
            "proxy": spent(nginx, nginx_after) if proxy else None,
            "server_cpu": sum(per_process.values()), "per_process": per_process, "masters": len(servers.masters),
            "machine": (machine_after[0] - machine[0], machine_after[1] - machine[1]), "mine": mine_after - mine,
            "postgres": spent(postgres, postgres_after), "transactions": transactions_after - transactions,
            "games": games, "events": events,
            "versions": (versions / len(tables), sum(t.state["version"] for t in tables) / len(tables)),
            "restarted": pids_after != servers.started, "ports": len(servers.ports),
        }
    finally:
        for table in tables:
            for screen in table.screens:
                screen.close()
        if proxy:
            proxy.stop()
            TLS = None
        if servers:
            servers.stop()
        database.stop()


def main() -> None:
    global PACE
    layout = "nginx" if "--through-nginx" in sys.argv[1:] else "one-port" if "--one-port" in sys.argv[1:] else "ports"
    tables = CLUB_TABLES if layout == "nginx" else TABLES
    # --pace 1.5-3: a table's pace at a real table (people read, count and talk between actions);
    # the default is four times that, a stress test of the same sixteen tables.
    if "--pace" in sys.argv[1:]:
        low, high = sys.argv[sys.argv.index("--pace") + 1].split("-")
        PACE = (float(low), float(high))
    began = time.perf_counter()
    r = run(layout, tables)
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    print(f"machine: {os.cpu_count()} CPUs ({os.sched_getaffinity(0).__len__()} usable), {model}; "
          f"Python {platform.python_version()}; {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    if layout == "nginx":
        print(f"servers: one gunicorn, {PROCESSES} gthread workers of {THREADS} threads, behind nginx (the docs' "
              "site, TLS); every screen and table from one address (127.0.0.1), which the app believes (PROXY_FIX)")
    elif layout == "one-port":
        print(f"servers: one gunicorn, {PROCESSES} gthread workers of {THREADS} threads on one port: which worker "
              "gets each connection (a screen, a table's API client) is the kernel's choice")
    else:
        print(f"servers: {PROCESSES} gunicorn processes, 1 gthread worker of {THREADS} threads each, on "
              f"{PROCESSES} ports; each table acts on one and its 9 screens are dealt round-robin from the next "
              "(7 of 9 on other processes than its actions)")
    print(f"load: {tables} tables x (host screen + 8 phones) = {r['screens']} live connections, one action per "
          f"table every {PACE[0]}-{PACE[1]} s; {WARM_UP} s warm-up, then {r['window']:.0f} s measured; "
          f"games at {r['versions'][0]:.0f} -> {r['versions'][1]:.0f} events on average")
    print()
    actions = sum(r["statuses"].values())
    busy = r["statuses"][503]
    other = actions - busy - r["statuses"][200]
    others_text = ", ".join(f"{status}: {n}" for status, n in sorted(r["statuses"].items(), key=str)
                       if status not in (200, 503)) or "none"
    live_other = ", ".join(f"{status}: {n}" for status, n in sorted(r["screen_statuses"].items(), key=str)
                           if status != 200) or "none"
    ms = lambda values: f"{percentile(values, 0.5) * 1e3:.1f} / {percentile(values, 0.95) * 1e3:.1f} ms"
    per_change = lambda seconds: f"{seconds * 1e3 / max(1, r['changes']):.1f} ms"
    processes = sorted(r["per_process"].values(), reverse=True)
    if r["masters"] == PROCESSES:  # four masters of one worker each: the workers are the busy ones
        shares = " ".join(f"{s:.1f}" for s in processes[:PROCESSES]) + f" + masters {sum(processes[PROCESSES:]):.1f}"
    else:
        shares = " ".join(f"{s:.1f}" for s in processes)
    others = max(0.0, r["machine"][0] - r["server_cpu"] - r["postgres"] - r["mine"] - (r["proxy"] or 0.0))
    rows = [
        ("changes (accepted actions) / per second", f"{r['changes']:,} / {r['changes'] / r['window']:.1f}",
         f"about {tables / (sum(PACE) / 2):.0f}/s"),
        ("action round trip, p50 / p95", ms(r["trips"]) if r["trips"] else "-", "p95 <= 50 ms"),
        ("change on all 9 screens of its table, p50 / p95",
         ms(r["visible"]) if r["visible"] else "-", "p95 <= 100 ms"),
        *([("  its screens on the process it was sent to / on others, p95",
            f"{percentile(r['local'], 0.95) * 1e3:.1f} / {percentile(r['remote'], 0.95) * 1e3:.1f} ms", "")]
          if r["ports"] > 1 and r["local"] else []),
        ("a change on each screen that got it, p50 / p95", ms(r["each"]) if r["each"] else "-", ""),
        ("changes some screen never got", f"{r['missing']}", "0"),
        ("screens that got every change of their table", f"{r['live_screens']} of {r['screens']}", "all"),
        ("screens whose live connection was ever answered 200", f"{r['connected']} of {r['screens']}", "all"),
        ("actions answered 503 (busy)", f"{busy} of {actions} ({busy / max(1, actions):.1%})", "0"),
        ("actions answered otherwise non-2xx", f"{other} ({others_text})", "0"),
        ("live connections opened, not answered 200", live_other, "none"),
        ("server CPU per change (gunicorn masters, workers, drawing processes)", per_change(r["server_cpu"]), ""),
        ("  each process, CPU s in the window", shares, ""),
        *([("nginx CPU per change", per_change(r["proxy"]), "")] if r["proxy"] is not None else []),
        ("PostgreSQL CPU per change", per_change(r["postgres"]), ""),
        ("this benchmark's own CPU per change", per_change(r["mine"]), ""),
        ("database: transactions per change (reads too)", f"{r['transactions'] / max(1, r['changes']):.1f}", ""),
        ("database: games / events stored at the end", f"{r['games']} / {r['events']:,}", ""),
    ]
    width = max(len(label) for label, _, _ in rows) + 2
    for label, value, target in rows:
        print(f"{label:<{width}}{value:>34}   {target}")
    if r["restarted"]:
        print("note: a gunicorn worker was restarted during the run (its CPU before then is not counted)")
    cores = lambda seconds: f"{seconds / r['window']:.2f}"
    nginx = "" if r["proxy"] is None else f"nginx {cores(r['proxy'])}, "
    print(f"\nCPU in use over the {r['window']:.0f} s measured, in cores of {os.cpu_count()}: servers "
          f"{cores(r['server_cpu'])}, {nginx}PostgreSQL {cores(r['postgres'])}, this benchmark {cores(r['mine'])}, anything "
          f"else on the machine {cores(others)}; the machine {r['machine'][0] / r['machine'][1]:.0%} busy. "
          f"(total {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
