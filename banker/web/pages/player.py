"""The phone screen (/p/<code>): my cash, my turn, my deeds, pay, history."""

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...live import Gone
from ..answers import second_tap
from ...screens import Kind, PhoneScreen, composer_context, story_page
from .counting import counting, marked
from ..answers.respond import from_htmx, message, perform, seat_moved
from ..answers.seats import browser, visit_or_404, watch

bp = Blueprint("player", __name__, url_prefix="/p/<code:code>")


@bp.get("")
def page(code):
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return _no_seat(game.code)
    return render_template("player/page.html", counting=counting(), **PhoneScreen(store.known(game), seat.player).context())


@bp.get("/story")
def story(code):
    """The story of the game, this phone's own first, once the game has ended."""
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return _no_seat(game.code)
    now = store.known(game)
    if now.state.status != "ended":
        return message(_("The story of the game opens when the game ends."), 403)
    return render_template("story/page.html", code=game.code, back=url_for("player.page", code=game.code),
                           story=story_page(now, seat.player), phone=True)


@bp.get("/live")
def live(code):
    """The phone screen's live connection (see live.py); a seat gone to another phone is told so."""

    def screen(game, seat):
        if seat is None:
            raise Gone(render_template("player/_gone.html", code=game.code))
        return Kind(PhoneScreen, (seat.player,))

    return watch(code, "seat", screen)


@bp.post("/act")
def act(code):
    """Every form on the phone: roll, buy, decline, pay, pay a debt, end the turn."""
    seat = browser("seat")
    if seat is None:
        return _no_seat(code)
    back, form = url_for("player.page", code=code), marked(request.form)
    asked = second_tap.question(code, form, "seat")
    if asked:
        return second_tap.ask(*asked, form, back)
    return perform(code, seat, form, back, rejoin=url_for("join.page", code=code))


@bp.route("/trade/<int:partner>", methods=["GET", "POST"])
def trade(code, partner):
    """Compose an offer to one other player; sending it returns to the phone screen."""
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return _no_seat(game.code)
    here = url_for("player.trade", code=game.code, partner=partner)
    if request.method == "POST":
        return perform(game.code, browser("seat"), request.form, here,
                       done=url_for("player.page", code=game.code), rejoin=url_for("join.page", code=game.code))
    return render_template("player/trade.html", **composer_context(game, seat.player, partner))


def _no_seat(code: str):
    """This browser holds no seat in the game (or no longer: it moved to another phone). A page or a
    plain form goes on to the join page; a tap sent by htmx gets a short message, not the join page
    swapped into the message box."""
    if from_htmx():
        return seat_moved()
    return redirect(url_for("join.page", code=code), 303 if request.method == "POST" else 302)
