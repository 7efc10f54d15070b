"""How a game's renderer shares the process with the answers (banker/live/renderer.py): it gives way
to a form or an action being answered, and hands the screens their bytes only once the change is
rendered for all of them. Counted and ordered, never timed."""

import threading
from collections.abc import Callable
from dataclasses import dataclass

from banker.live.renderer import PostGate, Watcher
from banker.screens import Kind, TableScreen


@dataclass(frozen=True)
class Watched(Kind):
    """The banker's host screen, with `seen(known)` called as the renderer makes it."""

    seen: Callable | None = None

    def made(self, known):
        if self.seen is not None:
            self.seen(known)
        return super().made(known)


def banker_screen(seen: Callable) -> Watched:
    return Watched(TableScreen, (True, None), seen)


def test_no_screen_is_handed_a_change_before_every_screen_of_it_is_rendered(app, game):
    """A connection's thread woken in the middle of a render would wait for the interpreter, a
    switch interval at a time, behind the render: the first screen's bytes come with the last's."""
    order = []

    def screen(watcher_before):
        def seen(known):
            if watcher_before is not None:  # is the screen rendered before this one handed its bytes yet?
                order.append((known.version, watcher_before.next(0)))
        return banker_screen(seen)

    first = Watcher(screen(None), -1, "http://localhost/", "en")
    second = Watcher(screen(first), -1, "http://localhost/", "fr")  # another language: rendered apart
    screens = app.extensions["banker.renderers"]
    try:
        for watcher in (first, second):
            screens.join(game.code, watcher)
            assert watcher.ready.wait(10)
        while first.next(0) is not None or second.next(0) is not None:
            pass  # what a page opened from nothing is sent first
        version = game.ok("banker", type="bank_pay", player=1, amount=5)["version"]
        assert second.next(10)[0] == version  # the change is rendered for both
        assert (version, None) in order and all(item is None for v, item in order if v == version)
        assert first.next(10)[0] == version
    finally:
        app.extensions["banker.notifier"].close()


def test_a_render_gives_way_to_an_answer_until_it_is_over(app):
    gate = PostGate()
    gate.PATIENCE = 60  # longer than the test: only the answer's end lets the render go on
    answer = app.test_request_context(method="POST")
    answer.push()
    gave_way = threading.Event()
    try:
        gate.request_started()
        render = threading.Thread(target=lambda: (gate.courtesy()(), gave_way.set()))
        render.start()
        assert not gave_way.wait(0.2)  # still waiting (a render that did not wait would be done)
        gate.request_ended(None)
    finally:
        answer.pop()
    assert gave_way.wait(10)
    render.join()


def test_a_render_gives_way_no_longer_than_its_patience(app):
    """Under a flood of actions the screens still render: once its patience is spent, a render
    goes on while answers are in progress."""
    gate = PostGate()
    gate.PATIENCE = 0
    with app.test_request_context(method="POST"):
        gate.request_started()
        give_way = gate.courtesy()
        for _ in range(3):
            give_way()  # returns at once: nothing to wait for
        assert gate.answering == 1
        gate.request_ended(None)
    assert gate.answering == 0


def test_a_render_hands_the_interpreter_on_quickly_and_only_while_it_runs(app, game):
    """While a render runs a waiting thread gets the interpreter within SWITCH_SECONDS; between
    renders the answers share it at Python's own pace."""
    import sys

    from banker.live.renderer import SWITCH_SECONDS

    before, during = sys.getswitchinterval(), []

    watcher = Watcher(banker_screen(lambda known: during.append(sys.getswitchinterval())), -1, "http://localhost/", "en")
    screens = app.extensions["banker.renderers"]
    try:
        screens.join(game.code, watcher)
        assert watcher.ready.wait(10) and watcher.next(10) is not None
        renderer = screens.renderers[game.code]
    finally:
        app.extensions["banker.notifier"].close()
    renderer.thread.join(10)  # its render is over
    assert during == [SWITCH_SECONDS] and sys.getswitchinterval() == before > SWITCH_SECONDS
