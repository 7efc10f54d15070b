"""Rate limits per client address: nobody creates thousands of games, takes seats in bulk or tries
game codes (or rejoin codes, or TV view keys) until one fits. Counted in this process's memory,
which is enough on a LAN; behind a proxy the address is the proxy's unless ProxyFix is set up (the
hosted mode). Every 429 says when to try again (Retry-After, `retry_after`)."""

import math
import time

from flask import Flask, current_app, g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from ... import store
from ..answers.seats import visit

# A club creates a game per table, a few times a night; a family one. Bringing a game back from its
# file (an import, which replays it: a second or so for a long evening) counts as creating one: the
# home page's forms and the API's share one count.
CREATE = "10 per minute;100 per day"
CREATING = ("home.create", "api.create", "home.bring_back", "api.bring_back")
# A table's phones join within a minute or two; on a hosted server a whole club may share an address,
# its ten tables of eight joining at once: the join page, the rejoin codes and the API share one count.
JOIN = "120 per minute"
JOINING = ("join.submit", "join.take", "api.join")
# Unknown codes (a mistyped code, a stale rejoin code, a wrong TV key): a few typos are fine, a
# search is not.
UNKNOWN = "30 per minute;300 per day"
# Every page, live connection and API call that names a game by its code (the front page's join box too).
GUESSED = ("table", "player", "join", "tv", "api")


def init_app(app: Flask) -> None:
    """Limit the app's endpoints (call after the blueprints are registered). RATELIMIT_ENABLED
    turns it off (the tests do, but for the test of the limits)."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://")
    app.extensions["banker.limiter"] = limiter  # the limits below hold it only weakly
    creating = limiter.shared_limit(CREATE, scope="create", override_defaults=False)
    for name in CREATING:
        app.view_functions[name] = creating(app.view_functions[name])
    joining = limiter.shared_limit(JOIN, scope="join", override_defaults=False)
    for name in JOINING:
        app.view_functions[name] = joining(app.view_functions[name])
    # Counted: a 404, and a live connection to a game that is not there (answered 200 with an event
    # that stops its page, g.unknown_code: answers/seats.gone), which tells a guess no more.
    unknown = limiter.shared_limit(UNKNOWN, scope="unknown-code", exempt_when=_in_its_own_game(limiter),
                                   deduct_when=lambda response: response.status_code == 404
                                   or g.get("unknown_code", False))
    for blueprint in GUESSED:
        unknown(app.blueprints[blueprint])
    app.view_functions["home.join_code"] = unknown(app.view_functions["home.join_code"])


def _in_its_own_game(limiter: Limiter):
    """Whether a request passes the unknown-code limit although its address went over it: it comes
    from a browser holding a badge in the game it names (the banker's tools, a seat), an API client
    with one of the game's tokens, or a TV with the game's view key. So an address is never locked
    out of its own games (a club behind one address, where someone mistyped codes all evening),
    while to anyone else every code, real or not, is refused alike: the limit tells a guess
    nothing. Asked at each request to these pages, it costs a look at the limit's count in memory,
    and a query or two only for an address over it; its 404s in its own game are not counted then."""
    items = parse_many(UNKNOWN)

    def exempt() -> bool:
        if "in_its_own_game" not in g:
            address = get_remote_address()
            over = not all(limiter.limiter.test(item, address, "unknown-code") for item in items)
            g.in_its_own_game = over and _holds_something_in(_named_code())
        return g.in_its_own_game

    return exempt


def _named_code() -> str | None:
    """The game code the request names: in its address, or the front page's join box."""
    if request.endpoint == "home.join_code":
        return request.args.get("code", "").strip().upper() or None
    return (request.view_args or {}).get("code")


def _holds_something_in(code: str | None) -> bool:
    """Whether the request holds something in game `code`: the view key of its TV screen (on the TV's
    pages), one of its API tokens (on the API), or a badge of this browser's (elsewhere)."""
    if code is None:
        return False
    if request.blueprint == "tv":
        return store.tv_game(code, request.view_args["key"]) is not None
    if request.blueprint == "api":
        token = request.authorization.token if request.authorization is not None else None
        return bool(token) and store.visit(code, token)[1] is not None
    return any(visit(code, role)[1] is not None for role in ("banker", "seat"))


def retry_after(error) -> int:
    """Seconds until a request answered 429 may be tried again: what the refusal said, or when the
    limit it went over lets it through (its window's end, from the limits' storage), or a minute."""
    if isinstance(getattr(error, "retry_after", None), int):
        return error.retry_after
    limit = current_app.extensions["banker.limiter"].current_limit
    if limit is None or not limit.breached:
        return 60
    return max(1, math.ceil(limit.window[0] - time.time()))  # the window's reset time, in Unix time
