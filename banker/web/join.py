"""Joining from the QR code (/j/<code>), and taking a seat on a new phone with a rejoin code."""

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..rules.state import TOKENS
from .narrate import refusal
from .seats import browser, visit_or_404

bp = Blueprint("join", __name__, url_prefix="/j/<code:code>")


@bp.get("")
def page(code):
    game, seat = visit_or_404(code, "seat")
    if seat:
        return redirect(url_for("player.page", code=game.code))
    # The browser's key is made with the form: a double-tapped Join sends it in both requests, and
    # the second finds the seat the first took (same nonce, same sender).
    browser("seat", create=True)
    return render_template("join/page.html", **_context(game))


@bp.post("")
def submit(code):
    """Take a seat with a name and a token; the seat is this browser's from now on."""
    game, seat = visit_or_404(code, "seat")
    if seat:
        return redirect(url_for("player.page", code=game.code), 303)
    data = {"type": "join", "name": request.form.get("name", ""),
            "token": request.form.get("token", ""), "nonce": request.form.get("nonce", "")}
    try:
        store.act(game.code, data, browser=browser("seat", create=True))
    except GameError as error:
        context = _context(game)
        return render_template("join/page.html", error=refusal(error, context["state"]),
                               form=request.form, **context), 422
    return redirect(url_for("player.page", code=game.code), 303)


@bp.get("/r/<rejoin:rejoin>")
def rejoin(code, rejoin):
    """What a seat's rejoin QR opens: a button to take the seat. Opening the address changes
    nothing, so a chat app's link preview cannot use the code up."""
    game, player = store.claim(code, rejoin)
    if game is None:
        abort(404)
    if player is None:
        return _stale()
    name = store.load_state(game).player(player).name
    return render_template("join/rejoin.html", code=game.code, rejoin=rejoin, name=name)


@bp.post("/r/<rejoin:rejoin>")
def take(code, rejoin):
    """This phone takes the seat; the code is used up and the seat's old phone stops working."""
    if store.find_game(code) is None:
        abort(404)
    if store.take_seat(code, rejoin, browser("seat", create=True)) is None:
        return _stale()
    return redirect(url_for("player.page", code=code), 303)


def _stale():
    message = _("This rejoin code is no longer valid (each works once, for a few minutes); "
                "ask the banker for a new one.")
    return render_template("error.html", message=message), 404


def _context(game):
    state = store.load_state(game)
    return {"game": game, "code": game.code, "state": state, "tokens": TOKENS,
            "taken": {p.token for p in state.players}}
