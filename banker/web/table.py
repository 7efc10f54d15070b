"""The host screen (/t/<code>): board, balances, bank supply, history, and the banker's tools."""

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _

from .. import qr, store
from ..rules import Actor
from .context import public_url, table_context
from .respond import message, page_or_fragment, perform
from .seats import banker_here, game_or_404

bp = Blueprint("table", __name__, url_prefix="/t/<code>")
PARTS = {"turn", "players", "board", "history"}


@bp.get("")
def page(code):
    game = game_or_404(code)
    return render_template("table/page.html", **table_context(game, banker_here(game)))


@bp.get("/part/<name>")
def part(code, name):
    """One fragment of the host screen, refreshed when the game changes."""
    if name not in PARTS:
        abort(404)
    game = game_or_404(code)
    return page_or_fragment("table/page.html", f"table/_{name}.html",
                            **table_context(game, banker_here(game)))


@bp.post("/act")
def act(code):
    """The banker's forms: start, act for the current player, pay or charge a seat, undo."""
    game = game_or_404(code)
    back = url_for("table.page", code=game.code)
    if not banker_here(game):
        return message(_("Only the banker's screen can do that."), 403)
    return perform(game, Actor(banker=True), request.form, back)


@bp.post("/seats/<int:player>/rejoin")
def rejoin(code, player):
    """A fresh rejoin QR for a seat's new phone (the old phone's secret stops working)."""
    game = game_or_404(code)
    if not banker_here(game):
        return message(_("Only the banker's screen can do that."), 403)
    try:
        token = store.new_seat_token(game, player)
    except LookupError:
        abort(404)
    url = public_url(url_for("join.rejoin", code=game.code, token=token))
    context = table_context(game, True)
    return render_template("table/rejoin.html", url=url, rejoin_qr=qr.svg(url),
                           seat=context["players"][player], **context)

