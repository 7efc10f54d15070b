"""The phone screen (/p/<code>): my cash, my turn, my deeds, pay, history."""

from flask import Blueprint, abort, redirect, render_template, request, url_for

from .context import phone_context
from .respond import page_or_fragment, perform
from .seats import game_or_404, seat_here

bp = Blueprint("player", __name__, url_prefix="/p/<code>")
PARTS = {"turn", "wallet", "history"}


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
