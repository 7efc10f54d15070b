"""A game by its code: making one (with its code and the banker's token), finding one, and opening
one as its sender (`visit`: the pages' and the API's read of who is asking)."""

import secrets
from datetime import UTC, datetime

from sqlalchemy import select

from ..models import Game, db
from ..rules import Actor, GameState, Settings, new_game
from ..rules.board import EDITION_NAMES, load_board
from ..rules.errors import ActionError, N_
from .engine import writing
from .identity import Browser, Sender, give_badge, holding, new_token, token_hash

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
# One cheap query on the games' own table: it answers only if the database is there and readable.
_ANSWER = select(Game.id).limit(1)


def create_game(edition: str = "us", settings: dict | None = None,
                browser: Browser | None = None) -> tuple[Game, str]:
    """A new game in its lobby; returns it with the banker's secret token (for the API). A browser
    that creates it (the home page) gets the banker's badge."""
    if not isinstance(edition, str) or edition not in EDITION_NAMES:
        raise ActionError("unknown_edition", N_("Unknown edition; the editions are: {editions}."),
                          editions=", ".join(EDITION_NAMES))
    chosen = Settings.parse(settings, load_board(edition).settings)
    state = new_game(edition, chosen)
    banker_token = new_token()
    with writing():
        game = Game(
            code=free_code(), banker_token_hash=token_hash(banker_token), edition=edition,
            settings=vars(chosen).copy(), state=state.to_dict(), version=0,
            created_at=datetime.now(UTC),
        )
        db.session.add(game)
        if browser is not None:
            db.session.flush()
            give_badge(game.id, browser, None)
        db.session.commit()
    return game, banker_token


def free_code(model=Game) -> str:
    """A code no row of `model` has yet (a game's; store/tournaments.py asks for a tournament's)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not db.session.scalar(select(model.id).where(model.code == code)):
            return code


def game_code(code: str) -> str | None:
    """The code in its stored form (upper case), or None when it could not be a game's code: junk
    never reaches a query."""
    code = code.upper()
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None


class GameNotFound(Exception):
    """No game has this code (the pages and the API answer 404). Not a LookupError: a KeyError
    that a bug lets out stays a bug (500), never a 404."""


def answering() -> None:
    """Ask the database one cheap question (the health check's): raises SQLAlchemy's error when
    it is not there or not readable."""
    db.session.execute(_ANSWER)


def find_game(code: str) -> Game | None:
    code = game_code(code)
    return db.session.scalar(select(Game).where(Game.code == code)) if code else None


def load_state(game: Game) -> GameState:
    return GameState.from_dict(game.state)


def visit(code: str, secret: str | None = None,
          browser: Browser | None = None) -> tuple[Game | None, Actor | None]:
    """The game and who holds `secret` (an API token) or is `browser` in it: the banker, a seat,
    or None. One query."""
    code = game_code(code)
    if code is None:
        return None, None
    sender = Sender.of(secret, browser)
    if sender.via is None:
        return find_game(code), None
    row = db.session.execute(holding(select(Game), sender.via).where(Game.code == code), sender.params).first()
    if row is None:
        return None, None
    game = row[0]
    return game, sender.holder(game.banker_token_hash, row)
