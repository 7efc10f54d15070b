"""What each part of a screen shows: one small builder per piece, so a part never pays for the rest.

A screen (the host's, or one phone's) of a game at one version is a `Screen`, made from the game
as the store's memory knows it (a `Known`: its state decoded once, its newest entries), so a
screen reads nothing from the database for an ordinary change. Each part (a
fragment such as the wallet) names the pieces it needs in the screen's `PARTS`; each piece is a
property returning template variables, built on first use. A full page asks for every part; a live
update asks for each part once and shares the pieces the parts have in common.

A part that most changes leave as it was (a phone's wallet when someone else moves) also names, in
`DEPENDS`, every value its HTML is made from. A live connection compares them with those of the
HTML the page already shows and does not render the part again when they are the same.
"""

from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import NamedTuple
from urllib.parse import urlsplit

from flask import abort, current_app, request, url_for

from .. import qr, store
from ..rules import Actor, legal_actions
from ..rules.actions import UNDO
from ..rules.auctions import building_auctions
from ..rules.bankruptcy import owed, raisable_cash
from ..rules.cards import deck, holder
from ..rules.holdings import holdings
from ..rules.lobby import needs_opening_roll
from ..rules.mortgages import lift_cost
from ..rules.networth import net_worth
from ..rules.outcomes import card_outcome
from ..rules.state import BANK, TOKENS, GameState
from ..rules.trades import outlook, tradeable
from ..rules.undo import Entry, may_take_back
from ..store import Game, Known
from . import card_effects, countdown, ledger
from .card_texts import card_text
from .chart import worth_chart
from .narrate import explain, refusal


def public_url(path: str) -> str:
    """A full URL phones can open: the one the request asked for (behind a proxy, with PROXY_FIX,
    the public one), or PUBLIC_URL when the host browses on localhost (`banker`'s LAN address, or
    the public address instance/config.py gives)."""
    base = request.host_url
    public = current_app.config.get("PUBLIC_URL")
    if public and urlsplit(base).hostname in ("localhost", "127.0.0.1", "::1"):
        base = public
    return base.rstrip("/") + path


# The card picker's groups, by what a card does, in the order shown: first the cards that move the
# token (a deed to buy or rent to pay follows), then money, then jail.
CARD_GROUPS = {
    "move_to": "move", "move_back": "move", "go_back_to": "move", "advance_to_nearest": "move",
    "move_to_nearest": "move",
    "collect": "money", "pay": "money", "collect_from_each_player": "money", "pay_each_player": "money",
    "pay_or_draw": "money", "repairs": "money",
    "go_to_jail": "jail", "get_out_of_jail_free": "jail",
}


class QuickBid(NamedTuple):
    """A bid proposed in one tap: `step` over the high bid (0: an opening bid), the `amount` it
    bids, whether the bidder's cash covers it."""

    step: int
    amount: int
    affordable: bool


QUICK_STEPS = (1, 10, 50, 100)
OPENINGS = (10, 50, 100)  # before any bid: a sensible first bid, never 1


def quick_bids(state: GameState, player: int) -> list[QuickBid]:
    """The open auction's bids in one tap for a bidder: the high bid plus each step, raised to the
    bidder's floor (what a building auctioned in a shortage costs them)."""
    auction, cash = state.auction, state.player(player).cash
    if auction is None:
        return []
    floor = auction.floors.get(str(player), 1)
    if auction.high_bidder is None:
        amounts = {max(opening, floor): 0 for opening in OPENINGS}
    else:
        amounts = {max(auction.high_bid + step, floor): step for step in QUICK_STEPS}
    return [QuickBid(step, amount, amount <= cash) for amount, step in amounts.items()]


class Name(NamedTuple):
    """A player as a list of names needs them (not their cash, which changes all the time)."""

    id: int
    name: str


class Screen:
    """One screen of one game at the version read; subclasses name their parts and pieces."""

    AREA = ""  # the templates' folder
    PARTS: dict[str, tuple[str, ...]] = {}
    # Template variables, or "state.<field>", that decide all of a part's HTML (while `tracked`).
    DEPENDS: dict[str, tuple[str, ...]] = {}
    # Parts whose dependencies decide their HTML on every screen of the area, whoever watches: the
    # renderer renders each once per version and language for all the screens that show it.
    SHARED: frozenset[str] = frozenset()
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

    def context(self, parts=None) -> dict:
        """Template variables for these parts (default: the whole page)."""
        names = {piece for part in (parts or self.PARTS) for piece in self.PARTS[part]}
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

    def depends(self, part: str) -> tuple | None:
        """The values that decide a part's HTML (None: not tracked, always render it)."""
        names = self.DEPENDS.get(part)
        if names is None or not self.tracked(part):
            return None
        context = self.part_context(part)
        return tuple(getattr(self.state, name[6:]) if name.startswith("state.") else context[name]
                     for name in names)

    def _history_before(self) -> tuple | None:
        """The history this screen showed at the version before, when the renderer has it: after
        most changes only the newest entry is told (ledger.history_rows)."""
        before = self.previous
        return (before.game, before.history["history"]) if before is not None and "history" in before.__dict__ else None

    def tracked(self, part: str) -> bool:
        """Whether the part's DEPENDS say all of its HTML now (some parts list what they show in
        play, and are rendered at every change in the lobby, at the end or during an auction)."""
        return True

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
        return {"latest": ledger.latest(self.game, self.state), "news_shown": self.state.status == "playing"}

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
            # A phone that counts it itself is not told the sum of a repairs card (web/counting.py).
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
        """The chart of the end screen and the way to the game's story (only once the game has ended)."""
        ended = self.state.status == "ended"
        return {"chart": worth_chart(self.game, self.state.players) if ended else None,
                "story_url": url_for(f"{self.AREA}.story", code=self.game.code) if ended else None}

    @cached_property
    def time_limit(self) -> dict:
        """The optional time limit (a tournament's round, for its tables: its clock as the tournament
        told the game, paused or running): its deadline (ISO time, for the page's clock) and what is left."""
        state, minutes = self.state, self.state.settings.time_limit_minutes
        started = self.game.started_at if minutes and state.status == "playing" else None
        if started is None:
            return {"time_left": None, "deadline": None}
        if state.round_paused_left is not None:  # the page shows it paused: no deadline to count to
            deadline, left = None, state.round_paused_left
        else:
            deadline = (datetime.fromtimestamp(state.round_ends_at, UTC) if state.round_ends_at
                        else started.replace(tzinfo=UTC) + timedelta(minutes=minutes))
            left = max(0, int((deadline - datetime.now(UTC)).total_seconds()))
        return {"deadline": deadline and deadline.isoformat(), "time_left": f"{left // 60}:{left % 60:02d}"}


# What the turn panel's "Act for" box offers a seat the game waits for: the moves of a turn and
# the decisions (`build` only ever answers a placement won at a shortage auction: the lots are on the
# seat panel). Bids, trades, building and paying, at any time, are on the seat panel.
TURN_ACTIONS = frozenset({"roll", "end_turn", "pay_jail_fine", "use_jail_card", "pay_debt", "bankrupt", "buy",
                          "decline", "draw", "card_choice", "utility_roll", "income_tax", "receive_deeds", "build"})


# What a phone's turn panel offers, of all a player may do (the rest is on its wallet and trades).
PHONE_TURN_ACTIONS = frozenset({"opening_roll", "use_jail_card", "pay_jail_fine", "roll", "end_turn", "buy", "bid",
                                "pass", "pay_debt", "bankrupt"})
# A seat's own actions whose money the table decided, not the tap: the dice and the cards it only
# reports (the rent or tax where the dice brought it, a card's fine, the salary for passing Go).
# What its other actions moved (a purchase, a house, a payment) was the tap's own doing.
REPORTED = frozenset({"roll", "draw", "utility_roll"})

class TableScreen(Screen):
    """The host screen: everything public, plus the banker's tools when this browser is the banker,
    with the seat panel of the seat the banker picked (at /t/<code>/seats/<id>) open."""

    AREA = "table"
    PARTS = {
        "news": ("news",),
        "turn": ("news", "trades", "deck_cards", "standings", "lobby", "tools", "seat", "auction_key", "auction_clock",
                 "time_limit"),
        "undo": ("undoable",),
        "balances": (),
        "bank_tools": ("roster", "shortage"),
        "players": ("undoable", "roster", "shortage"),
        "board": ("cells",),
        "history": ("history",),
    }
    DEPENDS = {
        "news": ("latest", "news_shown"),
        # In play, with no auction open and no seat panel (tracked): what the turn panel shows but
        # the latest line, a part of its own. Names and tokens no longer change once the game starts.
        "turn": ("state.turn", "state.last_roll", "state.pending", "state.debts", "state.doubles", "state.last_turn",
                 "state.round_ends_at", "state.round_paused_left", "trades", "turn_legal", "acting", "deck_cards",
                 "time_left", "seats"),
        "undo": ("undoable", "undoable_seq", "state.status"),
        "balances": ("state.players", "state.turn", "state.status", "state.bank_houses", "state.bank_hotels",
                     "state.free_parking", "state.debts"),
        "bank_tools": ("state.status", "roster", "building_auctions"),
        "players": ("state.status",),  # the panel itself; what it holds are parts of their own
        "board": ("cells", "state.status", "state.bank_houses", "state.bank_hotels"),
        "history": ("history",),
    }
    SHARED = frozenset({"news"})
    NESTED = {"news": "turn", "undo": "players", "balances": "players", "bank_tools": "players"}

    def __init__(self, game: Known, banker: bool, seat: int | None = None):
        """`seat`: the seat the banker picked to act for (a player without a phone), if any."""
        super().__init__(game)
        self.banker = banker
        self.picked = seat

    @cached_property
    def base(self) -> dict:
        return {**super().base, "banker": self.banker}

    def tracked(self, part: str) -> bool:
        if part == "turn":
            return self.state.status == "playing" and not self.state.auction and self.picked is None
        return True

    @cached_property
    def news(self) -> dict:
        """During an auction its box says what the latest line would (the lot, the high bid)."""
        news = super().news
        return {**news, "news_shown": news["news_shown"] and not self.state.auction}

    @cached_property
    def history(self) -> dict:
        return {"history": ledger.history_rows(self.game, self.state, None, self._history_before()),
                "history_rows": ledger.HISTORY_ROWS}

    @cached_property
    def lobby(self) -> dict:
        """The join QR, the suggested seat order, the tokens taken and, for the banker, the seats whose
        opening roll may be typed here (a player without a phone) (in the lobby only)."""
        join_url = public_url(url_for("join.page", code=self.game.code))
        state = self.state
        if state.status != "lobby":
            return {"join_url": join_url}
        roll_for = [p for p in state.players if "opening_roll" in legal_actions(state, p.id)] if self.banker else []
        return {"join_url": join_url, "join_qr": qr.svg(join_url), **_seat_places(state),
                "taken_tokens": {p.token for p in state.players}, "roll_for": roll_for}

    @cached_property
    def tools(self) -> dict:
        """The turn panel's "Act for" boxes, for players without a phone: the seat owing a decision
        out of turn (a creditor settling deeds received), then whose turn it is, each with the
        TURN_ACTIONS it may take now; a seat with none of them gets no box (an auction's bidders and a
        debtor who must raise cash first act from the seat panel)."""
        state = self.state
        if not self.banker or state.status != "playing":
            return {"turn_legal": {}, "acting": []}
        pending = state.pending
        waiting = [pending["player"]] if pending and pending.get("player") not in (None, state.turn) else []
        offered = {pid: legal_actions(state, pid) & TURN_ACTIONS for pid in (*waiting, state.turn)}
        turn_legal = {pid: legal for pid, legal in offered.items() if legal}
        return {"turn_legal": turn_legal, "acting": [state.player(pid) for pid in turn_legal]}

    @cached_property
    def seat(self) -> dict:
        """The seat panel, for players without a phone: the seats to pick from and, for the one picked,
        everything it may do at any time (bids, debts, trades, building, mortgages, paying) with its
        deeds, each button's price or why not."""
        state, pid = self.state, self.picked
        shown = self.banker and state.status == "playing"
        seats = [Name(p.id, p.name) for p in state.players if not p.bankrupt] if shown else []
        if not shown or pid is None or not state.has_player(pid):
            return {"seats": seats, "seat": None, "seat_legal": set(), "seat_holdings": [], "seat_debts": [],
                    "seat_bids": []}
        return {"seats": seats, "seat": state.player(pid), "seat_legal": legal_actions(state, pid),
                "seat_holdings": explain(state, holdings(state, pid)), "seat_debts": state.debts_of(pid),
                "seat_bids": quick_bids(state, pid)}

    @cached_property
    def auction_key(self) -> dict:
        """The open auction's key for the banker's countdown and close nonce: its id and high bid, and
        after any undo the undo count (an undone close brings the auction back with the same id and
        high bid; its nonce must not be the undone close's, nor its countdown the spent one)."""
        auction = self.state.auction
        if not auction or not self.banker:
            return {"auction_key": None}
        key = f"{auction.id}-{auction.high_bid}"
        undos = self.game.undos
        return {"auction_key": f"{key}-u{undos}" if undos else key}

    @cached_property
    def undoable(self) -> dict:
        """What Undo would take back, in words, and its entry (None when nothing can be undone)."""
        last = self.game.last_live() if self.banker else None
        if last is None or last.type == "join":
            return {"undoable": None, "undoable_seq": None}
        return {"undoable": ledger.told(self.game, self.state, last), "undoable_seq": last.seq}

    @cached_property
    def roster(self) -> dict:
        """The seats as the banker's tools list them (who is still in the game)."""
        return {"roster": tuple((p.id, p.name, p.bankrupt) for p in self.state.players)}

    @cached_property
    def shortage(self) -> dict:
        """The houses or hotels the banker's tools offer to auction in a shortage: those the rules
        allow now (rules.auctions.building_auctions); the banker judges the shortage."""
        return {"building_auctions": tuple(building_auctions(self.state)) if self.banker else ()}


class Token(NamedTuple):
    """A player as the board shows them: a pawn, or the owner's mark on a deed."""

    name: str
    token: str


def _holdings_from(state: GameState, player: int) -> tuple:
    """What a player's deeds and their buttons are made from (rules/holdings.py): the player, who
    holds which deed and its buildings, the bank's supply, debts, an auction (of a building, which
    stops building), a house won at auction waiting to be placed (anyone's), a decision of the
    player's own; under the tournament rule (deals between turns only), where the turn stands."""
    pending = state.pending
    if state.settings.deals_between_turns:
        timing = (state.turn, state.rolled, state.doubles, pending)
    else:
        timing = (pending if pending and (pending["kind"] == "place" or pending.get("player") == player) else None,)
    return (state.player(player), state.deeds, state.bank_houses, state.bank_hotels, state.debts, state.status,
            state.auction, *timing)


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
        "news": ("news",),
        "turn": ("me", "legal", "news", "take_back", "trades", "deck_cards", "standings", "debts", "bids",
                 "auction_clock", "out"),
        "wallet": ("me", "legal", "holdings", "others", "money_news", "owing", "time_limit"),
        "trades": ("me", "trades", "others", "names"),
        "history": ("history",),
    }
    DEPENDS = {
        "news": ("latest", "news_shown", "my_turn", "turn_name"),
        # In play with no auction open (tracked): what my turn panel shows but whose turn it is and the
        # latest line (the news, a part of its own).
        "turn": ("me_in_turn", "turn_legal", "take_back", "incoming", "my_debts", "raisable", "owed_total",
                 "deck_cards", "my_doubles", "my_pending", "out"),
        "wallet": ("me", "wallet_legal", "holdings", "others", "money_news", "owed", "state.status",
                   "state.bank_houses", "state.bank_hotels", "state.settings", "state.last_turn", "state.round_ends_at",
                   "state.round_paused_left"),
        "trades": ("me_out", "incoming", "outgoing", "others", "names", "state.status", "state.deeds"),
        "history": ("history",),
    }
    SHARED = frozenset({"news"})
    NESTED = {"news": "turn"}

    def __init__(self, game: Known, player: int):
        super().__init__(game)
        self.player = player

    @cached_property
    def me(self) -> dict:
        """This player; and for the dependencies of the parts that show only some of it, that much
        (neither the turn panel nor the trades show where the pawn stands)."""
        me = self.state.player(self.player)
        return {"me": me, "me_out": me.bankrupt,
                "me_in_turn": (me.cash, me.in_jail, me.jail_rolls, me.jail_cards, me.bankrupt)}

    @cached_property
    def legal(self) -> dict:
        """What this player may do now; and, for the dependencies of the turn panel and the wallet,
        only the part of it each shows (the turn's next step, for one, is not the wallet's)."""
        legal = legal_actions(self.state, self.player)
        state, mine = self.state, self.state.pending and self.state.pending.get("player") == self.player
        return {"legal": legal, "turn_legal": legal & PHONE_TURN_ACTIONS, "wallet_legal": legal & {"pay"},
                "my_pending": state.pending if mine else None, "my_doubles": state.doubles if "roll" in legal else 0}

    @cached_property
    def trades(self) -> dict:
        seen = super().trades["trades"]
        return {"trades": seen, "incoming": [t for t in seen if t["trade"].to == self.player],
                "outgoing": [t for t in seen if t["trade"].offerer == self.player]}

    @cached_property
    def bids(self) -> dict:
        return {"quick_bids": quick_bids(self.state, self.player)}

    def tracked(self, part: str) -> bool:
        return part != "turn" or self.state.status == "playing" and not self.state.auction

    @cached_property
    def news(self) -> dict:
        """Whose turn, and the newest entry but another pair's trade or payment (ledger.latest)."""
        state = self.state
        return {"latest": ledger.latest(self.game, state, self.player), "news_shown": state.status == "playing",
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
        return {"take_back": ledger.told(self.game, self.state, newest) if mine else None}

    @cached_property
    def debts(self) -> dict:
        state = self.state
        return {"my_debts": state.debts_of(self.player), "raisable": raisable_cash(state, self.player),
                "owed_total": owed(state, self.player)}

    @cached_property
    def holdings(self) -> dict:
        """My deeds by group, each group marked `open` when something can be done in it now. The
        dearest piece of a phone, and the same after most changes (someone else's money or pawn):
        taken from the screen of the version before when nothing it is made from changed."""
        state = self.state
        self._holdings_from = _holdings_from(state, self.player)
        before = self.previous
        if before is not None and "holdings" in before.__dict__ and before._holdings_from == self._holdings_from:
            return before.holdings
        sections = explain(self.state, holdings(self.state, self.player))
        # Building (or placing a house won at auction); and in debt, selling and mortgaging to pay it.
        can = ("build", "sell", "mortgage") if self.state.debts_of(self.player) else ("build",)
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
        return {"others": [Name(p.id, p.name) for p in self.state.players if p.id != self.player and not p.bankrupt]}

    @cached_property
    def history(self) -> dict:
        return {"history": ledger.history_rows(self.game, self.state, self.player, self._history_before()),
                "history_rows": ledger.HISTORY_ROWS}


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
        "lobby": ("lobby", "roster"),
        "turn": ("auction_clock",),
        "board": ("cells",),
        "standings": ("ranks",),
        "news": ("lines",),
    }
    DEPENDS = {
        "lobby": ("state.status", "roster"),
        # The countdown's seconds are counted down on the page (static/app.js) from its end.
        "turn": ("state.status", "state.turn", "state.last_roll", "state.last_turn", "state.auction", "closes_at"),
        "board": ("cells", "state.status", "state.bank_houses", "state.bank_hotels"),
        "standings": ("ranks", "state.status", "state.turn", "state.free_parking"),
        "news": ("lines",),
    }

    @cached_property
    def lobby(self) -> dict:
        """The join QR, as the host screen's lobby shows it (in the lobby only)."""
        if self.state.status != "lobby":
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
        return {"lines": tuple((e.seq, ledger.told(self.game, self.state, e), e.undone) for e in entries),
                "tv_news": TV_NEWS}


def _possible(lot: dict, button: str) -> bool:
    """Whether a lot's button (build, sell, mortgage) may be tapped now: it has one, and no reason not to."""
    return button in lot and lot[button][1] is None


def board_cells(state: GameState) -> list[dict]:
    """The forty squares placed around an 11 x 11 grid, GO at the bottom right, with their deed,
    owner and pawns."""
    by_square: dict[int, list] = {}
    tokens = {p.id: Token(p.name, p.token) for p in state.players}
    for p in state.players:
        if not p.bankrupt and state.status != "lobby":
            by_square.setdefault(p.position, []).append(tokens[p.id])
    cells = []
    for sq in state.board.squares:
        i = sq.index
        if i <= 10:
            row, col = 11, 11 - i
        elif i <= 20:
            row, col = 21 - i, 1
        elif i <= 30:
            row, col = 1, i - 19
        else:
            row, col = i - 29, 11
        deed = state.deeds.get(i)
        owner, pawns = tokens.get(deed.owner) if deed else None, tuple(by_square.get(i, ()))
        # What the square's HTML is made from (with its board), as fragments.py keys it.
        key = (i, owner, pawns, (deed.houses, deed.hotel, deed.mortgaged) if deed else None)
        cells.append({"square": sq, "row": row, "col": col, "deed": deed, "owner": owner, "tokens": pawns,
                      "key": key})
    return cells


def _seat_places(state: GameState) -> dict:
    """The lobby's suggested seat order: by opening rolls so far (highest first), then the rest
    in joining order (`seated`, the list in that order, so it reads as it will be played); and
    whether the rolls alone now decide the whole order."""
    ranked = sorted(state.players, key=lambda p: (not p.opening_rolls, [-r for r in p.opening_rolls]))
    waiting = [p for p in state.players if needs_opening_roll(state, p)]
    return {"seat_places": {p.id: n for n, p in enumerate(ranked, 1)}, "seated": ranked,
            "rolls_done": len(state.players) >= 2 and not waiting}


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
