"""Live updates: a version probe every page polls. Unchanged costs one indexed SELECT and no body."""

from flask import Blueprint, abort, render_template

from .. import store

bp = Blueprint("live", __name__)


@bp.get("/live/<code>/<int:seen>")
def probe(code, seen):
    """204 while the game is at the version the page has; else a new probe and `game-changed`."""
    version = store.version_of(code)
    if version is None:
        abort(404)
    if version == seen:
        return "", 204
    response = render_template("_probe.html", code=code.upper(), version=version)
    return response, 200, {"HX-Trigger": "game-changed"}
