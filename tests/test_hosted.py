"""Hosted mode on a real PostgreSQL server with real server processes (issue 13): a change made
through one process reaches a page connected to another, and killing a process mid-writes loses
no action it acknowledged."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

import pytest
from sqlalchemy import create_engine, text

from .postgres import free_port


@pytest.fixture
def hosted(postgres, tmp_path):
    """A database of its own on the PostgreSQL server, and a way to start `banker` processes on it
    (sharing one instance folder, as a hosted server's processes share their settings)."""
    name = f"hosted_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{postgres}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    processes = []

    def start() -> int:
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"{postgres}/{name}", "BANKER_INSTANCE": str(tmp_path / "instance")}
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


def test_a_change_through_one_process_reaches_a_page_on_another(hosted):
    first, second = hosted(), hosted()
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

