"""The host screen (/t/<code>): board, balances, bank supply, history, and the banker's tools."""

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _

from .. import qr, store
from .context import TableScreen, public_url
from .live import watch
from .respond import message, perform
from .seats import browser, visit_or_404

bp = Blueprint("table", __name__, url_prefix="/t/<code>")


@bp.get("")
def page(code):
    game, banker = visit_or_404(code, "banker")
    return render_template("table/page.html", **TableScreen(game, banker is not None).context())


@bp.get("/live")
def live(code):
    """The host screen's live connection (see live.py)."""
    return watch(code, "banker", lambda game, banker: TableScreen(game, banker is not None))


@bp.post("/act")
def act(code):
    """The banker's forms: start, act for the current player, pay or charge a seat, undo."""
    banker = browser("banker")
    if banker is None:
        return message(_("Only the banker's screen can do that."), 403)
    return perform(code, banker, request.form, url_for("table.page", code=code.upper()))


@bp.post("/seats/<int:player>/rejoin")
def rejoin(code, player):
    """A rejoin QR for a seat's new phone: it works once, for a few minutes; when the new phone
    takes the seat, the old one stops working."""
    game, banker = visit_or_404(code, "banker")
    if banker is None:
        return message(_("Only the banker's screen can do that."), 403)
    try:
        rejoin = store.new_claim(game, player)
    except LookupError:
        abort(404)
    url = public_url(url_for("join.rejoin", code=game.code, rejoin=rejoin))
    context = TableScreen(game, True).context()
    return render_template("table/rejoin.html", url=url, rejoin_qr=qr.svg(url), minutes=store.CLAIM_SECONDS // 60,
                           seat=context["players"][player], **context)

