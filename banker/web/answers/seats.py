"""Who is at this browser. Its cookie (signed, not encrypted) keeps one random key for all its games
and no game's secret: what the browser holds in each game (the banker's tools, a seat) is kept on
the server as badges, by the key's hash (store.Browser). The cookie's size never grows with the
number of games, and reading it gives nothing that works through the API."""

from collections.abc import Callable

from flask import Response, abort, g, render_template, session
from flask_babel import gettext as _

from ... import store
from ...live import BANKER, SCREENS, Gone, ended, stream
from ...rules import Actor
from ...screens import Kind
from ...store import Game


def browser(role: str, create: bool = False) -> store.Browser | None:
    """This browser asking as "banker" or "seat"; None when it has no key yet, unless `create`
    (a page that may give it a badge: the first answer sets the cookie)."""
    key = session.get("browser")
    if key is None and create:
        key = session["browser"] = store.new_token()
        session.permanent = True
    if key is None:
        return None
    return store.Browser(key, role)


def visit(code: str, role: str) -> tuple[Game | None, Actor | None]:
    """The game, and this browser in it as `role`: the banker for "banker", its seat for "seat"
    (None when this browser is not that here). One query."""
    return store.visit(code, browser=browser(role))


def visit_or_404(code: str, role: str) -> tuple[Game, Actor | None]:
    """visit, or 404 when there is no such game."""
    game, actor = visit(code, role)
    if game is None:
        abort(404)
    return game, actor


def watch(code: str, role: str, screen: Callable[[Game, Actor | None], Kind]) -> Response:
    """The live connection of a screen this browser shows of game `code` as `role`: `screen(game,
    actor)` gives the kind of screen the browser may watch (the actor is None when the browser is
    not, or no longer, that role's here), or raises Gone.
    Asked when the browser connects and whenever the game's seats change. For a game not here, the
    event that tells the page so and ends its connection (`gone`); 403, before it takes a slot, for
    a browser without the cookie its page gave it (anyone may watch a game's host screen, but
    through its page). The connection counts against
    what the browser holds in the game (its seat, the banker's tools) and the browser itself, or,
    holding nothing there, against the share of the screens without a badge (live/slots.py)."""
    game, actor = visit(code, role)
    if game is None:
        return gone(render_template("_game_gone.html"))
    if not session:
        return Response(_("Open the game's page to follow it: its live updates need the page's cookie."), 403,
                        mimetype="text/plain")

    def check():
        game, actor = visit(code, role)
        if game is None:
            raise Gone("")
        store.known(game)  # the version the page shows, read once
        return screen(game, actor)

    if actor is None:
        return stream(game.code, check, SCREENS)
    holder = BANKER if actor.banker else ("seat", actor.player)
    return stream(game.code, check, holder, browser(role).digest)


def gone(html: str) -> Response:
    """The live connection of a page whose game is not here (deleted, or the server started afresh
    without it): `html` tells the page so and it stops following, where a 404 would have it try
    again for as long as it is open, each try an unknown code against its address's limit (a TV
    left open at a club would lock the club out of new games). Counted once as an unknown code
    (web/serving/limits.py): to a guess it says what a 404 says."""
    g.unknown_code = True
    return ended(html)
