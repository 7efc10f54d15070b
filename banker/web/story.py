"""The story of the game (/t/<code>/story, and each phone's at /p/<code>/story): what the rent
earned by deed and group and what each deed returned, who paid whom, where the tokens landed, the
big moments on the net-worth chart, and the evening's records.

Everything is counted from the log's stored effects (rules/effects.py), read in one query of the
live events (shared with the net-worth chart when it has to read them too), and kept per game version (`told_story`): a story is read after the game, or by the
banker now and then, never on the live path; every reader of a version shares it. The numbers
here have no words: the templates (templates/story/) tell them in the reader's language and money,
and story_drawings.py places them on the pictures.
"""

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache

from flask import current_app, render_template
from flask_babel import format_timedelta
from markupsafe import Markup

from .. import store
from ..rules.board import Board
from ..rules import landings
from ..rules.buildings import HOTEL
from ..rules.errors import N_
from ..rules.networth import held_value
from ..rules.state import GameState
from ..store import Known
from . import story_drawings as drawings
from .chart import worth_chart
from .ledger import LruCache
from .languages import gettext as _, locale
from .names import square_name, square_names
from .narrate import GROUP_NAMES, Translated

# The effects that may give a deed a new owner (and so complete a colour group, or break one up).
CHANGES_HANDS = frozenset({"bought", "auction_won", "trade_done", "bankrupt", "deeds_claimed"})
# Stories of this many game versions stay in memory (a story is a few kilobytes of counts), and
# this many story pages as HTML (a version's in each language, the host's and each phone's: from
# 20 kB for a short game to about 100 kB at 5,000 events).
KEPT = 16
PAGES_KEPT = 48
# How an owner came to hold a deed, in the table of what each deed returned.
HOW = Translated({"bought": N_("bought"), "auction": N_("won at auction"), "trade": N_("in a trade"),
                  "bankruptcy": N_("from a bankruptcy"), "claim": N_("claimed for the fine")})
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


def told_story(game, log=None) -> Story:
    """The story of `game` (a Game or a Known: its id and version) at its version, counted once
    per version and kept for every reader (the last KEPT versions). `log`, when given, reads the
    game's live effects up to its version (store.live_effects), shared with the chart."""
    kept = current_app.extensions.get("banker.story")
    if kept is None:
        kept = current_app.extensions.setdefault("banker.story", LruCache(KEPT))
    log = log or (lambda: store.live_effects(game.id, upto=game.version))
    return kept.get((game.id, game.version), lambda: count(game.state.board, log(), game.state))


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
        self.step = -1  # the chart's steps: every event from the start on (chart.py's _replay)
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
            cost = self.board[square].house_cost
            holding.cost += (now - before) * cost if now > before else -(before - now) * (cost // 2)

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


# The page: the story's numbers as the reader reads them


def mark_text(mark: Mark, state) -> str:
    """A big moment pinned on the net-worth chart, in words."""
    name = state.player(mark.player).name
    if mark.kind == "trade":
        return _("%(name)s and %(other)s traded.", name=name, other=state.player(mark.other).name)
    if mark.kind == "bankrupt":
        if mark.other is None:
            return _("%(name)s went bankrupt to the bank.", name=name)
        return _("%(name)s went bankrupt to %(other)s.", name=name, other=state.player(mark.other).name)
    if mark.kind == "monopoly":
        return _("%(name)s completed the %(group)s group.", name=name, group=GROUP_NAMES[mark.group])
    return _("The first hotel: %(name)s's, on %(square)s.", name=name,
             square=square_name(state.board, mark.square))


def told_page(game: Known, player: int | None = None) -> Markup:
    """The story as HTML (templates/story/_story.html) in the reader's language, the host's or
    `player`'s phone's, made once per game version, language and phone and kept for every reader
    (the last PAGES_KEPT): a story does not change until the game does."""
    kept = current_app.extensions.get("banker.story_pages")
    if kept is None:
        kept = current_app.extensions.setdefault("banker.story_pages", LruCache(PAGES_KEPT))
    return kept.get((game.id, game.version, str(locale()), player),
                    lambda: Markup(render_template("story/_story.html", **page_context(game, player))))


def duration(seconds: float) -> str:
    """A turn's length as the reader's language says it, to the second under a minute, to the
    minute under an hour ("45 seconds", "3 minutes")."""
    return format_timedelta(timedelta(seconds=round(seconds)), threshold=1, add_direction=False)


def page_context(game: Known, player: int | None = None) -> dict:
    """Everything templates/story/page.html shows of `game` at its version: the whole table's
    story, and first `player`'s own on their phone."""
    state, board = game.state, game.state.board
    currency = board.currency
    log = cache(lambda: store.live_effects(game.id, upto=game.version))  # read once, if at all
    story = told_story(game, log)
    names = square_names(board)
    group_rent = story.group_rent(board)
    rented = sorted((sq for sq, rent in story.deed_rent.items() if rent), key=lambda sq: (-story.deed_rent[sq], sq))
    group_bars = drawings.bars([(GROUP_NAMES[g], rent, f"g-{g}") for g, rent in group_rent.items() if rent], currency)
    deed_bars = drawings.bars([(names[sq], story.deed_rent[sq], f"g-{board[sq].group or board[sq].type}")
                               for sq in rented], currency)
    returns = sorted(story.holdings, key=lambda h: (-h.net, h.square, h.owner))
    expected = list(landings.expected(state.edition, state.settings).landings)
    short_names = square_names(board, short=True)  # in the heat map's squares, as on the board's tiles
    page = {
        "game": game, "code": game.code, "version": game.version, "state": state, "board": board,
        "currency": currency, "players": {p.id: p for p in state.players}, "names": names, "story": story,
        "chart": worth_chart(game, state.players, story.marks, log), "pin_text": lambda mark: mark_text(mark, state),
        "group_bars": group_bars, "deed_bars": deed_bars, "rented": rented, "returns": returns, "how": HOW,
        "sales": any(h.sold_for for h in returns), "kept": any(h.worth_now for h in returns),
        "best_buy": story.best_buy(), "worst_buy": story.worst_buy(),
        "flow": drawings.flow(story.flows, state.players, currency),
        "flow_rows": sorted(story.flows.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        # Beside each square's landings, those this game's rules and cards lead to in the long run
        # (rules/landings.py's Markov chain), as many in all as the game made.
        "heat": drawings.heat(board, names, short_names, story.landings, expected),
        "turn_time": {p.id: story.seconds_per_turn(p.id) for p in state.players}, "duration": duration,
        "me": None,
    }
    if player is not None:
        page["me"] = state.player(player)
        page["my_heat"] = drawings.heat(board, names, short_names,
                                        story.landings_by_player.get(player, Counter()), expected)
        page["my_best"] = story.best_deed(player)
    return page

