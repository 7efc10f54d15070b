"""Issue 22: no client takes the tables down, on real servers over loopback (each client address
its own: 127.0.0.2, 127.0.0.3... all reach a server listening on 127.0.0.1).

`banker`'s waitress (cli.make_server, with its door) and a gunicorn gthread worker as the hosted
recipe runs it: the live connections fit the threads each really has, one address cannot deny
another game's screens, slots come back within seconds when clients vanish (the keep-alive is an
hour away here), and slow clients cannot stop the server accepting. The shares themselves are
tests/web/test_live_slots.py."""

import http.client
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from banker import create_app
from banker.cli import make_server
from banker.live.slots import SPARE_THREADS
from banker.live.stream import HANG_UP_SECONDS
from banker.models import db

from .postgres import free_port

# The screens here are host screens without a badge (anyone's with the code): they may take every
# slot, to fill the threads (their own share of the server is tests/web/test_live_slots.py's).
QUIET = {"RATELIMIT_ENABLED": False, "HTMX_CDN": False, "LIVE_HEARTBEAT_SECONDS": 3600, "LIVE_PUBLIC_SHARE": 1}
THREADS = 24  # waitress's here: 8 slots
FREED = 2 * HANG_UP_SECONDS + 2  # seconds within which a vanished client's slot comes back


def connect(port: int, address: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))


def get(port: int, path: str, address: str, cookie: str = "") -> tuple[int, dict, bytes]:
    """One whole request from `address`: its status, headers and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(address, 0))
    try:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def post(port: int, path: str, body: dict) -> dict:
    """A JSON API call's answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def a_game(port: int) -> tuple[str, str]:
    """A game made through the API, and the cookie its host screen's page gives a browser."""
    code = post(port, "/api/games", {})["code"]
    status, headers, _ = get(port, f"/t/{code}", "127.0.0.1")
    assert status == 200
    return code, headers["Set-Cookie"].split(";")[0]


def follow(port: int, code: str, cookie: str, address: str, screen: str = "t",
           headers: str = "") -> tuple[int, socket.socket]:
    """A host screen's live connection (or a phone's: `screen` "p") from `address`: its status, and
    the connection (open while the answer is a stream)."""
    stream = connect(port, address)
    stream.sendall(f"GET /{screen}/{code}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                   f"Cookie: {cookie}\r\n{headers}\r\n".encode())
    seen = b""
    while b"\r\n\r\n" not in seen:
        chunk = stream.recv(4096)
        assert chunk, seen
        seen += chunk
    return int(seen.split(b" ", 2)[1]), stream


def vanish(streams) -> None:
    """Clients gone without a word: a reset, not a polite close."""
    for stream in streams:
        stream.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        stream.close()


def until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


class Banker:
    """`banker`'s waitress (cli.make_server) serving in a thread, with THREADS threads and room for
    30 connections; a client address holds 8 of them at most, 4 live ones without a badge, and a request arrives
    whole within 1 s (unless `config` says otherwise)."""

    def __init__(self, folder, threads: int = THREADS, connections: int = 30, **config):
        self.app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'banker.sqlite'}", "SECRET_KEY": "s",
                               "LIVE_PER_ADDRESS": 4, "CONNECTIONS_PER_ADDRESS": 8, "REQUEST_SECONDS": 1, **QUIET,
                               **config},
                              instance_path=str(folder / "instance"))
        self.server = make_server(self.app, "127.0.0.1", 0, threads=threads, connection_limit=connections)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    @property
    def open_slots(self) -> int:
        return self.app.extensions["banker.live"].open

    def stop(self):
        """As tests/e2e/conftest.py's Server stops: the live connections end, then every channel
        closes in waitress's own loop, then its threads stop."""
        self.app.extensions["banker.notifier"].close()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)
        server = self.server

        def close_all():
            while server._map:
                for dispatcher in list(server._map.values()):
                    dispatcher.handle_close()

        with server.trigger.lock:
            server.trigger.thunks.append(close_all)
            server.trigger._physical_pull()
        self.thread.join(timeout=10)
        server.task_dispatcher.shutdown()
        with self.app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="module")
def banker(tmp_path_factory):
    running = Banker(tmp_path_factory.mktemp("slots"))
    yield running
    running.stop()


def test_the_live_slots_fit_waitresss_threads_and_come_back_when_clients_vanish(banker):
    first, cookie = a_game(banker.port)
    second, _ = a_game(banker.port)
    third, _ = a_game(banker.port)
    streams = []
    try:
        for code, address in ((first, "127.0.0.2"), (second, "127.0.0.3")):
            for _ in range(4):
                status, stream = follow(banker.port, code, cookie, address)
                streams.append(stream)
                assert status == 200
        assert banker.open_slots == THREADS - SPARE_THREADS == 8
        status, stream = follow(banker.port, third, cookie, "127.0.0.4")  # every slot taken: retry later
        stream.close()
        assert status == 503
        assert get(banker.port, f"/t/{third}", "127.0.0.4")[0] == 200  # the threads kept answer pages
    finally:
        vanish(streams)
    assert until(lambda: banker.open_slots == 0, FREED)
    status, stream = follow(banker.port, third, cookie, "127.0.0.4")
    stream.close()
    assert status == 200


def test_one_address_cannot_deny_another_games_screens(banker):
    theirs, cookie = a_game(banker.port)
    ours, ours_cookie = a_game(banker.port)
    streams, statuses = [], []
    try:
        for _ in range(8):  # the address's every connection, each following a game
            status, stream = follow(banker.port, theirs, cookie, "127.0.0.5")
            statuses.append(status)
            streams.append(stream)
        assert statuses == [200] * 4 + [503] * 4
        ninth = connect(banker.port, "127.0.0.5")  # past its connections: closed at the door
        try:
            ninth.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert ninth.recv(4096) == b""
        except ConnectionResetError:
            pass
        finally:
            ninth.close()
        status, stream = follow(banker.port, ours, ours_cookie, "127.0.0.6")
        streams.append(stream)
        assert status == 200
        assert get(banker.port, f"/t/{ours}", "127.0.0.6")[0] == 200
    finally:
        vanish(streams)


def test_slow_clients_cannot_stop_the_server_accepting(banker):
    """Scaled down from the issue's 950 slow connections against 900: here 30 connections in all.
    One address gets 8 of them and no more; four addresses fill them, but trickling bytes does not
    keep a request's connection past its second, so the server accepts again."""
    code, _ = a_game(banker.port)
    slow = []

    def trickle():
        for connection in list(slow):
            try:
                connection.send(b"X")
            except OSError:
                slow.remove(connection)
                connection.close()

    try:
        for address in ("127.0.0.7",) * 40:
            connection = connect(banker.port, address)
            connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            slow.append(connection)
        time.sleep(0.2)
        trickle()
        trickle()  # the door's closing is seen at the second write
        assert len(slow) == 8
        assert get(banker.port, f"/t/{code}", "127.0.0.8")[0] == 200  # a phone's page loads meanwhile
        for address in ("127.0.0.9", "127.0.0.10", "127.0.0.11"):
            for _ in range(8):
                connection = connect(banker.port, address)
                connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                slow.append(connection)
        assert until(lambda: trickle() or not slow, 10)  # a byte every 0.1 s does not keep them
        assert get(banker.port, f"/t/{code}", "127.0.0.8")[0] == 200
    finally:
        for connection in slow:
            connection.close()


def test_slow_clients_from_many_addresses_take_turns_and_a_page_still_gets_in(tmp_path):
    """Each address under its share, together past the connection limit (30 here, 900 for
    `banker`), and each request given a minute to arrive: near the limit every new connection
    closes the one waiting longest, so a phone's page loads (before, the server accepted nobody
    until a request's deadline passed), and an open page's live connection is never the one closed."""
    server = Banker(tmp_path, REQUEST_SECONDS=60, CONNECTIONS_PER_ADDRESS=8)
    code, cookie = a_game(server.port)
    status, stream = follow(server.port, code, cookie, "127.0.0.20")
    slow = [stream]
    try:
        assert status == 200
        for n in range(6 * 8):  # six addresses, eight each
            connection = connect(server.port, f"127.0.1.{n // 8}")
            connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            slow.append(connection)
        assert get(server.port, f"/t/{code}", "127.0.0.21")[0] == 200
        stream.settimeout(0.5)
        with pytest.raises(TimeoutError):  # still open: what it was sent, then nothing, not its end
            while stream.recv(4096):
                pass
    finally:
        for connection in slow:
            connection.close()
        server.stop()


@pytest.fixture
def gunicorn(tmp_path):
    """The hosted recipe's gunicorn (one gthread worker of 20 threads: 4 slots), on SQLite."""
    pytest.importorskip("gunicorn")
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("".join(f"{name} = {value!r}\n" for name, value in QUIET.items()))
    port = free_port()
    env = {**os.environ, "BANKER_INSTANCE": str(instance), "DATABASE_URL": f"sqlite:///{tmp_path / 'banker.sqlite'}"}
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "1", "--worker-class", "gthread",
                                "--threads", "20", "--bind", f"127.0.0.1:{port}", "banker:create_app()"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        assert until(lambda: process.poll() is None and _answers(port), 30), process.stderr.read()
        yield port
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # its master and worker, without waiting for open pages
        process.wait(timeout=10)
        process.stderr.close()


def _answers(port: int) -> bool:
    try:
        return get(port, "/", "127.0.0.1")[0] == 200
    except OSError:
        return False


def test_under_gunicorn_the_live_slots_fit_its_threads_and_come_back_when_clients_vanish(gunicorn):
    code, cookie = a_game(gunicorn)
    streams = []
    try:
        for n in range(4):
            status, stream = follow(gunicorn, code, cookie, f"127.0.0.{20 + n}")
            streams.append(stream)
            assert status == 200
        status, stream = follow(gunicorn, code, cookie, "127.0.0.30")  # 20 threads less 16: retry later
        stream.close()
        assert status == 503
        assert get(gunicorn, f"/t/{code}", "127.0.0.30")[0] == 200
    finally:
        vanish(streams)

    back = []

    def all_back() -> bool:  # the slots one by one as they come back (a 503 holds none)
        status, stream = follow(gunicorn, code, cookie, f"127.0.0.{20 + len(back)}")
        (back if status == 200 else []).append(stream)
        if status != 200:
            stream.close()
        return len(back) == 4

    try:
        assert until(all_back, FREED)
    finally:
        for stream in back:
            stream.close()
