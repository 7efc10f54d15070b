"""The renderer: one per watched game, rendering each kind of screen once per change.

Every open page of a game is a `Watcher`, keyed by the screen it shows: the host screen (as the
banker or not, with the seat picked), one seat's phone, in one language. When the game changes,
its renderer takes the new version from the memory, renders the parts of each key once (a part
whose dependencies are those of the key's last frame keeps its HTML, context.py), and hands each
watcher the parts it does not show yet, once every screen of the change is rendered. The
watcher's connection only writes them (stream.py).

The renderers share the process with the answers to taps, and the answers go first: a render
gives way, part by part, to a form or an action being answered (PostGate), and rests after a render
during which its game changed again (a flood of actions); while a render runs, a thread waiting
for the interpreter gets it within SWITCH_SECONDS (quick_switches); and the heap the app starts
with is left out of the collector's passes (freeze_heap). Why each, with its figures:
docs/benchmarks.md, The live path's tail.

What differs between two browsers showing the same screen is left out of the shared HTML as
marks: the CSRF token (the browser's session's) and each form's nonce (every form a browser gets
has a new one), which the connection writes in (`unmark`).
"""

import gc
import logging
import re
import secrets
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from contextlib import contextmanager

from flask import g, render_template, request
from flask_babel import force_locale

from sqlalchemy.exc import SQLAlchemyError

from ..metrics import rendered
from ..store import in_one_line, outage, release

log = logging.getLogger(__name__)

CSRF_MARK = "\x1ecsrf\x1e"
NONCE_MARK = "\x1enonce\x1e"
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


def marked(real: Callable[[], str], mark: str) -> Callable[[], str]:
    """A template global (csrf_token, nonce) that gives `mark` while the renderer renders."""
    return lambda: mark if g.get("live_marks") else real()


def unmark(html: str, csrf: str) -> str:
    """Shared HTML for one browser: its CSRF token, and a new nonce in each form."""
    if CSRF_MARK in html:
        html = html.replace(CSRF_MARK, csrf)
    if NONCE_MARK in html:
        pieces = html.split(NONCE_MARK)
        html = "".join(piece + secrets.token_urlsafe(16) for piece in pieces[:-1]) + pieces[-1]
    return html


SEATS = "seats"  # what a watcher is handed when the game's seats changed: it checks its own again


class Watcher:
    """One open page of a game: the key of the screen it shows, how that screen is made from a
    Known (`make`), the version it shows and the parts it was sent; and what the renderer handed
    it to write, in order."""

    def __init__(self, key: Hashable, make: Callable, shown: int, url_root: str, locale: str):
        self.key, self.make, self.shown = (key, locale, url_root), make, shown
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


class Screens:
    """Per app: the renderer of each watched game. Told of every version the notifier publishes
    (this process's commits, and the other processes' through its relay)."""

    def __init__(self, app, memory, notifier):
        self.app, self.memory, self.notifier = app, memory, notifier
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

    def __init__(self, screens: Screens, code: str):
        self.screens, self.code = screens, code
        self.watchers: list[Watcher] = []
        self.fresh: list[Watcher] = []  # joined since the last render: rendered for at once
        self.heard = -1  # the newest version heard of
        self.rendered = -1  # the version the frames show
        self.seats = False  # the seats changed since the watchers last checked theirs
        self.look = False  # read the game from the database: it may be past the newest version heard of
        # watcher key -> the parts of its screen at `rendered`, {part: (depends, HTML)}, its nested parts
        # and the screen
        self.frames: dict = {}
        self.shared: dict = {}  # (language, address) -> the shared parts at `rendered` (render_parts)
        # Its own condition: a change wakes its game's renderer alone, not every game's.
        self.woken = threading.Condition(screens.lock)
        self.thread = threading.Thread(target=self._run, name=f"banker-render-{code}", daemon=True)

    def _run(self) -> None:
        freeze_heap()
        with self.screens.app.app_context():
            while self._next():
                pass

    def _next(self) -> bool:
        """Render once for what changed; False once there is nobody left to render for."""
        hub = self.screens
        with hub.lock:
            self.woken.wait_for(lambda: hub.closed or not self.watchers or self.fresh or self.seats or self.look
                                 or self.heard > self.rendered)
            if hub.closed or not self.watchers:
                if hub.renderers.get(self.code) is self:
                    del hub.renderers[self.code]
                if hub.closed:
                    for watcher in self.watchers:
                        watcher.close()
                return False
            heard, fresh, seats, look = self.heard, self.fresh, self.seats, self.look
            self.fresh, self.seats, self.look = [], False, False
            watchers = list(self.watchers)
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
            if outage(error):  # the database away for a moment, not a bug: one line, no traceback
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
        """Hand each watcher the parts of its screen at `known` that it does not show: all of them
        once every screen is rendered, so that no connection's thread wakes to write while the
        render still holds the interpreter (each would wait for its turn at it, a switch interval
        at a time, and the last screen would get its bytes well after the render)."""
        if known.version == self.rendered:
            previous, frames, shared = {}, self.frames, self.shared  # new watchers at the version rendered
        else:
            previous, frames, shared = self.frames, {}, {}
        give_way, handed = self.screens.gate.courtesy(), []
        for watcher in watchers:
            frame = frames.get(watcher.key)
            if frame is None:
                try:
                    frame = frames[watcher.key] = self._parts(known, watcher, previous.get(watcher.key), shared,
                                                              give_way)
                except SQLAlchemyError:
                    raise  # the database: try again soon, for everyone
                except Exception:  # a bug in one screen: the others still get the change
                    log.exception("rendering a screen of game %s failed", self.code)
                    handed.append((watcher, None))  # its connection need not wait for a screen that failed
                    continue
            parts, nested, _, renewed = frame
            if not watcher.sent and watcher.shown == known.version:
                watcher.sent = parts  # its page was rendered at this version: it shows these parts
                handed.append((watcher, None))
                continue
            sent = {name: changes(watcher.sent[name][1] if name in watcher.sent else None, html)
                    for name, (_, html) in parts.items()}
            for name, around in nested.items():
                if around in renewed and sent[around] == parts[around][1]:
                    sent[name] = ""  # the part around it, drawn at this version, is sent whole with it inside
            watcher.sent, watcher.shown = parts, known.version
            # A nested part after the part around it, which may hold an older drawing of it.
            handed.append((watcher, (known.version, "".join(html for name, html in sent.items() if name not in nested)
                                     + "".join(sent[name] for name in nested))))
        self.frames, self.shared, self.rendered = frames, shared, known.version
        for watcher, item in handed:
            if item is not None:
                watcher.hand(item)
            watcher.ready.set()

    def _parts(self, known, watcher: Watcher, previous: tuple | None, shared: dict,
               give_way: Callable[[], None]) -> tuple:
        """The watcher's screen at `known`, rendered in its language at its address (links and QR
        codes name it), with marks for what differs between browsers: its parts, its nested parts,
        the screen (the next version's may take pieces from it) and the parts drawn at this version
        (the others kept their HTML). `previous`: the same at the version before; `give_way` is
        called before each part (PostGate.courtesy)."""
        with self.screens.app.test_request_context(base_url=watcher.url_root), force_locale(watcher.locale):
            g.live_marks = True
            screen = watcher.make(known)
            if previous is not None:
                screen.previous, previous[2].previous = previous[2], None  # one version back, no further
            shared = shared.setdefault((watcher.locale, watcher.url_root), {})
            parts = render_parts(screen, previous[0] if previous else None, shared, give_way)
            renewed = {name for name, part in parts.items() if previous is None or previous[0].get(name) is not part}
            return parts, screen.NESTED, screen, renewed


def render_parts(screen, shown: dict | None = None, shared: dict | None = None,
                 give_way: Callable[[], None] | None = None) -> dict[str, tuple]:
    """The parts of a screen as out-of-band swaps, each rendered from the pieces it needs:
    {part: (what it depends on, HTML)}. A part whose dependencies are those of the HTML in `shown`
    is not rendered again: it keeps that HTML. A part the screen shares with other screens
    (`screen.SHARED`: its dependencies say all of it, whoever watches) is rendered once per version
    and language for all of them, through `shared`. `give_way`, when given, is called before each
    part (the renderer's: the answers in progress go first)."""
    parts = {}
    for name in screen.PARTS:
        if give_way is not None:
            give_way()
        depends = screen.depends(name)
        if shown and name in shown and depends is not None and shown[name][0] == depends:
            parts[name] = shown[name]
            continue
        key = (screen.AREA, name, depends) if shared is not None and name in screen.SHARED else None
        if key is not None and key in shared:
            parts[name] = shared[key]
            continue
        html = squeeze(render_template(f"{screen.AREA}/_{name}.html", oob=True, **screen.part_context(name)))
        parts[name] = (depends, html)
        if key:
            shared[key] = parts[name]
    return parts


_LINES = re.compile(r"\s*\n\s*")


def squeeze(html: str) -> str:
    """The HTML on one line: each run of white space with a line break becomes one space, which a
    browser shows the same (no part holds a <pre> or a <textarea>); and every line of an event
    costs its `data: ` prefix."""
    return _LINES.sub(" ", html).strip()


# A row of a list: <!--row TAG#ID KEEP--> the row's element, with an id <!--/row-->. TAG#ID is its
# list (the element rows are added to), KEEP how many rows the page keeps (static/app.js drops the
# rest).
_ROW = re.compile(r"<!--row (\w+)#([\w-]+) (\d+)-->\s*(.*?)\s*<!--/row-->", re.S)
# What is not the part's own frame: its rows, and the parts shown inside it (<!--nested-->, sent
# alone when they change).
_NOT_FRAME = re.compile(r"\s*(<!--row [^>]*-->.*?<!--/row-->|<!--nested-->.*?<!--/nested-->)\s*", re.S)
_ROW_ID = re.compile(r'^<[a-z0-9]+[^>]*? id="([^"]+)"')
_FIRST_TAG = re.compile(r"^<[a-z0-9]+")


def changes(old: str | None, new: str) -> str:
    """The out-of-band swaps that take a page showing part HTML `old` to `new`: nothing when they
    are the same; when only rows of its list changed, those rows, and the rows added at its top;
    else the whole part."""
    if old == new:
        return ""
    if old is None or "<!--row " not in new or "<!--row " not in old:
        return new
    before, after = _ROW.findall(old), _ROW.findall(new)
    if _NOT_FRAME.sub("", old) != _NOT_FRAME.sub("", new) or {r[:3] for r in before} != {r[:3] for r in after}:
        return new  # the rest of the part changed, or the list is another
    tag, list_id, keep = after[0][:3]
    old_rows = {_row_id(html): html for *_, html in before}
    new_ids = [_row_id(html) for *_, html in after]
    added = next((n for n, row in enumerate(new_ids) if row in old_rows), len(new_ids))
    kept = new_ids[added:]
    if (any(row in old_rows for row in new_ids[:added]) or kept != list(old_rows)[:len(kept)]
            or min(len(old_rows) + added, int(keep)) != len(new_ids)):
        return new  # rows removed, moved or cut otherwise than the page would
    html = [f'<{tag} hx-swap-oob="afterbegin:#{list_id}">' + "".join(r[3] for r in after[:added]) + f"</{tag}>"] if added else []
    html += [_FIRST_TAG.sub(lambda m: m.group(0) + ' hx-swap-oob="true"', r[3], count=1)
             for r, row in zip(after[added:], kept) if old_rows[row] != r[3]]
    # In a <template>, which htmx looks into: a table's row parses only there, not beside a <p>.
    return "".join(f"<template>{swap}</template>" for swap in html)


def _row_id(html: str) -> str:
    found = _ROW_ID.match(html)
    if found is None:
        raise ValueError(f"a row without an id: {html[:60]}")
    return found.group(1)
