"""The front page: create a game."""

from flask import Blueprint, redirect, render_template, request, url_for

from .. import store
from ..rules.errors import GameError
from ..rules.state import Settings
from .narrate import refusal
from .seats import remember

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    return render_template("home/index.html", defaults=vars(Settings()))


@bp.post("/games")
def create():
    """Create a game from the form; this browser becomes its banker."""
    try:
        game, banker_token = store.create_game("us", settings_from_form(request.form))
    except GameError as error:
        return render_template("home/index.html", defaults=vars(Settings()), error=refusal(error, None),
                               form=request.form), 422
    remember("banker", game.code, banker_token)
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
            # Typed like the default (75 for luxury_tax, "2008" for community_chest) when it can be.
            settings[key] = int(value) if isinstance(default, int) and value.lstrip("-").isdigit() else value
    return settings
