"""Rules tests: drive the engine only through `banker.rules`, the way the store does.

The helpers below keep each test down to the rule it states: `play` applies one action
given as keyword arguments, `refusal` says why the engine refused one.
"""

import pytest

from banker.rules import Actor, GameError, apply, new_game, parse

BANKER = Actor(banker=True)
GUEST = Actor()
ANN, BOB, CY = 1, 2, 3
SEATS = (("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"))


def as_actor(who) -> Actor:
    """An Actor from a seat id, or the Actor itself."""
    return who if isinstance(who, Actor) else Actor(player=who)


def act(state, who, type, **fields):
    """Apply one action (a dict as the web layer would send it); return (new_state, effects)."""
    return apply(state, parse({"type": type, **fields}), as_actor(who))


def play(state, who, type, **fields):
    """Apply one action and return the new state."""
    return act(state, who, type, **fields)[0]


def refusal(state, who, type, error=GameError, **fields) -> GameError:
    """Assert the action is refused with `error`; return the exception to check its code."""
    with pytest.raises(error) as caught:
        act(state, who, type, **fields)
    return caught.value


def lobby(players: int, settings=None):
    """A game in its lobby with the first `players` of Ann, Bob and Cy seated."""
    state = new_game("us", settings)
    for name, token in SEATS[:players]:
        state = play(state, GUEST, "join", name=name, token=token)
    return state


def started(players: int = 2, settings=None):
    """A started game, seats in joining order, Ann to roll from GO."""
    state = lobby(players, settings)
    return play(state, BANKER, "start", order=list(range(1, players + 1)))


def place(state, player: int, square: int):
    """The banker puts a token on a square (nothing is paid or resolved)."""
    return play(state, BANKER, "move", player=player, square=square)


def owning(state, owner: int, *squares: int, mortgaged=()):
    """A copy of the state in which `owner` holds these deeds (test set-up, not a rule)."""
    state = state.copy()
    for square in squares:
        state.deeds[square].owner = owner
        state.deeds[square].mortgaged = square in mortgaged
    return state


def cash(state, player: int) -> int:
    return state.player(player).cash


def transfers(effects) -> list[tuple]:
    """The money movements among effects, as (from, to, amount, reason)."""
    return [(e["from"], e["to"], e["amount"], e["reason"]) for e in effects if e["kind"] == "transfer"]
