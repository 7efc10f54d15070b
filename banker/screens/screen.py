"""The screen framework: a screen of a game at one version, its parts, and the pieces they are made of.

A screen (the host's, a phone's, the TV's) of a game at one version is a `Screen`, made from the
game as the store's memory knows it (a `Known`: its state decoded once, its newest entries), so a
screen reads nothing from the database for an ordinary change. Each part (a fragment such as the
wallet) is a `Part`: the template that draws it, and the pieces of data it needs; each piece is a
property returning template variables, built on first use. A full page asks for every part; a live
update asks for each part once and shares the pieces the parts have in common.

A part's HTML is made from the values its template reads of those variables, which the template
itself says (reads.py): a live connection compares them with those of the HTML the page already
shows, and does not draw the part again when they are the same (a phone's wallet when someone else
moves); two screens whose part reads the same values share its HTML (every phone's news).

Which screen a page shows, beyond its game, is its `Kind`: the live path draws each kind once per
version, language and address, for every page that shows it (parts.py).
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import NamedTuple

from flask import current_app, url_for

from ..drawings.chart import worth_chart
from ..rules.cards import deck, holder
from ..rules.networth import first_place, places
from ..rules.outcomes import card_outcome
from ..rules.state import BANK, TOKENS, GameState
from ..rules.trades import outlook
from ..store import Known
from ..words import card_effects
from ..words.card_texts import card_text
from ..words.narrate import refusal
from . import countdown, history, reads
from .board import board_cells
from .recording import Recording, reads_the_same


class Part(NamedTuple):
    """A part of a screen: the template that draws it (a fragment whose outer element carries the
    part's id, sent as an out-of-band swap) and the screen's pieces it is made from."""

    template: str
    pieces: tuple[str, ...]


# The card picker's groups, by what a card does, in the order shown: first the cards that move the
# token (a deed to buy or rent to pay follows), then money, then jail.
CARD_GROUPS = {
    "move_to": "move", "move_back": "move", "go_back_to": "move", "advance_to_nearest": "move",
    "move_to_nearest": "move",
    "collect": "money", "pay": "money", "collect_from_each_player": "money", "pay_each_player": "money",
    "pay_or_draw": "money", "repairs": "money",
    "go_to_jail": "jail", "get_out_of_jail_free": "jail",
}


class Name(NamedTuple):
    """A player as a list of names needs them (not their cash, which changes all the time)."""

    id: int
    name: str
    token: str


class Screen:
    """One screen of one game at the version read; subclasses name their parts and pieces."""

    AREA = ""  # its blueprint: where its story opens
    PARTS: dict[str, Part] = {}
    # Parts shown inside another part ({part: the part around it}): sent alone only when the part
    # around it is not sent.
    NESTED: dict[str, str] = {}

    def __init__(self, game: Known):
        self.game = game
        self.state: GameState = game.state  # shared by every screen of the version: only read
        # The same screen at the version before, when the renderer has it: a piece made from values
        # that did not change may be taken from it.
        self.previous: Screen | None = None
        self._parts: dict[str, dict] = {}
        self._kept: dict[str, tuple[dict, dict]] = {}  # a piece made by `kept`: (what it read, the piece)

    def context(self, parts=None) -> dict:
        """Template variables for these parts (default: the whole page)."""
        names = {piece for part in (parts or self.PARTS) for piece in self.PARTS[part].pieces}
        context = dict(self.base)
        for name in sorted(names):
            context.update(getattr(self, name))
        return context

    def part_context(self, part: str) -> dict:
        """Template variables for one part, made once: its dependencies and its render share them."""
        context = self._parts.get(part)
        if context is None:
            context = self._parts[part] = self.context([part])
        return context

    def built(self) -> set[str]:
        """The pieces made so far (each once per screen, on first use): what the parts asked for
        cost, as the tests count it."""
        return {name for cls in type(self).__mro__ for name, value in vars(cls).items()
                if isinstance(value, cached_property) and name in self.__dict__ and name != "base"}

    def depends(self, part: str) -> tuple:
        """The values the part's template reads of its variables (reads.py), but what the parts
        shown inside it read (they are sent on their own): where they are those of the HTML a page
        shows, the part is not drawn again."""
        inside = frozenset(self.PARTS[name].template for name, around in self.NESTED.items() if around == part)
        return reads.values(self.PARTS[part].template, current_app.jinja_env, self.part_context(part), inside)

    def kept(self, piece: str, make: Callable[[GameState], dict]) -> dict:
        """A piece made by `make` from the state alone (and this screen's player and language): the
        same screen's at the version before when the state reads the same now as what `make` read of
        it then (recording.py); else made again, reading the state through a `Recording`."""
        before = self.previous
        found = before._kept.get(piece) if before is not None else None
        if found is None or not reads_the_same(found[0], self.state):
            recording = Recording(self.state)
            found = (recording.read, make(recording))
        self._kept[piece] = found
        return found[1]

    def _history_before(self) -> tuple | None:
        """The history this screen showed at the version before, when the renderer has it: after
        most changes only the newest entry is told (history.history_rows)."""
        before = self.previous
        return (before.game, before.history["history"]) if before is not None and "history" in before.__dict__ else None

    @cached_property
    def base(self) -> dict:
        """What every part uses: the game, its state and board, the players by id."""
        state = self.state
        return {
            "game": self.game, "code": self.game.code, "version": self.game.version, "state": state,
            "board": state.board, "currency": state.board.currency,
            "players": {p.id: p for p in state.players}, "tokens": TOKENS, "BANK": BANK,
            "jail_fine": state.board.constants["jail_fine"],
        }

    @cached_property
    def cells(self) -> dict:
        """The board's squares, as the host screen and the TV draw them."""
        return {"cells": board_cells(self.state)}

    @cached_property
    def names(self) -> dict:
        return {"names": {p.id: p.name for p in self.state.players}}

    @cached_property
    def news(self) -> dict:
        """The newest entry in words, and whether the turn panel shows it now."""
        return {"latest": history.latest(self.game, self.state), "news_shown": self.state.status == "playing"}

    @cached_property
    def trades(self) -> dict:
        """Open offers, each with its problem (if it could not execute now) in words."""
        seen = []
        for trade in self.state.trades:
            view = outlook(self.state, trade)
            view["problem"] = refusal(view["problem"], self.state) if view["problem"] else None
            seen.append(view)
        return {"trades": seen}

    @cached_property
    def deck_cards(self) -> dict:
        """The cards of the deck a player is drawing from, in groups (CARD_GROUPS order), each with
        its printed words and what it will do to the drawer: [(group, [card, ...]), ...]."""
        state, pending = self.state, self.state.pending
        if not pending or pending["kind"] != "draw":
            return {"deck_cards": []}
        drawer, name = pending["player"], pending["deck"]
        groups: dict[str, list] = {group: [] for group in CARD_GROUPS.values()}
        for c in deck(state, name):
            held = holder(state, c["id"])  # a card in a hand is not drawn: nothing to tell
            told = None if held else card_outcome(state, drawer, name, c["id"])
            does = told and card_effects.outcome(state, told)
            # A phone that counts it itself is not told the sum of a repairs card (web/pages/counting.py).
            asks = (told and told.amount and c["effect"]["kind"] == "repairs"
                    and card_effects.outcome(state, told, total=False))
            groups[CARD_GROUPS[c["effect"]["kind"]]].append(
                {"id": c["id"], "words": card_text(state, c), "does": does, "asks": asks or None, "holder": held})
        return {"deck_cards": [(group, cards) for group, cards in groups.items() if cards]}

    @cached_property
    def auction_clock(self) -> dict:
        """The open auction's countdown, as every screen shows it (countdown.py)."""
        return countdown.clock(self.game, self.state) if self.state.auction else {"closes_at": None}

    @cached_property
    def standings(self) -> dict:
        """The chart of the end screen, each line's place (players of equal net worth share one),
        and the way to the game's story (only once the game has ended)."""
        ended = self.state.status == "ended"
        return {"chart": worth_chart(self.game, self.state.players) if ended else None,
                "places": places(self.state.standings) if ended else None,
                "story_url": url_for(f"{self.AREA}.story", code=self.game.code) if ended else None, **self.winners}

    @cached_property
    def winners(self) -> dict:
        """Who won, once the game has ended: the names of the players sharing first place (level at
        the top), one as a rule."""
        state = self.state
        return {"winners": tuple(state.player(pid).name for pid in first_place(state.standings))
                if state.status == "ended" else ()}

    @cached_property
    def time_limit(self) -> dict:
        """The optional time limit (a tournament's round, for its tables: its clock as the tournament
        told the game, paused or running): its deadline (ISO time, for the page's clock) and what is left."""
        state, minutes = self.state, self.state.settings.time_limit_minutes
        started = self.game.started_at if minutes and state.status == "playing" else None
        stopped = state.timed_by_round and state.round_ends_at is None and state.round_paused_left is None
        if started is None or stopped:  # (stopped: the round's start was undone, the table played on)
            return {"time_left": None, "deadline": None}
        if state.round_paused_left is not None:  # the page shows it paused: no deadline to count to
            deadline, left = None, state.round_paused_left
        else:
            deadline = (datetime.fromtimestamp(state.round_ends_at, UTC) if state.round_ends_at
                        else started.replace(tzinfo=UTC) + timedelta(minutes=minutes))
            # While it runs, the page counts the seconds down from the deadline (static/app.js): the
            # HTML says the whole minutes begun, so that a part showing the clock is drawn again once
            # a minute, not at every change (its seconds made every phone's wallet and the host's
            # turn new at each of a tournament table's changes: a quarter more CPU a change).
            left = -(-max(0, int((deadline - datetime.now(UTC)).total_seconds())) // 60) * 60
        return {"deadline": deadline and deadline.isoformat(), "time_left": f"{left // 60}:{left % 60:02d}"}


@dataclass(frozen=True)
class Kind:
    """Which screen a page shows, beyond its game: the screen's class and what it is made with (the
    banker or not and the seat picked, for the host's; the player, for a phone). Pages of the same
    kind, in the same language at the same address, are sent the same HTML: it is drawn once."""

    screen: type[Screen]
    args: tuple = ()

    def made(self, known: Known) -> Screen:
        return self.screen(known, *self.args)
