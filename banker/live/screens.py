"""The renderer: one per watched game, rendering each kind of screen once per change.

Every open page of a game is a `Watcher`, keyed by the screen it shows: the host screen (as the
banker or not, with the seat picked), one seat's phone, in one language. When the game changes,
its renderer takes the new version from the memory, renders the parts of each key once (a part
whose dependencies are those of the key's last frame keeps its HTML, context.py), and hands each
watcher the parts it does not show yet. The watcher's connection only writes them (stream.py).

What differs between two browsers showing the same screen is left out of the shared HTML as
marks: the CSRF token (the browser's session's) and each form's nonce (every form a browser gets
has a new one), which the connection writes in (`unmark`).
"""

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable

from flask import current_app, g, render_template, request
from flask_babel import force_locale

from sqlalchemy.exc import SQLAlchemyError

from ..models import db

log = logging.getLogger(__name__)

CSRF_MARK = "\x1ecsrf\x1e"
NONCE_MARK = "\x1enonce\x1e"
RETRY_SECONDS = 1.0  # after a render failed (the database away for a moment), try again this soon


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
        self.sent: dict[str, str] = {}
        self._handed: deque = deque()
        self._ready = threading.Condition()
        self.closed = False

    def hand(self, item) -> None:
        with self._ready:
            self._handed.append(item)
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify()

    def next(self, timeout: float):
        """The next thing to write: (version, HTML), SEATS; None after `timeout` or once closed."""
        with self._ready:
            self._ready.wait_for(lambda: self._handed or self.closed, timeout)
            return self._handed.popleft() if self._handed else None


class PostGate:
    """The gate POSTs pass through while renders wait: each POST (a form or an action) is counted
    from its start to its end, and a render waits (PATIENCE at most) while any is being answered.
    At a table's pace nothing changes; under a flood of actions the screens render less often,
    each showing the newest version, and the taps stay fast."""

    PATIENCE = 0.01  # seconds a render waits at most for the answers in progress

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

    def wait(self) -> None:
        with self._quiet:
            self._quiet.wait_for(lambda: not self._answering, self.PATIENCE)


class Screens:
    """Per app: the renderer of each watched game. Told of every version the notifier publishes
    (this process's commits, and the other processes' through its relay)."""

    def __init__(self, app, memory, notifier):
        self.app, self.memory, self.notifier = app, memory, notifier
        self.renders = threading.BoundedSemaphore(app.config["LIVE_RENDERS"])
        self.gate = PostGate()
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # one condition: a change wakes one thread
        self.renderers: dict[str, Renderer] = {}
        self.closed = False
        notifier.listeners.append(self.heard)

    def heard(self, code: str | None, version: int) -> None:
        """The notifier published `version` of game `code`: a new version to render, or the same
        again (its seats changed); code None: look at every game again (or, once closed, stop)."""
        with self.lock:
            if self.notifier.closed:
                self.closed = True
            for renderer in ([self.renderers[code]] if code in self.renderers else []) if code else self.renderers.values():
                if code is None or version <= renderer.heard:
                    renderer.seats = True
                renderer.heard = max(renderer.heard, version)
            self.changed.notify_all()

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
            self.changed.notify_all()

    def leave(self, code: str, watcher: Watcher) -> None:
        with self.lock:
            renderer = self.renderers.get(code)
            if renderer is not None and watcher in renderer.watchers:
                renderer.watchers.remove(watcher)
                if watcher in renderer.fresh:
                    renderer.fresh.remove(watcher)
                self.changed.notify_all()


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
        self.frames: dict = {}  # watcher key -> the parts of its screen at `rendered`: {part: (depends, HTML)}
        self.thread = threading.Thread(target=self._run, name=f"banker-render-{code}", daemon=True)

    def _run(self) -> None:
        with self.screens.app.app_context():
            while self._next():
                pass

    def _next(self) -> bool:
        """Render once for what changed; False once there is nobody left to render for."""
        hub = self.screens
        with hub.lock:
            hub.changed.wait_for(lambda: hub.closed or not self.watchers or self.fresh or self.seats
                                 or self.heard > self.rendered)
            if hub.closed or not self.watchers:
                if hub.renderers.get(self.code) is self:
                    del hub.renderers[self.code]
                if hub.closed:
                    for watcher in self.watchers:
                        watcher.close()
                return False
            heard, fresh, seats = self.heard, self.fresh, self.seats
            self.fresh, self.seats = [], False
            watchers = list(self.watchers)
        if seats:
            for watcher in watchers:
                watcher.hand(SEATS)
        try:
            with hub.renders:
                hub.gate.wait()
                known = hub.memory.newest(self.code, max(heard, self.rendered))
                if known is None:  # the game was deleted
                    for watcher in watchers:
                        watcher.close()
                    return True
                self._render(known, watchers if known.version != self.rendered else fresh)
        except Exception:  # the database away for a moment: the pages keep what they show meanwhile
            log.exception("rendering game %s failed; trying again", self.code)
            with hub.lock:
                self.fresh = fresh + self.fresh
                self.rendered = -1
            time.sleep(RETRY_SECONDS)
        finally:
            db.session.remove()  # no connection or read transaction is held while waiting
        return True

    def _render(self, known, watchers: list[Watcher]) -> None:
        """Hand each watcher the parts of its screen at `known` that it does not show."""
        if known.version == self.rendered:
            previous, frames = {}, self.frames  # new watchers at the version rendered
        else:
            previous, frames = self.frames, {}
        for watcher in watchers:
            parts = frames.get(watcher.key)
            if parts is None:
                try:
                    parts = frames[watcher.key] = self._parts(known, watcher, previous.get(watcher.key))
                except SQLAlchemyError:
                    raise  # the database: try again soon, for everyone
                except Exception:  # a bug in one screen: the others still get the change
                    log.exception("rendering a screen of game %s failed", self.code)
                    continue
            if not watcher.sent and watcher.shown == known.version:
                watcher.sent = parts  # its page was rendered at this version: it shows these parts
                continue
            html = "".join(html for name, (_, html) in parts.items()
                           if name not in watcher.sent or watcher.sent[name][1] != html)
            watcher.sent, watcher.shown = parts, known.version
            watcher.hand((known.version, html))
        self.frames, self.rendered = frames, known.version

    def _parts(self, known, watcher: Watcher, previous: dict | None) -> dict[str, tuple]:
        """The watcher's screen at `known`, rendered in its language at its address (links and QR
        codes name it), with marks for what differs between browsers."""
        with self.screens.app.test_request_context(base_url=watcher.url_root), force_locale(watcher.locale):
            g.live_marks = True
            return render_parts(watcher.make(known), previous)


def render_parts(screen, shown: dict | None = None) -> dict[str, tuple]:
    """The parts of a screen as out-of-band swaps, each rendered from the pieces it needs:
    {part: (what it depends on, HTML)}. A part whose dependencies are those of the HTML in `shown`
    is not rendered again: it keeps that HTML."""
    parts = {}
    for name in screen.PARTS:
        depends = screen.depends(name)
        if shown and name in shown and depends is not None and shown[name][0] == depends:
            parts[name] = shown[name]
        else:
            html = render_template(f"{screen.AREA}/_{name}.html", oob=True, **screen.context([name]))
            parts[name] = (depends, html)
    return parts
