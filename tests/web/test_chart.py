"""The end screen's chart: money labels that fit inside the drawing whatever the totals (up to five
digits), an axis in turns, a line per player told apart by dashes as well as colour, a legend, and
a name and a description for screen readers."""

import xml.etree.ElementTree as ET
from html import unescape

import pytest

from banker.web.chart import nice_step

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


def extent(text: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a label, its glyphs GLYPH wide and the font size tall."""
    x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
    width = len(text.text) * GLYPH * size
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    return left, y - size, left + width, y + 0.25 * size  # a descender below the baseline


@pytest.mark.parametrize(("worth", "turns", "top_label", "last_turn"), [
    (1500, 1, "$1,500", "2"), (3736, 1, "$4,000", "2"), (12_345, 1, "$15,000", "2"),
    (99_999, 1, "$100,000", "2"), (99_999, 104, "$100,000", "100"),
])
def test_every_label_fits_inside_the_drawing_for_totals_up_to_five_digits(client, host, worth, turns, top_label,
                                                                          last_turn):
    svg = drawing(ended(client, host, worth, turns))
    _, _, width, height = map(float, svg.get("viewBox").split())
    labels = svg.findall(f"{SVG}text")
    assert [t.text for t in labels if t.text.startswith("$")][-1] == top_label  # the longest
    assert [t.text for t in labels if t.text.isdigit()][-1] == last_turn
    for text in labels:
        left, top, right, bottom = extent(text)
        assert 0 <= left and right <= width and 0 <= top and bottom <= height, (text.text, left, right)


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


def test_a_game_drawn_again_later_replays_only_what_came_since_unless_something_was_undone(app, client, monkeypatch):
    """The story during play, then the end screen: the chart of a later version goes on from the
    replay it made last (the new events only), and after an undo starts again; each is the chart a
    replay from the start draws."""
    from banker import store
    from banker.web import chart

    game = new_game(client, players=2)
    read = []
    live_log = store.live_log

    def counting(game_id, after=0, before=None):
        rows = live_log(game_id, after, before)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(chart.store, "live_log", counting)

    def drawn() -> tuple:
        with app.test_request_context():
            known = app.extensions["banker.memory"].known(store.find_game(game.code))
            history = chart.worth_history(known)
            fresh = chart._replay(known, None)
        return history, fresh

    first, fresh = drawn()
    assert read[0] == game.state()["version"] and first.worth == {p: list(v) for p, v in fresh.worth.items()}
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}))
    read.clear()
    later, fresh = drawn()
    assert read[0] == 3  # the three new events, not the game again
    assert later.worth == {p: list(v) for p, v in fresh.worth.items()} and later.turns == chart._in_turns(fresh.turn_of_step)
    game.ok("banker", type="undo")  # Ann's end of turn taken back
    read.clear()
    undone, fresh = drawn()
    assert read[0] == game.state()["version"] - 2  # from the start: all but the undone entry and the undo
    assert undone.worth == {p: list(v) for p, v in fresh.worth.items()} and len(undone.turns) == len(later.turns) - 1
