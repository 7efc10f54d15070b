"""What a self-hoster's tools ask of the server: `/healthz` for a supervisor or a load balancer,
`/metrics` for Prometheus (banker/metrics.py), and an access log of one line per request with every
secret masked (docs/hosting.md, Health, logs and metrics).

The access log is the app's own, on the `banker.access` logger, so it is the same under `banker`
(waitress) and under gunicorn, whose own access log would print rejoin codes and view keys in
paths. A line is written once the answer is closed: for a live connection, when it ends.
"""

import logging
import re
import time
from functools import cache
from logging.handlers import RotatingFileHandler
from pathlib import Path
from urllib.parse import quote, unquote

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, request
from sqlalchemy.exc import SQLAlchemyError

from ... import lan, store

bp = Blueprint("operations", __name__)
log = logging.getLogger(__name__)
access = logging.getLogger("banker.access")

# The route arguments that are secrets (web/__init__.py's converters: a rejoin code, a TV's view key).
SECRET_CONVERTERS = ("rejoin", "key")
# Query parameters whose values the app's own links use and which hold nothing secret (a version,
# a language, a page of the history, a new game's choices, a game's code); any other is masked.
SHOWN_PARAMETERS = frozenset(("v", "lang", "state", "after", "limit", "edition", "preset", "code"))
MASK = "***"
SAFE = "/:@!$'()*+,;=-._~"  # what stays as it is in a logged path; anything else is %-encoded
ACCESS_HANDLER = "banker_access"  # marks the handler the app gave the access log itself
LOG_FILE_BYTES = 1024 * 1024  # an evening at a table is a few thousand requests: well under 1 MB
ROUTE = "banker.route"  # environ key: the matched route's rule and arguments, for the log line
_ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


@bp.get("/healthz")
def healthz():
    """200 when the database answers one query, 503 when not. It says nothing else (no version, no
    address, no error), is never rate limited and sets no cookie: a supervisor polls it every few
    seconds."""
    try:
        store.answering()
    except SQLAlchemyError as error:
        log.warning("health check: the database does not answer (%s)", store.in_one_line(error))
        return _no_store(jsonify(status="unavailable"), 503)
    return _no_store(jsonify(status="ok"), 200)


@bp.get("/metrics")
def metrics():
    """The metrics in Prometheus's text format, for this machine only: 404 when METRICS is off, and
    to any other client (its address as the app sees it, the proxy's client's with PROXY_FIX; a
    request through a proxy the app does not trust is not this machine's)."""
    found = current_app.extensions.get("banker.metrics")
    if found is None or not lan.loopback(client_address() or ""):
        abort(404)
    return _no_store(Response(found.text(), content_type=found.CONTENT_TYPE), 200)


def client_address() -> str | None:
    """The client's address as the app sees it (the proxy's client's with PROXY_FIX); None for a
    request through a proxy the app does not trust, whose client it cannot know."""
    if request.headers.get("X-Forwarded-For") and not current_app.config.get("PROXY_FIX"):
        return None
    return request.remote_addr


def _no_store(response: Response, status: int) -> Response:
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """The access log, unless ACCESS_LOG is off: it wraps the whole app (after the proxies' fix,
    whose client address it reads once the request is done), with a handler to stderr at level INFO
    if logging is not set up to take its lines anywhere."""
    if not app.config["ACCESS_LOG"]:
        return
    if not access.hasHandlers():  # else the logging configuration decides where, and at what level
        _log_to(logging.StreamHandler())
    app.before_request(_remember_route)
    app.wsgi_app = AccessLog(app.wsgi_app)


def log_to_file(path: Path) -> None:
    """`banker` on a laptop: the access log goes to a file (rotated at LOG_FILE_BYTES, three kept), not
    to the terminal, where a line per request would scroll its banner and QR code away. Unless the
    logging configuration already says where the lines go."""
    if access.handlers and all(getattr(handler, ACCESS_HANDLER, False) for handler in access.handlers):
        for handler in access.handlers[:]:
            access.removeHandler(handler)
            handler.close()
        _log_to(RotatingFileHandler(path, maxBytes=LOG_FILE_BYTES, backupCount=3, encoding="utf-8", delay=True))


def _log_to(handler: logging.Handler) -> None:
    """The access log's own handler, at level INFO."""
    setattr(handler, ACCESS_HANDLER, True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False  # `banker` sets up the root logger later: one line, not two


def _remember_route() -> None:
    """The route the request matched, for its log line (which is written after the request's context
    is gone): which parts of its path are secrets."""
    if request.url_rule is not None:
        request.environ[ROUTE] = (request.url_rule.rule, request.view_args or {})


class AccessLog:
    """WSGI middleware: one line per request, written when its answer is closed, with the client's
    address, the method, the path with its secrets masked, the status, the bytes of the body sent
    and the time from the request to the answer's end."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        started, status = time.perf_counter(), ["-"]

        def starting(line, headers, exc_info=None):
            status[0] = line.split(" ", 1)[0]
            return start_response(line, headers, exc_info)

        try:
            answer = self.wsgi_app(environ, starting)
        except BaseException:
            _write(environ, "500", 0, started)
            raise
        return Logged(answer, lambda sent: _write(environ, status[0], sent, started))


class Logged:
    """An answer's body as the server sends it, counted, and logged when the server closes it."""

    def __init__(self, answer, done):
        self.answer, self.done, self.sent = answer, done, 0

    def __iter__(self):
        for chunk in self.answer:
            self.sent += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            if hasattr(self.answer, "close"):
                self.answer.close()
        finally:
            self.done(self.sent)


def _write(environ: dict, status: str, sent: int, started: float) -> None:
    access.info('%s "%s %s" %s %s %.1fms', environ.get("REMOTE_ADDR", "-"), environ.get("REQUEST_METHOD", "-"),
                logged_path(environ), status, sent, (time.perf_counter() - started) * 1000)


def logged_path(environ: dict) -> str:
    """The request's path and query as the log shows them: in a matched route, the arguments that
    are secrets (a rejoin code, a view key) masked; in a path that matched no route (which could
    still carry one, mistyped), everything after its first segment; in the query, each parameter but
    the app's own harmless ones masked whole. %-encoded printable ASCII: nobody writes a line of
    their own into the log through a path."""
    path = environ.get("PATH_INFO", "")  # as WSGI gives it: the path's bytes, decoded as latin-1
    route = environ.get(ROUTE)
    if route is None:
        first, _, rest = path.lstrip("/").partition("/")
        path = f"/{first}/{MASK}" if rest else f"/{first}"
    else:
        rule, arguments = route
        secrets = {str(arguments[name]) for name in _secret_arguments(rule) if name in arguments}
        if secrets:
            path = "/".join(MASK if segment in secrets else segment for segment in path.split("/"))
    logged = quote(path.encode("latin-1"), safe=SAFE)
    if query := environ.get("QUERY_STRING", ""):
        logged += "?" + "&".join(quote(part.encode("latin-1"), safe=SAFE + "%")
                                 if unquote(part.partition("=")[0]) in SHOWN_PARAMETERS else MASK
                                 for part in query.split("&"))
    return logged


@cache
def _secret_arguments(rule: str) -> tuple[str, ...]:
    """The names of a route's arguments that are secrets, from its rule (`<rejoin:rejoin>`)."""
    return tuple(name for converter, name in _ARGUMENT.findall(rule) if converter in SECRET_CONVERTERS)
