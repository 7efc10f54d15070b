"""The phone screen (/p/<code>): my cash, my turn, my deeds, pay, history."""

from flask import Blueprint, abort, redirect, render_template, request, url_for

from .. import store
from .context import PhoneScreen, composer_context
from .live import Gone, watch
from .respond import perform
from .seats import browser, visit_or_404

bp = Blueprint("player", __name__, url_prefix="/p/<code>")


@bp.get("")
def page(code):
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return redirect(url_for("join.page", code=game.code))
    return render_template("player/page.html", **PhoneScreen(game, seat.player).context())


@bp.get("/live")
def live(code):
    """The phone screen's live connection (see live.py); a seat gone to another phone is told so."""

    def screen(game, seat):
        if seat is None:
            raise Gone(render_template("player/_gone.html", code=game.code))
        return PhoneScreen(game, seat.player)

    return watch(code, "seat", screen)


@bp.post("/act")
def act(code):
    """Every form on the phone: roll, buy, decline, pay, pay a debt, end the turn."""
    seat = browser("seat")
    if seat is None:
        return redirect(url_for("join.page", code=code.upper()), 303)
    return perform(code, seat, request.form, url_for("player.page", code=code.upper()),
                   rejoin=url_for("join.page", code=code.upper()))


@bp.route("/trade/<int:partner>", methods=["GET", "POST"])
def trade(code, partner):
    """Compose an offer to one other player; sending it returns to the phone screen."""
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return redirect(url_for("join.page", code=game.code))
    here = url_for("player.trade", code=game.code, partner=partner)
    if request.method == "POST":
        return perform(game.code, browser("seat"), request.form, here,
                       done=url_for("player.page", code=game.code), rejoin=url_for("join.page", code=game.code))
    state = store.load_state(game)
    if partner == seat.player or not state.has_player(partner) or state.player(partner).bankrupt \
            or state.player(seat.player).bankrupt:
        abort(404)
    return render_template("player/trade.html", **composer_context(game, seat.player, partner))
