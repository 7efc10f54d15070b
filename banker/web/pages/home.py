"""The front page: create a game, or import one exported on another laptop."""

import re

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from ... import store
from ...rules.errors import N_, GameError
from ...rules.board import EDITION_LABELS, EDITION_NAMES, OFFERED_PRINTINGS, PRINTING_LABELS, load_board
from ...rules.state import PRESETS, Settings
from ..files import imports
from ...words.amounts import typed
from ...words.names import labelled, reader_language
from ...words.narrate import refusal
from ..answers.seats import browser

bp = Blueprint("home", __name__)
# A whole number as typed in a settings box: ASCII digits, short enough to be read in no time (the
# rules then check its range).
WHOLE = re.compile(r"-?[0-9]{1,9}")


def _page(shown: str = "official", edition: str | None = None, status: int = 200, **context):
    """The front page, its new-game fields showing the values of the preset `shown` on `edition`
    (by default the board of the reader's language)."""
    edition = edition or first_board(reader_language())
    presets = {name: {key: vars(_settings(key, name)) for key in PRESETS} for name in EDITION_NAMES}
    editions, choices = edition_choices(), preset_choices()
    # The US printings by year are the US cards with the Community Chest chosen below them.
    printings = [(key, labelled(PRINTING_LABELS[key])) for key in OFFERED_PRINTINGS]
    return render_template("home/index.html", defaults=presets[edition][shown], presets=presets, shown=shown,
                           shown_edition=edition, edition_choices=editions, preset_choices=choices,
                           printing_choices=printings, **context), status


def edition_choices() -> list[tuple[str, str]]:
    """The boards a new game (or tournament) offers, in the reader's words."""
    return [(name, labelled(EDITION_LABELS[name])) for name in EDITION_NAMES]


def preset_choices() -> list[tuple[str, str, str]]:
    """The rule presets a new game (or tournament) offers: key, name, what it means."""
    return [("official", _("Official"), _("the rules in today's box")),
            ("classic", _("Classic"), _("before 2008: Income Tax 200 or 10%, Luxury Tax 75, the 2008 Community Chest")),
            ("jma", _("Tournament"), _("the Japan Monopoly Association's competition rules"))]


# The form's labels for the settings a refusal may name (the API names them by their keys); the
# other fields are choices that only a tampered form gets wrong.
LABELS = {"start_cash": N_("Starting cash"), "go_salary": N_("GO salary"), "time_limit_minutes": N_("Time limit"),
          "auction_countdown_seconds": N_("Auction countdown"),
          "luxury_tax": N_("Luxury Tax"), "income_tax": N_("Income Tax"), "community_chest": N_("Community Chest cards"),
          "cards": N_("Chance and Community Chest cards")}


def _refused(error: GameError) -> str:
    """A refusal of the form in the words of the form: "Starting cash must be…", not "start_cash"."""
    key = error.params.get("key")
    if key not in LABELS:
        return refusal(error, None)
    return _(error.message).format(**{**error.params, "key": _(LABELS[key])})


def first_board(language: str) -> str:
    """The board a new game offers first: the first one printed in the reader's language."""
    return next((name for name in EDITION_NAMES if load_board(name).language == language), EDITION_NAMES[0])


def _preset(name) -> str:
    return name if name in PRESETS else "official"


def _edition(name) -> str:
    return name if name in EDITION_NAMES else "us"


def _settings(preset: str, edition: str) -> Settings:
    """What a preset gives on an edition (its own defaults first)."""
    return Settings.parse({"preset": preset}, load_board(edition).settings)


@bp.get("/")
def index():
    return _page(_preset(request.args.get("preset")),
                 _edition(request.args["edition"]) if "edition" in request.args else None)


@bp.post("/games")
def create():
    """Create a game from the form; this browser becomes its banker."""
    try:
        game, _token = store.create_game(request.form.get("edition", "us"), settings_from_form(request.form),
                                         browser("banker", create=True))
    except GameError as error:
        return _page(_preset(request.form.get("shown_preset")), _edition(request.form.get("shown_edition")), 422,
                     error=_refused(error), form=request.form)
    return redirect(url_for("table.page", code=game.code), 303)


def settings_from_form(form) -> dict:
    """The new-game form as settings: the chosen preset, and each field that differs from what the
    form showed (the values of `shown_preset` on `shown_edition`), so a preset or an edition picked
    without the page refilling the fields (no JavaScript) still applies. Every checkbox is on the
    form, so an absent one is off; numbers and choices go on to the rules' own checks."""
    shown = vars(_settings(_preset(form.get("shown_preset")), _edition(form.get("shown_edition"))))
    settings = {"preset": form.get("preset", "official")}
    for key, default in vars(Settings()).items():
        if key == "preset":
            continue
        if isinstance(default, bool):
            value = key in form
        elif form.get(key, "").strip():
            value = typed(form[key].strip())
            # Typed like the default (75 for luxury_tax, "2008" for community_chest) when it can be;
            # anything else (--5, ², 5,000 digits) goes on as text for the rules to refuse by name.
            value = int(value) if isinstance(default, int) and WHOLE.fullmatch(value) else value
        else:
            continue
        if value != shown[key]:
            settings[key] = value
    return settings


@bp.post("/games/import")
def bring_back():
    """"Import a game": the file another laptop exported, replayed into a new game whose banker is
    this browser; its host screen next. A refusal (too large, cut short, not a game file, an event
    that does not replay, other imports being read: web/files/imports.py) is said at the top of this page,
    and nothing is created.

    The body may hold a file of up to IMPORT_MAX_BYTES, and the form around it (MAX_CONTENT_LENGTH),
    so the limit is raised before anything reads it, and the CSRF token is checked here rather than
    before the view (web/__init__.py exempts it), since that check reads the form."""
    largest = current_app.config["IMPORT_MAX_BYTES"]
    request.max_content_length = largest + current_app.config["MAX_CONTENT_LENGTH"]
    try:
        with imports.turn():
            current_app.extensions["csrf"].protect()
            upload = request.files.get("archive")
            # Not JSON is refused as cut short or as junk (game_file.read), no file as not a game.
            raw = imports.whole(upload, largest) if upload is not None else None
            game, _token = imports.bring_back(raw, browser("banker", create=True))
    except imports.Busy:
        page = _page(status=503, import_error=imports.busy_message())
        return *page, {"Retry-After": str(imports.RETRY_SECONDS)}
    except RequestEntityTooLarge:
        return _page(status=413, import_error=imports.too_large_message())
    except GameError as error:
        return _page(status=422, import_error=refusal(error, None))
    return redirect(url_for("table.page", code=game.code), 303)


@bp.get("/join")
def join_code():
    """The "join a game" box: on to the game's join page, or say the code is unknown."""
    code = request.args.get("code", "").strip().upper()
    if not code or store.find_game(code) is None:
        message = _("There is no game with the code %(code)s. Check it on the host screen.", code=code)
        return render_template("error.html", message=message), 404
    return redirect(url_for("join.page", code=code))
