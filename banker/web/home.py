"""The front page: create a game."""

import re

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..rules.state import Settings
from .narrate import refusal
from .seats import browser

bp = Blueprint("home", __name__)
# A whole number as typed in a settings box: ASCII digits, short enough to be read in no time (the
# rules then check its range).
WHOLE = re.compile(r"-?[0-9]{1,9}")


@bp.get("/")
def index():
    return render_template("home/index.html", defaults=vars(Settings()))


@bp.post("/games")
def create():
    """Create a game from the form; this browser becomes its banker."""
    try:
        game, _token = store.create_game("us", settings_from_form(request.form), browser("banker", create=True))
    except GameError as error:
        return render_template("home/index.html", defaults=vars(Settings()), error=refusal(error, None),
                               form=request.form), 422
    return redirect(url_for("table.page", code=game.code), 303)


def settings_from_form(form) -> dict:
    """The new-game form as settings: every checkbox is on the form, so an absent one is off;
    numbers and choices go on to the rules' own checks."""
    settings = {}
    for key, default in vars(Settings()).items():
        if isinstance(default, bool):
            settings[key] = key in form
        elif form.get(key, "").strip():
            value = form[key].strip()
            # Typed like the default (75 for luxury_tax, "2008" for community_chest) when it can be;
            # anything else (--5, ², 5,000 digits) goes on as text for the rules to refuse by name.
            settings[key] = int(value) if isinstance(default, int) and WHOLE.fullmatch(value) else value
    return settings


@bp.get("/join")
def join_code():
    """The "join a game" box: on to the game's join page, or say the code is unknown."""
    code = request.args.get("code", "").strip().upper()
    if not code or store.find_game(code) is None:
        message = _("There is no game with the code %(code)s. Check it on the host screen.", code=code)
        return render_template("error.html", message=message), 404
    return redirect(url_for("join.page", code=code))
