"""Live connections: each page holds one Server-Sent Events connection that carries its screen's HTML.

The connection only writes: the game's renderer (screens.py) hands it the parts of its screen that
changed, as one `update` event of out-of-band swaps (htmx's SSE extension applies it). An idle
page costs nothing but a keep-alive comment now and then. Who the browser is (its badge) is
checked when it connects and whenever the game's seats change, never on each change.

Each event's id is the version it shows. A reconnecting EventSource sends it back as
`Last-Event-ID` (a first connection gives `?v=`, the version its page was rendered at), so a page
that lost its connection (a phone asleep, a server restart, a Wi-Fi blip) gets everything that
changed meanwhile as soon as it is back.
"""

import re
from collections.abc import Callable, Hashable

from flask import Response, current_app, request, stream_with_context
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf

from ..models import db
from .screens import SEATS, Gone, Watcher, unmark

RETRY_MS = 1000  # how soon a browser reconnects after the connection drops
FIRST_RENDER_SECONDS = 5  # a new connection waits this long at most for its screen before a keep-alive
_VERSION = re.compile(r"[0-9]{1,12}")

# Who the browser is, checked at connection and when the seats change: the key of the screen it
# may watch and how to make that screen from a Known; raises Gone when it may watch none.
Check = Callable[[], tuple[Hashable, Callable]]


def since() -> int:
    """The version the page shows: the id of the last event it got, or the one it was rendered at
    (-1 when unknown: everything is sent)."""
    for value in (request.headers.get("Last-Event-ID"), request.args.get("v")):
        if value and _VERSION.fullmatch(value):
            return int(value)
    return -1


def stream(code: str, check: Check) -> Response:
    """The event stream of one screen of game `code`, for the browser `check` says it is. Answers
    503 (the browser retries later) when every connection slot is taken."""
    slots = current_app.extensions["banker.live"]
    if not slots.acquire(blocking=False):
        return Response("", 503, {"Retry-After": "5"})
    response = Response(stream_with_context(_events(code, since(), check)), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slots.release)
    return response


def _events(code: str, shown: int, check: Check):
    # The first bytes flush the headers at once, so the browser knows it is connected.
    yield f"retry: {RETRY_MS}\n\n"
    try:
        key, make = check()
    except Gone as gone:
        yield _update(shown, gone.html)
        return
    finally:
        db.session.remove()  # no connection or read transaction is held while waiting
    screens = current_app.extensions["banker.screens"]
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    csrf, locale, root = generate_csrf(), str(get_locale()), request.url_root
    watcher = Watcher(key, make, shown, root, locale)
    try:
        screens.join(code, watcher)
        watcher.ready.wait(FIRST_RENDER_SECONDS)  # what the page lacks comes before any keep-alive
        while True:
            item = watcher.next(heartbeat)
            if item is None:
                if watcher.closed:
                    return
                yield ": ping\n\n"
            elif item is SEATS:
                try:
                    now = check()
                except Gone as gone:
                    yield _update(watcher.shown, gone.html)
                    return
                finally:
                    db.session.remove()
                if now[0] != key:  # this browser now holds another seat: its screen from scratch
                    screens.leave(code, watcher)
                    key, make = now
                    watcher = Watcher(key, make, -1, root, locale)
                    screens.join(code, watcher)
            else:
                version, html = item
                yield _update(version, unmark(html, csrf))
    finally:
        screens.leave(code, watcher)


def _update(version: int, html: str) -> str:
    """One `update` event. Without HTML it only moves the id on (a browser dispatches no event
    without data, but keeps the id for its next reconnection)."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {version}\nevent: update\n{data}\n"
