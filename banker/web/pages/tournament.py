"""A tournament's pages: "Run a tournament" (/events/new), the organiser's screen and its buttons
(/e/<code>), registration by the event's QR and the player's phone between rounds, the event TV
(by view key), and the results (a printable page, CSV, JSON). Thin: the store applies every action
(store/tournaments.py), the rules decide (rules/tournament)."""

import secrets
from typing import NamedTuple

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import qr, store
from ...live import BANKER, TV
from ...rules.errors import N_, GameError
from ...rules.board import load_board
from ...rules.networth import net_worths
from ...rules.tournament import EventActor, ranking, standings, ties
from ...store import tournaments
from ..files import results
from ...words.amounts import typed
from ...screens import public_url
from .home import edition_choices, first_board, preset_choices
from ...words.names import reader_language, sort_key
from ...words.narrate import refusal
from ..answers.respond import message
from ..answers.seats import browser
from .tournament_live import follow, newest_game
from .tournament_tv import tv_columns

bp = Blueprint("tournament", __name__)

# The organiser's buttons, in the order of an evening: each sends one action of the tournament rules.
BUTTONS = (("seat_round", N_("Seat the next round")), ("start_round", N_("Start the round")),
           ("pause_clock", N_("Pause the clock")), ("resume_clock", N_("Resume the clock")),
           ("last_turn", N_("Call the last turn")), ("undo", N_("Undo")))
STATUS_WORDS = {"registering": N_("Registration is open."), "seated": N_("The round is seated: start it when every table is ready."),
                "playing": N_("The round is being played."), "between": N_("Between rounds."),
                "ended": N_("The tournament is over.")}
SCORING_CHOICES = (("jma", N_("JMA: each player's share of the table's net worth in percent, 100 for bankrupting everyone else")),
                   ("placings", N_("By place: 4, 2, 1, 0")), ("net_worth", N_("Net worth")))


def _tournament(code: str):
    tournament = tournaments.find_tournament(code)
    if tournament is None:
        abort(404)
    return tournament


def _view(code: str, state) -> dict:
    """What every page of the tournament shows: its state, names, standings and clock, and the
    registration's address, with its QR while registration is open (the only time a page shows it:
    drawing it takes about 14 ms, and the organiser's screen was drawn again about once a second
    while the tables play, docs/benchmarks.md)."""
    register_url = public_url(url_for("tournament.register", code=code))
    register_qr = qr.svg(register_url) if state.status == "registering" else None
    return {"code": code, "state": state, "names": {p.id: p.name for p in state.players},
            "currency": load_board(state.settings.edition).currency,
            "standings": standings(state), "clock": results.clock(state, tournaments.now()),
            "register_url": register_url, "register_qr": register_qr, "status_words": STATUS_WORDS}


@bp.get("/events/new")
def new():
    return _new_page()


def _new_page(status: int = 200, **context):
    return render_template("tournament/new.html", edition=first_board(reader_language()),
                           edition_choices=edition_choices(), preset_choices=preset_choices(),
                           scoring_choices=SCORING_CHOICES, **context), status


@bp.post("/events")
def create():
    """Create a tournament from the form; this browser becomes its organiser's screen."""
    form = request.form
    settings = {"name": form.get("name", ""), "edition": form.get("edition", "us"),
                "rules": {"preset": form.get("preset", "jma")}, "rounds": _whole(form.get("rounds")),
                "round_minutes": _whole(form.get("round_minutes")), "table_size": _whole(form.get("table_size")),
                "scoring": {"kind": form.get("scoring", "jma")}, "final": _whole(form.get("final"))}
    try:
        tournament, _token = tournaments.create_tournament(settings, browser("banker", create=True))
    except GameError as error:
        return _new_page(422, error=refusal(error, None, on_page=True), form=form)
    return redirect(url_for("tournament.page", code=tournament.code), 303)


def _whole(text) -> str:
    """A number as typed in a box, its digits made plain (words/amounts.py): the rules read it."""
    return typed((text or "").strip())


class Glance(NamedTuple):
    """A table at a glance: whose turn it is, who leads on net worth (names; None before the start);
    and, for a table still in its lobby while the round plays, why it did not start."""

    turn: str | None
    leader: str | None
    stalled: str | None = None


def glance(state) -> dict[int, Glance]:
    """Every table of the newest round at a glance, from its game's newest version in the live
    memory (tournament_live.newest_game: no read for a version this process made or heard)."""
    tables = {}
    for table in state.round.tables if state.round else ():
        known = newest_game(table.game) if table.game else None
        if known is None:
            continue
        game = known.state
        names = {p.id: p.name for p in game.players}
        worth = net_worths(game) if game.status != "lobby" else {}
        stalled = game.status == "lobby" and state.status == "playing"
        tables[table.number] = Glance(names.get(game.turn) if game.status == "playing" else None,
                                      names.get(max(worth, key=worth.get)) if worth else None,
                                      _stalled(table, game) if stalled else None)
    return tables


def _stalled(table, game) -> str:
    """Why a table's game is still in its lobby while the round plays: what it would answer the
    round's start now, or (it would take it: its banker undid it, or it was too busy when told) that
    its host screen can start it."""
    refused = tournaments.start_refusal(table, game)
    return refusal(refused, game) if refused else _("Start it from its host screen.")


def offered(state) -> list[tuple[str, str]]:
    """The organiser's buttons that make sense now (the rules still decide: a refusal says why)."""
    status, clock = state.status, state.clock
    # Once the last turn is called the clock means nothing more (each table ends by its turns), so
    # it is neither paused nor run again.
    now = {"seat_round": status in ("registering", "between"), "start_round": status == "seated",
           "pause_clock": status == "playing" and clock.ends_at is not None and not clock.last_turn,
           "resume_clock": clock.paused_remaining is not None and not clock.last_turn,
           "last_turn": status == "playing" and not clock.last_turn, "undo": True}
    return [(kind, label) for kind, label in BUTTONS if now[kind]]


def _organiser_context(tournament_code: str, state, version: int, tables: dict | None = None) -> dict:
    view = _view(tournament_code, state)
    # Ties that only a roll-off breaks, offered once the standings are final: every qualifying round
    # played (they decide a final's seats, and the event's order); before that, rounds still to come
    # may part them.
    tied = ties(view["standings"]) if _standings_final(state) else []
    tied = [[(player, view["names"][player]) for player in group] for group in tied]  # (id, name)
    return {**view, "version": version, "glance": glance(state) if tables is None else tables,
            "organiser": True, "buttons": offered(state), "ties": tied}


def _standings_final(state) -> bool:
    """Whether every qualifying round has been played (the final, if any, may be still to come)."""
    played = [r for r in state.rounds if not r.final and r.status == "ended"]
    return state.status == "ended" or state.status == "between" and len(played) == state.settings.rounds


@bp.get("/e/<code:code>")
def page(code):
    """The organiser's screen; anyone else is sent to register."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        return redirect(url_for("tournament.register", code=tournament.code))
    return render_template("tournament/page.html",
                           **_organiser_context(tournament.code, tournaments.load(tournament), tournament.version))


@bp.get("/e/<code:code>/live")
def live(code):
    """The organiser's screen's live connection: its part depends on the tournament's version and
    on each table's turn and leader. When only tables moved, it writes their lines alone."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        abort(403)
    drawn = {}

    def depends(state, version):
        drawn["version"], drawn["glance"] = version, glance(state)
        return version, tuple(sorted(drawn["glance"].items()))

    def render(state, shown):
        tables = drawn["glance"]
        if shown is not None and shown[0] == drawn["version"]:
            before = dict(shown[1])
            moved = [t for t in state.round.tables if tables.get(t.number) != before.get(t.number)]
            return render_template("tournament/_glance.html", tables=moved, glance=tables, oob=True)
        return render_template("tournament/_organiser.html", **_organiser_context(code, state, 0, tables))

    return follow(tournament.code, _shown(), depends, render, BANKER, browser("banker").digest)


def _shown() -> int:
    """The version the page connecting was drawn at (?v=), 0 when it does not say."""
    shown = request.args.get("v", "")
    return int(shown) if shown.isdigit() and len(shown) < 10 else 0


@bp.post("/e/<code:code>")
def act(code):
    """One of the organiser's buttons (or add a player, withdraw, correct a result)."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        return message(_("Only the organiser's screen can do that."), 403)
    data = {key: value for key, value in request.form.items() if key not in ("csrf_token", "nonce")}
    if data.get("type") == "draw_seed":  # "Draw the seating again": the seed is drawn here, as at creation
        data["seed"] = secrets.randbelow(2**31)
    if data.get("type") == "correct_result":  # one player's points at a time, as the form gives them
        data["points"] = {data.pop("player", ""): typed(data.get("points", "").strip())}
    if data.get("type") == "roll_off":  # one choice per place, the winner's first
        data["players"] = request.form.getlist("players")
    try:
        tournaments.act(tournament.code, data, tournaments.ORGANISER)
    except GameError as error:
        flash(refusal(error, None, on_page=True), "error")
    except store.Busy:
        return message(_("The tournament is busy; try again."), 503, url_for("tournament.page", code=tournament.code))
    return redirect(url_for("tournament.page", code=tournament.code), 303)


@bp.app_template_global()
def tournament_of(game: str) -> str | None:
    """The code of the tournament whose table game `game` is, for the way back from its host screen
    and phones (templates/tournament/_back.html); None for any other game. One query."""
    return tournaments.table_of(game)


@bp.get("/e/<code:code>/register")
def register(code):
    """What the event's QR opens: a name to register with; a phone already registered goes on."""
    tournament = _tournament(code)
    if tournaments.entrant(tournament, browser("seat")) is not None:
        return redirect(url_for("tournament.me", code=tournament.code))
    return render_template("tournament/register.html", **_view(tournament.code, tournaments.load(tournament)))


@bp.post("/e/<code:code>/register")
def registered(code):
    tournament = _tournament(code)
    try:
        tournaments.register(tournament.code, request.form.get("name", ""), browser("seat", create=True))
    except GameError as error:
        state = tournaments.load(tournament)
        return render_template("tournament/register.html", error=refusal(error, None),
                               **_view(tournament.code, state)), 422
    except store.Busy:
        return message(_("The tournament is busy; try again."), 503)
    return redirect(url_for("tournament.me", code=tournament.code), 303)


@bp.get("/e/<code:code>/me")
def me(code):
    """The registered player's phone: waiting for the seating, then their table and seat (and on
    to their table's phone), between rounds their points and the next seating. `stay=<game>` (the
    way back from that table, or after withdrawing there) shows the page rather than go back to
    that game; a table of a newer round is still gone on to."""
    tournament = _tournament(code)
    player = tournaments.entrant(tournament, browser("seat"))
    if player is None:
        return redirect(url_for("tournament.register", code=tournament.code))
    state = tournaments.load(tournament)
    table = _playing(state, player)
    if table is not None and request.args.get("stay") != table.game:
        return redirect(url_for("player.page", code=table.game))
    return render_template("tournament/me.html", version=tournament.version,
                           **_me_context(tournament.code, state, player))


def _me_context(code: str, state, player: int) -> dict:
    """The registered phone's page; `stay` (its address's, and its live connection's) names the
    table it stays away from, whose link it shows without going on."""
    return {**_view(code, state), "player": player, "seat": _seat(state, player), "stay": request.args.get("stay")}


@bp.post("/e/<code:code>/me")
def withdraw(code):
    """A registered player withdraws from the next rounds (their game, if they are in one, goes on)."""
    tournament = _tournament(code)
    player = tournaments.entrant(tournament, browser("seat"))
    if player is None:
        return redirect(url_for("tournament.register", code=tournament.code))
    try:
        tournaments.act(tournament.code, {"type": "withdraw", "player": player}, EventActor(player=player))
    except GameError as error:
        flash(refusal(error, None, on_page=True), "error")
    except store.Busy:
        return message(_("The tournament is busy; try again."), 503)
    table = _playing(tournaments.load(tournament), player)
    return redirect(url_for("tournament.me", code=tournament.code, stay=table and table.game), 303)


@bp.get("/e/<code:code>/me/live")
def live_me(code):
    """A registered phone's live connection: its part depends on the tournament's version alone."""
    tournament = _tournament(code)
    player = tournaments.entrant(tournament, browser("seat"))
    if player is None:
        abort(403)
    return follow(tournament.code, _shown(), lambda state, version: version,
                  lambda state, _shown: render_template("tournament/_me.html", **_me_context(code, state, player)),
                  ("seat", player), browser("seat").digest)


@bp.post("/e/<code:code>/tv")
def new_tv(code):
    """"Show on a TV": a new view key for the event TV (the link before it stops working), and on
    to the TV's page, whose address is the link."""
    tournament = _tournament(code)
    if not tournaments.organises(tournament, browser=browser("banker")):
        return message(_("Only the organiser's screen can do that."), 403)
    return redirect(url_for("tournament.tv", code=tournament.code, key=tournaments.new_view_key(tournament)), 303)


def _tv_context(code: str, state) -> dict:
    view = _view(code, state)
    names = view["names"]
    seating = sorted(((names[p], t.number) for t in state.round.tables for p in t.seats),
                     key=lambda pair: sort_key(pair[0])) if state.status in ("seated", "playing") else []
    # The standings once someone has played; beside the seating while a round is played.
    played = [s for s in view["standings"] if s.best_place is not None] and view["standings"]
    half = bool(seating and played)
    return {**view, "seating": tv_columns(seating, "seating", half), "leaderboard": tv_columns(played, "standings", half),
            "ranking": ranking(state)}


@bp.get("/e/<code:code>/tv/<key:key>")
def tv(code, key):
    tournament = tournaments.tv_tournament(code, key)
    if tournament is None:
        return _not_this_tv()
    response = Response(render_template("tournament/tv.html", key=key, version=tournament.version,
                                        **_tv_context(tournament.code, tournaments.load(tournament))))
    response.headers["Cache-Control"] = "no-store"  # its address holds the key
    return response


@bp.get("/e/<code:code>/tv/<key:key>/live")
def live_tv(code, key):
    """The event TV's live connection: its part depends on the tournament's version alone (a new
    view key is such a version: the TV on the old one is told when it next looks)."""
    tournament = tournaments.tv_tournament(code, key)
    if tournament is None:
        return _not_this_tv()
    return follow(tournament.code, _shown(), lambda state, version: version,
                  lambda state, _shown: render_template("tournament/_tv.html", **_tv_context(code, state)), TV)


def _not_this_tv():
    return render_template("error.html", message=_("This TV link does not work: the organiser may have made a new "
                                                   "one. Ask for the new link.")), 404


def _seat(state, player: int):
    """The player's table and seat number in the newest round, or None when not seated in it."""
    if state.round is None:
        return None
    for table in state.round.tables:
        if player in table.seats:
            return table, table.seats.index(player) + 1
    return None


def _playing(state, player: int):
    """The player's table in the newest round while its game is being played (None when not seated
    in it, or its game has ended): where their phone belongs."""
    seat = _seat(state, player)
    return seat[0] if seat is not None and seat[0].game and seat[0].results is None else None


@bp.get("/e/<code:code>/results")
def results_page(code):
    tournament = _tournament(code)
    state = tournaments.load(tournament)
    return render_template("tournament/results.html", rows=results.rows(state), **_view(tournament.code, state))


@bp.get("/e/<code:code>/results.csv")
def results_csv(code):
    tournament = _tournament(code)
    return results.as_csv(tournaments.load(tournament), tournament.code)


@bp.get("/e/<code:code>/results.json")
def results_json(code):
    tournament = _tournament(code)
    return jsonify(results.as_json(tournaments.load(tournament), tournament.code))

