"""The end screen's chart: money labels that fit inside the drawing whatever the totals (up to five
digits), an axis in turns, a line per player told apart by dashes as well as colour, a legend, and
a name and a description for screen readers."""

import xml.etree.ElementTree as ET
from html import unescape

import random
from collections import Counter

import pytest

from banker import rules, store
from banker.rules.networth import net_worths
from banker.drawings import chart
from banker.drawings.chart import PAD, PIN_RADIUS, nice_step, place_pins

from ..evenings import next_move

from .games import new_game, play

SVG = "{http://www.w3.org/2000/svg}"
# The widest a label's character may be, as a share of its font size: a digit is 0.64 of it in
# DejaVu Sans, the widest of the usual fonts; "$" and "," are no wider.
GLYPH = 0.65


def ended(client, host, worth: int = 1500, turns: int = 1):
    """Ann and Bob play `turns` turns (each rolls 4 + 6 and ends the turn: Just Visiting, Free
    Parking, Go To Jail...); the bank brings Ann's cash to `worth`; the banker ends the game.
    Returns the host page."""
    game = new_game(client)
    for turn in range(turns):
        who = 1 + turn % 2
        state = game.state()
        if next(p for p in state["players"] if p["id"] == who)["in_jail"]:
            play(game, (who, {"type": "pay_jail_fine"}))
        play(game, (who, {"type": "roll", "dice": [4, 6]}), (who, {"type": "end_turn"}))
    cash = next(p["cash"] for p in game.state()["players"] if p["id"] == 1)
    if worth != cash:
        play(game, ("banker", {"type": "bank_pay" if worth > cash else "bank_charge", "player": 1,
                               "amount": abs(worth - cash)}))
    play(game, ("banker", {"type": "end_game"}))
    return host(game).page()


def drawing(page: str) -> ET.Element:
    svg = page[page.index('<svg class="worth-chart"'):]
    return ET.fromstring(svg[:svg.index("</svg>") + len("</svg>")])


def extent(text: ET.Element, growth: float = 1) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a label, its glyphs GLYPH wide and the font size tall, its font
    size `growth` times the drawing's (the reader's larger text)."""
    x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size")) * growth
    width = len(text.text) * GLYPH * size
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    if text.get("dominant-baseline") == "hanging":
        return left, y, left + width, y + 1.1 * size
    return left, y - size, left + width, y + 0.25 * size  # a descender below the baseline


@pytest.mark.parametrize(("worth", "turns", "top_label", "last_turn"), [
    (1500, 1, "$1,500", "2"), (3736, 1, "$4,000", "2"), (12_345, 1, "$15,000", "2"),
    (99_999, 1, "$100,000", "2"), (99_999, 104, "$100,000", "100"),
])
def test_every_label_fits_inside_the_drawing_and_off_the_plot_for_totals_up_to_five_digits_at_twice_the_text_size(
        client, host, worth, turns, top_label, last_turn):
    """Off the plot: at 200% text the amounts and "Turns" lay over the players' lines."""
    svg = drawing(ended(client, host, worth, turns))
    _, _, width, height = map(float, svg.get("viewBox").split())
    labels = svg.findall(f"{SVG}text")
    assert [t.text for t in labels if t.text.startswith("$")][-1] == top_label  # the longest
    assert [t.text for t in labels if t.text.isdigit()][-1] == last_turn
    x_axis, y_axis = [line for line in svg.findall(f"{SVG}line") if line.get("class") == "axis"][-2:]
    plot = (float(x_axis.get("x1")), float(y_axis.get("y1")), float(x_axis.get("x2")), float(x_axis.get("y1")))
    for text in labels:
        for growth in (1, chart.GROWTH):  # the reader's text, as usual and at its largest (200%)
            left, top, right, bottom = extent(text, growth)
            assert 0 <= left and right <= width and 0 <= top and bottom <= height, (text.text, growth, left, right)
            assert right <= plot[0] or bottom <= plot[1] or left >= plot[2] or top >= plot[3], (text.text, growth)


@pytest.mark.parametrize(("top", "parts", "step"), [(1, 5, 1), (1500, 5, 500), (3000, 5, 1000), (3736, 5, 1000),
                                                    (12_345, 5, 5000), (99_999, 5, 20_000), (104, 6, 20)])
def test_ticks_fall_on_round_steps(top, parts, step):
    assert nice_step(top, parts) == step


def test_the_axis_counts_turns_and_each_turn_ends_on_its_tick(client, host):
    """Ann's first turn has four actions (doubles: she rolls twice), Bob's two, Ann's second four
    (she declines, the banker closes the auction); the banker ends the game in the fourth turn."""
    game = new_game(client)
    play(game, (1, {"type": "roll", "dice": [2, 2]}), (1, {"type": "roll", "dice": [1, 5]}),
         ("banker", {"type": "bank_pay", "player": 1, "amount": 500}), (1, {"type": "end_turn"}),
         (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}),
         (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "decline"}))
    play(game, ("banker", {"type": "close_auction"}), (1, {"type": "end_turn"}), ("banker", {"type": "end_game"}))
    svg = drawing(host(game).page())
    ticks = {t.text: float(t.get("x")) for t in svg.findall(f"{SVG}text") if t.get("text-anchor") == "middle"
             and t.text.isdigit()}
    assert list(ticks) == ["0", "1", "2", "3", "4"]  # the game ended in the fourth turn
    [title] = [t.text for t in svg.findall(f"{SVG}text") if "axis-title" in t.get("class")]
    assert title == "Turns"
    points = [float(p.split(",")[0]) for p in svg.find(f"{SVG}polyline").get("points").split()]
    # start | roll, roll, bank pays, end turn | roll, end turn | roll, decline, close, end turn | end game
    assert len(points) == 1 + 4 + 2 + 4 + 1
    ends_of_turns = [points[0], points[4], points[6], points[10], points[11]]
    assert ends_of_turns == pytest.approx([ticks[str(t)] for t in range(5)], abs=0.5)
    assert points[1:5] == sorted(points[1:5]) and len(set(points)) == len(points)


def test_the_chart_has_a_name_a_description_and_a_legend_that_match_its_lines(client, host):
    page = ended(client, host, worth=2500, turns=2)
    svg = drawing(page)
    assert svg.get("role") == "img"
    caption = svg.get("aria-labelledby")
    assert f'<h3 id="{caption}">Net worth over the game</h3>' in page
    desc = svg.find(f"{SVG}desc")
    assert svg.get("aria-describedby") == desc.get("id")
    assert unescape(desc.text) == ("Ann: $1,500 at the start, $2,500 at most, $2,500 at the end. "
                                   "Bob: $1,500 at the start, $1,500 at most, $1,500 at the end.")
    lines = [(p.get("class"), p.get("stroke-dasharray")) for p in svg.findall(f"{SVG}polyline")]
    assert lines == [("token-hat", None), ("token-car", "14 6")]  # colour and dashes both differ
    legend = page[page.index('<ul class="chart-legend">'):]
    legend = ET.fromstring(legend[:legend.index("</ul>") + len("</ul>")])
    assert ["".join(li.itertext()).strip() for li in legend] == ["Ann", "Bob"]
    samples = [li.find("svg/line") for li in legend]  # HTML's own <svg>: no namespace written
    assert [(line.get("class"), line.get("stroke-dasharray")) for line in samples] == lines


def replayed(game) -> tuple[list[int], dict[int, list[int]]]:
    """The chart's steps in turns and each player's net worth after each, the long way: every live
    action of the log applied again through the rules, the deeds counted after each."""
    state, turns_done, steps, worth = rules.new_game(game.edition, rules.Settings(**game.settings)), 0, [], {}
    for actor, data in store.live_log(game.id):
        playing, turn = state.status != "lobby", state.turn
        state, _ = rules.apply(state, rules.parse(data), actor)
        if state.status == "lobby":
            continue
        steps.append(turns_done + 1 if playing else 0)
        turns_done += playing and state.turn != turn
        for player, total in net_worths(state).items():
            worth.setdefault(player, []).append(total)
    return steps, worth


def test_the_chart_counted_from_the_effects_is_the_game_replayed_through_the_rules(app, client):
    """A random evening (purchases, auctions, payments, debts, cards, corrections, undos): after
    every few actions, the chart's history equals the rules' own replay of the log. (Buildings,
    mortgages, trades and bankruptcies: test_stateful checks the tally after every action.)"""
    game = new_game(client, players=4)
    rng, checked = random.Random(2312), 0
    for n in range(250):
        who, action = next_move(game.state(), rng)
        game.act(who, **action)
        if n % 25 == 24:
            with app.test_request_context():
                saved = store.find_game(game.code)
                history = chart.worth_history(app.extensions["banker.memory"].known(saved))
                steps, worth = replayed(saved)
            assert history.worth == worth and history.turns == chart._in_turns(steps)
            checked += 1
    with app.app_context():
        kinds = Counter(e["kind"] for effects, _ in store.live_effects(store.find_game(game.code).id) for e in effects)
    assert checked == 10 and kinds["bought"] and kinds["auction_won"] and kinds["debt_paid"] and kinds["turn"] > 20


def test_a_game_drawn_again_later_reads_only_what_came_since_unless_something_was_undone(app, client, monkeypatch):
    """The story during play, then the end screen: the chart of a later version goes on from where
    it was drawn last (the new events only), and after an undo starts again."""
    game = new_game(client, players=2)
    read = []
    live_effects = store.live_effects

    def counting(game_id, after=0, upto=None):
        rows = live_effects(game_id, after, upto)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(chart.store, "live_effects", counting)

    def drawn() -> tuple:
        with app.test_request_context():
            saved = store.find_game(game.code)
            history = chart.worth_history(app.extensions["banker.memory"].known(saved))
            return history, replayed(saved)

    first, (steps, worth) = drawn()
    assert read == [game.state()["version"]] and first.worth == worth and first.turns == chart._in_turns(steps)
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}))
    read.clear()
    later, (steps, worth) = drawn()
    assert read == [3]  # the three new events, not the game again
    assert later.worth == worth and later.turns == chart._in_turns(steps)
    game.ok("banker", type="undo")  # Ann's end of turn taken back
    read.clear()
    undone, (steps, worth) = drawn()
    assert read == [game.state()["version"] - 2]  # from the start: all but the undone entry and the undo
    assert undone.worth == worth and len(undone.turns) == len(later.turns) - 1


def test_pins_of_moments_close_together_never_overlap_and_list_every_moment(client, host):
    """A play-test's story: Ann and Bob trade Baltic Avenue back and forth six times in one turn of a
    game of twenty, so the six moments fall within a few units of each other on the turn axis. No
    two pins' circles (their numbers' boxes) meet, all inside the drawing, and the list under it
    tells each trade once, under the number of the pin that stands for it."""
    game = new_game(client)
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}))  # Baltic Avenue
    for n in range(6):
        giver, taker = (1, 2) if n % 2 == 0 else (2, 1)
        play(game, (giver, {"type": "offer_trade", "to": taker, "give": {"squares": [3]}, "get": {"cash": 10}}),
             (taker, {"type": "accept_trade", "trade": n + 1}))
    # Back to Go (a correction: nothing paid), so that every roll of 4 + 6 lands on a corner.
    play(game, ("banker", {"type": "move", "player": 1, "square": 0}), (1, {"type": "end_turn"}))
    for turn in range(19):
        who = 2 - turn % 2
        if next(p for p in game.state()["players"] if p["id"] == who)["in_jail"]:
            play(game, (who, {"type": "pay_jail_fine"}))
        play(game, (who, {"type": "roll", "dice": [4, 6]}), (who, {"type": "end_turn"}))
    page = host(game).page(f"/t/{game.code}/story")
    svg = drawing(page)
    _, _, width, height = map(float, svg.get("viewBox").split())
    circles = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) for c in svg.findall(f"{SVG}circle")
               if c.get("class") == "pin"]
    boxes = [(x - r, y - r, x + r, y + r) for x, y, r in circles]
    assert boxes and all(0 <= left and right <= width and 0 <= top and bottom <= height
                         for left, top, right, bottom in boxes)
    for n, a in enumerate(boxes):
        for b in boxes[n + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    numbers = [t.text for t in svg.findall(f"{SVG}text") if t.get("class") == "pin"]
    assert numbers == [str(n) for n in range(1, len(circles) + 1)]
    listed = page[page.index('<ol class="pins">'):]
    listed = ET.fromstring(listed[:listed.index("</ol>") + len("</ol>")])
    assert [li.get("value") for li in listed] == numbers
    told = " ".join(unescape("".join(li.itertext())) for li in listed)
    assert told.count("Ann and Bob traded.") + told.count("Bob and Ann traded.") == 6
    assert told.startswith("Turn 1: ")


@pytest.mark.parametrize("spacing", [0, 2.5, 7, 12, 13, 25, 30])
def test_pins_take_two_rows_then_share_whatever_the_spacing(spacing):
    """Forty moments `spacing` units apart (a few at the very same place): every moment on one pin,
    in order, and no two pins' circles meet; far enough apart, one pin each."""
    places: list[float] = []
    for n in range(40):
        places.append(places[-1] if n % 7 == 6 else 60 + spacing * n)  # every seventh where the one before is
    pins = place_pins([(place, n, f"moment {n}") for n, place in enumerate(places)], top=PAD)
    assert [mark for pin in pins for _, mark in pin.moments] == [f"moment {n}" for n in range(40)]
    assert [pin.number for pin in pins] == list(range(1, len(pins) + 1))
    for n, a in enumerate(pins):
        assert a.y - a.radius >= 0 and a.y + a.radius <= PAD
        for b in pins[n + 1:]:
            assert abs(a.at - b.at) >= 2 * a.radius or abs(a.y - b.y) >= 2 * a.radius, (a, b)
    if spacing >= 2 * PIN_RADIUS + 2:
        assert len(pins) == len({*places})
