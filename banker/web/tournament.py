"""A tournament's pages (/e/<code>): the organiser's screen and its buttons, registration by the
event's QR and the player's phone between rounds, and the results (a printable page, CSV, JSON).
Thin: the store applies every action (store/tournaments.py), the rules decide (rules/tournament)."""

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import qr, store
from ..rules.errors import GameError
from ..rules.tournament import standings
from ..store import tournaments
from . import results
from .context import public_url
from .narrate import refusal
from .respond import message
from .seats import browser

bp = Blueprint("tournament", __name__, url_prefix="/e/<code:code>")

# The organiser's buttons: each sends one action of the tournament rules.
BUTTONS = ("seat_round", "start_round", "pause_clock", "resume_clock", "last_turn", "undo")


def _tournament(code: str):
    tournament = tournaments.find_tournament(code)
    if tournament is None:
        abort(404)
    return tournament


def _view(tournament, state) -> dict:
    """What every page of the tournament shows: its state, names, standings and clock."""
    return {"code": tournament.code, "state": state, "names": {p.id: p.name for p in state.players},
            "standings": standings(state), "clock": results.clock(state, tournaments.now())}


@bp.get("")
def page(code):
    """The organiser's screen; anyone else is sent to register."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        return redirect(url_for("tournament.register", code=tournament.code))
    state = tournaments.load(tournament)
    register_url = public_url(url_for("tournament.register", code=tournament.code))
    return render_template("tournament/page.html", register_url=register_url, register_qr=qr.svg(register_url),
                           **_view(tournament, state))


@bp.post("")
def act(code):
    """One of the organiser's buttons (or add a player, withdraw, correct a result)."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        return message(_("Only the organiser's screen can do that."), 403)
    data = {key: value for key, value in request.form.items() if key not in ("csrf_token", "nonce")}
    if data.get("type") == "withdraw":
        data["player"] = data.get("player", "")
    try:
        tournaments.act(tournament.code, data, tournaments.ORGANISER)
    except GameError as error:
        return message(refusal(error, None), 422, url_for("tournament.page", code=tournament.code))
    except store.Busy:
        return message(_("The tournament is busy; try again."), 503, url_for("tournament.page", code=tournament.code))
    return redirect(url_for("tournament.page", code=tournament.code), 303)


@bp.get("/register")
def register(code):
    """What the event's QR opens: a name to register with; a phone already registered goes on."""
    tournament = _tournament(code)
    if tournaments.entrant(tournament, browser("seat")) is not None:
        return redirect(url_for("tournament.me", code=tournament.code))
    return render_template("tournament/register.html", **_view(tournament, tournaments.load(tournament)))


@bp.post("/register")
def registered(code):
    tournament = _tournament(code)
    try:
        tournaments.register(tournament.code, request.form.get("name", ""), browser("seat", create=True))
    except GameError as error:
        state = tournaments.load(tournament)
        return render_template("tournament/register.html", error=refusal(error, None),
                               **_view(tournament, state)), 422
    except store.Busy:
        return message(_("The tournament is busy; try again."), 503)
    return redirect(url_for("tournament.me", code=tournament.code), 303)


@bp.get("/me")
def me(code):
    """The registered player's phone: waiting for the seating, then their table and seat (and on
    to their table's phone), between rounds their points and the next seating."""
    tournament = _tournament(code)
    player = tournaments.entrant(tournament, browser("seat"))
    if player is None:
        return redirect(url_for("tournament.register", code=tournament.code))
    state = tournaments.load(tournament)
    seat = _seat(state, player)
    if seat is not None and seat[0].game and seat[0].results is None and request.args.get("stay") is None:
        return redirect(url_for("player.page", code=seat[0].game))
    return render_template("tournament/me.html", player=player, seat=seat, **_view(tournament, state))


def _seat(state, player: int):
    """The player's table and seat number in the newest round, or None when not seated in it."""
    if state.round is None:
        return None
    for table in state.round.tables:
        if player in table.seats:
            return table, table.seats.index(player) + 1
    return None


@bp.get("/results")
def results_page(code):
    tournament = _tournament(code)
    state = tournaments.load(tournament)
    return render_template("tournament/results.html", rows=results.rows(state), **_view(tournament, state))


@bp.get("/results.csv")
def results_csv(code):
    tournament = _tournament(code)
    return results.as_csv(tournaments.load(tournament), tournament.code)


@bp.get("/results.json")
def results_json(code):
    tournament = _tournament(code)
    return jsonify(results.as_json(tournaments.load(tournament), tournament.code))

