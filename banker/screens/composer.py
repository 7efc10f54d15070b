"""The trade composer: what each of two players could put on the table (/p/<code>/trade/<partner>,
and the banker's for a seat without a phone)."""

from flask import abort

from .. import store
from ..rules.mortgages import lift_cost
from ..rules.trades import tradeable
from ..store import Game
from .phone import PhoneScreen


def composer_context(game: Game, player: int, partner: int, banker: bool = False) -> dict:
    """The trade composer: what each of the two players could put on the table. `banker`: the banker
    composes it for `player`, a seat without a phone (`seat` in the template; None on the phone).
    404 unless both are different players still in the game."""
    screen = PhoneScreen(store.known(game), player)
    state = screen.state
    if player == partner or not all(state.has_player(p) and not state.player(p).bankrupt
                                    for p in (player, partner)):
        abort(404)
    theirs = tradeable(state, partner)
    return {**screen.base, **screen.me, "seat": state.player(player) if banker else None,
            "partner": state.player(partner), "mine": tradeable(state, player), "theirs": theirs,
            "lift_costs": {sq: lift_cost(state.board[sq].mortgage) for sq in theirs}}
