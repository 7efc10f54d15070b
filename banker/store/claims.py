"""Rejoin codes: the banker makes one for a seat, a new phone scans it and takes the seat over, and
the seat's other phones (and its API token) stop working."""

import secrets
import time

from sqlalchemy import delete, select, update

from ..models import Badge, Claim, Game, Seat, db
from .engine import writing
from .games import find_game
from .identity import Browser, give_badge, new_token, token_hash
from .news import announce, notifier

# How long a rejoin code can be claimed (the banker shows it, the new phone scans it at once).
CLAIM_SECONDS = 10 * 60
# A used rejoin code expired at the epoch: its row (a hash) stays until the game's next new code, so
# that the banker's code page can say the seat was taken rather than that the code lapsed.
USED = 0
# The role of a badge whose seat a rejoin code moved to another phone: it opens nothing (the pages
# ask as "seat" or "banker"), and tells the old phone what became of its seat (moved_seat).
MOVED = "moved"


class SeatNotFound(Exception):
    """The game has no seat with that player's id."""


def new_claim(game: Game, player_id: int) -> str:
    """A rejoin code for a seat: one new phone may take the seat with it, once, for the next
    CLAIM_SECONDS; an earlier code for the seat stops working. Only its hash is kept."""
    code = secrets.token_urlsafe(16)
    with writing():
        if db.session.scalar(select(Seat.id).where(Seat.game_id == game.id, Seat.player_id == player_id)) is None:
            raise SeatNotFound(player_id)
        db.session.execute(delete(Claim).where(Claim.game_id == game.id,
                                               (Claim.player_id == player_id) | (Claim.expires_at < _now())))
        db.session.add(Claim(code_hash=token_hash(code), game_id=game.id, player_id=player_id,
                             expires_at=_now() + CLAIM_SECONDS))
        db.session.commit()
    return code


def claim(code: str, rejoin: str) -> tuple[Game | None, int | None]:
    """The game, and the seat a rejoin code can take now (None: used, replaced or expired)."""
    game = find_game(code)
    if game is None:
        return None, None
    return game, db.session.scalar(select(Claim.player_id).where(_live(game, rejoin)))


def claim_state(game: Game, player_id: int, rejoin: str) -> str:
    """What became of a seat's rejoin code: "live" (it can take the seat now), "used" (a new phone
    took the seat with it), or "void" (it expired, a newer code replaced it, or it is not this seat's)."""
    expires_at = db.session.scalar(select(Claim.expires_at).where(
        Claim.game_id == game.id, Claim.player_id == player_id, Claim.code_hash == token_hash(rejoin)))
    if expires_at is None:
        return "void"
    return "live" if expires_at >= _now() else "used" if expires_at == USED else "void"


def take_seat(code: str, rejoin: str, browser: Browser) -> int | None:
    """The browser takes the seat a rejoin code is for, and the code is used up: the seat's other
    phones (and its API token) stop working, and their open pages (and the banker's code page)
    hear of it at once (the version is the same: nothing in the game changed). None when the code
    cannot be used (any more), by anyone else first too: of phones racing one code, exactly one
    takes the seat."""
    with writing():
        game = find_game(code)
        # The claim's row is locked where the database can (PostgreSQL; SQLite's BEGIN IMMEDIATE
        # already made this the only writer): a racer that waited for the lock reads the claim
        # again as the winner left it, used. Without the lock every racer read it live and went
        # on, each later one retiring the badge of the one before.
        player = None if game is None else db.session.scalar(
            select(Claim.player_id).where(_live(game, rejoin)).with_for_update())
        # Used up only if still live, and counted: on a database without row locks two racers
        # could both have read it live, and only the one whose update changed it goes on.
        if player is None or db.session.execute(
                update(Claim).where(_live(game, rejoin)).values(expires_at=USED)).rowcount != 1:
            db.session.rollback()
            return None
        # The seat's other phones keep a badge that says the seat moved (role MOVED, which no
        # request asks as), so that a reload there says so rather than only offering to join;
        # a phone holds one such note per game, the newest.
        others = (Badge.game_id == game.id) & (Badge.role == "seat") & (Badge.player_id == player) & (
            Badge.browser_hash != browser.digest)
        db.session.execute(delete(Badge).where(
            Badge.game_id == game.id, Badge.role == MOVED,
            Badge.browser_hash.in_(select(Badge.browser_hash).where(others)) | (Badge.browser_hash == browser.digest)))
        db.session.execute(update(Badge).where(others).values(role=MOVED))
        db.session.execute(delete(Badge).where(
            Badge.game_id == game.id, Badge.role == "seat",
            (Badge.player_id == player) | (Badge.browser_hash == browser.digest)))
        db.session.execute(update(Seat).where(Seat.game_id == game.id, Seat.player_id == player)
                           .values(token_hash=token_hash(new_token())))
        give_badge(game.id, browser, player)
        code, version = game.code, game.version
        notifier().relay(db.session, code, version)
        db.session.commit()
    announce(code, version)
    return player


def moved_seat(game: Game, browser: Browser | None) -> int | None:
    """The seat a rejoin code last moved from this browser to another phone (None: none did, or the
    browser has taken a seat with a rejoin code since). Asked only of a browser without a seat."""
    if browser is None:
        return None
    return db.session.scalar(select(Badge.player_id).where(
        Badge.game_id == game.id, Badge.browser_hash == browser.digest, Badge.role == MOVED))


def _live(game: Game, rejoin: str):
    """The condition on a claim that rejoin code `rejoin` can take its seat in `game` now."""
    return (Claim.game_id == game.id) & (Claim.code_hash == token_hash(rejoin)) & (Claim.expires_at >= _now())


def _now() -> int:
    """The clock the codes are judged by, in whole seconds (one name for the tests to move)."""
    return int(time.time())
