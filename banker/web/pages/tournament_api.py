"""The tournament's JSON API (docs/api.md, Tournaments): create one, register players, the
organiser's actions by bearer token, and the whole tournament as JSON. Refusals answer as the game
API's do (`{"error": {"code", "message"}}` with the refusal's status), and change nothing."""

from flask import Blueprint, jsonify, url_for
from flask_babel import gettext as _

from ... import store
from ...rules.errors import GameError
from ...store import tournaments
from ..files import results
from .api import _bearer, _body, error
from ...screens import public_url
from ...words.narrate import refusal
from ..answers.respond import BUSY_RETRY_SECONDS, status

bp = Blueprint("tournament_api", __name__, url_prefix="/api/events")


def _not_found(code: str):
    return error("not_found", _("No tournament with code %(code)s.", code=code), 404)


@bp.post("")
def create():
    data = _body()
    if data is None:
        return error("bad_request", _("Send a JSON object."), 400)
    try:
        tournament, token = tournaments.create_tournament(data)
    except GameError as err:
        return error(err.code, refusal(err, None), status(err))
    return jsonify(code=tournament.code, organiser_token=token,
                   register_url=public_url(url_for("tournament.register", code=tournament.code))), 201


@bp.post("/<code:code>/players")
def register(code):
    data = _body()
    if data is None:
        return error("bad_request", _("Send a JSON object."), 400)
    unknown = sorted(set(data) - {"name"})
    if unknown:
        return error("unknown_field", _("A registration has no field %(field)s.", field=str(unknown[0])[:30]), 400)
    try:
        acted, token = tournaments.register(code, data.get("name"))
    except tournaments.TournamentNotFound:
        return _not_found(code)
    except GameError as err:
        return error(err.code, refusal(err, None), status(err))
    except store.Busy:
        return _busy()
    return jsonify(player_id=acted.player, player_token=token), 201


@bp.post("/<code:code>/actions")
def act(code):
    tournament = tournaments.find_tournament(code)
    if tournament is None:
        return _not_found(code)
    if not tournaments.organises(tournament, _bearer()):
        return error("unauthorized", _("Send the organiser's token for this tournament."), 401)
    data = _body()
    if data is None:
        return error("bad_request", _("Send a JSON object."), 400)
    try:
        acted = tournaments.act(code, data, tournaments.ORGANISER)
    except GameError as err:
        return error(err.code, refusal(err, None), status(err))
    except store.Busy:
        return _busy()
    return jsonify(version=acted.version, events=acted.effects, state=results.as_json(acted.state, code))


@bp.get("/<code:code>")
def state(code):
    tournament = tournaments.find_tournament(code)
    if tournament is None:
        return _not_found(code)
    return jsonify(results.as_json(tournaments.load(tournament), tournament.code))


def _busy():
    return *error("busy", _("The tournament is busy; try again."), 503), {"Retry-After": str(BUSY_RETRY_SECONDS)}
