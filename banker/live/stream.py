"""Live connections: each page holds one Server-Sent Events connection that carries its screen's HTML.

The connection only writes: the game's renderer (renderer.py) hands it the parts of its screen that
changed, as one `update` event of out-of-band swaps (htmx's SSE extension applies it). An idle
page costs nothing but a keep-alive comment now and then. Who the browser is (its badge) is
checked when it connects and whenever the game's seats change, never on each change.

Each event's id is the version it shows. A reconnecting EventSource sends it back as
`Last-Event-ID` (a first connection gives `?v=`, the version its page was rendered at), so a page
that lost its connection (a phone asleep, a server restart, a Wi-Fi blip) gets everything that
changed meanwhile as soon as it is back.
"""

import logging
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Hashable

from flask import Response, current_app, request, stream_with_context
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from sqlalchemy.exc import DBAPIError

from .. import screens
from ..metrics import live_refused
from ..store import in_one_line, outage, release
from .renderer import SEATS, Gone, Watcher
from .slots import REASONS, SCREENS, Full

log = logging.getLogger(__name__)

RETRY_MS = 1000  # how soon a browser reconnects after the connection drops
FIRST_RENDER_SECONDS = 5  # a new connection waits this long at most for its screen before a keep-alive
# An idle connection looks this often whether its browser hung up (where the server can tell),
# so that a page closed, or a phone gone, gives its slot back within seconds, not at the next
# keep-alive that fails (15 s or more later).
HANG_UP_SECONDS = 2
RETRY_AFTER = "5"  # seconds: a page turned away now tries again by itself (htmx's SSE extension)
# A screen turned away retries every few seconds: the log says so once a minute for each holder and
# reason, not at every retry.
TOLD_SECONDS = 60
_VERSION = re.compile(r"[0-9]{1,12}")

# Who the browser is, checked at connection and when the seats change: the kind of screen it may
# watch; raises Gone when it may watch none.
Check = Callable[[], screens.Kind]


def since() -> int:
    """The version the page shows: the id of the last event it got, or the one it was rendered at
    (-1 when unknown: everything is sent)."""
    for value in (request.headers.get("Last-Event-ID"), request.args.get("v")):
        if value and _VERSION.fullmatch(value):
            return int(value)
    return -1


def stream(code: str, check: Check, holder: Hashable, browser: str | None = None) -> Response:
    """The event stream of one screen of game `code`, for the browser `check` says it is, counted
    against `holder` in the game and the `browser` (its key's hash) that holds it (slots.py).
    Answers 503 (the browser retries later) when one of the shares it counts in is full."""
    try:
        give_back = current_app.extensions["banker.live"].take(request.environ, code, holder, browser,
                                                                request.remote_addr)
    except Full as full:
        return turned_away(code, holder, full.reason)
    response = Response(stream_with_context(_events(code, since(), check, hung_up(request.environ))),
                        mimetype="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(give_back)
    return response


def ended(html: str) -> Response:
    """A live connection answered at once with `html`, then ended: for a page that must stop
    following (its game is gone, or its TV link opens nothing), whose `html` says so and leaves #live
    without sse-connect. An error status would have the page's browser try again and again, for as
    long as it is open."""
    return Response(f"retry: {RETRY_MS}\n\n{_update(0, html)}", mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store"})


def turned_away(code: str, holder: Hashable, reason: str) -> Response:
    """The answer to a live connection refused for `reason` (slots.REASONS): 503, and the page
    retries by itself. The server's log says so once a minute for each game's holder and reason
    (a refused page retries every few seconds), naming the address for a screen without a badge."""
    live_refused(reason)  # counted every time; told once a minute
    who = " ".join(map(str, holder)) if isinstance(holder, tuple) else holder
    if current_app.extensions["banker.turned_away"].first((code, holder, reason)):
        address = f" from {request.remote_addr}" if holder == SCREENS else ""
        log.warning("a live connection to game %s (%s%s) was turned away: %s (%s); it retries by itself",
                    code, who, address, reason, REASONS[reason])
    return Response(_("Too many screens are following the games just now; this page will try again "
                      "by itself."), 503, {"Retry-After": RETRY_AFTER}, mimetype="text/plain")


class Told:
    """What the log has said lately: `first(key)` is true once per TOLD_SECONDS for each key."""

    def __init__(self):
        self._lock = threading.Lock()
        self._said: dict[Hashable, float] = {}

    def first(self, key: Hashable) -> bool:
        now = time.monotonic()
        with self._lock:
            said = self._said.get(key)
            if said is not None and now - said < TOLD_SECONDS:
                return False
            if len(self._said) >= 1024:  # forget what is older than a minute, so it stays small
                self._said = {told: at for told, at in self._said.items() if now - at < TOLD_SECONDS}
            self._said[key] = now
            return True


def hung_up(environ: dict) -> Callable[[], bool] | None:
    """Whether the browser has closed this connection, where the server lets us tell: waitress says
    so (`waitress.client_disconnected`, which knows only while it reads on from the connection:
    `channel_request_lookahead`, cli.server_options); under gunicorn its socket has come to its end.
    None elsewhere: a closed connection is then found when a keep-alive fails."""
    disconnected = environ.get("waitress.client_disconnected")
    if disconnected is not None and getattr(getattr(disconnected, "__self__", None), "adj", None) is not None:
        if disconnected.__self__.adj.channel_request_lookahead > 0:
            return disconnected
    sock = environ.get("gunicorn.socket")
    if isinstance(sock, socket.socket):
        return lambda: _at_end(sock)
    return None


def _at_end(sock: socket.socket) -> bool:
    """A live connection's browser sends nothing after its request: anything to read is its end
    (or, once, the start of another request, which the next keep-alive would find as well)."""
    try:
        if not select.select([sock], [], [], 0)[0]:
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # closed, or no longer a socket
        return True


def _events(code: str, shown: int, check: Check, hung_up: Callable[[], bool] | None):
    # The first bytes flush the headers at once, so the browser knows it is connected.
    yield f"retry: {RETRY_MS}\n\n"
    try:
        kind = check()
    except Gone as gone:
        yield _update(shown, gone.html)
        return
    except DBAPIError as error:
        if _dropped(code, error):
            return
        raise
    finally:
        release()  # no connection or read transaction is held while waiting
    renderers = current_app.extensions["banker.renderers"]
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    csrf, locale, root = generate_csrf(), str(get_locale()), request.url_root
    watcher = Watcher(kind, shown, root, locale)
    try:
        renderers.join(code, watcher)
        watcher.ready.wait(FIRST_RENDER_SECONDS)  # what the page lacks comes before any keep-alive
        wrote = time.monotonic()
        while True:
            waited = heartbeat - (time.monotonic() - wrote)
            item = watcher.next(max(0, min(waited, HANG_UP_SECONDS)) if hung_up else max(0, waited))
            if item is None:
                if watcher.closed or (hung_up and hung_up()):
                    return
                if time.monotonic() - wrote >= heartbeat:
                    wrote = time.monotonic()
                    yield ": ping\n\n"
            elif item is SEATS:
                try:
                    now = check()
                except Gone as gone:
                    yield _update(watcher.shown, gone.html)
                    return
                except DBAPIError as error:
                    if _dropped(code, error):
                        return
                    raise
                finally:
                    release()
                if now != kind:  # this browser now holds another seat: its screen from scratch
                    renderers.leave(code, watcher)
                    kind = now
                    watcher = Watcher(kind, -1, root, locale)
                    renderers.join(code, watcher)
            else:
                version, html = item
                wrote = time.monotonic()
                yield _update(version, screens.unmark(html, csrf))
    finally:
        renderers.leave(code, watcher)


def _dropped(code: str, error: DBAPIError) -> bool:
    """Whether checking who the browser is failed because the database is away for a moment (one
    line in the log, not a traceback): the connection then ends, and its browser reconnects
    (RETRY_MS) and catches up from the version it shows."""
    if not outage(error):
        return False
    log.warning("a live connection to game %s ended (%s); its browser reconnects", code, in_one_line(error))
    return True


def _update(version: int, html: str) -> str:
    """One `update` event. Without HTML it only moves the id on (a browser dispatches no event
    without data, but keeps the id for its next reconnection)."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {version}\nevent: update\n{data}\n"
