"""Who sends a request: the banker or a seat, by an API token or by the browser's badge; or a
newcomer. Secrets are kept only as hashes; a browser's key opens nothing through the API.

The same question is asked of every action three times (to scope its nonce, to read the sender's
seat or badge with the game, to name the actor), and once by every page (`games.visit`). A
`Sender`, made once per request, holds the answer known before the game is read, so that which
secret counts (the browser's first) and its hash are worked out in one place."""

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam

from ..models import Badge, Game, Seat, db
from ..rules import Actor
from ..rules.errors import ActionError, N_

# The seat holding a secret (its hash, bound as "digest") in the game being read.
_SEAT = (Seat.game_id == Game.id) & (Seat.token_hash == bindparam("digest"))
# The browser's badge (its key's hash bound as "digest") for a role in the game being read.
_BADGE = (Badge.game_id == Game.id) & (Badge.browser_hash == bindparam("digest")) & (Badge.role == bindparam("role"))


class UnknownSecret(Exception):
    """A secret that belongs to nobody in the game: a replaced seat, or a made-up token (or a
    browser without that role in the game)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Browser:
    """A browser as the pages know it: the random key its cookie keeps for all its games, asking as
    the banker or as its seat (`role`). What it holds in each game is kept in badges, by the key's
    hash; the key itself opens nothing through the API."""

    key: str
    role: str  # "banker" or "seat"

    @property
    def digest(self) -> str:
        return token_hash(self.key)


@dataclass(frozen=True)
class Sender:
    """Who sends a request, as far as it is known before the game is read: a browser asking in a
    role, an API token (each by its hash), or neither (a newcomer joining, or an in-process caller
    that names its actor). A browser counts before a token; an empty token is none."""

    via: str | None  # "browser", "token" or None
    digest: str | None = None  # the hash of the browser's key or of the token
    role: str | None = None  # the browser's role: "banker" or "seat"

    @classmethod
    def of(cls, secret: str | None, browser: Browser | None) -> "Sender":
        if browser is not None:
            return cls("browser", browser.digest, browser.role)
        return cls("token", token_hash(secret)) if secret else cls(None)

    @property
    def params(self) -> dict:
        """The values `holding`'s join is bound to."""
        return {"digest": self.digest, "role": self.role}

    def holder(self, banker_token_hash: str, row) -> Actor | None:
        """Who the sender is in a game, given the game's banker hash and a row read through
        `holding`: the banker, a seat, or nobody (None)."""
        if self.via == "browser":
            if row.badge is None:
                return None
            return Actor(banker=True) if self.role == "banker" else Actor(player=row.player_id)
        if hmac.compare_digest(self.digest, banker_token_hash):
            return Actor(banker=True)
        return Actor(player=row.player_id) if row.player_id is not None else None

    def actor(self, row, joining: bool) -> Actor:
        """Who sends the action, from the action's read of the game: the banker or a seat; with
        neither secret (or a browser with no seat yet, joining), a newcomer. Anyone else:
        UnknownSecret."""
        if self.via is None:
            return Actor()
        actor = self.holder(row.banker_token_hash, row)
        if actor is None:
            if joining and self.via == "browser":
                return Actor()
            raise UnknownSecret(row.id)
        return actor

    def nonce_key(self, nonce: str | None, actor: Actor | None, joining_as=None) -> str | None:
        """What the log keeps of a nonce: a hash of it with its sender, so that one sender's nonce
        never meets another's (a player cannot block the banker by sending the banker's nonce
        first), and no nonce is kept in clear. The sender is known before the game is read: the
        banker's screens (all of them: they share the close-auction nonce), a seat's browser, an
        API token, an in-process caller's `actor`, or a newcomer by the name it joins as
        (`joining_as`, the join's `name`)."""
        if nonce is None:
            return None
        if self.via == "browser":
            sender = "banker" if self.role == "banker" else f"seat:{self.digest}"
        elif self.via == "token":
            sender = f"token:{self.digest}"
        elif actor:
            sender = str(actor)
        else:
            # A newcomer has no secret yet; what is its own is the name it asks for. A retry (a
            # double tap, a lost answer) sends the same name, so it meets its first join; two
            # people cannot share a name in a game, so one's nonce never blocks another's join,
            # and taking someone's nonce first means taking their name, which blocks them anyway.
            sender = f"newcomer:{_same_name(joining_as)}"
        return hashlib.sha256(f"{sender}\n{nonce}".encode()).hexdigest()


def _same_name(name) -> str:
    """A name as the game tells names apart: spaces as the name parser leaves them
    (rules.inputs.text), case ignored (rules.lobby.join). Anything but text is no name: such a join
    is refused before anything is saved."""
    return " ".join(name.split()).casefold() if isinstance(name, str) else ""


def holding(query, via: str | None):
    """`query` (of the games table) with what the sender holds in the game joined to it: for a
    token, the seat holding it (`player_id`); for a browser, its badge for the role (`badge`,
    `player_id`); for neither, nothing. Bind it with `Sender.params`."""
    if via == "token":
        return query.add_columns(Seat.player_id).outerjoin(Seat, _SEAT)
    if via == "browser":
        return query.add_columns(Badge.id.label("badge"), Badge.player_id).outerjoin(Badge, _BADGE)
    return query


def give_badge(game_id: int, browser: Browser, player: int | None) -> None:
    """The browser holds its role in the game from now on (as the banker, or at seat `player`)."""
    db.session.add(Badge(browser_hash=browser.digest, game_id=game_id, role=browser.role, player_id=player))


def nonce_value(value) -> str | None:
    """The nonce an action carries, checked: None when it has none."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 64 or not value.isprintable():
        raise ActionError("bad_nonce", N_("nonce must be a short string."))
    return value
