"""Joining from the QR code (/j/<code>), and taking a seat on a new phone with a rejoin code."""

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...rules.errors import GameError
from ...rules.state import TOKENS
from ...words.narrate import refusal
from ..answers.seats import browser, visit, visit_or_404

bp = Blueprint("join", __name__, url_prefix="/j/<code:code>")
# A rejoin code's page is asked again on Back, never shown from a cache (see `rejoin`).
NO_STORE = {"Cache-Control": "no-store"}


@bp.get("")
def page(code):
    """The join form (in the lobby); where a phone without a seat lands, so a phone whose seat a
    rejoin code moved to another phone is told so here, and offered to join as someone else or to
    watch."""
    game, seat = visit_or_404(code, "seat")
    if seat:
        return redirect(url_for("player.page", code=game.code))
    # The browser's key is made with the form: a double-tapped Join sends it in both requests, and
    # the second finds the seat the first took (same nonce, same sender).
    context = _context(game)
    moved = store.moved_seat(game, browser("seat", create=True))
    if moved is not None and context["state"].has_player(moved):
        context["moved"] = context["state"].player(moved).name
    return render_template("join/page.html", **context)


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
    nothing, so a chat app's link preview cannot use the code up.

    It is also where Back lands from the phone screen after the tap, and where a refused tap goes
    on to: once the code is spent, a phone that holds a seat here is told it already has it (and
    sent nowhere by itself, which would bring Back here again), any other that the code is void.
    No cache keeps it, so Back asks again rather than showing the button of a spent code."""
    game, player = store.claim(code, rejoin)
    if game is None:
        abort(404)
    if player is not None:
        name = store.load_state(game).player(player).name
        return render_template("join/rejoin.html", code=game.code, rejoin=rejoin, name=name), NO_STORE
    _game, seat = visit(code, "seat")
    if seat is None:
        return _stale()
    name = store.load_state(game).player(seat.player).name
    # A 404 but for the code that brought the seat here: any other counts as an unknown code
    # (limits.py), as it would for a phone without a seat.
    used = store.claim_state(game, seat.player, rejoin) == "used"
    return render_template("join/rejoin.html", code=game.code, name=name, seated=True), 200 if used else 404, NO_STORE


@bp.post("/r/<rejoin:rejoin>")
def take(code, rejoin):
    """This phone takes the seat; the code is used up and the seat's old phone stops working.
    Taken or refused, the answer is a redirect (post/redirect/get): taken, to the phone screen;
    refused (spent, replaced, expired, or a double tap's second), to the code's own page, which says
    why, so that a reload or Back never sends the tap again."""
    if store.find_game(code) is None:
        abort(404)
    if store.take_seat(code, rejoin, browser("seat", create=True)) is None:
        return redirect(url_for("join.rejoin", code=code, rejoin=rejoin), 303)
    return redirect(url_for("player.page", code=code), 303)


def _stale():
    message = _("This rejoin code is no longer valid (each works once, for a few minutes); "
                "ask the banker for a new one.")
    return render_template("error.html", message=message), 404, NO_STORE


def _context(game):
    state = store.load_state(game)
    return {"game": game, "code": game.code, "state": state, "tokens": TOKENS,
            "taken": {p.token for p in state.players}}
