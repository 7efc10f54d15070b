"""The end of the game: the banker's "End the game", the standings with each part of everyone's net
worth and the server-drawn chart on the host and on every phone, the last player left winning,
and the time limit's clock."""

import re
from datetime import UTC, datetime, timedelta
from html import unescape

from banker.drawings.chart import BOTTOM, PAD

from .games import BROWN, new_game, page_form, page_forms, play
from .test_tv import tv_link

# Ann: the brown group with a house on Baltic Avenue ($1,530 cash, $120 deeds, $50 buildings);
# Cy goes bankrupt to Bob, who then has $3,000.
EVENING = (*BROWN, (1, {"type": "build", "square": 3}), (3, {"type": "pay", "to": 2, "amount": 2000}),
           (3, {"type": "bankrupt"}))
ROW = re.compile(r'<tr data-player="(\d+)"( class="out")?>\s*<td>(\w+)</td>\s*<td>.*?</svg> (\w+)</td>\s*'
                 r'<td data-label="Cash">(.*?)</td><td data-label="Deeds">(.*?)</td><td data-label="Buildings">(.*?)</td>\s*'
                 r'<td class="total">(.*?)</td>', re.S)
POLYLINE = re.compile(r'<polyline data-player="(\d+)"[^>]* points="([^"]+)"/>')


def standings(html: str) -> list[tuple]:
    """The standings table: (player, out, place, name, cash, deeds, buildings, total)."""
    return [(int(pid), bool(out), *rest) for pid, out, *rest in ROW.findall(unescape(html))]


def chart(html: str) -> dict[int, list[tuple[float, float]]]:
    """The worth chart's lines: the points of each player's polyline."""
    svg = html.split('<svg class="worth-chart"', 1)[1].split("</svg>", 1)[0]
    return {int(pid): [tuple(map(float, p.split(","))) for p in points.split()]
            for pid, points in POLYLINE.findall(svg)}


def test_the_banker_ends_the_game_and_every_screen_shows_the_standings_and_the_chart(client, host, phone, stranger):
    game = play(new_game(client, players=3), *EVENING)
    banker = host(game)
    end = page_form(banker.page(), "end_game")
    assert end.label == "End the game and show the standings" and end.attrs["hx-confirm"] == "End the game now?"
    assert not page_forms(stranger(game).page(), "end_game")
    assert not page_forms(phone(game, 1).page(), "end_game")
    response = banker.submit(end, htmx=True)
    assert response.status_code == 200 and "The game is over: Bob wins!" in response.get_data(as_text=True)
    state = game.state()
    assert state["status"] == "ended"
    assert state["standings"] == [
        {"player": 2, "cash": 3000, "deeds": 0, "buildings": 0, "total": 3000},
        {"player": 1, "cash": 1530, "deeds": 120, "buildings": 50, "total": 1700},
        {"player": 3, "cash": 0, "deeds": 0, "buildings": 0, "total": 0, "bankrupt": True},
    ]
    steps = len([e for e in game.events() if e["type"] not in ("join",)])  # start and every action after it
    screens = {"host": banker.page(), "table": stranger(game).page(),
               **{f"phone {pid}": phone(game, pid).page() for pid in (1, 2, 3)}}
    for screen, page in screens.items():
        text = unescape(page)
        assert "Bob wins!" in text, screen
        assert standings(page) == [
            (2, False, "1", "Bob", "$3,000", "$0", "$0", "$3,000"),
            (1, False, "2", "Ann", "$1,530", "$120", "$50", "$1,700"),
            (3, True, "out", "Cy", "$0", "$0", "$0", "$0"),
        ], screen
        assert "Net worth: cash, deeds at their printed price (half when mortgaged), buildings at cost" in text
        lines = chart(page)
        assert sorted(lines) == [1, 2, 3], screen
        assert page.count('<svg class="worth-chart"') == 1 and page.count("<polyline") == 3, screen
        assert all(len(points) == steps for points in lines.values()), screen
        # Everyone starts level at $1,500; at the end Bob's $3,000 is the top of the chart, Cy is on
        # the zero line and Ann's $1,700 in between.
        zero, top = BOTTOM, PAD
        assert {points[0][1] for points in lines.values()} == {round(zero - (zero - top) * 1500 / 3000, 1)}
        assert (lines[2][-1][1], lines[3][-1][1]) == (top, zero)
        assert lines[1][-1][1] == round(zero - (zero - top) * 1700 / 3000, 1)
    for pid in (1, 2, 3):
        page = phone(game, pid).page()
        assert not page_forms(page, "roll") and not page_forms(page, "pay") and not page_forms(page, "end_turn")
    assert not page_forms(screens["host"], "end_game") and 'id="bank-tools"' not in screens["host"]


def test_the_last_player_left_wins(game, host, phone):
    play(game, (1, {"type": "pay", "to": 2, "amount": 2000}))
    ann = phone(game, 1)
    ann.submit(page_form(ann.page(), "bankrupt"))
    state = game.state()
    assert state["status"] == "ended" and [s["player"] for s in state["standings"]] == [2, 1]
    assert "Ann is bankrupt; everything goes to Bob. Ann's last $1,500 goes to Bob." in unescape(host(game).page())
    for page in (host(game).page(), phone(game, 2).page(), ann.page()):
        assert "Bob wins!" in unescape(page) and sorted(chart(page)) == [1, 2]


def test_the_time_limit_clock_shows_on_the_host(client, host, stranger, phone):
    game = new_game(client, rules={"time_limit_minutes": 90})
    started = datetime.now(UTC)
    for page in (host(game).page(), stranger(game).page()):
        found = re.search(r'<p class="time-limit" data-deadline="([^"]+)">Time left: <strong data-left>(\d+:\d\d)</strong>',
                          page)
        assert found, "no clock"
        deadline = datetime.fromisoformat(found.group(1))
        assert abs(deadline - (started + timedelta(minutes=90))) < timedelta(seconds=30)
        # Whole minutes begun (the page counts the seconds down): a part showing the clock is drawn
        # again once a minute, not at every change.
        assert found.group(2) == "90:00"
    assert "90-minute game" in unescape(host(game).page())
    play(game, ("banker", {"type": "end_game"}))
    assert 'class="time-limit"' not in host(game).page()


def test_no_clock_without_a_time_limit_nor_in_the_lobby(client, game, host):
    assert 'class="time-limit"' not in host(game).page()
    lobby = new_game(client, start=False, rules={"time_limit_minutes": 30})
    assert 'class="time-limit"' not in host(lobby).page()


def test_players_level_at_the_top_share_first_place_on_every_screen_and_in_the_history(client, host, phone, stranger):
    game = new_game(client, players=3)  # nobody has bought anything: all three end on $1,500
    banker = host(game)
    banker.submit(page_form(banker.page(), "end_game"), htmx=True)
    state = game.state()
    assert [s["total"] for s in state["standings"]] == [1500, 1500, 1500]
    pages = {"host": banker.page(), "table": stranger(game).page(), "phone": phone(game, 2).page()}
    for screen, page in pages.items():
        text = unescape(page)
        assert "Ann, Bob, and Cy share first place!" in text and "wins!" not in text, screen
        assert [row[2] for row in standings(page)] == ["1", "1", "1"], screen
    tv = unescape(client.get(tv_link(game)).get_data(as_text=True))
    assert "Ann, Bob, and Cy share first place!" in tv and "wins!" not in tv
    assert "The game is over: Ann, Bob, and Cy share first place!" in unescape(pages["host"])
