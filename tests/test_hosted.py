"""Hosted mode on a real PostgreSQL server with real server processes (issue 13): a change made
through one process reaches a page connected to another, a tournament's too (issue 36), and killing
a process mid-writes loses no action it acknowledged."""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from .postgres import free_port


@contextmanager
def processes(postgres: str, folder: Path):
    """A database of its own on the PostgreSQL server, and a way to start `banker` processes on it
    (sharing one instance folder, as a hosted server's processes share their settings)."""
    name = f"hosted_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{postgres}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    processes = []

    def start() -> int:
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"{postgres}/{name}", "BANKER_INSTANCE": str(folder / "instance")}
        process = subprocess.Popen([sys.executable, "-m", "banker", "--offline", "--host", "127.0.0.1",
                                    "--port", str(port), "--lang", "en"],
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        processes.append(process)
        for _ in range(100):  # it listens a moment after printing its banner
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return port
            except OSError:
                assert process.poll() is None, process.stdout.read()
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    start.database, start.processes = f"{postgres}/{name}", processes
    try:
        yield start
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
            process.wait(timeout=10)
            process.stdout.close()
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture
def hosted(postgres, tmp_path):
    """`processes` for one test: it may kill them."""
    with processes(postgres, tmp_path) as start:
        yield start


@pytest.fixture(scope="module")
def pair(postgres, tmp_path_factory):
    """Two `banker` processes on one database, shared by the tests that only act and watch (two
    processes' start is most of such a test's time): (start, first port, second port)."""
    with processes(postgres, tmp_path_factory.mktemp("hosted")) as start:
        yield start, start(), start()


def call(port: int, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    """One request on a connection of its own, closed whatever happens (a server killed mid-answer
    raises OSError or http.client.HTTPException: IncompleteRead, RemoteDisconnected...)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    response = None
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        connection.request("POST" if body is not None else "GET", path,
                           json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        if response is not None:
            response.close()
        connection.close()
    return response.status, json.loads(data) if data else {}


def a_game(port: int) -> tuple[str, str]:
    status, made = call(port, "/api/games", {})
    assert status == 201
    code, banker = made["code"], made["banker_token"]
    for name, token in (("Ann", "hat"), ("Bob", "car")):
        assert call(port, f"/api/games/{code}/players", {"name": name, "token": token})[0] == 201
    assert call(port, f"/api/games/{code}/actions", {"type": "start", "order": [1, 2]}, banker)[0] == 200
    return code, banker


def test_a_change_through_one_process_reaches_a_page_on_another(pair):
    _, first, second = pair
    code, banker = a_game(first)
    version = call(first, f"/api/games/{code}", token=banker)[1]["version"]
    # The table view on the second process, as its page's live connection opens it.
    live, stream = watch(second, code, version)
    try:
        time.sleep(0.3)  # the second process's page is waiting: now the first one changes the game
        sent = time.monotonic()
        assert call(first, f"/api/games/{code}/actions", {"type": "roll", "dice": [1, 2]}, banker)[0] == 200
        received = next_update(stream)
        assert time.monotonic() - sent < 5
        assert f"id: {version + 1}".encode() in received
        assert b"Baltic Avenue" in received  # the roll's news, rendered by the second process
    finally:
        stream.close()
        live.close()


def watch(port: int, code: str, version: int) -> tuple[http.client.HTTPConnection, object]:
    """The table view's live connection, as its page opens it at `version`: (connection, stream)."""
    live = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    live.request("GET", f"/t/{code}")  # the page, whose cookie its live connection needs
    page = live.getresponse()
    page.read()
    live.request("GET", f"/t/{code}/live?v={version}", headers={"Cookie": page.getheader("Set-Cookie").split(";")[0]})
    stream = live.getresponse()
    assert stream.status == 200 and stream.read1(65536).startswith(b"retry:")
    return live, stream


def next_update(stream) -> bytes:
    """Read a live connection until one whole `update` event has come (it ends with a blank line)."""
    received = b""
    while not (b"event: update" in received and b"\n\n" in received.split(b"event: update", 1)[1]):
        chunk = stream.read1(65536)
        assert chunk, "the live connection closed"
        received += chunk
    return received


PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def registered_phone(port: int, code: str, name: str) -> tuple[str, int]:
    """A phone that registers through the event's QR page: its cookie header, and the version its
    page (/e/<code>/me) was drawn at."""
    jar = CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}/e/{code}"
    form = browser.open(f"{base}/register").read().decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', form).group(1)
    page = browser.open(f"{base}/register", urllib.parse.urlencode({"csrf_token": token, "name": name}).encode())
    assert page.url.endswith(f"/e/{code}/me")
    version = int(re.search(r"me/live\?v=(\d+)", page.read().decode()).group(1))
    return "; ".join(f"{c.name}={c.value}" for c in jar), version


def follow(port: int, path: str, cookie: str):
    """A live connection, as a page opens it: (connection, stream)."""
    live = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    live.request("GET", path, headers={"Cookie": cookie})
    stream = live.getresponse()
    assert stream.status == 200 and stream.read1(65536).startswith(b"retry:")
    return live, stream


def shows(stream, text: bytes) -> bytes:
    """Read a live connection's updates until one shows `text` (a page drawn at an older version is
    first brought up to date: that update comes first)."""
    received, given_up = b"", time.monotonic() + 60  # a guard against waiting for ever, not a measure
    while text not in received:
        assert time.monotonic() < given_up, f"no update showed {text!r}"
        received += next_update(stream)
    return received


def counted(database: str, code: str) -> tuple[int, list[int]]:
    """How many times the tournament's log, and each of its tables' games, holds the last turn."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            event = connection.execute(text(
                "SELECT count(*) FROM tournament_actions a JOIN tournaments t ON t.id = a.tournament_id "
                "WHERE t.code = :code AND a.type = 'last_turn'"), {"code": code}).scalar()
            tables = connection.execute(text(
                "SELECT count(e.seq) FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
                "LEFT JOIN events e ON e.game_id = tt.game_id AND e.type = 'last_turn' "
                "WHERE t.code = :code GROUP BY tt.game_id ORDER BY tt.game_id"), {"code": code}).scalars().all()
    finally:
        engine.dispose()
    return event, tables


def test_an_event_through_two_processes_and_its_last_turn_at_time_recorded_once(pair):
    """Issue 36 hosted: an event action made through one process reaches the live screens another
    follows (a registered phone, a table's host screen), the round's clock paused on the tables with
    it; when the round's time runs out both processes' clock keepers call the last turn, which is
    recorded once, and every table is told once."""
    start, first, second = pair
    status, made = call(first, "/api/events", {"name": "Club night", "rounds": 1, "round_minutes": 5})
    assert status == 201
    code, organiser = made["code"], made["organiser_token"]
    cookie, version = registered_phone(second, code, PLAYERS[0])
    for name in PLAYERS[1:]:
        assert call(first, f"/api/events/{code}/players", {"name": name})[0] == 201
    phone, stream = follow(second, f"/e/{code}/me/live?v={version}", cookie)
    tables = []
    try:
        # Seated through the first process: the phone the second follows shows its table.
        seated = call(first, f"/api/events/{code}/actions", {"type": "seat_round"}, organiser)[1]
        shows(stream, b"Table ")
        games = [t["game"] for t in seated["state"]["rounds"][0]["tables"]]
        assert call(first, f"/api/events/{code}/actions", {"type": "start_round"}, organiser)[0] == 200
        tables = [watch(second, game, call(second, f"/api/games/{game}", token=organiser)[1]["version"])
                  for game in games]
        # Paused through the first process: the table's host screen on the second says so.
        assert call(first, f"/api/events/{code}/actions", {"type": "pause_clock"}, organiser)[0] == 200
        shows(tables[0][1], b"Clock paused:")
        # A round of five minutes is long for a test: the clock kept one second when it is paused.
        engine = create_engine(start.database)
        with engine.begin() as connection:
            connection.execute(text("UPDATE tournaments SET state = jsonb_set(state::jsonb, "
                                    "'{clock,paused_remaining}', '1')::json WHERE code = :code"), {"code": code})
        engine.dispose()
        # Run again through the first: both processes' keepers hear of it, and both call the last
        # turn at its time (nobody else does: no page of the event calls it, no table acts).
        assert call(first, f"/api/events/{code}/actions", {"type": "resume_clock"}, organiser)[0] == 200
        for _, reading in tables:  # every table told (the keeper tells them one after the other)
            shows(reading, b"Last turn")
    finally:
        for live, reading in [(phone, stream), *tables]:
            reading.close()
            live.close()
    assert counted(start.database, code) == (1, [1, 1])
    time.sleep(0.2)  # a late caller would be refused, and write nothing: still once
    assert counted(start.database, code) == (1, [1, 1])


def test_killing_a_process_mid_writes_loses_no_acknowledged_action(hosted):
    port = hosted()
    code, banker = a_game(port)
    acknowledged, stop = [], threading.Event()

    def write(writer: int):
        for n in range(10_000):
            if stop.is_set():
                return
            nonce = f"{writer}-{n}"
            try:
                status, body = call(port, f"/api/games/{code}/actions",
                                    {"type": "bank_pay", "player": 1, "amount": 1, "nonce": nonce}, banker)
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this answer never came (whole), so nothing was promised
            if status == 200:
                acknowledged.append((body["version"], nonce))

    # Pages watch the game meanwhile: the process renders every change from what it keeps in memory.
    early = call(port, f"/api/games/{code}", token=banker)[1]["version"]
    pages = [watch(port, code, early) for _ in range(3)]
    writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for thread in writers:
        thread.start()
    updates = [next_update(stream) for _, stream in pages]  # the renderer is at work when the kill comes
    deadline = time.monotonic() + 15
    while len(acknowledged) < 30 and time.monotonic() < deadline:  # a busy machine answers slower
        time.sleep(0.05)
    hosted.processes[-1].send_signal(signal.SIGKILL)
    stop.set()
    for thread in writers:
        thread.join(timeout=30)
    for live, stream in pages:  # the stream too: a response read to no end keeps its socket open
        stream.close()
        live.close()
    assert len(acknowledged) > 20 and all(b"event: update" in update for update in updates)
    engine = create_engine(hosted.database)
    try:
        with engine.connect() as connection:
            saved = dict(connection.execute(text(
                "SELECT e.seq, e.type FROM events e JOIN games g ON g.id = e.game_id WHERE g.code = :code"),
                {"code": code}).all())
            version = connection.execute(text("SELECT version FROM games WHERE code = :code"), {"code": code}).scalar()
    finally:
        engine.dispose()
    assert all(saved.get(seq) == "bank_pay" for seq, _ in acknowledged)
    assert version == max(saved) >= max(seq for seq, _ in acknowledged)
    # A new process on the same database carries on where the killed one stopped.
    again = hosted()
    status, state = call(again, f"/api/games/{code}", token=banker)
    assert status == 200 and state["version"] == version
    # A page that saw an early version catches up on the new process, from the database.
    live, stream = watch(again, code, early)
    try:
        assert call(again, f"/api/games/{code}/actions", {"type": "bank_pay", "player": 1, "amount": 1}, banker)[0] == 200
        received = b""
        while f"id: {version + 1}\n".encode() not in received:
            received += next_update(stream)
    finally:
        stream.close()
        live.close()

