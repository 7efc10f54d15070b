"""Rate limits per client address: nobody creates thousands of games, takes seats in bulk or tries
game codes (or rejoin codes) until one fits. Counted in this process's memory, which is enough on a
LAN; behind a proxy the address is the proxy's unless ProxyFix is set up (the hosted mode)."""

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# A club creates a game per table, a few times a night; a family one. Bringing a game back from its
# file (an import, which replays it: a second or so for a long evening) counts as creating one.
CREATE = "10 per minute;100 per day"
# A table's phones join within a minute or two; on a hosted server a whole club may share an address.
JOIN = "60 per minute"
# Unknown codes (a mistyped code, a stale rejoin code): a few typos are fine, a search is not.
UNKNOWN = "30 per minute;300 per day"

ENDPOINTS = {CREATE: ("home.create", "api.create", "home.bring_back", "api.bring_back"),
             JOIN: ("join.submit", "join.take", "api.join")}
# Every page, live connection and API call that names a game by its code (the front page's join box too).
GUESSED = ("table", "player", "join", "tv", "api")


def init_app(app: Flask) -> None:
    """Limit the app's endpoints (call after the blueprints are registered). RATELIMIT_ENABLED
    turns it off (the tests do, but for the test of the limits)."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://")
    app.extensions["banker.limiter"] = limiter  # the limits below hold it only weakly
    for limit, names in ENDPOINTS.items():
        for name in names:
            app.view_functions[name] = limiter.limit(limit, override_defaults=False)(app.view_functions[name])
    unknown = limiter.shared_limit(UNKNOWN, scope="unknown-code", deduct_when=lambda response: response.status_code == 404)
    for blueprint in GUESSED:
        unknown(app.blueprints[blueprint])
    app.view_functions["home.join_code"] = unknown(app.view_functions["home.join_code"])
