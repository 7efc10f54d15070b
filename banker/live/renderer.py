"""The renderer: one per watched game, rendering each kind of screen once per change.

Every open page of a game is a `Watcher`, keyed by the screen it shows: the host screen (as the
banker or not, with the seat picked), one seat's phone, in one language. When the game changes,
its renderer takes the new version from the memory, has the screen of each key drawn once (a part
whose dependencies are those of the key's last frame keeps its HTML), and hands each
watcher the parts it does not show yet, once every screen of the change is rendered. The
watcher's connection only writes them (stream.py).

The screens are drawn in a process of their own (drawer.py), which keeps the render's CPU off
the answers' interpreter. Drawn in the renderer's thread instead (LIVE_DRAWER = "thread"), they
share the process with the answers to taps, and the answers go first: a render
gives way, part by part, to a form or an action being answered (PostGate), and rests after a render
during which its game changed again (a flood of actions); while a render runs, a thread waiting
for the interpreter gets it within SWITCH_SECONDS (quick_switches); and the heap the app starts
with is left out of the collector's passes (freeze_heap). Why each, with its figures:
docs/benchmarks.md, The live path's tail.

What a screen shows and how its HTML is drawn is the screens package's (banker/screens/): the
renderer has the drawer (drawer.py: a process of its own, or this thread) `draw` each kind of
screen, and asks each frame the `swaps` of each watcher's page.
"""

import gc
import logging
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager

from flask import g, request

from .. import screens
from ..metrics import rendered
from ..store import in_one_line, outage, release
from .drawer import Apart, DrawingFailed, InThread

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # after a render failed (the database away for a moment), try again this soon
# When a game changed again while its screens were rendered (a flood of actions on it: a script,
# or everyone bidding at once), the render slot rests RENDER_REST times as long as that render took
# (at most MAX_REST seconds) before any renderer renders again: the screens take a quarter of the
# time at most, each showing the newest version, and the taps stay fast. Not after a render that
# merely ended while some answer was under way (it used to): at a club's pace, with a worker
# following a dozen tables, the other tables' changes waited out rests that helped nobody.
RENDER_REST = 3
MAX_REST = 0.1
SWITCH_SECONDS = 0.001  # see quick_switches
_switching, _rendering, _interval = threading.Lock(), 0, 0.005  # quick_switches': the renders under way
_freezing, _frozen = threading.Lock(), False  # freeze_heap's, once per process


def freeze_heap() -> None:
    """Once per process, as its first renderer starts (the app made, a first page's templates
    compiled): collect the garbage, then leave every object alive now out of the collector's later
    passes (gc.freeze). A full pass walks every object the collector tracks, about 120,000 once a
    table has been served, with every thread stopped: about 50 ms on the development machine when
    quiet, several hundred when busy, once every few hundred actions (docs/benchmarks.md); after
    the freeze it walks only what was made since."""
    global _frozen
    with _freezing:
        if _frozen:
            return
        _frozen = True
    gc.collect()
    gc.freeze()


@contextmanager
def quick_switches():
    """While a render runs, a thread waiting for the interpreter gets it within SWITCH_SECONDS,
    not Python's 5 ms: an answer to a tap, or a page's connection with bytes to write, is not held
    up a switch interval at each step behind the render. Between renders the answers share the
    interpreter at Python's pace: one holding SQLite's write lock is not cut short every
    millisecond by the others, which would wait the longer for the lock."""
    global _rendering, _interval
    with _switching:
        if not _rendering:
            _interval = sys.getswitchinterval()
            sys.setswitchinterval(min(_interval, SWITCH_SECONDS))
        _rendering += 1
    try:
        yield
    finally:
        with _switching:
            _rendering -= 1
            if not _rendering:
                sys.setswitchinterval(_interval)


class Gone(Exception):
    """This browser may no longer watch the screen (its seat went to another phone), or the screen
    has nothing more to wait for (a used rejoin code): `html` says so, in out-of-band swaps that
    also end the page's live connection."""

    def __init__(self, html: str):
        super().__init__(html)
        self.html = html


SEATS = "seats"  # what a watcher is handed when the game's seats changed: it checks its own again


class Watcher:
    """One open page of a game: the kind of screen it shows (screens.Kind), in its language at its
    address (together, its key: pages with the same key are sent the same HTML), the version it shows
    and the parts it was sent; and what the renderer handed it to write, in order."""

    def __init__(self, kind: screens.Kind, shown: int, url_root: str, locale: str):
        self.kind, self.shown = kind, shown
        self.key = (kind, locale, url_root)
        self.url_root, self.locale = url_root, locale
        self.sent: dict[str, tuple] = {}
        self.ready = threading.Event()  # the renderer has handed it the screen it lacks, if any
        self._handed: deque = deque()
        self._woken = threading.Condition()
        self.closed = False

    def hand(self, item) -> None:
        with self._woken:
            self._handed.append(item)
            self._woken.notify()

    def close(self) -> None:
        """Nothing more comes (the server is stopping): its connection ends, and does not wait for
        a first screen that will never be rendered."""
        with self._woken:
            self.closed = True
            self._woken.notify()
        self.ready.set()

    def next(self, timeout: float):
        """The next thing to write: (version, HTML), SEATS; None after `timeout` or once closed."""
        with self._woken:
            self._woken.wait_for(lambda: self._handed or self.closed, timeout)
            return self._handed.popleft() if self._handed else None


class PostGate:
    """The gate POSTs pass through while renders wait: each POST (a form or an action) is counted
    from its start to its end, and a render gives way while any is being answered, between one
    part and the next (PATIENCE in all, at most, per render): the interpreter's lock is then the
    answer's alone, and a tap that comes in the middle of a render is answered about as fast as one
    between renders.
    At a table's pace nothing changes; under a flood of actions the screens render less often,
    each showing the newest version, and the taps stay fast."""

    PATIENCE = 0.01  # seconds a render waits at most, in all, for the answers in progress

    def __init__(self):
        self._answering = 0
        self._quiet = threading.Condition()

    def request_started(self) -> None:
        if request.method == "POST":
            g.answering = True
            with self._quiet:
                self._answering += 1

    def request_ended(self, _error) -> None:
        # Counted only if it was counted: a request refused earlier (CSRF) never got here.
        if g.pop("answering", False):
            with self._quiet:
                self._answering -= 1
                if not self._answering:
                    self._quiet.notify_all()

    @property
    def answering(self) -> int:
        """How many answers are in progress."""
        return self._answering

    def wait(self, patience: float) -> float:
        """Wait while answers are in progress, `patience` seconds at most: the patience left."""
        if not self._answering or patience <= 0:
            return patience
        started = time.perf_counter()
        with self._quiet:
            self._quiet.wait_for(lambda: not self._answering, patience)
        return patience - (time.perf_counter() - started)

    def courtesy(self) -> Callable[[], None]:
        """For one render: give way to the answers in progress, each time it is called, until
        PATIENCE is spent."""
        left = self.PATIENCE

        def give_way() -> None:
            nonlocal left
            if self._answering and left > 0:
                left = self.wait(left)

        return give_way


class Renderers:
    """Per app: the renderer of each watched game. Told of every version the notifier publishes
    (this process's commits, and the other processes' through its relay)."""

    def __init__(self, app, memory, notifier):
        self.app, self.memory, self.notifier = app, memory, notifier
        self.drawer = (Apart if app.config["LIVE_DRAWER"] == "process" else InThread)(app)  # drawer.py
        self.renders = threading.BoundedSemaphore(app.config["LIVE_RENDERS"])
        self.gate = PostGate()
        self.lock = threading.Lock()  # each renderer's condition is on it
        self.renderers: dict[str, Renderer] = {}
        self.closed = False
        notifier.listeners.append(self.heard)

    def heard(self, code: str | None, version: int) -> None:
        """The notifier published `version` of game `code`: a new version to render, or the same
        again (its seats changed); code None: look at every game again, in the database (news may
        have gone by unheard: the relay between processes was down), or, once closed, stop."""
        with self.lock:
            if self.notifier.closed:
                self.closed = True
            for renderer in ([self.renderers[code]] if code in self.renderers else []) if code else self.renderers.values():
                if code is None or version <= renderer.heard:
                    renderer.seats = True
                renderer.look = renderer.look or code is None
                renderer.heard = max(renderer.heard, version)
                renderer.woken.notify()
        if self.closed:
            self.drawer.close()

    def join(self, code: str, watcher: Watcher) -> None:
        """A page opened: it is rendered for at once, and at every change of the game from now on."""
        self.notifier.listen()
        with self.lock:
            renderer = self.renderers.get(code)
            if renderer is None:
                renderer = self.renderers[code] = Renderer(self, code)
                renderer.thread.start()
            renderer.watchers.append(watcher)
            renderer.fresh.append(watcher)
            renderer.heard = max(renderer.heard, watcher.shown)
            renderer.woken.notify()

    def leave(self, code: str, watcher: Watcher) -> None:
        with self.lock:
            renderer = self.renderers.get(code)
            if renderer is not None and watcher in renderer.watchers:
                renderer.watchers.remove(watcher)
                if watcher in renderer.fresh:
                    renderer.fresh.remove(watcher)
                renderer.woken.notify()


class Renderer:
    """The watchers of one game and the thread that renders for them. It runs while the game has
    watchers, and ends with the last one."""

    def __init__(self, renderers: Renderers, code: str):
        self.renderers, self.code = renderers, code
        self.watchers: list[Watcher] = []
        self.fresh: list[Watcher] = []  # joined since the last render: rendered for at once
        self.heard = -1  # the newest version heard of
        self.rendered = -1  # the version the frames show
        self.seats = False  # the seats changed since the watchers last checked theirs
        self.look = False  # read the game from the database: it may be past the newest version heard of
        # Its own condition: a change wakes its game's renderer alone, not every game's.
        self.woken = threading.Condition(renderers.lock)
        self.thread = threading.Thread(target=self._run, name=f"banker-render-{code}", daemon=True)

    def _run(self) -> None:
        freeze_heap()
        with self.renderers.app.app_context():
            while self._next():
                pass

    def _next(self) -> bool:
        """Render once for what changed; False once there is nobody left to render for."""
        hub = self.renderers
        with hub.lock:
            self.woken.wait_for(lambda: hub.closed or not self.watchers or self.fresh or self.seats or self.look
                                 or self.heard > self.rendered)
            ended = hub.closed or not self.watchers
            if ended:
                if hub.renderers.get(self.code) is self:
                    del hub.renderers[self.code]
                if hub.closed:
                    for watcher in self.watchers:
                        watcher.close()
            heard, fresh, seats, look = self.heard, self.fresh, self.seats, self.look
            self.fresh, self.seats, self.look = [], False, False
            watchers = list(self.watchers)
        if ended:
            if not hub.closed:
                hub.drawer.forget(self.code)  # its screens' frames let go (outside the lock: a pipe)
            return False
        if seats:
            for watcher in watchers:
                watcher.hand(SEATS)
        try:
            with hub.renders:
                with quick_switches():
                    started = time.perf_counter()
                    known = hub.memory.newest(self.code, max(heard, self.rendered), look)
                    if known is None:  # the game was deleted
                        for watcher in watchers:
                            watcher.close()
                        return True
                    self._render(known, watchers if known.version != self.rendered else fresh)
                    spent = time.perf_counter() - started
                rendered(spent)
                if self.heard > known.version:  # under a flood of actions the screens take their share, no
                    # more: resting with the render slot held, every game's renderer waits its turn too
                    time.sleep(min(spent * RENDER_REST, MAX_REST))
        except Exception as error:  # the pages keep what they show meanwhile
            if isinstance(error, DrawingFailed) and not error.outage:  # the drawing process's traceback, or its end
                log.error("rendering game %s failed; trying again: %s", self.code, error)
            elif isinstance(error, DrawingFailed) or outage(error):  # the database away for a moment (here
                # or in the drawing process), not a bug: one line, no traceback
                log.warning("rendering game %s failed (%s); trying again", self.code, in_one_line(error))
            else:
                log.exception("rendering game %s failed; trying again", self.code)
            with hub.lock:
                self.fresh = fresh + self.fresh
                self.look = self.look or look
                self.rendered = -1
            time.sleep(RETRY_SECONDS)
        finally:
            release()  # no connection or read transaction is held while waiting
        return True

    def _render(self, known, watchers: list[Watcher]) -> None:
        """Hand each watcher the parts of its screen at `known` (or later: the drawer's version) that
        it does not show: all of them once every screen is drawn, so that no connection's thread
        wakes to write while the screens are still drawn in this process (each would wait for its
        turn at the interpreter, a switch interval at a time, and the last screen would get its
        bytes well after the render)."""
        version, frames = self.renderers.drawer.draw(self.code, known, {watcher.key for watcher in watchers},
                                                     self.renderers.gate.courtesy())
        handed = []
        for watcher in watchers:
            frame = frames.get(watcher.key)
            if frame is None:  # its screen failed: its connection need not wait for it
                handed.append((watcher, None))
                continue
            if not watcher.sent and watcher.shown == version:
                watcher.sent = frame.parts  # its page was rendered at this version: it shows these parts
                handed.append((watcher, None))
                continue
            swaps = frame.swaps(watcher.sent)
            watcher.sent, watcher.shown = frame.parts, version
            handed.append((watcher, (version, swaps)))
        self.rendered = version
        for watcher, item in handed:
            if item is not None:
                watcher.hand(item)
            watcher.ready.set()
