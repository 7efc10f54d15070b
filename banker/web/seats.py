"""Who is at this browser: the banker's and seats' secrets kept in the signed session cookie."""

from flask import abort, session

from .. import store
from ..models import Game
from ..rules import Actor


def remember(kind: str, code: str, token: str) -> None:
    """Keep a secret ("banker" or "seat") for a game in the cookie, across sleeps and reloads."""
    secrets = dict(session.get(kind, {}))
    secrets[code] = token
    session[kind] = secrets
    session.permanent = True


def secret(kind: str, code: str) -> str | None:
    """The secret of this kind ("banker" or "seat") this browser keeps for the game, if any."""
    return session.get(kind, {}).get(code.upper())


def visit(code: str, kind: str) -> tuple[Game | None, Actor | None]:
    """The game, and this browser in it as `kind`: the banker for "banker", its seat for "seat"
    (None when this browser is not that here). One query."""
    game, actor = store.visit(code, secret(kind, code))
    if actor is not None and actor.banker != (kind == "banker"):
        actor = None
    return game, actor


def visit_or_404(code: str, kind: str) -> tuple[Game, Actor | None]:
    """visit, or 404 when there is no such game."""
    game, actor = visit(code, kind)
    if game is None:
        abort(404)
    return game, actor


def game_or_404(code: str) -> Game:
    game = store.find_game(code)
    if game is None:
        abort(404)
    return game
