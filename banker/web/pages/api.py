"""The JSON API (docs/api.md): the same actions as the pages, authenticated by bearer token."""

import re

from flask import Blueprint, abort, current_app, jsonify, make_response, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from ... import store
from ...rules.errors import GameError
from ...rules.view import state_json
from ...screens import countdown, history, public_url
from ..files import books, imports
from ..answers.respond import FAILURES, error, failed

bp = Blueprint("api", __name__, url_prefix="/api/games")
# The actions that no screen offers, which only the API takes: a tournament's round clock and its
# tables' seats fixed, which the tournament tells its tables (store/tournaments.py). Every other
# action has a control on the host screen or a phone (tests/web/test_no_english.py fails on an
# action in neither).
API_ONLY: frozenset[str] = frozenset({"round_clock", "fix_seats"})


def _body() -> dict | None:
    """The body's JSON object, or None when it is not one. JSON nested deeper than the parser can
    go is refused here with its own message (it would otherwise escape as a RecursionError)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        abort(make_response(error("too_deep", _("The JSON is nested too deeply."), 400)))
    return data if isinstance(data, dict) else None


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:] or None if header.startswith("Bearer ") else None


def _game_and_actor(code: str):
    """The game and who the bearer token belongs to (one query), or an error response."""
    game, actor = store.visit(code, _bearer())
    if game is None:
        return None, None, failed(store.GameNotFound(code), code)
    if actor is None:
        return game, None, failed(store.UnknownSecret(game.id))
    return game, actor, None


@bp.post("")
def create():
    data = _body()
    if data is None:
        return error("bad_request", _("Send a JSON object."), 400)
    unknown = sorted(set(data) - {"edition", "rules"})
    if unknown:
        return error("unknown_field", _("A new game has no field %(field)s.", field=str(unknown[0])[:30]), 400)
    try:
        game, banker_token = store.create_game(data.get("edition", "us"), data.get("rules"))
    except GameError as refused:
        return failed(refused)
    join_url = public_url(url_for("join.page", code=game.code))
    return jsonify(code=game.code, banker_token=banker_token, join_url=join_url), 201


@bp.post("/<code:code>/players")
def join(code):
    data = _body()
    if data is None:
        return error("bad_request", _("Send a JSON object."), 400)
    # Unlike a join page's nonce (random, made by the server), an API client's nonce may be
    # guessable, so it never derives the seat's secret: a repeated join is refused instead.
    token = store.new_token()
    try:
        outcome = store.act(code, {**data, "type": "join"}, seat_token=token)
    except FAILURES as problem:
        return failed(problem, code)
    if outcome.repeated:
        return error("already_joined", _("This join was already applied; its token was in the first answer."), 409)
    return jsonify(player_id=outcome.player, player_token=token), 201


@bp.get("/<code:code>")
def state(code):
    game, actor, failure = _game_and_actor(code)
    if failure:
        return failure
    return jsonify(_state(game, store.load_state(game), game.version))


@bp.post("/<code:code>/actions")
def act(code):
    """One action. The game, the token's seat and the nonce are read in the action's one query;
    only a request that will be refused anyway looks the game up first (to say why in order:
    no such game, no valid token, a malformed body)."""
    token, data = _bearer(), _body()
    if token is None or data is None:
        failure = _game_and_actor(code)[2]
        return failure or error("bad_request", _("Send a JSON object."), 400)
    try:
        outcome = store.act(code, data, token)
    except FAILURES as problem:
        return failed(problem, code)
    answer = {"version": outcome.version, "events": outcome.effects, "repeated": outcome.repeated}
    if request.args.get("state") == "1":  # the state after it, for a client that wants it at once
        answer["state"] = _state(code, outcome.state, outcome.version)
    return jsonify(answer)


@bp.post("/<code:code>/tv")
def tv(code):
    """A new link for the game's TV screen (the banker's token): an earlier one stops working."""
    game, actor, failure = _game_and_actor(code)
    if failure:
        return failure
    if not actor.banker:
        return error("banker_only", _("Only the banker can do that."), 403)
    return jsonify(url=public_url(url_for("tv.page", code=game.code, key=store.new_view_key(game))))


def _state(game, state, version: int) -> dict:
    """The state as the API shows it: the rules' view, and an open auction's countdown, which the
    log's times decide (screens/countdown.py): `closes_at`, UTC, null while nobody has bid or when the
    banker closes it by hand. `game` is the game at `version`, or its code."""
    shown = state_json(state, version)
    if shown["auction"] is not None:
        game = store.known(store.find_game(game) if isinstance(game, str) else game)
        end = countdown.closes_at(game, state) if game.version == version else None
        shown["auction"]["closes_at"] = countdown.iso(end)
    return shown


# The events one page of the history holds unless the client asks for fewer (`limit`), and at most:
# a long evening is about ten thousand events, whose whole log in one answer was 3.3 MB.
PAGE = 500
MOST = 1000
_WHOLE = re.compile(r"[0-9]{1,12}")


@bp.get("/<code:code>/events")
def events(code):
    """One page of the history, oldest first: the events after `after` (an event's seq; 0, the
    default, from the start), at most `limit`, and `next`, the URL of the page after it (null once
    this page reaches the newest event)."""
    game, actor, failure = _game_and_actor(code)
    if failure:
        return failure
    after, limit = request.args.get("after", "0"), request.args.get("limit", str(PAGE))
    if not _WHOLE.fullmatch(after):
        return error("bad_page", _("after must be a whole number: the seq of the last event you have (0 for the first page)."), 400)
    if not _WHOLE.fullmatch(limit) or not 1 <= int(limit) <= MOST:
        return error("bad_page", _("limit must be a whole number from 1 to %(most)s.", most=MOST), 400)
    game = store.known(game)
    page = store.log_page(game, int(after), int(limit))
    rows = [{"seq": e.seq, "time": e.created_at.isoformat(), "actor": e.actor, "type": e.type,
             "action": e.payload, "effects": e.effects, "text": text, "undone": e.undone}
            for e, text in zip(page, history.told_entries(game, game.state, page))]
    more = bool(page) and page[-1].seq < game.version
    return jsonify(events=rows, next=url_for("api.events", code=game.code, after=page[-1].seq, limit=int(limit),
                                             _external=True) if more else None)


@bp.get("/<code:code>/export")
def export(code):
    """The whole game as a JSON archive (store/archive.py), for the banker's token only: settings and
    every event, enough to replay it exactly on another laptop (POST /api/games/import)."""
    game, failure = _banker(code)
    return failure or books.export(game)


@bp.get("/<code:code>/ledger.csv")
def ledger(code):
    """Every sum that moved, as CSV (web/files/books.py), for the banker's token only."""
    game, failure = _banker(code)
    return failure or books.ledger(game, store.load_state(game))


def _banker(code: str):
    """The game read for the banker's token, or an error response (404, 401, or 403 for a seat's)."""
    game, actor, failure = _game_and_actor(code)
    if failure is None and not actor.banker:
        failure = error("banker_only", _("Only the banker can do that."), 403)
    return game, failure


@bp.post("/import")
def bring_back():
    """A game from an archive another laptop exported, replayed through the rules into a new game:
    201 with its code and the banker's token. A file that does not replay is refused, naming its
    first bad event, and nothing is created. The body may be up to IMPORT_MAX_BYTES, not the 64 KB
    of every other request: a long evening's archive is a few megabytes (docs/api.md). Imports take
    turns (web/files/imports.py): past its share, 503 busy before the body is read."""
    request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
    try:
        with imports.turn():
            # Not JSON: archive_cut_short when the file ends before its JSON does, else not_an_archive.
            game, banker_token = imports.bring_back(request.get_data(cache=False))
    except imports.Busy:
        return *error("busy", imports.busy_message(), 503), {"Retry-After": str(imports.RETRY_SECONDS)}
    except RequestEntityTooLarge:  # on its announced length, before any of it is read
        return error("too_large", imports.too_large_message(), 413)
    except GameError as refused:
        return failed(refused)
    return jsonify(code=game.code, banker_token=banker_token), 201
