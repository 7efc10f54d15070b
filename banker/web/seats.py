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


def game_or_404(code: str) -> Game:
    game = store.find_game(code)
    if game is None:
        abort(404)
    return game


def banker_here(game: Game) -> bool:
    """True when this browser holds the game's banker secret."""
    actor = store.actor_for(game, session.get("banker", {}).get(game.code))
    return bool(actor and actor.banker)


def seat_here(game: Game) -> Actor | None:
    """The seat this browser holds in the game, if any."""
    actor = store.actor_for(game, session.get("seat", {}).get(game.code))
    return actor if actor and actor.player is not None else None
