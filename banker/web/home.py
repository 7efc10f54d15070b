"""The front page: create a game."""

import re

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..rules.state import PRESETS, Settings
from .narrate import refusal
from .seats import browser

bp = Blueprint("home", __name__)
# A whole number as typed in a settings box: ASCII digits, short enough to be read in no time (the
# rules then check its range).
WHOLE = re.compile(r"-?[0-9]{1,9}")


def _page(shown: str = "official", status: int = 200, **context):
    """The front page, its new-game fields showing the values of the preset `shown`."""
    presets = {key: vars(Settings.parse({"preset": key})) for key in PRESETS}
    choices = [("official", _("Official"), _("the rules in today's box")),
               ("classic", _("Classic"), _("before 2008: Income Tax 200 or 10%, Luxury Tax 75, the 2008 Community Chest")),
               ("jma", _("Tournament"), _("the Japan Monopoly Association's competition rules"))]
    return render_template("home/index.html", defaults=presets[shown], presets=presets, shown=shown,
                           preset_choices=choices, **context), status


def _preset(name) -> str:
    return name if name in PRESETS else "official"


@bp.get("/")
def index():
    return _page(_preset(request.args.get("preset")))


@bp.post("/games")
def create():
    """Create a game from the form; this browser becomes its banker."""
    try:
        game, _token = store.create_game("us", settings_from_form(request.form), browser("banker", create=True))
    except GameError as error:
        return _page(_preset(request.form.get("shown_preset")), 422, error=refusal(error, None), form=request.form)
    return redirect(url_for("table.page", code=game.code), 303)


def settings_from_form(form) -> dict:
    """The new-game form as settings: the chosen preset, and each field that differs from what the
    form showed (the values of `shown_preset`), so a preset picked without the page refilling the
    fields (no JavaScript) still applies. Every checkbox is on the form, so an absent one is off;
    numbers and choices go on to the rules' own checks."""
    shown = vars(Settings.parse({"preset": _preset(form.get("shown_preset"))}))
    settings = {"preset": form.get("preset", "official")}
    for key, default in vars(Settings()).items():
        if key == "preset":
            continue
        if isinstance(default, bool):
            value = key in form
        elif form.get(key, "").strip():
            value = form[key].strip()
            # Typed like the default (75 for luxury_tax, "2008" for community_chest) when it can be;
            # anything else (--5, ², 5,000 digits) goes on as text for the rules to refuse by name.
            value = int(value) if isinstance(default, int) and WHOLE.fullmatch(value) else value
        else:
            continue
        if value != shown[key]:
            settings[key] = value
    return settings


@bp.get("/join")
def join_code():
    """The "join a game" box: on to the game's join page, or say the code is unknown."""
    code = request.args.get("code", "").strip().upper()
    if not code or store.find_game(code) is None:
        message = _("There is no game with the code %(code)s. Check it on the host screen.", code=code)
        return render_template("error.html", message=message), 404
    return redirect(url_for("join.page", code=code))
