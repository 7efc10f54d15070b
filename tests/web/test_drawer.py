"""The screens drawn in a process of their own (LIVE_DRAWER = "process", banker/live/drawer.py), as
`banker` and gunicorn's workers draw them: what the pages make of the pushes is the screen drawn
afresh, the process ends with its app, and one that died is replaced."""

import io
import os
import pickle
import random
import signal
import threading
import time
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from banker import create_app

from banker.live import drawer, renderer
from banker.models import db
from banker.screens import Kind, PhoneScreen, TableScreen

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


def test_the_drawing_process_makes_a_version_from_the_news_and_reads_nothing(app, client):
    """`serve` as the drawing process runs it, fed through pipes as the renderer feeds it: its first
    drawing reads the game from the database; after a payment, the next, told the news (the
    newest state and the entries since), reads nothing, and its picture shows the payment."""
    game = new_game(client, players=2)
    memory = app.extensions["banker.renderers"].memory
    key = (Kind(TableScreen, (True, None)), "en", "http://localhost/")
    (source_in, source_out), (sink_in, sink_out) = (
        [os.fdopen(fd, mode) for fd, mode in zip(os.pipe(), ("rb", "wb"))] for _ in range(2))
    reads, replies = [], []

    def made(config, instance_path):
        drawing_app = create_app(config, instance_path=instance_path)
        with drawing_app.app_context():
            event.listen(db.engine, "before_cursor_execute", lambda *_: reads.append(1))
        return drawing_app

    def feed():  # the renderer's side
        def asked(message):
            drawer.send(source_out, message)
            replies.append((drawer.receive(sink_in.fileno(), 60), len(reads)))

        with app.app_context():
            first = memory.newest(game.code, game.state()["version"])
        drawer.send(source_out, (drawer.settings(app), app.instance_path))
        asked(("draw", game.code, first.version, [key], None))
        game.ok("banker", type="bank_pay", player=2, amount=7)
        with app.app_context():
            then = memory.newest(game.code, game.state()["version"])
        asked(("draw", game.code, then.version, [key], drawer.news(then, first.version)))
        source_out.close()

    feeder = threading.Thread(target=feed)
    feeder.start()
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        drawer.serve(made, source_in, sink_out)  # in this thread: it sets its signal handler
    finally:
        signal.signal(signal.SIGINT, interrupt)  # serve ignores Ctrl+C: this test process does not
        feeder.join(10)
        for pipe in (source_in, source_out, sink_in, sink_out):
            pipe.close()
    [(first, read_first), (then, read_then)] = replies
    assert first[0] == then[0] == "drawn" and then[1] == first[1] + 1
    assert read_then == read_first > 0  # the second drawing read nothing
    shown = " ".join(part.html for part in then[2][key].parts.values() if part is not None)
    assert "The bank paid Bob $7." in shown


@pytest.mark.parametrize("answer, failure", [
    (drawer.LENGTH.pack(1000) + b"x" * 10, "no whole answer"),  # half an answer, then nothing
    (drawer.LENGTH.pack(9) + b"\x80\x05X\x01\x00\x00\x00\x95.", "can't decode"),  # a pickle's bytes out of step
    (drawer.LENGTH.pack(2 ** 40), "out of step"),  # a length no message has
], ids=["half", "not a pickle", "no length"])
def test_a_drawing_process_whose_answer_cannot_be_read_is_stopped_in_time(app, monkeypatch, answer, failure):
    """A drawing process whose pipe is out of step (half an answer, or bytes that are not one) is
    stopped within ANSWER_SECONDS, and the render fails (the renderer tries again with a new
    process): it is not waited for forever, with every game's screens waiting behind it."""
    monkeypatch.setattr(drawer, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(drawer, "START_SECONDS", 0.5)
    monkeypatch.setattr(drawer, "CHILD", "; ".join([  # reads the settings and the draw, then answers `answer`
        "import os, sys, time", "os.read(0, 1 << 20)", f"os.write(1, {answer!r})", "time.sleep(60)"]))
    apart = drawer.Apart(app)
    started = time.monotonic()
    with app.app_context():
        game = app.extensions["banker.renderers"].memory.newest(new_game(app.test_client()).code, 0)
        with pytest.raises(drawer.DrawingFailed, match=failure) as failed:
            apart.draw(game.code, game, [], lambda: None)
    assert time.monotonic() - started < 5
    assert "did not answer and was stopped" in str(failed.value)
    assert apart.child is None
