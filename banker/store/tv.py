"""The TV screen's view key: the banker makes one, a TV opens the game's read-only screen with it
(/tv/<code>/<key>), and a new one makes the old link stop working. Only its hash is kept (one per
game, models.TvKey); the key opens that one page (and its live connection), nothing else: it is not
a token of the API, nor a badge."""

import hmac

from sqlalchemy import delete, select

from ..live.notifier import announce, notifier
from ..models import Game, TvKey, db
from .engine import writing
from .games import game_code
from .identity import new_token, token_hash


def new_view_key(game: Game) -> str:
    """A new view key for the game's TV screen; an earlier one stops working, and a TV still open
    on it hears so at once (the seats' check of every open page of the game: the version is the
    same, nothing in the game changed)."""
    key = new_token()
    with writing():
        db.session.execute(delete(TvKey).where(TvKey.game_id == game.id))
        db.session.add(TvKey(game_id=game.id, key_hash=token_hash(key)))
        code, version = game.code, game.version
        notifier().relay(db.session, code, version)
        db.session.commit()
    announce(code, version)
    return key


def tv_game(code: str, key: str) -> Game | None:
    """The game whose TV screen the view key opens now; None for any other key (an older one, or
    a made-up one) or no such game. One query."""
    code = game_code(code)
    if code is None:
        return None
    row = db.session.execute(select(Game, TvKey.key_hash).outerjoin(TvKey, TvKey.game_id == Game.id)
                             .where(Game.code == code)).first()
    if row is None or row.key_hash is None or not hmac.compare_digest(row.key_hash, token_hash(key)):
        return None
    return row[0]
