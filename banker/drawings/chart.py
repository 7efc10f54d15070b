"""The end screen's chart: every player's net worth over the whole game, turn by turn, drawn on the
server as SVG (no chart script, nothing from the internet) by templates/_worth_chart.html."""

import math
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass

from flask import current_app

from .. import store
from ..rules import Settings
from ..rules.board import load_board
from ..rules.networth import WorthTally
from ..store import Known
from ..words.amounts import money

# A 480-wide drawing with 20-unit text reads at about 13 px on a 320 px phone and scales up. The
# plot's top is PAD below the drawing's (the pins stand there); the turn axis's labels are under it.
# The labels' size is the reader's (app.css: 20 units at the page's usual text size), so they grow
# with a phone's large-text setting, up to GROWTH times. No label stands in the plot, where at 200%
# text they lay over the lines ("Turns" over Ann's): the money labels stand left of it, each over its
# line, the turn labels under it, and under them the axis's name at the right, all with room for them
# at GROWTH times (BOTTOM: two rows of labels, ROW apart, under the plot).
WIDTH, HEIGHT, PAD, TEXT = 480, 360, 56, 20
GROWTH = 2
ROW = round(1.15 * GROWTH * TEXT)
# The widest a label's character may be, as a share of the font size: a digit is 0.64 of it in
# DejaVu Sans, the widest of the phones' and laptops' usual fonts (0.55 to 0.62 elsewhere).
CHAR_WIDTH = 0.65
GAP = 8
TICK = 6  # a turn's tick mark, under the axis: its label hangs from its end
BOTTOM = HEIGHT - (TICK + 2 * ROW + GAP)  # the plot's bottom, the zero line
KEPT = 16  # ended games whose history stays in memory
# Lines differ by their dashes as well as their token's colour, so no one has to tell colours apart.
DASHES = ("", "14 6", "3 6", "14 6 3 6")
PIN_RISE = 14  # a pin's number: its centre this far over the plot's top (the lower row)
PIN_RADIUS = 11  # of the circle around a pin's number (two digits at 14 units fit in it)
# Pins' numbers sit in two rows over the plot (PAD leaves room for no more), the higher a circle
# and a little above the lower; moments with no room for a pin of their own share one, which the
# list under the drawing tells as one item naming several (place_pins): in a real game several
# moments fall in one turn, and their numbers overlapped.
PIN_ROW = 2 * PIN_RADIUS + 2  # between the two rows' centres
PIN_ROOM = 2 * PIN_RADIUS + 2  # between the centres of two pins in a row: their circles and a gap


@dataclass(frozen=True)
class WorthHistory:
    """Net worth of each player after every action since the start, and where each action falls in
    turns: the start at 0, the k-th of a turn's n actions at turn - 1 + k/n (its last at the turn)."""

    turns: list[float]
    worth: dict[int, list[int]]


@dataclass(frozen=True)
class Tick:
    at: int  # x or y in the drawing, to the unit
    label: str


@dataclass(frozen=True)
class Line:
    """One player's line: their token (its colour), its dashes, its points, and what it says."""

    player: int
    name: str
    token: str
    dash: str
    points: str
    start: int
    peak: int
    end: int


@dataclass(frozen=True)
class Pin:
    """A pin on the turn axis (the story's chart): its number in the list under the drawing, where
    it falls across, how high its number sits, and the big moments it stands for, each as (the turn
    it falls in, what it was: story.py's Mark). Moments at one place share a pin, which lists them."""

    number: int
    at: int
    y: int
    moments: tuple[tuple[int, object], ...]
    radius: int = PIN_RADIUS


@dataclass(frozen=True)
class WorthChart:
    """Everything templates/_worth_chart.html draws, in the drawing's units."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    text: int
    gap: int
    name_at: int  # the top of the axis's name, under the turn labels
    money_ticks: list[Tick]
    turn_ticks: list[Tick]
    lines: list[Line]
    pins: tuple[Pin, ...] = ()


@dataclass(frozen=True)
class Replay:
    """A game's log followed up to `version` (with `undos` undos by then): every player's net worth
    there, whose turn it was, and what the chart needs of every step so far. Never changed once
    made: the next version's is made from it."""

    version: int
    undos: int
    tally: WorthTally
    turn: int | None  # whose turn it is: None until the start
    turns_done: int
    turn_of_step: tuple[int, ...]
    worth: dict[int, tuple[int, ...]]


def worth_history(game: Known, log=None) -> WorthHistory:
    """Counted from the log's effects, once per game version, and shared by every screen of it. A
    game drawn again at a later version (the story during play, then the end screen) is followed on
    from where it was drawn last, unless something was undone meanwhile: the work is the new
    events, not the whole game. The histories and replays of the last KEPT games drawn stay in
    memory. `log`, when given, reads the whole game's live effects (the story's, shared)."""
    histories, replays, lock = current_app.extensions.setdefault(
        "banker.worth_history", (OrderedDict(), OrderedDict(), threading.Lock()))
    key = (game.id, game.version)
    with lock:
        if key in histories:
            histories.move_to_end(key)
            return histories[key]
        before = replays.get(game.id)
    if before is not None and (before.version > game.version or before.undos != game.undos):
        before = None  # an undo since (or an older version asked): from the start
    replay = _replay(game, before, log if before is None else None)
    history = WorthHistory(_in_turns(replay.turn_of_step), {p: list(v) for p, v in replay.worth.items()})
    with lock:
        histories[key] = history
        if game.id not in replays or replays[game.id].version < replay.version:
            replays[game.id] = replay
        replays.move_to_end(game.id)
        for cache in (histories, replays):
            while len(cache) > KEPT:
                cache.popitem(last=False)
    return history


def _replay(game: Known, before: Replay | None, log=None) -> Replay:
    """Every player's net worth after each action, and the turn each action falls in: from the
    start, or on from `before` (the same game at an earlier version, as many undos). The log's
    stored effects say it all (rules/networth.py's WorthTally): no action is applied again.

    The chart's steps are the actions from the start on; the start is at turn 0, and each later
    action is in the turn after those done, a turn being done when an action passed it on
    (doubles keep it)."""
    if before is None:
        tally = WorthTally(load_board(game.edition), Settings(**game.settings).start_cash)
        turn, turns_done, turn_of_step, worth = None, 0, [], {}
    else:
        tally, turn, turns_done = before.tally.copy(), before.turn, before.turns_done  # `before` stays as it was
        turn_of_step, worth = list(before.turn_of_step), {p: list(v) for p, v in before.worth.items()}
    rows = log() if log else store.live_effects(game.id, after=before.version if before else 0, upto=game.version)
    for effects, _ in rows:
        tally.follow(effects)
        if turn is None:  # the lobby: no step yet, until the start
            start = next((e for e in effects if e["kind"] == "started"), None)
            if start is None:
                continue
            turn = start["order"][0]
            turn_of_step.append(0)
        else:
            turn_of_step.append(turns_done + 1)
            passed = [e["player"] for e in effects if e["kind"] == "turn"]
            if passed and passed[-1] != turn:
                turn, turns_done = passed[-1], turns_done + 1
        for player, total in tally.totals.items():
            worth.setdefault(player, []).append(total)
    return Replay(game.version, game.undos, tally, turn, turns_done, tuple(turn_of_step),
                  {p: tuple(v) for p, v in worth.items()})


def _in_turns(turn_of_step: list[int]) -> list[float]:
    """Each step's place on the turn axis: spread evenly over its turn, the turn's last at its end."""
    steps, seen = Counter(turn_of_step), Counter()
    places = []
    for turn in turn_of_step:
        seen[turn] += 1
        places.append(0.0 if turn == 0 else turn - 1 + seen[turn] / steps[turn])
    return places


def _kept(values: list[int], runs: list[range]) -> list[int]:
    """The steps of a line that the drawing can show: of the steps that fall on the same unit
    across (each run), the lowest and the highest, in the order they came. A short game keeps every
    step; a long one's line keeps every peak and dip in at most two points a unit (a few hundred,
    not one per action: 5,000 actions made a page of half a megabyte)."""
    kept: list[int] = []
    at = values.__getitem__
    for run in runs:
        if len(run) <= 2:
            kept += run
        else:
            kept += sorted({min(run, key=at), max(run, key=at)})
    return kept


def _runs(places: list[float]) -> list[range]:
    """The steps, in runs of those that fall on the same unit across."""
    runs, start = [], 0
    for n in range(1, len(places) + 1):
        if n == len(places) or round(places[n]) != round(places[start]):
            runs.append(range(start, n))
            start = n
    return runs


def nice_step(top: float, parts: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that cuts 0..top into at most `parts` steps."""
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            if top <= step * parts:
                return step
        power *= 10


def label_width(label: str) -> float:
    """The most a tick label can take across, in the drawing's units."""
    return len(label) * CHAR_WIDTH * TEXT


def worth_chart(game: Known, players: list, marks: list = (), log=None) -> WorthChart:
    """The chart's axes (money up the side, turns along the bottom) and one line per player;
    `marks` (story.py's), each after the action counted by its `step` from the start, are pinned on
    the turn axis."""
    history = worth_history(game, log)
    currency = load_board(game.edition).currency
    highest = max((max(v) for v in history.worth.values() if v), default=0)
    money_step = nice_step(max(highest, 1), 5)
    money_top = math.ceil(max(highest, 1) / money_step) * money_step
    turns = max(math.ceil(history.turns[-1]) if history.turns else 0, 1)
    turn_step = nice_step(turns, 6)
    money_labels = [(value, money(value, currency)) for value in range(0, money_top + 1, money_step)]
    turn_labels = [(turn, str(turn)) for turn in range(0, turns + 1, turn_step)]
    left = math.ceil(2 * GAP + GROWTH * max(label_width(label) for _, label in money_labels))
    right = math.floor(WIDTH - GAP - GROWTH * label_width(str(turns)) / 2)
    top, bottom = PAD, BOTTOM

    def x(turn: float) -> float:
        return left + (right - left) * turn / turns

    def y(value: int) -> float:
        return bottom - (bottom - top) * value / money_top

    places = [x(turn) for turn in history.turns]
    runs = _runs(places)
    lines = []
    for n, p in enumerate(players):
        values = history.worth.get(p.id, [])
        if values:
            points = " ".join(f"{places[i]:.1f},{y(values[i]):.1f}" for i in _kept(values, runs))
            lines.append(Line(p.id, p.name, p.token, DASHES[n % len(DASHES)], points,
                              values[0], max(values), values[-1]))
    shown = [m for m in marks if m.step < len(history.turns)]
    pins = place_pins([(x(history.turns[m.step]), math.ceil(history.turns[m.step]), m) for m in shown], top)
    return WorthChart(WIDTH, HEIGHT, left, right, top, bottom, TEXT, GAP, bottom + TICK + ROW,
                      [Tick(round(y(value)), label) for value, label in money_labels],
                      [Tick(round(x(turn)), label) for turn, label in turn_labels], lines, pins)


def place_pins(moments: list[tuple[float, int, object]], top: int) -> tuple[Pin, ...]:
    """The pins of `moments`, each (where it falls across, its turn, its mark), over a plot whose
    top is at `top`. A moment where the pin before stands, or of that pin's turn and close enough
    for their circles to meet, joins it (a turn's trades: one pin listing them); any other gets a
    pin of its own, in the lower row where there is room, else in the higher, else it too joins the
    pin before. No two pins' circles meet: two in a row stand PIN_ROOM apart at least, and the rows
    are PIN_ROW apart."""
    rows = (top - PIN_RISE, top - PIN_RISE - PIN_ROW)
    placed: list[tuple[int, int, list]] = []  # (at, y, moments) of each pin so far, left to right
    rightmost: dict[int, int] = {}  # a row's y: where its rightmost pin stands
    for place, turn, mark in sorted(moments, key=lambda moment: moment[0]):
        at = round(place)
        free = [y for y in rows if y not in rightmost or at - rightmost[y] >= PIN_ROOM]
        if placed:
            before, _, listed = placed[-1]
            if not free or at - before < PIN_RADIUS or at - before < PIN_ROOM and turn == listed[-1][0]:
                listed.append((turn, mark))
                continue
        placed.append((at, free[0], [(turn, mark)]))
        rightmost[free[0]] = at
    return tuple(Pin(number, at, y, tuple(listed)) for number, (at, y, listed) in enumerate(placed, 1))
