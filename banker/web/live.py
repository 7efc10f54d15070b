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

from flask import Response, current_app, g, render_template, request, stream_with_context

from ..models import db
from ..notifier import notifier
from .seats import visit, visit_or_404

RETRY_MS = 1000  # how soon a browser reconnects after the connection drops
_NONCE = re.compile(r'name="nonce" value="[^"]*"')
_VERSION = re.compile(r"[0-9]{1,12}")

Render = Callable[[], tuple[int, object]]  # the version and the screen (a context.Screen)


class Gone(Exception):
    """This browser may no longer watch the screen (its seat went to another phone), or the screen
    has nothing more to wait for (a used rejoin code): `html` says so, in out-of-band swaps that
    also end the page's live connection."""

    def __init__(self, html: str):
        super().__init__(html)
        self.html = html


class PostGate:
    """The gate POSTs pass through while renders wait: each POST (a form or an action) is counted
    from its start to its end, and a live render waits (PATIENCE at most) while any is being
    answered. At a table's pace nothing changes; under a flood of actions the screens render less
    often, each showing the newest version, and the taps stay fast."""

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


def init_app(app) -> None:
    """Room for LIVE_CONNECTIONS open connections, each holding one of the server's threads; and
    LIVE_RENDERS of them rendering at once. A change wakes every screen of its game together, and
    with Python's one interpreter lock more renders at once only take turns, slow each other, and
    hold up the requests of the players acting meanwhile."""
    app.extensions["banker.live"] = threading.BoundedSemaphore(app.config["LIVE_CONNECTIONS"])
    app.extensions["banker.renders"] = threading.BoundedSemaphore(app.config["LIVE_RENDERS"])
    gate = app.extensions["banker.post_gate"] = PostGate()
    app.before_request(gate.request_started)
    app.teardown_request(gate.request_ended)


def since() -> int:
    """The version the page shows: the id of the last event it got, or the one it was rendered at
    (-1 when unknown: everything is sent)."""
    for value in (request.headers.get("Last-Event-ID"), request.args.get("v")):
        if value and _VERSION.fullmatch(value):
            return int(value)
    return -1


def watch(code: str, kind: str, screen: Callable) -> Response:
    """The live connection of the screen this browser shows of game `code`, seen with the secret
    of `kind` it holds ("banker" or "seat"): `screen(game, actor)` makes the screen at each
    change (the actor is None when the secret is not, or no longer, that kind's here), or raises
    Gone. 404 when there is no such game."""
    game = visit_or_404(code, kind)[0]

    def render():
        game, actor = visit(code, kind)
        if game is None:
            raise Gone("")
        return game.version, screen(game, actor)

    return stream(game.code, render)


def stream(code: str, render: Render) -> Response:
    """The event stream of one screen of game `code`; `render` gives its version and screen, or
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
    renders, gate = current_app.extensions["banker.renders"], current_app.extensions["banker.post_gate"]
    sent: dict[str, tuple] = {}
    while True:
        try:
            with renders:
                gate.wait()
                version, screen = render()
                parts = render_parts(screen, sent)
        except Gone as gone:
            yield _update(shown, gone.html)
            return
        finally:
            db.session.remove()  # no connection or read transaction is held while waiting
        if version != shown:
            yield _update(version, "".join(html for name, (_, html) in parts.items()
                                           if name not in sent or _masked(sent[name][1]) != _masked(html)))
            shown = version
        sent = parts
        while changes.wait(code, shown, heartbeat) is None:
            if changes.closed:
                return
            yield ": ping\n\n"


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


def _masked(html: str | None) -> str | None:
    """The HTML without its form nonces, which differ on every render of the same thing."""
    return _NONCE.sub("", html) if html else html


def _update(version: int, html: str) -> str:
    """One `update` event. Without HTML it only moves the id on (a browser dispatches no event
    without data, but keeps the id for its next reconnection)."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {version}\nevent: update\n{data}\n"
