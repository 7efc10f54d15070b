"""How a game's renderer shares the process with the answers (banker/live/screens.py): it gives way
to a form or an action being answered, and hands the screens their bytes only once the change is
rendered for all of them. Counted and ordered, never timed."""

import threading

from banker.live.screens import PostGate, Watcher
from banker.web.context import TableScreen


def test_no_screen_is_handed_a_change_before_every_screen_of_it_is_rendered(app, game):
    """A connection's thread woken in the middle of a render would wait for the interpreter, a
    switch interval at a time, behind the render: the first screen's bytes come with the last's."""
    order = []

    def screen(watcher_before):
        def make(known):
            if watcher_before is not None:  # is the screen rendered before this one handed its bytes yet?
                order.append((known.version, watcher_before.next(0)))
            return TableScreen(known, True)
        return make

    first = Watcher(("table",), screen(None), -1, "http://localhost/", "en")
    second = Watcher(("table",), screen(first), -1, "http://localhost/", "fr")  # another language: rendered apart
    screens = app.extensions["banker.screens"]
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

    from banker.live.screens import SWITCH_SECONDS

    before, during = sys.getswitchinterval(), []

    def make(known):
        during.append(sys.getswitchinterval())
        return TableScreen(known, True)

    watcher, screens = Watcher(("table",), make, -1, "http://localhost/", "en"), app.extensions["banker.screens"]
    try:
        screens.join(game.code, watcher)
        assert watcher.ready.wait(10) and watcher.next(10) is not None
        renderer = screens.renderers[game.code]
    finally:
        app.extensions["banker.notifier"].close()
    renderer.thread.join(10)  # its render is over
    assert during == [SWITCH_SECONDS] and sys.getswitchinterval() == before > SWITCH_SECONDS
