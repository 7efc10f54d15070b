"""The TV screen's view key: the banker makes one, a TV opens the game's read-only screen with it
(/tv/<code>/<key>), and a new one makes the old link stop working. Only its hash is kept (one per
game, models.TvKey); the key opens that one page (and its live connection), nothing else: it is not
a token of the API, nor a badge."""

import hmac
import secrets

from sqlalchemy import delete, select

from ..models import Game, TvKey, db
from .engine import writing
from .games import CODE_ALPHABET, game_code
from .identity import token_hash
from .news import announce, notifier

# A view key is typed on a TV's remote, so it is short and read aloud easily: 8 characters of the
# game codes' alphabet (no 0/O or 1/I look-alikes), in either case: 40 bits. Enough for a page
# that only shows the game: a guess needs the game's code as well, a wrong key is one of the 30
# unknown codes a minute (300 a day) an address may try (web/serving/limits.py): one address would need
# millions of years to find it; and it lives only until the banker makes a new one. Keys made before
# (43 characters of token_urlsafe) keep working: they are never 8 characters long, so they are
# compared as they are.
VIEW_KEY_LENGTH = 8


def new_view_key(game: Game) -> str:
    """A new view key for the game's TV screen; an earlier one stops working, and a TV still open
    on it hears so at once (the seats' check of every open page of the game: the version is the
    same, nothing in the game changed)."""
    key = draw_view_key()
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
    if row is None or not view_key_opens(row.key_hash, key):
        return None
    return row[0]


def has_view_key(game: Game) -> bool:
    """Whether the game has a TV link now (whichever key): a new one would stop it, so the banker's
    button asks first only then. One query."""
    return db.session.execute(select(TvKey.game_id).where(TvKey.game_id == game.id).limit(1)).first() is not None


def draw_view_key() -> str:
    """A new view key, a game's TV's or a tournament's (store/tournaments.py): only its hash is kept."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(VIEW_KEY_LENGTH))


def view_key_opens(key_hash: str | None, key: str) -> bool:
    """Whether `key` is the view key kept as `key_hash` (None: there is none), however the TV's
    keyboard typed it: a short key as it was made (upper case), an older, long key as it is."""
    if key_hash is None:
        return False
    upper = key.upper()
    typed = upper if len(key) == VIEW_KEY_LENGTH and all(c in CODE_ALPHABET for c in upper) else key
    return hmac.compare_digest(key_hash, token_hash(typed))
