"""The database failing for real (issue 22): PostgreSQL restarting in the middle of a game, with
its pages open and actions coming in; and the laptop's disk filling up under SQLite. What a client
gets is success, or an honest 503 (with Retry-After) or 507 that changed nothing: never a 500, never
an action applied twice; the log gets lines, not tracebacks; and the live page keeps following the
game. (tests/web/test_outages.py checks each answer's shape with failures made in process.)"""

import logging
import os
import subprocess
import threading
import time
from html import unescape

import pytest
from sqlalchemy import create_engine, text

from .apps import Database, close, make_app, sqlite_database
from .postgres import Server, _as_owner, binaries
from .web.conftest import badged
from .web.games import Browser, new_game

UNREACHABLE = "The bank is unreachable for a moment; nothing was changed."
DISK_FULL = "The laptop's disk is full: free some space, nothing was lost."


class Page:
    """A page's live connection as a browser keeps it: read in the background, and opened again
    (with Last-Event-ID, after the stream's `retry:`) whenever it ends. Keeps the versions shown."""

    def __init__(self, browser: Browser, shown: int):
        self.browser, self.shown, self.opened = browser, shown, 0
        self.stopping = threading.Event()
        self.changed = threading.Condition()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self):
        while not self.stopping.is_set():
            self.opened += 1
            response = self.browser.client.get(f"{self.browser.home}/live", buffered=False,
                                               headers={"Last-Event-ID": str(self.shown)})
            buffer = ""
            try:
                for chunk in response.response if response.status_code == 200 else ():
                    buffer += chunk.decode()
                    while "\n\n" in buffer:
                        block, buffer = buffer.split("\n\n", 1)
                        for line in block.split("\n"):
                            if line.startswith("id: "):
                                with self.changed:
                                    self.shown = max(self.shown, int(line[4:]))
                                    self.changed.notify_all()
            finally:
                response.close()
            self.stopping.wait(1)  # the stream's retry: 1000 ms

    def wait_for(self, version: int, seconds: float = 15) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.shown >= version, seconds)

    def stop(self, app):
        self.stopping.set()
        app.extensions["banker.notifier"].close()  # ends the open stream, as a stopping server does
        self._thread.join(timeout=10)


@pytest.fixture
def restartable(tmp_path):
    """A PostgreSQL server of this test's own (so that it may restart it), with a database for the app."""
    server = Server().start()
    admin = create_engine(f"{server.url}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("CREATE DATABASE banker"))
    admin.dispose()

    def restart():
        subprocess.run(_as_owner([str(binaries() / "pg_ctl"), "-D", str(server.data), "-l", str(server.folder / "log"),
                                  "-m", "fast", "-w", "-t", "60", "restart"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    server.restart = restart
    server.database = Database(f"{server.url}/banker", tmp_path)
    try:
        yield server
    finally:
        server.stop()


def test_a_postgresql_restart_mid_game_is_success_or_503_and_nothing_twice(restartable, caplog):
    app = make_app(restartable.database)
    caplog.set_level(logging.WARNING)
    game = new_game(app.test_client())
    host = Browser(badged(app, game, "banker"), game.code, f"/t/{game.code}")
    host.csrf
    page = Page(host, game.state()["version"])
    answers, repeats, restarted = [], [], threading.Event()

    def write(name: str, send):
        """Sends actions one after the other until 20 went through after the restart; an action
        answered 503 is sent again with the same nonce, as a client that honours Retry-After."""
        after, n = 0, 0
        while after < 20:
            n += 1
            nonce = f"{name}-{n}"
            for _ in range(100):
                response = send(nonce)
                answers.append((response.status_code, response.headers.get("Retry-After"), restarted.is_set()))
                if response.is_json and response.status_code == 200:
                    repeats.append(response.get_json()["repeated"])
                if response.status_code != 503:
                    break
                time.sleep(0.05)  # shorter than Retry-After: the test is in a hurry
            after += restarted.is_set()

    writers = [
        threading.Thread(target=write, args=("api", lambda nonce: game.act(
            "banker", type="bank_pay", player=1, amount=1, nonce=nonce))),
        threading.Thread(target=write, args=("page", lambda nonce: host.post(
            {"type": "bank_pay", "player": 2, "amount": 1}, htmx=True, nonce=nonce))),
    ]
    try:
        renderers = app.extensions["banker.renderers"].renderers
        for _ in range(100):  # the page's live connection is open
            if game.code in renderers:
                break
            time.sleep(0.05)
        for writer in writers:
            writer.start()
        time.sleep(0.3)  # writes going on: now PostgreSQL restarts under them
        restartable.restart()
        restarted.set()
        for writer in writers:
            writer.join(timeout=60)
        statuses = {(status, retry) for status, retry, _ in answers}
        assert statuses <= {(200, None), (503, "2")}, statuses  # never a 500: success, or 503 with Retry-After
        sent = sum(status == 200 for status, *_ in answers)
        assert sum(not late for *_, late in answers) > 0 and sent >= 40
        state = game.state()
        # Each action applied once: every one answered 200 once, and no more money than that moved.
        paid = sum(p["cash"] - 1500 for p in state["players"])
        assert paid == sent and state["version"] == 3 + sent
        # An action sent again after a 503 was a first: the 503's "nothing was changed" was true.
        assert repeats and not any(repeats)
        # The live page follows the game after the restart: it shows the newest version (on the
        # connection it had, or, if that one ended while the server was down, on the one its browser
        # opened again a second later).
        assert page.wait_for(state["version"]), (page.shown, state["version"], page.opened)
    finally:
        page.stop(app)
        close(app)
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
    assert tracebacks == []


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB disk of its own (tmpfs), unmounted after the test; skipped where mounting is not allowed."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small disk (tmpfs) needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder) -> None:
    """Writes a file until the disk has no room left."""
    handle = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(handle, b"\0" * 65536)
    except OSError as error:
        assert error.errno == 28  # ENOSPC: No space left on device
    finally:
        os.close(handle)


def test_a_full_disk_under_sqlite_is_507_changes_nothing_and_the_game_goes_on_once_freed(small_disk, caplog):
    app = make_app(sqlite_database(small_disk))
    try:
        game = new_game(app.test_client())
        phone = Browser(badged(app, game, "seat", 1), game.code, f"/p/{game.code}")
        phone.csrf
        version = game.state()["version"]
        fill(small_disk)
        with caplog.at_level(logging.WARNING):
            api = game.act("banker", type="bank_pay", player=1, amount=5, nonce="pay")
            tap = phone.post({"type": "roll", "dice": [1, 2]}, htmx=True, nonce="roll")
        assert api.status_code == 507 and api.get_json() == {"error": {"code": "disk_full", "message": DISK_FULL}}
        assert tap.status_code == 507 and DISK_FULL in unescape(tap.get_data(as_text=True))
        lines = [r for r in caplog.records if r.name.startswith("banker")]
        assert [(r.levelname, r.exc_info) for r in lines] == [("ERROR", None)] * 2
        assert "(database or disk is full)" in lines[0].getMessage() and str(small_disk) in lines[0].getMessage()
        assert game.state()["version"] == version and "Your turn" in phone.page()  # reads go on

        (small_disk / "filler").unlink()
        assert game.act("banker", type="bank_pay", player=1, amount=5, nonce="pay").status_code == 200
        assert phone.post({"type": "roll", "dice": [1, 2]}, htmx=True, nonce="roll").status_code == 200
        state = game.state()
        assert state["version"] == version + 2 and state["players"][0]["cash"] == 1505  # nothing lost, nothing twice
    finally:
        close(app)
