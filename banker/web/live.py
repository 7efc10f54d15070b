"""Live updates: each page holds one Server-Sent Events connection that carries its screen's HTML.

After a change is committed, the store publishes the game's new version; every connection of the
game wakes, renders its screen once, and pushes the parts whose HTML changed in one `update`
event of out-of-band swaps (htmx's SSE extension applies it). So a change costs each screen one
render and no request, and an idle page costs nothing but a keep-alive comment now and then.

Each event's id is the version it shows. A reconnecting EventSource sends it back as
`Last-Event-ID` (a first connection gives `?v=`, the version its page was rendered at), so a page
that lost its connection (a phone asleep, a server restart, a Wi-Fi blip) gets everything that
changed meanwhile as soon as it is back.
"""

import re
import threading
from collections.abc import Callable

from flask import Response, current_app, render_template, request, stream_with_context

from ..models import db
from ..notifier import notifier

RETRY_MS = 1000  # how soon a browser reconnects after the connection drops
_NONCE = re.compile(r'name="nonce" value="[^"]*"')
_VERSION = re.compile(r"[0-9]{1,12}")

Render = Callable[[], tuple[int, dict[str, str]]]


class Gone(Exception):
    """This browser may no longer watch the screen (its seat went to another phone): `html` says
    so, in out-of-band swaps that also end the page's live connection."""

    def __init__(self, html: str):
        super().__init__(html)
        self.html = html


def init_app(app) -> None:
    """Room for LIVE_CONNECTIONS open connections; each holds one of the server's threads."""
    app.extensions["banker.live"] = threading.BoundedSemaphore(app.config["LIVE_CONNECTIONS"])


def since() -> int:
    """The version the page shows: the id of the last event it got, or the one it was rendered at
    (-1 when unknown: everything is sent)."""
    for value in (request.headers.get("Last-Event-ID"), request.args.get("v")):
        if value and _VERSION.fullmatch(value):
            return int(value)
    return -1


def stream(code: str, render: Render) -> Response:
    """The event stream of one screen of game `code`; `render` gives its version and parts, or
    raises Gone. Answers 503 (the browser retries later) when every connection slot is taken."""
    slots = current_app.extensions["banker.live"]
    if not slots.acquire(blocking=False):
        return Response("", 503, {"Retry-After": "5"})
    response = Response(stream_with_context(_events(code, since(), render)),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slots.release)
    return response


def _events(code: str, shown: int, render: Render):
    # The first bytes flush the headers at once, so the browser knows it is connected.
    yield f"retry: {RETRY_MS}\n\n"
    changes = notifier()
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    sent: dict[str, str] = {}
    while True:
        try:
            version, parts = render()
        except Gone as gone:
            yield _update(shown, gone.html)
            return
        finally:
            db.session.remove()  # no connection or read transaction is held while waiting
        if version != shown:
            yield _update(version, "".join(html for name, html in parts.items()
                                           if _masked(sent.get(name)) != _masked(html)))
            shown = version
        sent = parts
        while changes.wait(code, shown, heartbeat) is None:
            if changes.closed:
                return
            yield ": ping\n\n"


def render_parts(screen, area: str) -> dict[str, str]:
    """Every part of a screen as out-of-band swaps, each rendered from the pieces it needs."""
    return {name: render_template(f"{area}/_{name}.html", oob=True, **screen.context([name]))
            for name in screen.PARTS}


def _masked(html: str | None) -> str | None:
    """The HTML without its form nonces, which differ on every render of the same thing."""
    return _NONCE.sub("", html) if html else html


def _update(version: int, html: str) -> str:
    """One `update` event. Without HTML it only moves the id on (a browser dispatches no event
    without data, but keeps the id for its next reconnection)."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {version}\nevent: update\n{data}\n"
