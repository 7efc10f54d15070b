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
    return render_template("home/index.html", defaults=Settings())


@bp.post("/games")
def create():
    """Create a game from the form; this browser becomes its banker."""
    settings = {}
    for key in ("start_cash", "go_salary"):
        if request.form.get(key, "").strip():
            settings[key] = request.form[key].strip()
    try:
        settings = {k: _whole_number(v) for k, v in settings.items()}
        game, banker_token = store.create_game("us", settings)
    except GameError as error:
        return render_template("home/index.html", defaults=Settings(), error=refusal(error, None),
                               form=request.form), 422
    remember("banker", game.code, banker_token)
    return redirect(url_for("table.page", code=game.code), 303)


def _whole_number(text: str):
    """Form text to int when it is one; anything else goes on to the rules' own check."""
    return int(text) if text.lstrip("-").isdigit() else text
