"""A failing database is answered honestly: out of reach, 503 with Retry-After ("The bank is
unreachable for a moment; nothing was changed"); its disk full, 507 saying so, and the terminal
says it too. On the page (htmx's message, a plain form's error page) and in the API's error shape,
never a 500; the log gets one line, not a traceback. A live screen whose render failed so tries
again. A database error that is a bug stays a 500.

The database's failures are made where its driver would raise them (the dialect's execute), so
that SQLAlchemy wraps them as it wraps the real ones (tests/test_outages.py has the real ones: a
PostgreSQL restart, a full disk)."""

import logging
import sqlite3
import threading
from html import unescape

import psycopg
import pytest
from flask_babel import get_locale
from sqlalchemy.exc import IntegrityError, OperationalError

from banker.live import renderer
from banker.models import db
from banker.store.memory import Memory
from banker.store.engine import disk_full, outage

from .test_live import Listener

UNREACHABLE = "The bank is unreachable for a moment; nothing was changed."
DISK_FULL = "The laptop's disk is full: free some space, nothing was lost."


def sqlite_full() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode, error.sqlite_errorname = 13, "SQLITE_FULL"
    return error


@pytest.fixture
def failing(app, monkeypatch):
    """Makes the database raise `error()` for each statement `which(statement)` picks, from now on
    (until `on` is set False); counts them."""
    dialect, seen = None, {"failed": 0, "on": True}

    def fail(error, which=lambda statement: True):
        def execute(real):
            def run(cursor, statement, *args):
                if seen["on"] and which(statement):
                    seen["failed"] += 1
                    raise error()
                return real(cursor, statement, *args)
            return run

        for name in ("do_execute", "do_execute_no_params"):
            monkeypatch.setattr(dialect, name, execute(getattr(dialect, name)))
        return seen

    with app.app_context():
        dialect = db.engine.dialect
    return fail


def writes(statement: str) -> bool:
    return statement.startswith(("INSERT", "UPDATE", "DELETE"))


def test_an_api_action_while_the_database_is_out_of_reach_is_503_with_retry_after(game, failing):
    version = game.state()["version"]
    seen = failing(lambda: sqlite3.OperationalError("unable to open database file"))
    response = game.act("banker", type="bank_pay", player=1, amount=5, nonce="n1")
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert response.get_json() == {"error": {"code": "unavailable", "message": UNREACHABLE}}
    assert seen["failed"] == 1  # not a dropped connection: nothing to try again
    seen["on"] = False  # back
    assert game.state()["version"] == version


def test_a_dropped_connection_is_tried_once_more_then_503(game, failing, caplog):
    """SQLite's dropped connection ("closed database"), as PostgreSQL's restart drops one: the
    action is tried once more on a new connection; still failing, 503, and one line in the log."""
    seen = failing(lambda: sqlite3.ProgrammingError("Cannot operate on a closed database."), writes)
    with caplog.at_level(logging.WARNING):
        response = game.act("banker", type="bank_pay", player=1, amount=5, nonce="n1")
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "unavailable"
    assert seen["failed"] == 2
    lines = [r for r in caplog.records if r.name.startswith("banker")]
    assert [(r.levelname, r.exc_info) for r in lines] == [("WARNING", None)]
    assert "Cannot operate on a closed database" in lines[0].getMessage()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_form_while_the_database_is_out_of_reach_says_so_on_the_page(game, phone, failing, htmx):
    ann = phone(game, 1)
    ann.csrf  # read off the page before the database goes
    failing(lambda: sqlite3.OperationalError("unable to open database file"))
    response = ann.post({"type": "roll", "dice": [1, 2]}, htmx=htmx)
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    html = response.get_data(as_text=True)
    if htmx:  # the fragment htmx puts where the tap was
        assert html.strip() == f'<p class="message error" role="alert">{UNREACHABLE}</p>'
    else:
        assert 'class="message error lasting"' in html and UNREACHABLE in html  # the page's own message stays


def test_a_full_disk_is_507_on_the_page_and_in_the_api_and_the_terminal_says_it(game, phone, failing, caplog):
    ann = phone(game, 1)
    ann.csrf
    version = game.state()["version"]
    failing(sqlite_full, writes)
    with caplog.at_level(logging.WARNING):
        api = game.act("banker", type="bank_pay", player=1, amount=5)
        page = ann.post({"type": "roll", "dice": [1, 2]}, htmx=True)
    assert api.status_code == 507 and "Retry-After" not in api.headers
    assert api.get_json() == {"error": {"code": "disk_full", "message": DISK_FULL}}
    assert page.status_code == 507 and DISK_FULL in unescape(page.get_data(as_text=True))
    lines = [r for r in caplog.records if r.name.startswith("banker")]
    assert [(r.levelname, r.exc_info) for r in lines] == [("ERROR", None)] * 2
    said = lines[0].getMessage()
    assert "\n" not in said and said.startswith("The disk of the database ") and "banker.sqlite" in said
    assert "(database or disk is full)" in said  # what the database said
    assert game.state()["version"] == version  # reading still works, and nothing was changed
    assert "Your turn" in ann.page()


def test_the_terminal_line_is_in_the_language_banker_prints_in(app, game, failing):
    """`banker --lang fr` (cli.py): the line is made in French, whatever the request's language."""
    app.extensions["banker.terminal_language"] = "fr"
    made_in = []

    class Locale(logging.Handler):
        def emit(self, record):
            made_in.append(str(get_locale()))

    failing(sqlite_full, writes)
    handler = Locale(logging.ERROR)
    logging.getLogger("banker").addHandler(handler)
    try:
        response = game.act("banker", type="bank_pay", player=1, amount=5)
    finally:
        logging.getLogger("banker").removeHandler(handler)
    assert response.get_json()["error"]["message"] == DISK_FULL  # the request's language: English
    assert made_in == ["fr"]


def test_a_database_error_that_is_a_bug_stays_a_500(game, failing):
    """Not an outage: the code asked something wrong. Its traceback is for the log (TESTING raises it)."""
    failing(lambda: sqlite3.IntegrityError("UNIQUE constraint failed: events.game_id, events.seq"), writes)
    with pytest.raises(IntegrityError):
        game.act("banker", type="bank_pay", player=1, amount=5)


def test_what_counts_as_a_full_disk_or_an_outage():
    def wrapped(orig, **kw):
        return OperationalError("UPDATE games SET state=%(state)s", {}, orig, **kw)

    postgres_full = psycopg.errors.DiskFull('could not extend file "base/16384/16390": No space left on device')
    panic = psycopg.OperationalError('PANIC:  could not write to file "pg_wal/xlogtemp.97": No space left on device')
    for full in (wrapped(sqlite_full()), wrapped(postgres_full), wrapped(panic, connection_invalidated=True)):
        assert outage(full) and disk_full(full)
    for away in (wrapped(sqlite3.OperationalError("database is locked")),
                 wrapped(psycopg.OperationalError("connection failed: Connection refused"))):
        assert outage(away) and not disk_full(away)
    bug = IntegrityError("INSERT INTO events", {}, sqlite3.IntegrityError("UNIQUE constraint failed"))
    assert not outage(bug) and not outage(RuntimeError("a bug"))


@pytest.mark.parametrize("failure, traceback", [
    (lambda: OperationalError("SELECT", {}, sqlite3.OperationalError("unable to open database file")), False),
    (lambda: RuntimeError("a bug in a screen"), True),
])
def test_a_live_screen_whose_render_failed_tries_again(app, game, phone, monkeypatch, caplog, failure, traceback):
    """The database away: one warning line, no traceback; a bug keeps its traceback. Either way the
    page gets the change once the render works again."""
    monkeypatch.setattr(renderer, "RETRY_SECONDS", 0.01)
    real, calls = Memory.newest, {"n": 0}

    def newest(self, code, version, *how):
        calls["n"] += 1
        if calls["n"] == 2:  # the render of the change below; the page's first one went well
            raise failure()
        return real(self, code, version, *how)

    monkeypatch.setattr(Memory, "newest", newest)
    listener = Listener(phone(game, 1), game.state()["version"])
    try:
        listener.idle()
        with caplog.at_level(logging.WARNING, logger="banker"):
            game.ok("banker", type="bank_pay", player=1, amount=7)
            event = listener.next_event()
        assert event.id == str(game.state()["version"]) and 'data-cash="1507"' in event.data
    finally:
        listener.close(app)
    (line,) = [r for r in caplog.records if r.name == "banker.live.renderer"]
    assert line.getMessage().startswith(f"rendering game {game.code} failed")
    assert (line.exc_info is not None) == traceback and calls["n"] >= 3


def test_a_live_connection_that_cannot_check_its_browser_ends_quietly(app, game, phone, failing, caplog):
    """The seats changed (or the notifier reconnected) while the database is away: the connection
    cannot tell who its browser is now, so it ends, with one line in the log; the browser
    reconnects by itself (retry: 1000) and catches up from the version it shows."""
    listener = Listener(phone(game, 1), game.state()["version"])
    listener.idle()
    failing(lambda: sqlite3.OperationalError("unable to open database file"))
    with caplog.at_level(logging.WARNING, logger="banker"):
        app.extensions["banker.renderers"].heard(None, -1)  # every page looks at its seat again
        listener._thread.join(timeout=10)
    assert not listener._thread.is_alive()  # the stream ended rather than died
    lines = [r for r in caplog.records if r.name == "banker.live.stream"]
    assert [(r.levelname, r.exc_info) for r in lines] == [("WARNING", None)]
    assert lines[0].getMessage().startswith(f"a live connection to game {game.code} ended (unable to open")
    assert not [r for r in caplog.records if r.exc_info]


@pytest.fixture
def failing_rollback(app, monkeypatch):
    """The next rollback in a thread whose name starts with `thread` fails, as on a connection the
    database dropped while the session held a read transaction: {"thread": ..., "left": 1} arms it."""
    with app.app_context():
        dialect = db.engine.dialect
    real, armed = dialect.do_rollback, {"thread": None, "left": 0}

    def rollback(dbapi_connection):
        if armed["left"] and threading.current_thread().name.startswith(armed["thread"]):
            armed["left"] -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return real(dbapi_connection)

    monkeypatch.setattr(dialect, "do_rollback", rollback)
    return armed


def test_a_request_whose_session_cannot_roll_back_keeps_its_answer(game, failing_rollback, caplog):
    """The request's read went well; letting its session go at the end fails: the connection is
    thrown away, and the answer stays a 200."""
    failing_rollback.update(thread="MainThread", left=1)
    with caplog.at_level(logging.WARNING):
        response = game.client.get(f"/api/games/{game.code}", headers={"Authorization": f"Bearer {game.banker}"})
    assert response.status_code == 200 and failing_rollback["left"] == 0
    assert not [r for r in caplog.records if r.exc_info]
    assert game.ok("banker", type="bank_pay", player=1, amount=7)["version"] == response.get_json()["version"] + 1


def test_a_renderer_whose_session_cannot_roll_back_renders_on(app, game, phone, failing_rollback, caplog):
    """A render read the game (not in memory: written elsewhere); letting its session go fails. The
    renderer goes on: the page gets every later change."""
    listener = Listener(phone(game, 1), game.state()["version"])
    try:
        listener.idle()
        app.extensions["banker.memory"].forget(game.code)  # the next render reads the database
        failing_rollback.update(thread="banker-render", left=1)
        with caplog.at_level(logging.WARNING):
            for amount in (7, 8):
                game.ok("banker", type="bank_pay", player=1, amount=amount)
                assert listener.next_event().id == str(game.state()["version"])
        assert failing_rollback["left"] == 0
    finally:
        listener.close(app)
    assert not [r for r in caplog.records if r.exc_info]
