"""The TV across the room (/tv/<code>/<view key>): the game read-only and large."""

from functools import cached_property
from typing import NamedTuple

from flask import url_for

from .. import qr
from ..rules.networth import net_worth
from . import history
from .links import public_url
from .screen import Part, Screen


# The TV's latest events: as many as read from a sofa, the newest first and largest.
TV_NEWS = 5


class Standing(NamedTuple):
    """A player as the TV's standings show them."""

    id: int
    name: str
    token: str
    cash: int
    worth: int
    bankrupt: bool
    in_jail: bool


class TvScreen(Screen):
    """The TV across the room (/tv/<code>/<view key>): everything public, read-only, large: the join
    QR in the lobby, whose turn and any auction, the board (the host's), the standings with cash and
    net worth side by side, the latest events. The same for every TV of the game (one watcher key: each part is
    rendered once per change for all of them): no tools, no secrets."""

    AREA = "tv"
    PARTS = {
        "lobby": Part("tv/_lobby.html", ("lobby", "roster")),
        "turn": Part("tv/_turn.html", ("auction_clock", "winners")),
        "board": Part("tv/_board.html", ("cells",)),
        "standings": Part("tv/_standings.html", ("ranks",)),
        "news": Part("tv/_news.html", ("lines",)),
    }

    @cached_property
    def lobby(self) -> dict:
        """The join QR, as the host screen's lobby shows it (in the lobby only, until the seats are
        fixed: nobody may join then)."""
        if self.state.status != "lobby" or self.state.seats_fixed:
            return {"join_url": None, "join_qr": None}
        join_url = public_url(url_for("join.page", code=self.game.code))
        return {"join_url": join_url, "join_qr": qr.svg(join_url)}

    @cached_property
    def roster(self) -> dict:
        """Who has joined, as the lobby lists them."""
        return {"roster": tuple((p.id, p.name, p.token) for p in self.state.players)}

    @cached_property
    def ranks(self) -> dict:
        """The players with their cash and net worth, richest by net worth first, those out of the game
        last."""
        state = self.state
        rows = [Standing(p.id, p.name, p.token, p.cash, net_worth(state, p.id), p.bankrupt, p.in_jail)
                for p in state.players]
        return {"ranks": tuple(sorted(rows, key=lambda r: (r.bankrupt, -r.worth)))}

    @cached_property
    def lines(self) -> dict:
        """The newest entries in words, newest first (an undone one marked)."""
        entries = self.game.entries[:TV_NEWS]
        return {"lines": tuple((e.seq, history.told(self.game, self.state, e), e.undone) for e in entries),
                "tv_news": TV_NEWS}
