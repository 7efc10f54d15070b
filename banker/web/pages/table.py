"""The host screen (/t/<code>): board, balances, bank supply, history, and the banker's tools.

The banker acts for a player without a phone on the seat's own address (/t/<code>/seats/<player>):
the same screen, with that seat's panel open, and a live connection that keeps it up to date. The
seat's trade offers are made on the phones' composer, at /t/<code>/seats/<player>/trade/<partner>.
The banker shows the game on a TV from /t/<code>/tv (the TV's own page is web/pages/tv.py).
"""

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import lan, qr, store
from ...live import Gone
from ..files import books
from ..answers import second_tap
from ...screens import Kind, Screen, TableScreen, composer_context, past, public_url, story_page, version_asked
from ...words.languages import chosen
from ..serving.operations import client_address
from ..answers.respond import from_htmx, message, not_the_banker, perform
from ..answers.seats import browser, visit_or_404, watch

bp = Blueprint("table", __name__, url_prefix="/t/<code:code>")


@bp.get("")
@bp.get("/seats/<int:player>")
def page(code, player=None):
    game, banker = visit_or_404(code, "banker")
    screen = TableScreen(store.known(game), banker is not None, player)
    if player is not None and not screen.state.has_player(player):
        abort(404)
    # "Show on a TV" asks first only when a TV link exists: the first one stops nothing.
    tv_linked = banker is not None and store.has_view_key(game)
    return render_template("table/page.html", picked=player, tv_linked=tv_linked,
                           server_here=lan.this_machine(client_address() or ""), **screen.context())


@bp.get("/story")
def story(code):
    """The story of the game: anyone's who may see the table once the game has ended; before, the
    banker's alone (the records and who paid whom are no one else's business mid-game)."""
    game, banker = visit_or_404(code, "banker")
    now = store.known(game)
    if now.state.status != "ended" and banker is None:
        return message(_("The story of the game opens when the game ends."), 403)
    return render_template("story/page.html", code=game.code, back=url_for("table.page", code=game.code),
                           story=story_page(now))


@bp.get("/live")
@bp.get("/seats/<int:player>/live")
def live(code, player=None):
    """The host screen's live connection (see live.py), with the seat panel of `player` if picked."""

    def screen(game, banker):
        return Kind(TableScreen, (banker is not None, player))

    return watch(code, "banker", screen)


@bp.get("/export.json")
def export(code):
    """The banker's tools' "Export the game": the game as its JSON archive, saved as a file
    (web/files/books.py; the same as GET /api/games/<code>/export)."""
    game, banker = visit_or_404(code, "banker")
    return books.export(game) if banker is not None else not_the_banker()


@bp.get("/ledger.csv")
def ledger(code):
    """The banker's tools' "Ledger (CSV)": every sum that moved, in this browser's language."""
    game, banker = visit_or_404(code, "banker")
    return books.ledger(game, store.load_state(game)) if banker is not None else not_the_banker()


@bp.get("/timeline")
def timeline(code):
    """The game as it was at version ?v= (the newest by default), read-only: the host screen's board
    and balances, and the deeds (screens/timeline.py). The banker's only: it is a tool for settling
    "what did I have before that?" at the table, and a phone scrubbing through the game would show
    its player everyone's past cash beside their own screen. htmx (the slider, the steps) gets the
    version's part alone (and the board, out of band)."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return not_the_banker()
    version = version_asked(request.args.get("v"), game.version)
    if version is None:
        return message(_("There is no such step of this game: its steps are 0 to %(newest)s.",
                         newest=game.version), 400)
    if not from_htmx():
        return render_template("table/timeline.html", **past(game, version))
    # The address follows the slider and the steps, so that the banker can reload or share the point
    # shown. Replaced, not pushed: a slider dragged across the game asks for dozens of points, and
    # Back should leave the timeline, not walk back through each of them.
    then = past(game, version)
    # The board stands outside #past (beside it on a laptop: table/timeline.html), so it comes out of
    # band, as a live update's parts do.
    response = make_response(render_template("table/_past.html", **then)
                             + render_template("table/_board.html", oob=True, **then))
    response.headers["HX-Replace-Url"] = url_for("table.timeline", code=game.code, v=version)
    return response


@bp.post("/act")
@bp.post("/seats/<int:player>/act")
def act(code, player=None):
    """The banker's forms: start, act for a seat, pay or charge a seat, undo. A plain form returns
    to the screen it came from (the seat's, for the seat panel's forms)."""
    banker = browser("banker")
    if banker is None:
        return not_the_banker()
    back = url_for("table.page", code=code, player=player)
    asked = second_tap.question(code, request.form, "banker")
    if asked:
        return second_tap.ask(*asked, request.form, back)
    return perform(code, banker, request.form, back)


@bp.route("/seats/<int:player>/trade/<int:partner>", methods=["GET", "POST"])
def trade(code, player, partner):
    """Compose an offer from a seat without a phone to `partner`, as the seat's phone would; the form
    names the seat, as every banker's form acting for one does. A refusal stays here; sending it
    returns to the seat panel."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return not_the_banker()
    if request.method == "POST":
        return perform(game.code, browser("banker"), request.form,
                       url_for("table.trade", code=game.code, player=player, partner=partner),
                       done=url_for("table.page", code=game.code, player=player))
    return render_template("table/trade.html", **composer_context(game, player, partner, banker=True))


@bp.post("/seats/<int:player>/rejoin")
def rejoin(code, player):
    """Make a rejoin code for a seat's new phone (the seat's earlier code stops working) and go on to
    its page: post/redirect/get, so that reloading the page shows the same code and makes none."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return not_the_banker()
    try:
        rejoin = store.new_claim(game, player)
    except store.SeatNotFound:
        abort(404)
    return redirect(url_for("table.rejoin_code", code=game.code, player=player, rejoin=rejoin), 303)


# The code is in the page's address: the store keeps only its hash, so nothing else could show it
# again. The page is the banker's only, and no cache keeps it.
@bp.get("/seats/<int:player>/rejoin/<rejoin:rejoin>")
def rejoin_code(code, player, rejoin):
    """A rejoin code's page: its QR while it works (it works once, for a few minutes; when the new
    phone takes the seat, the old one stops working), then what became of it."""
    game, state = _banker_seat(code, player)
    response = make_response(render_template("table/rejoin.html", **_code_page(game, state, player, rejoin)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/seats/<int:player>/rejoin/<rejoin:rejoin>/live")
def rejoin_live(code, player, rejoin):
    """The code page's live connection: it stays quiet while the code works; once a new phone took
    the seat (or the code lapsed), it pushes the page saying so and ends."""
    _banker_seat(code, player)

    def screen(game, banker):
        if banker is None:
            raise Gone("")
        claim = store.claim_state(game, player, rejoin)
        if claim == "live":
            return Kind(Screen)  # no part of the page follows the game
        page = _code_page(game, store.load_state(game), player, rejoin, claim)
        raise Gone(render_template("table/_rejoin.html", oob=True, **page))

    return watch(code, "banker", screen)


@bp.post("/tv")
def tv(code):
    """Make a new view key for the game's TV screen (an earlier TV link stops working) and go on to
    the page that shows it: post/redirect/get, as a rejoin code."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return not_the_banker()
    return redirect(url_for("table.tv_link", code=game.code, key=store.new_view_key(game)), 303)


# The key is in the page's address: the store keeps only its hash. The page is the banker's only,
# and no cache keeps it.
@bp.get("/tv/<key:key>")
def tv_link(code, key):
    """The TV link and its QR, in the banker's language, for a TV's browser to open; while it works."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return not_the_banker()
    url = public_url(url_for("tv.page", code=game.code, key=key, lang=chosen()))
    works = store.tv_game(game.code, key) is not None
    response = make_response(render_template("table/tv.html", code=game.code, url=url, tv_qr=qr.svg(url),
                                             works=works, tv_linked=True,  # this one, or the newer one
                                             back=url_for("table.page", code=game.code)))
    response.headers["Cache-Control"] = "no-store"
    return response


def _banker_seat(code, player):
    """The game and its state for the banker's pages of a seat: 403 for any other browser, 404 when
    there is no such game or seat."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        abort(make_response(not_the_banker()))
    state = store.load_state(game)
    if not state.has_player(player):
        abort(404)
    return game, state


def _code_page(game, state, player, rejoin, claim: str | None = None) -> dict:
    """What a rejoin code's page shows (templates/table/_rejoin.html): the QR only while it works.
    `claim`: the code's state (store.claim_state), when the caller has read it already."""
    page = {"code": game.code, "version": game.version, "seat": state.player(player), "rejoin": rejoin,
            "claim": claim or store.claim_state(game, player, rejoin), "back": url_for("table.page", code=game.code)}
    if page["claim"] == "live":
        url = public_url(url_for("join.rejoin", code=game.code, rejoin=rejoin))
        page.update(url=url, rejoin_qr=qr.svg(url), minutes=store.CLAIM_SECONDS // 60)
    return page
