"""The TV screen (/tv/<code>/<view key>): the game read-only, large, for a TV across the room.

The view key in its address is all a TV needs: no cookie, no badge. It opens this page and its live
connection, nothing else (store/tv.py); the banker makes it on the host screen ("Show on a TV") or
through the API, and a new one stops the old link, on a TV still open on it too.
"""

from flask import Blueprint, Response, render_template
from flask_babel import gettext as _

from ... import store
from ...live import TV, Gone, stream
from ...screens import Kind, TvScreen
from ..answers.seats import gone

bp = Blueprint("tv", __name__, url_prefix="/tv/<code:code>/<key:key>")


@bp.get("")
def page(code, key):
    game = store.tv_game(code, key)
    if game is None:
        return _not_this_tv()
    screen = TvScreen(store.known(game))
    response = Response(render_template("tv/page.html", key=key, **screen.context()))
    response.headers["Cache-Control"] = "no-store"  # its address holds the key
    return response


@bp.get("/live")
def live(code, key):
    """The TV's live connection, authorized by the view key alone: a wrong key (or a game no longer
    here) is answered, before it takes a slot, with the event that tells the TV its link no longer
    works and ends its connection (it counts as an unknown code: answers/seats.gone). The key is
    checked again when it connects and whenever the game's seats change (a new key is such a change:
    store.new_view_key), so a TV still open on a key replaced meanwhile is told so and its
    connection ends."""
    if store.tv_game(code, key) is None:
        return gone(render_template("tv/_gone.html"))

    def check():
        game = store.tv_game(code, key)
        if game is None:
            raise Gone(render_template("tv/_gone.html"))
        store.known(game)  # the version the page shows, read once
        return Kind(TvScreen)

    return stream(code, check, TV)


def _not_this_tv():
    """A key that opens no TV screen, the same whether the game exists or not: nothing tells a
    guess at a key that the code was right."""
    return render_template("error.html", message=_("This TV link does not work: the banker may have made a new "
                                                   "one. Ask for the new link.")), 404
