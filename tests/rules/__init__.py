"""Rules tests: drive the engine only through `banker.rules`, the way the store does.

The helpers below keep each test down to the rule it states: `play` applies one action
given as keyword arguments, `refusal` says why the engine refused one.
"""

import json
from pathlib import Path

import pytest

from banker.rules import Actor, GameError, Settings, apply, new_game, parse, replay
from banker.rules.board import load_board

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


def edition_settings(edition: str, **chosen) -> Settings:
    """The settings a game on this board gets when these are chosen (its own defaults, as the store
    parses them: its own cards among them)."""
    return Settings.parse(chosen, load_board(edition).settings)


def lobby(players: int, settings=None, edition: str = "us"):
    """A game in its lobby with the first `players` of Ann, Bob and Cy seated (on the US board
    unless another `edition` is named, with that board's own settings unless `settings` are given)."""
    state = new_game(edition, settings or edition_settings(edition))
    for name, token in SEATS[:players]:
        state = play(state, GUEST, "join", name=name, token=token)
    return state


def started(players: int = 2, settings=None, edition: str = "us"):
    """A started game, seats in joining order, Ann to roll from GO."""
    state = lobby(players, settings, edition)
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


# Buildings and mortgages. The colour groups of the US board, by board index.
BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)
PINK = (11, 13, 14)
ORANGE = (16, 18, 19)
RED = (21, 23, 24)
YELLOW = (26, 27, 29)
GREEN = (31, 32, 34)
DARK_BLUE = (37, 39)
GROUPS = {"brown": BROWN, "light_blue": LIGHT_BLUE, "pink": PINK, "orange": ORANGE, "red": RED,
          "yellow": YELLOW, "green": GREEN, "dark_blue": DARK_BLUE}
HOUSES, HOTELS = 32, 12


def funded(state, player: int, amount: int = 20_000):
    """The banker pays a seat enough to build freely (a ledgered bank payment)."""
    return play(state, BANKER, "bank_pay", player=player, amount=amount)


def set_buildings(state, player: int, levels: dict):
    """The player sets a whole group's levels in one step (5 = hotel), as the API sends it."""
    return play(state, player, "set_buildings", levels={str(s): n for s, n in levels.items()})


def level(state, square: int) -> int:
    """A lot's buildings as a level: 0-4 houses, 5 for a hotel."""
    deed = state.deeds[square]
    return 5 if deed.hotel else deed.houses


def levels(state, *squares: int) -> tuple:
    return tuple(level(state, s) for s in squares)


def supply(state) -> tuple[int, int]:
    """The bank's (houses, hotels)."""
    return state.bank_houses, state.bank_hotels


def on_board(state) -> tuple[int, int]:
    """The (houses, hotels) standing on the board."""
    deeds = state.deeds.values()
    return sum(d.houses for d in deeds), sum(d.hotel for d in deeds)


def _reference(name: str) -> dict:
    return json.loads((Path(__file__).with_name("reference") / name).read_text(encoding="utf-8"))


def reference_board() -> dict:
    """The reference board (a verbatim copy of the project's reference data; sources in docs/rules.md, Sources):
    prices, rents, house costs and mortgage figures sourced independently of the engine's data."""
    return _reference("board_us.json")


def reference_cards() -> dict:
    """The reference decks (a verbatim copy of the project's reference data; sources in docs/rules.md, Sources):
    each card's effect and, for the cards that move a token, where it lands from each draw square
    and whether it passes GO, sourced independently of the engine's edition file."""
    return _reference("cards_us.json")


class Logged:
    """A game kept as its log of (actor, action) pairs, the way the store keeps it, so that undo
    can be checked as the store does it: replay the log without its newest entry."""

    def __init__(self, players: int = 2, settings=None, edition: str = "us"):
        self.edition = edition
        self.settings = settings or edition_settings(edition)
        self.log = []
        self.state = new_game(edition, self.settings)
        for name, token in SEATS[:players]:
            self.do(GUEST, "join", name=name, token=token)
        self.do(BANKER, "start", order=list(range(1, players + 1)))

    def do(self, who, type, **fields) -> list[dict]:
        """Apply one action, log it and return its effects."""
        action = parse({"type": type, **fields})
        self.state, effects = apply(self.state, action, as_actor(who))
        self.log.append((as_actor(who), action.to_dict()))
        return effects

    def undone(self):
        """The state the store rebuilds when the newest action is undone."""
        return replay(self.edition, self.settings, self.log[:-1])


# The ledger: every test that moves money can check it with `go`.


def money(state) -> int:
    """All the money outside the bank: every seat's cash and the Free Parking pot."""
    return sum(p.cash for p in state.players) + state.free_parking


def conserved(before, after, effects) -> None:
    """Money is neither made nor lost: what the players hold changes by exactly what the bank paid
    out less what it took in, as the transfers record it; each deed has one holder, a player still
    in the game or the bank; each jail card is in at most one hand; no cash is negative."""
    flows = transfers(effects)
    from_bank = sum(amount for payer, _, amount, _ in flows if payer == "bank")
    to_bank = sum(amount for _, payee, amount, _ in flows if payee == "bank")
    assert money(after) - money(before) == from_bank - to_bank
    assert sorted(after.deeds) == sorted(before.deeds)
    live = {p.id for p in after.players if not p.bankrupt}
    assert all(d.owner is None or d.owner in live for d in after.deeds.values())
    hands = [c for p in after.players for c in p.jail_cards]
    assert len(hands) == len(set(hands)) == len([c for p in before.players for c in p.jail_cards])
    assert all(p.cash >= 0 for p in after.players)


def go(state, who, type, **fields):
    """`act`, checking the ledger: returns (new_state, effects)."""
    after, effects = act(state, who, type, **fields)
    conserved(state, after, effects)
    return after, effects
