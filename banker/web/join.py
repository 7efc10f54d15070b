"""Joining from the QR code (/j/<code>), and rejoining a seat on a new phone."""

import hashlib
import hmac

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..rules.state import TOKENS
from .narrate import refusal
from .seats import remember, visit_or_404

bp = Blueprint("join", __name__, url_prefix="/j/<code>")


def seat_token(code: str, nonce: str) -> str:
    """The seat secret for a join form: derived from the form's one-time nonce with the app's key,
    so a double-tapped Join gives both requests the same seat and the same secret."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, f"seat:{code}:{nonce}".encode(), hashlib.sha256).hexdigest()


@bp.get("")
def page(code):
    game, seat = visit_or_404(code, "seat")
    if seat:
        return redirect(url_for("player.page", code=game.code))
    return render_template("join/page.html", **_context(game))


@bp.post("")
def submit(code):
    """Take a seat with a name and a token; the phone keeps the seat's secret in its cookie."""
    game, seat = visit_or_404(code, "seat")
    if seat:
        return redirect(url_for("player.page", code=game.code), 303)
    nonce = request.form.get("nonce", "")
    data = {"type": "join", "name": request.form.get("name", ""),
            "token": request.form.get("token", ""), "nonce": nonce}
    token = seat_token(game.code, nonce) if nonce else store.new_token()
    try:
        store.act(game.code, data, seat_token=token)
    except GameError as error:
        context = _context(game)
        return render_template("join/page.html", error=refusal(error, context["state"]),
                               form=request.form, **context), 422
    remember("seat", game.code, token)
    return redirect(url_for("player.page", code=game.code), 303)


@bp.get("/r/<token>")
def rejoin(code, token):
    """What a seat's rejoin QR opens: this phone takes over the seat."""
    game, actor = store.visit(code, token)
    if game is None:
        abort(404)
    if actor is None or actor.player is None:
        message = _("This rejoin code is no longer valid; ask the banker for a new one.")
        return render_template("error.html", message=message), 404
    # The link is used up: this phone gets a fresh secret, so a second scan cannot take the seat too.
    remember("seat", game.code, store.new_seat_token(game, actor.player))
    return redirect(url_for("player.page", code=game.code))


def _context(game):
    state = store.load_state(game)
    return {"game": game, "code": game.code, "state": state, "tokens": TOKENS,
            "taken": {p.token for p in state.players}}

