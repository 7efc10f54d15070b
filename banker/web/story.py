"""The story of the game (/t/<code>/story, and each phone's at /p/<code>/story): what the rent
earned by deed and group and what each deed returned, who paid whom, where the tokens landed, the
big moments on the net-worth chart, and the evening's records.

Everything is counted from the log's stored effects (rules/effects.py), read in one query of the
live events, and kept per game version (`told_story`): a story is read after the game, or by the
banker now and then, never on the live path; every reader of a version shares it. The numbers
here have no words: the templates (templates/story/) tell them in the reader's language and money,
and story_drawings.py places them on the pictures.
"""

from collections import Counter
from functools import cache
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import current_app, render_template
from markupsafe import Markup
from flask_babel import format_timedelta, gettext as _
from sqlalchemy import select

from ..live.memory import Known
from ..models import Event, db
from ..rules.actions import UNDO
from ..rules.board import Board
from ..rules import landings
from ..rules.buildings import HOTEL
from . import story_drawings as drawings
from .chart import worth_chart
from .ledger import LruCache
from .languages import locale
from .names import square_name, square_names
from .narrate import GROUP_NAMES

# The effects that may give a deed a new owner (and so complete a colour group, or break one up).
CHANGES_HANDS = frozenset({"bought", "auction_won", "trade_done", "bankrupt", "deeds_claimed"})
# Stories of this many game versions stay in memory (a story is a few kilobytes of counts), and
# this many story pages as HTML (a version's in each language, the host's and each phone's: from
# 20 kB for a short game to about 100 kB at 5,000 events).
KEPT = 16
PAGES_KEPT = 48
# Transfers between players, by what they were for: the flow's colours do not tell these apart,
# its table does.
FLOW_KINDS = {"rent": "rent", "trade": "trade", "card": "card"}  # anything else: "other"


@dataclass
class DeedReturn:
    """One deed over the game: the rent it earned (and how many times), what it cost whoever held
    it (its price or auction bid, its buildings less their sales, mortgage interest and fees), and
    who first bought it."""

    square: int
    rent: int = 0
    rents: int = 0
    cost: int = 0
    buyer: int | None = None

    @property
    def net(self) -> int:
        return self.rent - self.cost


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

    deeds: dict[int, DeedReturn] = field(default_factory=dict)
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
            rent[group] = rent.get(group, 0) + (self.deeds[sq.index].rent if sq.index in self.deeds else 0)
        return rent

    def bought(self) -> list[DeedReturn]:
        """The deeds somebody bought, at a price or at auction: the buys whose return means something."""
        return [d for d in self.deeds.values() if d.buyer is not None]

    def best_buy(self) -> DeedReturn | None:
        return max(self.bought(), key=lambda d: (d.net, -d.square), default=None)

    def worst_buy(self) -> DeedReturn | None:
        """The buy that returned least, when it is not also the best (a game of one purchase)."""
        worst = min(self.bought(), key=lambda d: (d.net, d.square), default=None)
        return worst if worst is not None and worst is not self.best_buy() else None

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


def told_story(game) -> Story:
    """The story of `game` (a Game or a Known: its id and version) at its version, counted once
    per version and kept for every reader (the last KEPT versions)."""
    kept = current_app.extensions.get("banker.story")
    if kept is None:
        kept = current_app.extensions.setdefault("banker.story", LruCache(KEPT))
    return kept.get((game.id, game.version), lambda: count(game.state.board, _events(game)))


def _events(game) -> list[tuple[list[dict], datetime]]:
    """The effects and time of each live event up to the game's version, oldest first: one query."""
    return list(db.session.execute(
        select(Event.effects, Event.created_at)
        .where(Event.game_id == game.id, Event.undone.is_(False), Event.type != UNDO, Event.seq <= game.version)
        .order_by(Event.seq)))


def count(board: Board, events) -> Story:
    """The story told by `events`, each (effects, created_at), the live events oldest first."""
    story = Story()
    owners: dict[int, int | None] = {}
    levels: dict[int, int] = {}
    complete: set[tuple[int, str]] = set()  # (player, group) held whole after the step before
    jailed: dict[int, int] = {}  # player: turns begun in jail so far
    turn: tuple[int, datetime] | None = None  # whose turn, since when
    step = -1  # the chart's steps: every event from the start on (chart.py's _replay)
    hotel_seen = False
    for effects, at in events:
        changes_hands = any(e["kind"] in CHANGES_HANDS for e in effects)
        if step >= 0 or any(e["kind"] == "started" for e in effects):
            step += 1
        for e in effects:
            kind = e["kind"]
            if kind == "started":
                turn = (e["order"][0], at)
            elif kind == "turn":
                if turn is not None:
                    story.turns[turn[0]] += 1
                    story.turn_seconds[turn[0]] += (at - turn[1]).total_seconds()
                turn = (e["player"], at)
                if e["player"] in jailed:
                    jailed[e["player"]] += 1
            elif kind == "ended" and turn is not None:
                story.turns[turn[0]] += 1
                story.turn_seconds[turn[0]] += (at - turn[1]).total_seconds()
                turn = None
            elif kind == "moved" and not e.get("correction"):
                story.landings[e["square"]] += 1
                story.landings_by_player.setdefault(e["player"], Counter())[e["square"]] += 1
            elif kind == "rolled" and e["dice"][0] == e["dice"][1]:
                story.doubles[e["player"]] += 1
            elif kind == "jailed":
                jailed[e["player"]] = 0
            elif kind in ("left_jail", "bankrupt") and e["player"] in jailed:
                _jail_stay(story, e["player"], jailed.pop(e["player"]))
            if kind == "transfer":
                _transfer(story, board, e)
            elif kind == "bought":
                owners[e["square"]] = e["player"]
            elif kind == "auction_won" and e.get("square") is not None:
                owners[e["square"]] = e["player"]
                deed = _deed(story, e["square"])
                deed.cost += e["amount"]
                deed.buyer = e["player"] if deed.buyer is None else deed.buyer
            elif kind == "trade_done":
                for sq in e["give"].get("squares", ()):
                    owners[sq] = e["to"]
                for sq in e["get"].get("squares", ()):
                    owners[sq] = e["player"]
                story.marks.append(Mark(step, "trade", e["player"], other=e["to"]))
            elif kind == "bankrupt":
                heir = e["creditor"] if isinstance(e["creditor"], int) else None
                for sq, owner in owners.items():
                    if owner == e["player"]:
                        owners[sq] = heir
                story.marks.append(Mark(step, "bankrupt", e["player"], other=heir))
            elif kind == "deeds_claimed":
                for sq in e["squares"]:
                    owners[sq] = e["player"]
            elif kind in ("built", "sold"):
                levels[e["square"]] = e["level"]
            elif kind == "levels_set":
                for sq, now in e["levels"].items():
                    _levels_cost(story, board, int(sq), levels.get(int(sq), 0), now)
                    levels[int(sq)] = now
            if not hotel_seen and ((kind == "built" and e["level"] == HOTEL)
                                   or (kind == "levels_set" and HOTEL in e["levels"].values())):
                hotel_seen = True
                square = e["square"] if kind == "built" else next(
                    int(sq) for sq, now in e["levels"].items() if now == HOTEL)
                story.marks.append(Mark(step, "hotel", e["player"], square=square))
        if changes_hands:
            _monopolies(story, board, owners, complete, step)
    for player, turns in jailed.items():  # still in jail at the version read
        _jail_stay(story, player, turns)
    return story


def _deed(story: Story, square: int) -> DeedReturn:
    deed = story.deeds.get(square)
    if deed is None:
        deed = story.deeds[square] = DeedReturn(square)
    return deed


def _transfer(story: Story, board: Board, e: dict) -> None:
    """One transfer's part in the story: rent, a deed's costs, money between players."""
    payer, payee, amount, reason, square = e["from"], e["to"], e["amount"], e["reason"], e.get("square")
    if reason == "rent":
        deed = _deed(story, square)
        deed.rent += amount
        deed.rents += 1
        story.rent_paid[payer] += amount
        story.rent_earned[payee] += amount
        story.rent_by_owner.setdefault(payee, Counter())[square] += amount
        if story.biggest_rent is None or amount > story.biggest_rent["amount"]:
            story.biggest_rent = e
    elif square is not None and reason in ("purchase", "building", "mortgage_fee"):
        deed = _deed(story, square)
        deed.cost += amount
        if reason == "purchase" and deed.buyer is None:
            deed.buyer = payer
    elif square is not None and reason == "building_sale":
        _deed(story, square).cost -= amount
    elif square is not None and reason == "unmortgage":  # the loan back, and the interest on it
        _deed(story, square).cost += amount - board[square].mortgage
    if isinstance(payer, int) and isinstance(payee, int):
        story.flows.setdefault((payer, payee), Counter())[FLOW_KINDS.get(reason, "other")] += amount


def _levels_cost(story: Story, board: Board, square: int, before: int, now: int) -> None:
    """What setting a lot's buildings in one step cost it (the step's transfer names the group):
    each level up at the lot's house cost, each level down refunded at half of it."""
    cost = board[square].house_cost
    _deed(story, square).cost += (now - before) * cost if now > before else -(before - now) * (cost // 2)


def _jail_stay(story: Story, player: int, turns: int) -> None:
    if story.longest_jail is None or turns > story.longest_jail[1]:
        story.longest_jail = (player, turns)


def _monopolies(story: Story, board: Board, owners: dict, complete: set, step: int) -> None:
    """Mark each colour group that became whole in one player's hands at this step."""
    whole = set()
    for group, lots in _street_groups(board):
        holders = {owners.get(lot) for lot in lots}
        if len(holders) == 1 and None not in holders:
            whole.add((holders.pop(), group))
    order = [group for group, _ in _street_groups(board)]
    for player, group in sorted(whole - complete, key=lambda pg: (pg[0], order.index(pg[1]))):
        story.marks.append(Mark(step, "monopoly", player, group=group))
    complete.clear()
    complete.update(whole)


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
    story = told_story(game)
    names = square_names(board)
    group_rent = story.group_rent(board)
    rented = sorted((d for d in story.deeds.values() if d.rent), key=lambda d: (-d.rent, d.square))
    group_bars = drawings.bars([(GROUP_NAMES[g], rent, f"g-{g}") for g, rent in group_rent.items() if rent], currency)
    deed_bars = drawings.bars([(names[d.square], d.rent, f"g-{board[d.square].group or board[d.square].type}")
                               for d in rented], currency)
    returns = sorted(story.bought(), key=lambda d: (-d.net, d.square))
    expected = list(landings.expected(state.edition, state.settings).landings)
    page = {
        "game": game, "code": game.code, "version": game.version, "state": state, "board": board,
        "currency": currency, "players": {p.id: p for p in state.players}, "names": names, "story": story,
        "chart": worth_chart(game, state.players, story.marks), "pin_text": lambda mark: mark_text(mark, state),
        "group_bars": group_bars, "deed_bars": deed_bars, "rented": rented, "returns": returns,
        "best_buy": story.best_buy(), "worst_buy": story.worst_buy(),
        "flow": drawings.flow(story.flows, state.players, currency),
        "flow_rows": sorted(story.flows.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        # Beside each square's landings, those this game's rules and cards lead to in the long run
        # (rules/landings.py's Markov chain), as many in all as the game made.
        "heat": drawings.heat(board, names, story.landings, expected),
        "turn_time": {p.id: story.seconds_per_turn(p.id) for p in state.players}, "duration": duration,
        "me": None,
    }
    if player is not None:
        page["me"] = state.player(player)
        page["my_heat"] = drawings.heat(board, names, story.landings_by_player.get(player, Counter()), expected)
        page["my_best"] = story.best_deed(player)
    return page

