"""What an action did: one constructor per kind of effect. `apply` returns the effects of an action
in order; the store keeps them with the event, the API sends them and the screens tell each one
(banker/words/narrate.py has a sentence, or an explicit silence, for every kind made here).

An effect is a plain dict, JSON as it stands: {"kind": <the constructor's name>, <its fields>}.
`player`, `from`, `to`, `debtor` and `creditor` are seat ids ("bank" and "free_parking" where money
goes there); `square` is a board index; `id` is the number of the auction, debt or trade.

The kinds the rules make are in the part of the game they tell, as the actions are: the play at the
table (play.py: seats, the turn, tokens moved, the squares, the cards, jail, the end) and the Bank's
business (bank.py: money paid and owed, deeds bought, built on, mortgaged, auctioned, traded, and a
bankrupt's). A rule module imports the part it makes as `happened`: `effects` is the list each action
fills. Here are the two kinds made outside the rules, by the store and by the history.
"""

from collections.abc import Callable
from functools import wraps


def kinds_in(registry: dict[str, Callable[..., dict]]) -> Callable:
    """A decorator declaring effect kinds into `registry`: a kind's name is its constructor's, which
    returns the effect's fields. (An event's effects have their own: tournament/happened.py.)"""

    def kind(fields: Callable[..., dict]) -> Callable[..., dict]:
        name = fields.__name__

        @wraps(fields)
        def make(*args, **kwargs) -> dict:
            return {"kind": name, **fields(*args, **kwargs)}

        registry[name] = make
        return make

    return kind


KINDS: dict[str, Callable[..., dict]] = {}
kind = kinds_in(KINDS)


# Made outside the rules


@kind
def turn_ended(player: int) -> dict:
    """`player` ended their turn: made by the history (screens/history.py) to tell an end of turn, never
    by the rules nor stored (the action's own effect is `turn`)."""
    return {"player": player}


@kind
def undone(seq: int, action_type: str, player: int | None = None) -> dict:
    """The banker undid event `seq`, an action of `action_type`, or `player` took it back: made by
    the store (store/undo.py), which undoes by replaying the log without that event."""
    if player is not None:
        return {"seq": seq, "type": action_type, "player": player}
    return {"seq": seq, "type": action_type}


from . import bank, play  # each declares its kinds into KINDS as it is imported (they import `kind` above)
