"""The host screen (/t/<code>): everything public, and the banker's tools when its browser is the
banker's, with the seat panel of a seat without a phone."""

from functools import cached_property
from typing import NamedTuple

from flask import url_for

from .. import qr
from ..rules import legal_actions
from ..rules.auctions import building_auctions
from ..rules.holdings import holdings
from ..rules.lobby import needs_opening_roll
from ..rules.state import GameState
from ..rules.undo import KEPT
from ..store import Known
from ..words.narrate import explain
from . import history
from .bids import quick_bids
from .links import public_url
from .screen import Name, Part, Screen


# What the turn panel's "Act for" box offers a seat the game waits for: the moves of a turn and
# the decisions (`build` only ever answers a placement won at a shortage auction: the lots are on the
# seat panel). Bids, trades, building and paying, at any time, are on the seat panel. What the box
# offers, not what it depends on: what its HTML is made from, its template says (reads.py).
ACT_FOR = frozenset({"roll", "end_turn", "pay_jail_fine", "use_jail_card", "pay_debt", "bankrupt", "buy",
                          "decline", "draw", "card_choice", "utility_roll", "income_tax", "receive_deeds", "build"})



class Seat(NamedTuple):
    """A seat as the banker's tools list it (not its cash, which changes all the time)."""

    id: int
    name: str
    bankrupt: bool


class TableScreen(Screen):
    """The host screen: everything public, plus the banker's tools when this browser is the banker,
    with the seat panel of the seat the banker picked (at /t/<code>/seats/<id>) open."""

    AREA = "table"
    PARTS = {
        "news": Part("table/_news.html", ("news",)),
        "turn": Part("table/_turn.html", ("news", "trades", "deck_cards", "standings", "lobby", "tools", "seat",
                                          "auction_key", "auction_clock", "time_limit")),
        "undo": Part("table/_undo.html", ("undoable",)),
        "balances": Part("table/_balances.html", ()),
        "bank_tools": Part("table/_bank_tools.html", ("roster", "shortage")),
        "players": Part("table/_players.html", ("undoable", "roster", "shortage")),
        "board": Part("table/_board.html", ("cells",)),
        "history": Part("table/_history.html", ("history",)),
    }
    NESTED = {"news": "turn", "undo": "players", "balances": "players", "bank_tools": "players"}

    def __init__(self, game: Known, banker: bool, seat: int | None = None):
        """`seat`: the seat the banker picked to act for (a player without a phone), if any."""
        super().__init__(game)
        self.banker = banker
        self.picked = seat

    @cached_property
    def base(self) -> dict:
        return {**super().base, "banker": self.banker}

    @cached_property
    def news(self) -> dict:
        """During an auction its box says what the latest line would (the lot, the high bid)."""
        news = super().news
        return {**news, "news_shown": news["news_shown"] and not self.state.auction}

    @cached_property
    def history(self) -> dict:
        return {"history": history.history_rows(self.game, self.state, None, self._history_before()),
                "history_rows": history.HISTORY_ROWS}

    @cached_property
    def lobby(self) -> dict:
        """The join QR, the suggested seat order, the tokens taken and, for the banker, the seats whose
        opening roll may be typed here (a player without a phone) (in the lobby only; no QR once the
        seats are fixed: nobody may join)."""
        join_url = public_url(url_for("join.page", code=self.game.code))
        state = self.state
        if state.status != "lobby":
            return {"join_url": join_url}
        if state.seats_fixed:  # the seats and their order as they are: nothing to join, roll or place
            return {"join_url": join_url, "join_qr": None}
        roll_for = [p for p in state.players if "opening_roll" in legal_actions(state, p.id)] if self.banker else []
        return {"join_url": join_url, "join_qr": qr.svg(join_url), **_seat_places(state),
                "taken_tokens": {p.token for p in state.players}, "roll_for": roll_for}

    @cached_property
    def tools(self) -> dict:
        """The turn panel's "Act for" boxes, for players without a phone: the seat owing a decision
        out of turn (a creditor settling deeds received), then whose turn it is, each with the actions
        of ACT_FOR it may take now and its debts; a seat with none of them gets no box (an auction's
        bidders and a debtor who must raise cash first act from the seat panel)."""
        state = self.state
        if not self.banker or state.status != "playing":
            return {"turn_legal": {}, "acting": []}
        pending = state.pending
        waiting = [pending["player"]] if pending and pending.get("player") not in (None, state.turn) else []
        offered = {pid: legal_actions(state, pid) & ACT_FOR for pid in (*waiting, state.turn)}
        turn_legal = {pid: legal for pid, legal in offered.items() if legal}
        return {"turn_legal": turn_legal,
                "acting": [(state.player(pid), legal, state.debts_of(pid)) for pid, legal in turn_legal.items()]}

    @cached_property
    def seat(self) -> dict:
        """The seat panel, for players without a phone: the seats to pick from and, for the one picked,
        everything it may do at any time (bids, debts, trades, building, mortgages, paying) with its
        deeds, each button's price or why not."""
        state, pid = self.state, self.picked
        shown = self.banker and state.status == "playing"
        seats = [Name(p.id, p.name, p.token) for p in state.players if not p.bankrupt] if shown else []
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
        if last is None or last.type in KEPT:
            return {"undoable": None, "undoable_seq": None}
        return {"undoable": history.told(self.game, self.state, last), "undoable_seq": last.seq}

    @cached_property
    def roster(self) -> dict:
        """The seats as the banker's tools list them (who is still in the game)."""
        return {"roster": tuple(Seat(p.id, p.name, p.bankrupt) for p in self.state.players)}

    @cached_property
    def shortage(self) -> dict:
        """The houses or hotels the banker's tools offer to auction in a shortage: those the rules
        allow now (rules.auctions.building_auctions); the banker judges the shortage."""
        return {"building_auctions": tuple(building_auctions(self.state)) if self.banker else ()}



def _seat_places(state: GameState) -> dict:
    """The lobby's suggested seat order: by opening rolls so far (highest first), then the rest
    in joining order (`seated`, the list in that order, so it reads as it will be played); and
    whether the rolls alone now decide the whole order."""
    ranked = sorted(state.players, key=lambda p: (not p.opening_rolls, [-r for r in p.opening_rolls]))
    waiting = [p for p in state.players if needs_opening_roll(state, p)]
    return {"seat_places": {p.id: n for n, p in enumerate(ranked, 1)}, "seated": ranked,
            "rolls_done": len(state.players) >= 2 and not waiting}
