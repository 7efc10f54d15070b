"""The phone screen (/p/<code>): my cash, my turn, my deeds, pay, history."""

from flask import Blueprint, abort, redirect, render_template, request, url_for

from .. import store
from .context import composer_context, phone_context
from .respond import page_or_fragment, perform
from .seats import game_or_404, seat_here

bp = Blueprint("player", __name__, url_prefix="/p/<code>")
PARTS = {"turn", "wallet", "trades", "history"}


@bp.get("")
def page(code):
    game = game_or_404(code)
    seat = seat_here(game)
    if seat is None:
        return redirect(url_for("join.page", code=game.code))
    return render_template("player/page.html", **phone_context(game, seat.player))


@bp.get("/part/<name>")
def part(code, name):
    """One fragment of the phone screen, refreshed when the game changes."""
    if name not in PARTS:
        abort(404)
    game = game_or_404(code)
    seat = seat_here(game)
    if seat is None:
        abort(404)
    return page_or_fragment("player/page.html", f"player/_{name}.html",
                            **phone_context(game, seat.player))


@bp.post("/act")
def act(code):
    """Every form on the phone: roll, buy, decline, pay, pay a debt, end the turn."""
    game = game_or_404(code)
    seat = seat_here(game)
    if seat is None:
        return redirect(url_for("join.page", code=game.code), 303)
    return perform(game, seat, request.form, url_for("player.page", code=game.code))


@bp.route("/trade/<int:partner>", methods=["GET", "POST"])
def trade(code, partner):
    """Compose an offer to one other player; sending it returns to the phone screen."""
    game = game_or_404(code)
    seat = seat_here(game)
    if seat is None:
        return redirect(url_for("join.page", code=game.code))
    here = url_for("player.trade", code=game.code, partner=partner)
    if request.method == "POST":
        return perform(game, seat, request.form, here, done=url_for("player.page", code=game.code))
    state = store.load_state(game)
    if partner == seat.player or not state.has_player(partner) or state.player(partner).bankrupt \
            or state.player(seat.player).bankrupt:
        abort(404)
    return render_template("player/trade.html", **composer_context(game, seat.player, partner))
