"""The screens drawn in a process of their own (LIVE_DRAWER = "process", banker/live/drawer.py), as
`banker` and gunicorn's workers draw them: what the pages make of the pushes is the screen drawn
afresh, the process ends with its app, and one that died is replaced."""

import os
import random
import signal
from contextlib import contextmanager

import pytest

from banker.live import drawer, renderer
from banker.screens import PhoneScreen, TableScreen

from ..apps import close, make_app
from ..evenings import next_move
from .games import new_game
from .test_live import Listener
from .test_live_work import apply, comparable, fresh


@pytest.fixture
def app(database):
    app = make_app(database, LIVE_DRAWER="process")
    yield app
    close(app)


def drawing_process(app):
    return app.extensions["banker.renderers"].drawer.child


def test_what_the_pages_make_of_the_pushes_drawn_apart_is_the_screen_drawn_afresh(app, client, host, phone):
    """A random evening with the host screen and two phones open: after every step each page, having
    applied every push as htmx does, shows exactly what a new page at that version would, though
    the screens were drawn in another process, which sent only the parts drawn since the last. The
    terminal's Ctrl+C, which reaches the whole process group, does not stop it (nor print a
    KeyboardInterrupt's traceback): it ends when the server stops (its notifier closed) and lets go
    of its pipe."""
    game = new_game(client, players=2)
    rng = random.Random(7)
    screens_of = {0: lambda known: TableScreen(known, True),
                  **{p: (lambda p: lambda known: PhoneScreen(known, p))(p) for p in (1, 2)}}
    version = game.state()["version"]
    pages = {who: fresh(app, game.code, make) for who, make in screens_of.items()}
    listeners = {0: Listener(host(game), version), **{p: Listener(phone(game, p), version) for p in (1, 2)}}
    checked = 0
    try:
        for listener in listeners.values():
            listener.idle()
        child = drawing_process(app)  # the pages' first screens came from it
        os.kill(child.pid, signal.SIGINT)
        for _ in range(15):
            who, action = next_move(game.state(), rng)
            if game.act(who, **action).status_code != 200:
                continue
            version = game.state()["version"]
            for who, listener in listeners.items():
                while (event := listener.next_event()).id != str(version):
                    apply(pages[who], event.data)
                apply(pages[who], event.data)
                for part, html in fresh(app, game.code, screens_of[who]).items():
                    assert comparable(pages[who][part]) == comparable(html), (who, part, action)
                    checked += 1
    finally:
        listeners[0].close(app)  # as a stopping server does
    assert checked > 100 and drawing_process(app) is None
    assert child.wait(timeout=10) == 0


@contextmanager
def watched(app, client, host):
    """A game of two with the banker's host screen open and idle, and a payment made by the bank
    (`pay(player, amount)`) that returns the host screen's event of it; the server stops after."""
    game = new_game(client, players=2)
    listener = Listener(host(game), game.state()["version"])

    def pay(player: int, amount: int):
        version = game.ok("banker", type="bank_pay", player=player, amount=amount)["version"]
        while (event := listener.next_event()).id != str(version):  # after any failed render and retry
            pass
        return event

    try:
        listener.idle()
        yield pay
    finally:
        listener.close(app)  # as a stopping server does


def test_a_drawing_process_killed_or_stuck_is_replaced_and_the_pages_get_the_change(app, client, host, caplog,
                                                                                   monkeypatch):
    """Killed: the next render finds its pipe broken. Stuck (here stopped by SIGSTOP): the render
    fails after ANSWER_SECONDS and it is killed at once (closing its pipe would not end it). Either
    way the render is tried again with a new process, which draws the change."""
    monkeypatch.setattr(drawer, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(renderer, "RETRY_SECONDS", 0.1)  # the failed render is tried again this soon
    with watched(app, client, host) as pay:
        killed = drawing_process(app)
        killed.kill()
        killed.wait()
        assert "The bank paid Ann $5." in pay(1, 5).data
        assert "the drawing process was killed by signal 9" in caplog.text
        stuck = drawing_process(app)
        assert stuck not in (None, killed)
        os.kill(stuck.pid, signal.SIGSTOP)
        assert "The bank paid Bob $7." in pay(2, 7).data
        assert stuck.returncode == -signal.SIGKILL
        assert "the drawing process did not answer and was stopped" in caplog.text
        assert drawing_process(app) not in (None, stuck)
