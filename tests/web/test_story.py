"""The story of the game (/t/<code>/story, /p/<code>/story): its numbers counted from the log of
short games played with exact dice and worked out by hand, and its page on the host and the
phones in every language."""

import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest
from sqlalchemy import event

from banker import store
from banker.models import db
from banker.rules.board import load_board
from banker.screens.story import told_story

from .games import new_game, play
from .test_languages import translated

SVG = "{http://www.w3.org/2000/svg}"
# Each language's money, as the reader reads it (spaces as plain spaces).
MONEY = {"en": "${}", "fr": "{} $", "pt": "{} $", "ja": "${}"}


def money(language: str, amount: int) -> str:
    return MONEY[language].format(amount)


# Ann buys Baltic Avenue (3); Bob lands there ($4). Ann rolls doubles to Connecticut Avenue (9),
# buys it, rolls on to New York Avenue (19), buys it, and mortgages Connecticut ($60 lent) and
# lifts it ($66: $6 interest). Bob rolls doubles to Connecticut ($8) and on to New York ($16). Then
# Bob gives Ann $100 for Baltic Avenue and ends his turn.
EVENING = (
    (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}),
    (2, {"type": "roll", "dice": [1, 2]}), (2, {"type": "end_turn"}),
    (1, {"type": "roll", "dice": [3, 3]}), (1, {"type": "buy"}), (1, {"type": "roll", "dice": [4, 6]}),
    (1, {"type": "buy"}), (1, {"type": "mortgage", "square": 9}), (1, {"type": "unmortgage", "square": 9}),
    (1, {"type": "end_turn"}),
    (2, {"type": "roll", "dice": [3, 3]}), (2, {"type": "roll", "dice": [4, 6]}),
    (2, {"type": "offer_trade", "to": 1, "give": {"cash": 100}, "get": {"squares": [3]}}),
    (1, {"type": "accept_trade", "trade": 1}), (2, {"type": "end_turn"}),
)


def story_of(app, game):
    with app.test_request_context():
        return told_story(store.known(store.find_game(game.code)))


@pytest.mark.storage  # the log's effects read back from JSON on each database
def test_rent_returns_and_flows_of_a_short_evening(app, client):
    game = play(new_game(client), *EVENING, ("banker", {"type": "end_game"}))
    story = story_of(app, game)
    assert (dict(story.deed_rent), dict(story.deed_rents)) == ({3: 4, 9: 8, 19: 16}, {3: 1, 9: 1, 19: 1})
    assert story.group_rent(load_board("us")) == {"brown": 4, "light_blue": 8, "pink": 0, "orange": 16, "red": 0,
                                                  "yellow": 0, "green": 0, "dark_blue": 0, "railroad": 0,
                                                  "utility": 0}
    # Returns: the rent, and what a deed kept is worth (its price), less what it cost (its price, and
    # for Connecticut the mortgage's $6 interest); Ann's Baltic Avenue also returned the $100 Bob
    # paid for it, which is what it cost him, for a deed worth $60.
    assert [(h.square, h.owner, h.how, h.rent, h.sold_for, h.worth_now, h.cost, h.net) for h in story.holdings] == [
        (3, 1, "bought", 4, 100, 0, 60, 44), (9, 1, "bought", 8, 0, 120, 126, 2),
        (19, 1, "bought", 16, 0, 200, 200, 16), (3, 2, "trade", 0, 0, 60, 100, -40)]
    assert story.best_buy().square == 3 and story.worst_buy().square == 9
    assert (story.rent_earned, story.rent_paid) == ({1: 28}, {2: 28})
    assert story.best_deed(1) == (19, 16) and story.best_deed(2) is None
    assert {pair: dict(kinds) for pair, kinds in story.flows.items()} == {(2, 1): {"rent": 28, "trade": 100}}
    assert story.biggest_rent["amount"] == 16 and story.biggest_rent["square"] == 19
    assert dict(story.landings) == {3: 2, 9: 2, 19: 2}
    assert dict(story.landings_by_player[2]) == {3: 1, 9: 1, 19: 1}
    assert dict(story.doubles) == {1: 1, 2: 1}
    # Ann's three turns (the third ended by the end of the game, with nothing done) and Bob's two.
    assert dict(story.turns) == {1: 3, 2: 2}
    # The trade is pinned after the chart's 17th action (the start is its first).
    assert [(m.kind, m.step, m.player, m.other) for m in story.marks] == [("trade", 16, 2, 1)]


def svg(page: str, css: str, last: bool = False) -> ET.Element:
    """The first (or `last`) picture of class `css` on a page, parsed (it must be well-formed SVG)."""
    start = (page.rindex if last else page.index)(f'<svg class="{css}"')
    return ET.fromstring(page[start:page.index("</svg>", start) + len("</svg>")])


@pytest.mark.parametrize("language", ["en", "fr", "pt", "ja"])
def test_the_story_page_on_the_host_and_a_phone_in_every_language(app, client, host, phone, language):
    game = play(new_game(client), *EVENING, ("banker", {"type": "end_game"}))
    table, ann = host(game), phone(game, 1)
    for screen in (table, ann):
        screen.client.get(f"/?lang={language}")
    end = ann.page()
    assert f'href="/p/{game.code}/story"' in end and f'href="/t/{game.code}/story"' in table.page()
    host_page, phone_page = table.page(f"/t/{game.code}/story"), ann.page(f"/p/{game.code}/story")
    for page in (host_page, phone_page):
        text = unescape(page)
        assert translated(language, "The story of game %(code)s", code=game.code) in text
        assert translated(language, "Money between players") in text
        # Rent by group: each group named over its bar, in its colour, the amount after it; the
        # orange group's $16 the longest bar.
        bars = svg(page, "bars")
        texts = [t.text for t in bars.iter(f"{SVG}text")]
        assert texts[0::2] == [translated(language, group) for group in ("Brown", "Light blue", "Orange")]
        assert [unescape(t).replace("\u00a0", " ") for t in texts[1::2]] == [
            money(language, amount) for amount in (4, 8, 16)]
        lengths = {r.get("class"): int(r.get("width")) for r in bars.iter(f"{SVG}rect")}
        assert lengths["bar g-orange"] > lengths["bar g-light_blue"] > lengths["bar g-brown"] > 0
        # Bob's $128 to Ann: one band of the flow, the row of its table.
        assert [(b.get("data-payer"), b.get("data-payee")) for b in svg(page, "flow").iter(f"{SVG}path")] == [("2", "1")]
        assert re.search(r'<tr data-payer="2" data-payee="1">', page)
        # The landings: Baltic, Connecticut and New York twice each, every other square never.
        heat = svg(page, "heat", last=True)
        # Each square named in it: its tile's short name, in the reader's words for a game term.
        named = [" ".join(line.text for line in t) for t in heat.iter(f"{SVG}text") if t.get("class") == "name"]
        assert len(named) == 40 and named[3] == "Baltic"
        assert named[2] == translated(language, "Comm. Chest")
        # And a Print button (static/app.js prints; the print styles hide it).
        assert re.search(r'<button type="button" data-print>([^<]+)</button>', page).group(1) == translated(language, "Print")
        texts = [t.text for t in heat.iter(f"{SVG}text") if t.get("class") != "name"]
        counts = [text for text in texts if not text.startswith("≈")][:40]
        assert sorted(counts) == ["0"] * 37 + ["2"] * 3
        # Under each, as many as the rules' long run expects of the game's 6 landings (rules/landings.py).
        expected = [text for text in texts if text.startswith("≈")]
        assert len(expected) == 40
        # Written as the reader writes a decimal: ≈0.2, ≈0,2.
        point = "," if language in ("fr", "pt") else "."
        assert all(re.fullmatch(rf"≈\d+{re.escape(point)}\d", text) for text in expected), expected
        svg(page, "worth-chart")
    assert translated(language, "Your story, %(name)s", name="Ann") in unescape(phone_page)
    # Ann's own landings: once on each of the three.
    assert sorted([t.text for t in svg(phone_page, "heat").iter(f"{SVG}text")
                   if t.get("class") != "name" and not t.text.startswith("≈")][:40]) == ["0"] * 37 + ["1"] * 3
    assert translated(language, "Your story, %(name)s", name="Ann") not in unescape(host_page)


def test_during_the_game_only_the_banker_opens_the_story(app, client, host, phone):
    game = play(new_game(client), *EVENING[:5])
    table = host(game)
    assert f'href="/t/{game.code}/story"' in table.page()  # the banker's tools: the story so far
    page = table.page(f"/t/{game.code}/story")
    assert "Your story" not in page and "Standings" not in page and "$4, Bob to Ann for Baltic Avenue" in page
    watcher = app.test_client()  # anyone may watch the table, not read its story before the end
    watcher.get(f"/t/{game.code}")
    refused = watcher.get(f"/t/{game.code}/story")
    assert refused.status_code == 403 and "The story of the game opens when the game ends." in refused.get_data(True)
    ann = phone(game, 1)
    refused = ann.client.get(f"/p/{game.code}/story")
    assert refused.status_code == 403 and "The story of the game opens when the game ends." in refused.get_data(True)
    assert f"/p/{game.code}/story" not in ann.page()
    # A browser without a seat goes to the join page; a game that does not exist is not found.
    assert watcher.get(f"/p/{game.code}/story").headers["Location"].endswith(f"/j/{game.code}")
    assert client.get("/t/ZZZZZ/story").status_code == 404
    # Once the game has ended, anyone watching the table reads it.
    play(game, ("banker", {"type": "end_game"}))
    assert watcher.get(f"/t/{game.code}/story").status_code == 200


def test_a_story_is_counted_once_per_version_and_shared(app, client):
    game = play(new_game(client), *EVENING[:5])
    first = story_of(app, game)
    assert story_of(app, game) is first
    play(game, (1, {"type": "roll", "dice": [1, 2]}))
    again = story_of(app, game)
    assert again is not first and again.landings[6] == 1 and first.landings[6] == 0


def test_the_story_page_reads_the_log_once_for_the_story_and_its_chart(app, client, host):
    """The first reader of a version: one read of the log's effects, counted for the story and for
    the net-worth chart both; a later reader of the same version reads nothing. Counted as the
    database sees it: the statements that read the events' effects with their times (what the two
    count; the page's recent history reads them among every column)."""
    game = play(new_game(client), *EVENING)
    table = host(game)
    reads = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith("SELECT events.effects, events.created_at "):
            reads.append(parameters)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        assert "Net worth over the game" in table.page(f"/t/{game.code}/story")
        version = game.state()["version"]
        assert len(reads) == 1 and reads[0][-2:] == (0, version), reads  # after event 0, up to this version
        table.page(f"/t/{game.code}/story")
        assert len(reads) == 1
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_the_flow_is_as_thick_as_the_money_and_the_heat_map_takes_expected_landings(app):
    from collections import Counter
    from types import SimpleNamespace

    from banker.drawings.pictures import flow, heat

    players = [SimpleNamespace(id=n, name=name, token=token) for n, name, token in
               ((1, "Ann", "hat"), (2, "Bob", "car"), (3, "Cy", "dog"))]
    with app.test_request_context():
        drawn = flow({(1, 2): Counter(rent=100), (3, 2): Counter(card=250, trade=50)}, players, "$")
        assert flow({}, players, "$") is None
    (ann, cy), (bob,) = drawn.left, drawn.right
    assert (ann.name, ann.total, cy.name, cy.total, bob.name, bob.total) == ("Ann", "$100", "Cy", "$300", "Bob", "$400")
    assert cy.height == pytest.approx(3 * ann.height) and bob.height == pytest.approx(4 * ann.height)
    assert [(b.payer, b.payee, b.token) for b in drawn.bands] == [(1, 2, "hat"), (3, 2, "dog")]
    # Everything inside the drawing.
    assert all(0 <= n.top and n.top + n.height <= drawn.height for n in (ann, cy, bob))

    board = load_board("us")
    names = tuple(sq.name for sq in board.squares)
    landed = heat(board, names, names, Counter({3: 2, 39: 6}), expected=[1 / 40] * 40)
    go, baltic, boardwalk = landed.cells[0], landed.cells[3], landed.cells[39]
    assert (go.x, go.y, boardwalk.x, boardwalk.y) == (440, 440, 440, 396)  # GO at the bottom right
    assert (baltic.count, baltic.heat, boardwalk.heat, go.heat) == (2, pytest.approx(1 / 3), 1.0, 0.0)
    assert go.expected == pytest.approx(8 / 40)  # eight moves, a fortieth of them
    assert [c.name for c in landed.top] == ["Boardwalk", "Baltic Avenue"]


def test_a_squares_name_in_the_heat_map_takes_two_lines_where_one_is_too_wide():
    from banker.drawings.pictures import NAME_ROOM, name_lines

    assert [(l.text, l.squeezed) for l in name_lines("GO")] == [("GO", None)]
    assert [l.text for l in name_lines("Bd de la Villette")] == ["Bd de la", "Villette"]  # most even
    assert [l.text for l in name_lines("マーヴィンガーデン")] == ["マーヴィ", "ンガーデン"]  # no spaces: anywhere
    # A word too long for the square even alone is drawn narrower, never over the next square nor
    # broken inside.
    assert [(l.text, l.squeezed) for l in name_lines("Vaugirardissimo")] == [("Vaugirardissimo", NAME_ROOM)]


def test_a_deeds_name_too_wide_for_the_bars_at_twice_the_text_takes_more_lines_and_its_row_grows(app):
    """The bars' words are the reader's size: at 200% a name over about twenty letters left the
    drawing. It is broken after a space or a hyphen into lines that fit at twice the text, and the
    rows under it move down by as many lines; a short name keeps one line."""
    from banker.drawings.pictures import LINE, ROW, bars, wrap

    assert wrap("Compagnie de distribution d'électricité", 464, 40) == ("Compagnie de", "distribution", "d'électricité")
    assert wrap("Avenue des Champs-Élysées", 464, 40) == ("Avenue des Champs-", "Élysées")
    assert wrap("Boardwalk", 464, 40) == ("Boardwalk",)
    with app.test_request_context():
        drawn = bars([("Compagnie de distribution d'électricité", 12, "g-utility"), ("Boardwalk", 50, "g-dark_blue")], "$")
    long, short = drawn.rows
    assert long.lines == ("Compagnie de", "distribution", "d'électricité") and short.lines == ()
    assert short.y - long.y == ROW and long.y == 40 + 2 * LINE and drawn.height == 2 * ROW + 2 * LINE + 8


def test_a_long_games_net_worth_line_keeps_each_units_lowest_and_highest():
    """At 5,000 actions a line of one point per action made the page half a megabyte: of the
    actions that fall on the same unit across the drawing, only the lowest and highest are drawn."""
    from banker.drawings.chart import _kept, _runs

    runs = _runs([0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 2.0])  # units 0, 0, 0, 1, 1, 1, 1, 2
    assert runs == [range(0, 3), range(3, 7), range(7, 8)]
    assert _kept([5, 1, 9, 3, 3, 2, 8, 4], runs) == [1, 2, 5, 6, 7]
    assert _kept([5, 1], _runs([0.0, 3.0])) == [0, 1]  # a short game keeps every action


def test_a_story_with_nothing_in_it_yet_says_so(client, host):
    """The banker may open the story from the lobby or the first turn: every part says there is
    nothing yet rather than drawing empty pictures (or failing on an empty log)."""
    lobby = new_game(client, start=False)
    page = host(lobby).page(f"/t/{lobby.code}/story")
    for words in ("Nobody paid rent.", "No token has moved yet.", "No turn has ended yet.", "Nobody went to jail.",
                  "No money changed hands between players."):
        assert words in page
    assert '<svg class="flow"' not in page and '<svg class="bars"' not in page
