"""The story of a game in numbers, counted from its log's stored effects (effects/): what the
rent earned by deed and group and what each deed returned, who paid whom, where the tokens landed,
the big moments on the net-worth chart, and the evening's records.

A fold over effects, as networth.WorthTally is one over states: the story page (screens/story.py)
words these numbers in the reader's language and places them on its pictures.
"""

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache

from .board import Board
from .buildings import HOTEL, refund
from .networth import held_value
from .state import GameState

# The effects that may give a deed a new owner (and so complete a colour group, or break one up).
CHANGES_HANDS = frozenset({"bought", "auction_won", "trade_done", "bankrupt", "deeds_claimed"})
# Transfers between players, by what they were for: the flow's colours do not tell these apart,
# its table does.
FLOW_KINDS = {"rent": "rent", "trade": "trade", "card": "card"}  # anything else: "other"



@dataclass
class Holding:
    """One owner's time with one deed: how they got it ("bought", "auction", "trade", "bankruptcy"
    from a player, "claim" of a jail-fine bankrupt's deeds), the rent it earned them (and how many
    times), what it cost them (its price, winning bid or share of the cash they paid for it in a
    trade; their buildings less those sold back; mortgage interest and fees), what they got for it
    when they traded it away (its share of the cash) and, while they still hold it, what it is
    worth to them as their net worth counts it (its price, half if mortgaged, and their buildings
    at cost): a deed kept is not money lost."""

    square: int
    owner: int
    how: str
    rent: int = 0
    rents: int = 0
    cost: int = 0
    sold_for: int = 0
    worth_now: int = 0

    @property
    def net(self) -> int:
        return self.rent + self.sold_for + self.worth_now - self.cost


@dataclass
class Mark:
    """A big moment on the net-worth chart: the `step` (the chart's action, counted from the start)
    after which it happened, its `kind` ("trade", "bankrupt", "monopoly", "hotel") and whom and
    what it names."""

    step: int
    kind: str
    player: int
    other: int | None = None
    group: str | None = None
    square: int | None = None


@dataclass
class Story:
    """What the log of a game version says, in numbers."""

    holdings: list[Holding] = field(default_factory=list)  # in the order they began
    deed_rent: Counter = field(default_factory=Counter)  # by square, whoever held it
    deed_rents: Counter = field(default_factory=Counter)  # times a rent was paid, by square
    rent_paid: Counter = field(default_factory=Counter)  # by payer
    rent_earned: Counter = field(default_factory=Counter)  # by payee
    rent_by_owner: dict[int, Counter] = field(default_factory=dict)  # payee: {square: rent}
    # Money from one player to another: {(payer, payee): {"rent"|"trade"|"card"|"other": amount}}.
    flows: dict[tuple[int, int], Counter] = field(default_factory=dict)
    landings: Counter = field(default_factory=Counter)  # by square, every player
    landings_by_player: dict[int, Counter] = field(default_factory=dict)
    marks: list[Mark] = field(default_factory=list)
    longest_jail: tuple[int, int] | None = None  # (player, turns begun in jail)
    biggest_rent: dict | None = None  # the transfer effect
    doubles: Counter = field(default_factory=Counter)
    turn_seconds: Counter = field(default_factory=Counter)  # by player, turns that ended
    turns: Counter = field(default_factory=Counter)

    def group_rent(self, board: Board) -> dict[str, int]:
        """Rent earned by colour group (and railroads, utilities), in board order."""
        rent: dict[str, int] = {}
        for sq in board.deeds:
            group = sq.group or sq.type
            rent[group] = rent.get(group, 0) + self.deed_rent[sq.index]
        return rent

    def buys(self) -> list[Holding]:
        """The holdings that began with a purchase, at the price or at auction: the buys whose
        return means something (a deed got in a trade was paid for with other deeds as well)."""
        return [h for h in self.holdings if h.how in ("bought", "auction")]

    def best_buy(self) -> Holding | None:
        return max(self.buys(), key=lambda h: (h.net, -h.square), default=None)

    def worst_buy(self) -> Holding | None:
        """The buy that returned least, other than the best (none in a game of one purchase)."""
        best = self.best_buy()
        return min((h for h in self.buys() if h is not best), key=lambda h: (h.net, h.square), default=None)

    def best_deed(self, player: int) -> tuple[int, int] | None:
        """The deed that earned `player` the most rent: (square, rent), or None if none did."""
        earned = self.rent_by_owner.get(player)
        return max(earned.items(), key=lambda kv: (kv[1], -kv[0])) if earned else None

    def most_doubles(self) -> tuple[int, int] | None:
        return max(self.doubles.items(), key=lambda kv: (kv[1], -kv[0])) if self.doubles else None

    def seconds_per_turn(self, player: int | None = None) -> float | None:
        """The average length of a finished turn: everyone's, or one player's."""
        if player is None:
            turns, seconds = sum(self.turns.values()), sum(self.turn_seconds.values())
        else:
            turns, seconds = self.turns[player], self.turn_seconds[player]
        return seconds / turns if turns else None


def count(board: Board, events, state: GameState | None = None) -> Story:
    """The story told by `events`, each (effects, created_at), the live events oldest first; the
    deeds still held are worth what they are in `state`, the game as those events left it."""
    counting = _Counting(board)
    for effects, at in events:
        counting.event(effects, at)
    return counting.end(state)


class _Counting:
    """A story being counted, one event after the other, and what the counting must remember: who
    holds each deed now (their Holding), the buildings on each lot, the colour groups held whole,
    who is in jail since how many turns, whose turn it is since when, the chart's step."""

    def __init__(self, board: Board):
        self.story, self.board = Story(), board
        self.held: dict[int, Holding] = {}  # square: its holding now (none while the bank has it)
        self.levels: dict[int, int] = {}
        self.complete: set[tuple[int, str]] = set()  # (player, group) held whole after the step before
        self.jailed: dict[int, int] = {}  # player: turns begun in jail so far
        self.turn: tuple[int, datetime] | None = None  # whose turn, since when
        self.step = -1  # the chart's steps: every event from the start on (drawings/chart.py's _replay)
        self.hotel_seen = False

    def event(self, effects: list[dict], at: datetime) -> None:
        story = self.story
        if self.step >= 0 or any(e["kind"] == "started" for e in effects):
            self.step += 1
        # A trade's deeds change hands before its mortgages are lifted or charged (those transfers
        # come before the trade's own effect); a bankrupt's, after their buildings are sold back.
        trade = next((e for e in effects if e["kind"] == "trade_done"), None)
        if trade is not None:
            self._trade(trade)
            story.marks.append(Mark(self.step, "trade", trade["player"], other=trade["to"]))
        bankrupts = []
        for e in effects:
            kind = e["kind"]
            if kind == "transfer":
                self._transfer(e)
            elif kind == "started":
                self.turn = (e["order"][0], at)
            elif kind == "turn":
                self._turn_ended(at)
                self.turn = (e["player"], at)
                if e["player"] in self.jailed:
                    self.jailed[e["player"]] += 1
            elif kind == "ended":
                self._turn_ended(at)
                self.turn = None
            elif kind == "moved" and not e.get("correction"):
                story.landings[e["square"]] += 1
                story.landings_by_player.setdefault(e["player"], Counter())[e["square"]] += 1
            elif kind == "rolled" and e["dice"][0] == e["dice"][1]:
                story.doubles[e["player"]] += 1
            elif kind == "jailed":
                self.jailed[e["player"]] = 0
            elif kind == "bought":
                self._bought(e["square"], e["player"])
            elif kind == "auction_won" and e.get("square") is not None:
                self._take(e["square"], e["player"], "auction").cost += e["amount"]
            elif kind == "deeds_claimed":
                for square in e["squares"]:
                    self._take(square, e["player"], "claim")
            elif kind in ("built", "sold"):
                self.levels[e["square"]] = e["level"]
            elif kind == "levels_set":
                for square, now in e["levels"].items():
                    self._levels_cost(int(square), self.levels.get(int(square), 0), now)
                    self.levels[int(square)] = now
            if kind in ("left_jail", "bankrupt") and e["player"] in self.jailed:
                self._jail_stay(e["player"], self.jailed.pop(e["player"]))
            if kind == "bankrupt":
                bankrupts.append(e)
                heir = e["creditor"] if isinstance(e["creditor"], int) else None
                story.marks.append(Mark(self.step, "bankrupt", e["player"], other=heir))
            if not self.hotel_seen and ((kind == "built" and e["level"] == HOTEL)
                                        or (kind == "levels_set" and HOTEL in e["levels"].values())):
                self.hotel_seen = True
                square = e["square"] if kind == "built" else next(
                    int(sq) for sq, now in e["levels"].items() if now == HOTEL)
                story.marks.append(Mark(self.step, "hotel", e["player"], square=square))
        for e in bankrupts:
            self._inherit(e)
        if any(e["kind"] in CHANGES_HANDS for e in effects):
            self._monopolies()

    def end(self, state: GameState | None) -> Story:
        for player, turns in self.jailed.items():  # still in jail at the version read
            self._jail_stay(player, turns)
        for square, holding in self.held.items() if state is not None else ():
            holding.worth_now = held_value(state, square)
        return self.story

    def _owner(self, square: int) -> int | None:
        holding = self.held.get(square)
        return holding.owner if holding else None

    def _take(self, square: int, owner: int, how: str) -> Holding:
        """`owner` begins to hold the deed on `square`."""
        holding = self.held[square] = Holding(square, owner, how)
        self.story.holdings.append(holding)
        return holding

    def _bought(self, square: int, player: int) -> Holding:
        """`player`'s holding of a deed bought from the bank: begun by the purchase's transfer or by
        the effect that says it was bought, whichever comes first."""
        holding = self.held.get(square)
        return holding if holding is not None and holding.owner == player else self._take(square, player, "bought")

    def _holding_of(self, square: int, player: int) -> Holding | None:
        """`player`'s holding of a deed: the one now, or the last (rent paid late, on a debt)."""
        holding = self.held.get(square)
        if holding is not None and holding.owner == player:
            return holding
        return next((h for h in reversed(self.story.holdings) if h.square == square and h.owner == player), None)

    def _transfer(self, e: dict) -> None:
        """One transfer's part in the story: rent, a holding's costs, money between players."""
        story = self.story
        payer, payee, amount, reason, square = e["from"], e["to"], e["amount"], e["reason"], e.get("square")
        holding = self.held.get(square) if square is not None else None
        if reason == "rent":
            story.deed_rent[square] += amount
            story.deed_rents[square] += 1
            story.rent_paid[payer] += amount
            story.rent_earned[payee] += amount
            story.rent_by_owner.setdefault(payee, Counter())[square] += amount
            if (earner := self._holding_of(square, payee)) is not None:
                earner.rent += amount
                earner.rents += 1
            if story.biggest_rent is None or amount > story.biggest_rent["amount"]:
                story.biggest_rent = e
        elif reason == "purchase" and square is not None:
            self._bought(square, payer).cost += amount
        elif holding is not None and reason in ("building", "mortgage_fee"):
            holding.cost += amount
        elif holding is not None and reason == "building_sale":
            holding.cost -= amount
        elif holding is not None and reason == "unmortgage":  # the loan back, and the interest on it
            holding.cost += amount - self.board[square].mortgage
        if isinstance(payer, int) and isinstance(payee, int):
            story.flows.setdefault((payer, payee), Counter())[FLOW_KINDS.get(reason, "other")] += amount

    def _trade(self, e: dict) -> None:
        """A trade's deeds change hands. The cash one side paid on balance is what the deeds it
        received cost it, shared between them by printed price, and what the other side got for
        them."""
        sides = ((e["give"], e["get"], e["to"]), (e["get"], e["give"], e["player"]))
        for given, returned, to in sides:
            squares = list(given.get("squares", ()))
            paid = max(returned.get("cash", 0) - given.get("cash", 0), 0)
            for square, share in zip(squares, _shares(paid, [self.board[sq].price for sq in squares])):
                if (before := self.held.get(square)) is not None:
                    before.sold_for += share
                self._take(square, to, "trade").cost += share

    def _inherit(self, e: dict) -> None:
        """A bankrupt's deeds, their buildings sold back, go to their creditor, or to the bank."""
        heir = e["creditor"] if isinstance(e["creditor"], int) else None
        for square, holding in list(self.held.items()):
            if holding.owner == e["player"]:
                self.levels[square] = 0  # (their buildings went back to the bank)
                if heir is None:
                    del self.held[square]
                else:
                    self._take(square, heir, "bankruptcy")

    def _levels_cost(self, square: int, before: int, now: int) -> None:
        """What setting a lot's buildings in one step cost its holder (the step's transfer names the
        group): each level up at the lot's house cost, each level down refunded at half of it."""
        holding = self.held.get(square)
        if holding is not None:
            lot = self.board[square]
            holding.cost += (now - before) * lot.house_cost if now > before else -(before - now) * refund(lot)

    def _turn_ended(self, at: datetime) -> None:
        if self.turn is not None:
            player, since = self.turn
            self.story.turns[player] += 1
            self.story.turn_seconds[player] += (at - since).total_seconds()

    def _jail_stay(self, player: int, turns: int) -> None:
        if self.story.longest_jail is None or turns > self.story.longest_jail[1]:
            self.story.longest_jail = (player, turns)

    def _monopolies(self) -> None:
        """Mark each colour group that became whole in one player's hands at this step."""
        whole = set()
        for group, lots in _street_groups(self.board):
            holders = {self._owner(lot) for lot in lots}
            if len(holders) == 1 and None not in holders:
                whole.add((holders.pop(), group))
        order = [group for group, _ in _street_groups(self.board)]
        for player, group in sorted(whole - self.complete, key=lambda pg: (pg[0], order.index(pg[1]))):
            self.story.marks.append(Mark(self.step, "monopoly", player, group=group))
        self.complete = whole


def _shares(total: int, prices: list[int]) -> list[int]:
    """`total` shared in proportion to `prices`, in whole units, the odd units to the first."""
    if not prices:
        return []
    shares = [total * price // sum(prices) for price in prices]
    shares[0] += total - sum(shares)
    return shares


@cache
def _street_groups(board: Board) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The board's colour groups in board order, each with its lots' squares."""
    groups: dict[str, list[int]] = {}
    for sq in board.deeds:
        if sq.type == "street" and sq.group:
            groups.setdefault(sq.group, []).append(sq.index)
    return tuple((group, tuple(lots)) for group, lots in groups.items())
