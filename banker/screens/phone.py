"""A phone (/p/<code>): its own player's money, turn, deeds, debts, trades and history."""

from functools import cached_property
from typing import NamedTuple

from ..rules import Actor, legal_actions
from ..rules.actions import UNDO
from ..rules.bankruptcy import owed, raisable_cash
from ..rules.holdings import holdings
from ..rules.networth import net_worth
from ..rules.state import BANK, GameState
from ..rules.undo import Entry, may_take_back
from ..store import Known
from ..store.tournaments import table_of
from ..words.narrate import explain
from . import history
from .bids import quick_bids
from .screen import Name, Part, Screen


# A seat's own actions whose money the table decided, not the tap: the dice and the cards it only
# reports (the rent or tax where the dice brought it, a card's fine, the salary for passing Go).
# What its other actions moved (a purchase, a house, a payment) was the tap's own doing.
REPORTED = frozenset({"roll", "draw", "utility_roll"})


class Out(NamedTuple):
    """A bankrupt player as their phone tells them: their final place of `players` (None: not known,
    a game saved before places were kept), whom they went bankrupt to (a player's name, or the
    bank; neither: not known), and while the game goes on the players still in as (name, token, net
    worth), richest first."""

    place: int | None
    players: int
    to: str | None
    to_bank: bool
    still_in: tuple



class PhoneScreen(Screen):
    """A phone: its own player's money, turn, deeds, debts, trades and history."""

    AREA = "player"
    PARTS = {
        "news": Part("player/_news.html", ("news",)),
        "turn": Part("player/_turn.html", ("me", "legal", "news", "take_back", "trades", "deck_cards", "standings",
                                           "debts", "bids", "auction_clock", "out")),
        "wallet": Part("player/_wallet.html", ("me", "legal", "holdings", "others", "money_news", "owing",
                                               "time_limit")),
        "trades": Part("player/_trades.html", ("me", "trades", "others", "names")),
        "history": Part("player/_history.html", ("history",)),
    }
    NESTED = {"news": "turn"}

    def __init__(self, game: Known, player: int):
        super().__init__(game)
        self.player = player

    @cached_property
    def me(self) -> dict:
        """This player."""
        return {"me": self.state.player(self.player)}

    @cached_property
    def legal(self) -> dict:
        """What this player may do now (each part reads only whether it may do what the part offers)."""
        return {"legal": legal_actions(self.state, self.player)}

    @cached_property
    def trades(self) -> dict:
        seen = super().trades["trades"]
        return {"trades": seen, "incoming": [t for t in seen if t["trade"].to == self.player],
                "outgoing": [t for t in seen if t["trade"].offerer == self.player]}

    @cached_property
    def bids(self) -> dict:
        return {"quick_bids": quick_bids(self.state, self.player)}

    @cached_property
    def news(self) -> dict:
        """Whose turn, and the newest entry but another pair's trade or payment (history.latest)."""
        state = self.state
        return {"latest": history.latest(self.game, state, self.player), "news_shown": state.status == "playing",
                "my_turn": state.turn == self.player,
                "turn_name": state.player(state.turn).name if state.status == "playing" else None}

    @cached_property
    def deck_cards(self) -> dict:
        """The cards of the deck this player is drawing from (none while another player draws)."""
        pending = self.state.pending
        return super().deck_cards if pending and pending.get("player") == self.player else {"deck_cards": []}

    @cached_property
    def take_back(self) -> dict:
        """This player's own newest action, in words, while they may take it back (else None)."""
        newest = self.game.entries[0] if self.game.entries else None
        mine = may_take_back(Actor(player=self.player), Entry.of(newest, self.game.version))
        return {"take_back": history.told(self.game, self.state, newest) if mine else None}

    @cached_property
    def debts(self) -> dict:
        state = self.state
        return {"my_debts": state.debts_of(self.player), "raisable": raisable_cash(state, self.player),
                "owed_total": owed(state, self.player)}

    @cached_property
    def holdings(self) -> dict:
        """My deeds by group, each group marked `open` when something can be done in it now. The
        dearest piece of a phone, and the same after most changes (someone else's money or pawn):
        taken from the screen of the version before when what it read of the state reads the same."""
        return self.kept("holdings", self._holdings)

    def _holdings(self, state: GameState) -> dict:
        sections = explain(state, holdings(state, self.player))
        # Building (or placing a house won at auction); and in debt, selling and mortgaging to pay it.
        can = ("build", "sell", "mortgage") if state.debts_of(self.player) else ("build",)
        for section in sections:
            section["open"] = any(_possible(lot, button) for lot in section["lots"] for button in can)
        return {"holdings": sections}

    @cached_property
    def owing(self) -> dict:
        """What this player owes in all: the wallet carries it beside the cash, for the buzz."""
        return {"owed": owed(self.state, self.player)}

    @cached_property
    def money_news(self) -> dict:
        """The newest entry that moved this player's money, or laid a debt on them, without their
        own tap choosing it (another seat's action or the banker's, an undo but their own take-back,
        the rent or card their dice brought), 0 when none of the newest entries did: a phone buzzes
        when this changes with its cash or what it owes (static/app.js), so its own purchase or house
        does not buzz it, nor paying off its own debt; a charge it cannot pay, which leaves the cash
        as it was, does. After one new entry (no undo) it is that entry or the screen's of the
        version before."""
        entries, before = self.game.entries, self.previous
        if (before is not None and "money_news" in before.__dict__ and before.game.version == self.game.version - 1
                and entries and entries[0].type != UNDO):
            return {"money_news": entries[0].seq} if self._news_to_me(entries[0]) else before.money_news
        return {"money_news": next((e.seq for e in entries if self._news_to_me(e)), 0)}

    def _news_to_me(self, entry) -> bool:
        """Whether an entry moved this player's money, or made them owe, other than by their own
        choice (an undo by anyone else may have: the cash and the debts beside it say)."""
        if entry.undone:
            return False
        if entry.type == UNDO:
            return entry.actor != str(self.player)
        return ((entry.actor != str(self.player) or entry.type in REPORTED)
                and any(e["kind"] == "transfer" and self.player in (e["from"], e["to"])
                        or e["kind"] == "debt" and e["debtor"] == self.player for e in entry.effects))

    @cached_property
    def standings(self) -> dict:
        """The end screen's pieces, and at a tournament's table the tournament's code: its phone goes
        on to its player's page, which waits for the next seating (templates/player/_turn.html). One
        query, once the game has ended."""
        ended = super().standings
        return {**ended, "event": table_of(self.game.code) if self.state.status == "ended" else None}

    @cached_property
    def out(self) -> dict:
        """Once this player is bankrupt, what their phone says instead of the tools they can no
        longer use (templates/player/_out.html): their place, whom they went bankrupt to, and while
        the game goes on the players still in, by net worth; None while they play."""
        state, me = self.state, self.state.player(self.player)
        if not me.bankrupt:
            return {"out": None}
        heir = me.bankrupt_to
        still_in = () if state.status != "playing" else tuple(sorted(
            ((p.name, p.token, net_worth(state, p.id)) for p in state.players if not p.bankrupt),
            key=lambda row: -row[2]))
        to = state.player(heir).name if isinstance(heir, int) and state.has_player(heir) else None
        return {"out": Out(me.place, len(state.players), to, heir == BANK, still_in)}

    @cached_property
    def others(self) -> dict:
        """The players still in the game but this one: whom to pay, whom to offer a trade."""
        return {"others": [Name(p.id, p.name, p.token) for p in self.state.players
                           if p.id != self.player and not p.bankrupt]}

    @cached_property
    def history(self) -> dict:
        return {"history": history.history_rows(self.game, self.state, self.player, self._history_before()),
                "history_rows": history.HISTORY_ROWS}


def _possible(lot: dict, button: str) -> bool:
    """Whether a lot's button (build, sell, mortgage) may be tapped now: it has one, and no reason not to."""
    return button in lot and lot[button][1] is None
