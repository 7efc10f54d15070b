"""The story page's pictures, placed in the drawing's units for templates/story/ to draw as SVG:
bars (rent by deed and by group), the flow of money between players, and the landings on the
board. Each is made per request from the game's story (story.py, in numbers) in the reader's
language and money; the text every picture says is also in the page's words beside it."""

import math
import re
from dataclasses import dataclass

from ..rules.board import Board
from ..words.amounts import money
from .chart import GAP, GROWTH, TEXT, label_width

WIDTH = 480  # as the net-worth chart: 20-unit text reads at about 13 px on a 320 px phone
BAR = 18  # a bar's thickness, under its name
# A name (the bars' words are the reader's size, app.css: room for them at GROWTH times the drawing's
# 20 units), the bar under it, and room before the next.
ROW = GROWTH * TEXT + 6 + BAR + 12
LINE = round(1.15 * GROWTH * TEXT)  # a second line of a name, at GROWTH times the text (1.15em apart)
BAND_GAP = 10  # between two players' blocks in the flow
CELL = 44  # a square of the landings' board; eleven across
SCALE = 5  # the landings' colour scale: steps shown in the board's middle
NAME_TEXT = 7  # a square's name on the landings' board, on two lines at most over its count
NAME_ROOM = CELL - 4  # what a line of it may take across; a longer one is drawn narrower
NAME_CHAR = 0.56  # a Latin letter's width in a sans-serif face, on average, in its text's height


@dataclass(frozen=True)
class BarRow:
    label: str  # the name over the bar
    value: str  # the amount after it
    css: str  # its colour's class (a group's g-*)
    y: int  # the name's (last line's) baseline; the bar lies under it
    length: int
    value_x: int
    lines: tuple[str, ...] = ()  # the name in lines, where one at twice the text would leave the drawing


@dataclass(frozen=True)
class Bars:
    width: int
    height: int
    text: int
    bar: int
    rows: list[BarRow]


def bars(rows: list[tuple[str, int, str]], currency: str) -> Bars:
    """Horizontal bars, one per (label, amount, css) row, the longest as long as the drawing
    leaves after the widest amount's label. A name too wide for the drawing at GROWTH times the
    text (« Compagnie de distribution d'électricité ») takes more lines, and its row as many more."""
    values = [money(amount, currency) for _, amount, _ in rows]
    room = WIDTH - GAP - GROWTH * max((label_width(v) for v in values), default=0)
    top = max((amount for _, amount, _ in rows), default=0) or 1
    placed, y = [], 0
    for (label, amount, css), value in zip(rows, values):
        length = max(round(room * amount / top), 2 if amount else 0)
        lines = wrap(label, WIDTH - 2 * GAP, GROWTH * TEXT)
        y += LINE * (len(lines) - 1)
        placed.append(BarRow(label, value, css, y + GROWTH * TEXT, length, length + GAP, lines if len(lines) > 1 else ()))
        y += ROW
    return Bars(WIDTH, y + GAP, TEXT, BAR, placed)  # GAP: under the last amount at its largest


@dataclass(frozen=True)
class Node:
    player: int
    name: str
    token: str
    top: float
    height: float
    total: str  # the amount paid (on the left) or received (on the right)


@dataclass(frozen=True)
class Band:
    payer: int
    payee: int
    token: str  # the payer's
    path: str


@dataclass(frozen=True)
class Flow:
    width: int
    height: int
    text: int
    node: int  # a block's width
    left: list[Node]  # who paid
    right: list[Node]  # who received
    bands: list[Band]


def flow(flows: dict, players: list, currency: str) -> Flow | None:
    """Money between players as bands from each payer's block on the left to each payee's block on
    the right, as thick as the money, in the payer's token colour; None when nobody paid anybody."""
    totals = {pair: sum(kinds.values()) for pair, kinds in flows.items() if sum(kinds.values()) > 0}
    if not totals:
        return None
    ids = [p.id for p in players]
    paid = {p: sum(v for (a, _), v in totals.items() if a == p) for p in ids}
    received = {p: sum(v for (_, b), v in totals.items() if b == p) for p in ids}
    # Each block gets two lines above it, its name and its amount, with room for them at GROWTH
    # times the text (the reader's size, app.css); the money shares what height is left.
    label = GROWTH * TEXT + LINE + 8
    sides = max(sum(1 for v in paid.values() if v), sum(1 for v in received.values() if v))
    height = max(200, sides * (label + 32))
    scale = (height - sides * (label + BAND_GAP)) / max(sum(paid.values()), 1)
    node = 14
    by_id = {p.id: p for p in players}

    def column(amounts: dict) -> dict[int, Node]:
        nodes, y = {}, 0.0
        for pid in ids:
            if amounts[pid]:
                y += label
                h = max(amounts[pid] * scale, 2)
                nodes[pid] = Node(pid, by_id[pid].name, by_id[pid].token, y, h, money(amounts[pid], currency))
                y += h + BAND_GAP
        return nodes

    left, right = column(paid), column(received)
    out = {pid: n.top for pid, n in left.items()}
    into = {pid: n.top for pid, n in right.items()}
    bands = []
    x1, x2 = node, WIDTH - node
    middle = WIDTH / 2
    for payer in ids:
        for payee in ids:
            amount = totals.get((payer, payee))
            if not amount:
                continue
            h = max(amount * scale, 1)
            a, b = out[payer], into[payee]
            out[payer], into[payee] = a + h, b + h
            path = (f"M{x1},{a:.1f} C{middle},{a:.1f} {middle},{b:.1f} {x2},{b:.1f} "
                    f"L{x2},{b + h:.1f} C{middle},{b + h:.1f} {middle},{a + h:.1f} {x1},{a + h:.1f} Z")
            bands.append(Band(payer, payee, by_id[payer].token, path))
    bottom = max([n.top + n.height for n in (*left.values(), *right.values())])
    return Flow(WIDTH, math.ceil(bottom) + 4, TEXT, node, list(left.values()), list(right.values()), bands)


@dataclass(frozen=True)
class NameLine:
    text: str
    squeezed: float | None  # the width to draw it in, when it would not fit the square as it is


@dataclass(frozen=True)
class Cell:
    square: int
    name: str
    x: int
    y: int
    count: int
    heat: float  # 0 (never landed on) to 1 (the most landed on)
    expected: float | None  # the landings the dice and cards would bring, when known
    lines: tuple[NameLine, ...]  # its short name, as drawn in the square


def _wide(ch: str) -> bool:
    """A CJK character: as wide as it is high, and a line may break before any of them."""
    return ord(ch) >= 0x2E80


def _text_width(text: str, size: float = NAME_TEXT) -> float:
    """About how wide a line of a name draws at `size` (a square's, by default)."""
    return sum(1.0 if _wide(ch) else NAME_CHAR for ch in text) * size


def wrap(text: str, room: float, size: float) -> tuple[str, ...]:
    """Text in lines no wider than `room` at `size`, broken after a space or a hyphen (not a no-break
    one), or before any character of a Japanese name; a word wider than the room has its own line."""
    parts = list(text) if " " not in text and any(map(_wide, text)) else re.split(r"(?<=[\s-])", text)
    lines = [""]
    for part in parts:
        if lines[-1].strip() and _text_width((lines[-1] + part).strip(), size) > room:
            lines.append("")
        lines[-1] += part
    return tuple(line.strip() for line in lines)


def name_lines(name: str) -> tuple[NameLine, ...]:
    """A square's short name in its square, on one line if it fits, else two, split where the two
    come out most even: at a space, after a hyphen (not a no-break one: « St‑Michel »), or before
    any character of a Japanese name; never inside a word of Latin letters. A line still too wide
    is drawn narrower (SVG's textLength) rather than over the next square."""
    room, size = NAME_ROOM, NAME_TEXT
    lines = (name,)
    if _text_width(name, size) > room:
        parts = re.split(r"(\s+|(?<=-))", name)  # words, and what separates them: a space or nothing
        splits = [("".join(parts[:n]), "".join(parts[n + 1:])) for n in range(1, len(parts), 2)]
        if len(parts) == 1 and any(map(_wide, name)):
            splits = [(name[:n], name[n:]) for n in range(1, len(name))]
        lines = min(splits, key=lambda two: max(_text_width(line, size) for line in two), default=lines)
    return tuple(NameLine(line, room if _text_width(line, size) > room else None) for line in lines)


@dataclass(frozen=True)
class Heat:
    size: int
    cell: int
    cells: list[Cell]
    scale: list[tuple[float, str]]  # (heat, count) from none to the most, for the legend
    top: list[Cell]  # the most landed on first, for the words beside the picture


def heat(board: Board, names: tuple[str, ...], short: tuple[str, ...], landings,
         expected: list[float] | None = None) -> Heat:
    """Landings on each square (a Counter by square), placed around an 11 x 11 board as the host's
    board is (GO at the bottom right), each square named in it by its `short` name (the board's
    tiles' own, names.square_names); `names` are the words' beside it. `expected`: each square's share of all landings in the
    long run (forty numbers that add up to 1), drawn beside the landings as the number the same
    number of moves would bring; the rules' Markov chain (rules/landings.py) gives it."""
    most = max(landings.values(), default=0)
    moves = sum(landings.values())
    cells = []
    for sq in board.squares:
        i = sq.index
        row, col = (11, 11 - i) if i <= 10 else (21 - i, 1) if i <= 20 else (1, i - 19) if i <= 30 else (i - 29, 11)
        cells.append(Cell(i, names[i], (col - 1) * CELL, (row - 1) * CELL, landings[i],
                          landings[i] / most if most else 0.0,
                          expected[i] * moves if expected is not None else None,
                          name_lines(short[i])))
    steps = [(n / SCALE, str(round(most * n / SCALE))) for n in range(SCALE + 1)]
    top = sorted((c for c in cells if c.count), key=lambda c: (-c.count, c.square))
    return Heat(11 * CELL, CELL, cells, steps, top)

