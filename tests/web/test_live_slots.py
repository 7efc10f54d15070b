"""Issues 22 and 33: nobody takes more than a share of the live connections' slots
(banker/live/slots.py). Slots are shared by what a browser holds in its game (a seat, the banker's
tools, a TV's view key), not by its address: a club's ninety screens behind one router all get one.
A browser without its page's cookie takes none; in each game each seat's phones, the banker's
screens, the TV screens and the game's own screens in all have a share, and one browser across its
games; the screens that hold nothing (anyone's host screen) have their own small share of the
server, of each game and of each address. The real servers' side (their threads, hanging up, slow
clients) is tests/test_slots.py."""

import logging

import pytest

from banker.live.slots import BANKER, REASONS, SCREENS, SPARE_THREADS, TV, Full, Slots

from ..apps import close, make_app
from .conftest import badged
from .games import new_game

CLUB = "203.0.113.7"  # the one public address of a club's router
TOKENS = ("hat", "car", "dog", "iron", "ship", "wheelbarrow", "thimble", "cat")
SHARES = {"LIVE_CONNECTIONS": 200, "LIVE_PER_SEAT": 4, "LIVE_PER_HOST": 8, "LIVE_PER_GAME": 24,
          "LIVE_PER_BROWSER": 16, "LIVE_PUBLIC_SHARE": 0.2, "LIVE_PER_ADDRESS": 8}  # create_app's defaults


@pytest.fixture
def small(database):
    """An app whose shares are small enough to fill: one connection per seat, two for the banker's
    screens, two for the TV's and two for the others' in each game, two from an address without a
    badge."""
    app = make_app(database, LIVE_PER_ADDRESS=2, LIVE_PER_SEAT=1, LIVE_PER_HOST=2)
    yield app
    close(app)


def live(client, path: str, address: str = "127.0.0.1"):
    return client.get(f"{path}/live", buffered=False, environ_base={"REMOTE_ADDR": address})


def visitor(app, code: str):
    """A browser that opened the game's host screen without a badge (a TV): the page gave it a cookie."""
    client = app.test_client()
    assert client.get(f"/t/{code}").status_code == 200
    return client


def refused(response) -> bool:
    """Told to retry later, as the page's EventSource does by itself."""
    response.close()
    return response.status_code == 503 and response.headers["Retry-After"] == "5"


def refusal(slots: Slots, *args, **kwargs) -> str:
    """The reason `slots.take` turns this connection away."""
    with pytest.raises(Full) as full:
        slots.take({}, *args, **kwargs)
    assert full.value.reason in REASONS
    return full.value.reason


def test_the_app_starts_with_the_shares_the_docs_give(app):
    assert {name: app.config[name] for name in SHARES} == SHARES


def test_a_live_connection_without_its_pages_cookie_takes_no_slot(app, client, game, host):
    slots = app.extensions["banker.live"]
    for path in (f"/t/{game.code}", f"/p/{game.code}", f"/t/{game.code}/seats/1"):
        response = live(app.test_client(), path)
        assert response.status_code == 403 and "page's cookie" in response.get_data(as_text=True)
        assert slots.open == 0
    with_cookie = live(visitor(app, game.code), f"/t/{game.code}")
    assert with_cookie.status_code == 200 and slots.open == 1
    with_cookie.close()
    assert slots.open == 0


def test_ninety_screens_of_ten_tables_behind_one_address_all_get_a_slot(app, client):
    """Ten tables of nine screens (the banker's and eight phones', each its own browser) reaching the
    server from one address, as a club's router does: every one follows its game."""
    browsers = []
    for _table in range(10):
        game = new_game(client, players=0, start=False)
        for n, token in enumerate(TOKENS, start=1):
            game.join(f"P{n}", token)
        browsers.append((badged(app, game, "banker"), f"/t/{game.code}"))
        browsers += [(badged(app, game, "seat", player), f"/p/{game.code}") for player in range(1, 9)]
    streams = [live(browser, path, CLUB) for browser, path in browsers]
    try:
        assert [response.status_code for response in streams] == [200] * 90
        assert app.extensions["banker.live"].open == 90
    finally:
        for response in reversed(streams):
            response.close()
    assert app.extensions["banker.live"].open == 0


def test_slots_are_counted_by_what_a_browser_holds_not_by_its_address():
    slots = Slots(SHARES)
    taken = [slots.take({}, f"G{table}", BANKER, f"host{table}", CLUB) for table in range(10)]
    taken += [slots.take({}, f"G{table}", ("seat", seat), f"phone{table}.{seat}", CLUB)
              for table in range(10) for seat in range(1, 9)]
    assert slots.open == 90
    for give_back in taken:
        give_back()
    assert slots.open == 0


def test_each_holder_in_a_game_each_game_and_each_browser_has_its_share():
    slots = Slots(SHARES)
    for n in range(4):
        slots.take({}, "G1", ("seat", 1), f"ann{n}")
    assert refusal(slots, "G1", ("seat", 1), "ann-5") == "seat"  # a fifth phone on Ann's seat
    for n in range(8):
        slots.take({}, "G1", BANKER, f"laptop{n}")
        slots.take({}, "G1", TV)
    assert refusal(slots, "G1", BANKER, "laptop-9") == "banker"
    assert refusal(slots, "G1", TV) == "tv"
    for n in range(4):
        slots.take({}, "G1", ("seat", 2), f"bob{n}")
    # Ann 4, the banker 8, the TV 8, Bob 4: the game's own 24.
    assert refusal(slots, "G1", ("seat", 3), "cy") == "game"
    assert slots.take({}, "G2", ("seat", 3), "cy")  # another game is another share
    for game in range(16):
        slots.take({}, f"H{game}", ("seat", 1), "one browser")  # a seat in sixteen games at once
    assert refusal(slots, "H16", ("seat", 1), "one browser") == "browser"
    assert slots.take({}, "H16", ("seat", 1), "another browser")


def test_a_tournament_has_a_share_as_wide_as_its_players_phones():
    """A tournament's screens (web/pages/tournament_live.py) count as a game's, but with a hundred
    registered players its own share is their phones' and its hosts', not a game's 24."""
    slots = Slots(SHARES)
    for player in range(1, 41):  # forty phones between rounds, behind one router: more than a game's share
        slots.take({}, "E1", ("seat", player), f"phone{player}", CLUB, seats=100)
    for n in range(3):
        slots.take({}, "E1", ("seat", 1), f"ann{n}", seats=100)
    assert refusal(slots, "E1", ("seat", 1), "ann-5", seats=100) == "seat"  # a fifth phone on Ann's registration
    assert slots.open == 43


def test_screens_without_a_badge_stop_at_their_share_of_the_server_and_a_seat_still_gets_its_slot():
    """Any number of addresses, each under its own cap, following the host screens of many games:
    they hold a fifth of the slots at most, and the seated players and bankers the rest."""
    slots = Slots({**SHARES, "LIVE_CONNECTIONS": 50})
    for n in range(10):
        slots.take({}, f"G{n}", SCREENS, address=f"198.51.100.{n}")
    assert refusal(slots, "G10", SCREENS, address="198.51.100.10") == "public"
    assert slots.take({}, "G10", ("seat", 1), "ann", "198.51.100.10")
    for n in range(39):
        slots.take({}, f"T{n}", BANKER, f"laptop{n}")
    assert refusal(slots, "T40", BANKER, "laptop40") == "server"


def test_screens_without_a_badge_have_a_cap_per_address_and_per_game():
    slots = Slots(SHARES)
    for n in range(8):
        slots.take({}, f"G{n}", SCREENS, address="198.51.100.1")
    assert refusal(slots, "G8", SCREENS, address="198.51.100.1") == "address"
    for n in range(7):
        slots.take({}, "G0", SCREENS, address=f"198.51.100.{2 + n}")
    assert refusal(slots, "G0", SCREENS, address="198.51.100.20") == "screens"  # the game's eight
    assert slots.take({}, "G0", BANKER, "laptop") and slots.take({}, "G0", TV)


# A test client's streams opened in one thread are closed in the reverse order, and every browser
# has its page (its cookie) before the first opens: each stream holds its request's context, as a
# server's worker thread does.

def test_an_address_takes_at_most_its_share_of_screens_without_a_badge_and_another_address_still_connects(small):
    client = small.test_client()
    code, other = new_game(client).code, new_game(client).code
    tv, tv2, tv3, tv4 = visitor(small, code), visitor(small, code), visitor(small, other), visitor(small, other)
    first, second = live(tv, f"/t/{code}", "10.0.0.2"), live(tv2, f"/t/{code}", "10.0.0.2")
    assert first.status_code == second.status_code == 200
    assert refused(live(tv3, f"/t/{other}", "10.0.0.2"))  # another game: still this address
    second.close()
    again = live(tv, f"/t/{other}", "10.0.0.2")  # a slot given back is the address's again
    elsewhere = live(tv4, f"/t/{other}", "10.0.0.3")
    assert again.status_code == elsewhere.status_code == 200
    for response in (elsewhere, again, first):
        response.close()
    assert small.extensions["banker.live"].open == 0


def test_screens_without_a_badge_cannot_crowd_out_the_games_own(small):
    client = small.test_client()
    game = new_game(client)
    tvs = [visitor(small, game.code) for _ in range(3)]
    banker, ann, ann2, bob = (badged(small, game, "banker"), badged(small, game, "seat", 1),
                              badged(small, game, "seat", 1), badged(small, game, "seat", 2))
    watching = [live(tv, f"/t/{game.code}", f"10.0.1.{n}") for n, tv in enumerate(tvs[:2])]
    assert [response.status_code for response in watching] == [200, 200]
    assert refused(live(tvs[2], f"/t/{game.code}", "10.0.1.9"))
    watching += [live(banker, f"/t/{game.code}", "10.0.2.1"), live(ann, f"/p/{game.code}", "10.0.2.2")]
    assert [response.status_code for response in watching[2:]] == [200, 200]
    assert refused(live(ann2, f"/p/{game.code}", "10.0.2.3"))  # Ann's share is one
    watching.append(live(bob, f"/p/{game.code}", "10.0.2.4"))
    assert watching[-1].status_code == 200
    for response in reversed(watching):
        response.close()
    assert small.extensions["banker.live"].open == 0


def test_a_screen_turned_away_is_logged_once_a_minute_with_its_reason(small, caplog):
    client = small.test_client()
    game = new_game(client)
    ann, ann2, tvs = badged(small, game, "seat", 1), badged(small, game, "seat", 1), [
        visitor(small, game.code) for _ in range(3)]
    with caplog.at_level(logging.WARNING, logger="banker.live.stream"):
        watching = [live(ann, f"/p/{game.code}")] + [live(tv, f"/t/{game.code}", "10.0.3.1") for tv in tvs[:2]]
        for _retry in range(3):  # the second phone's page retries every few seconds
            assert refused(live(ann2, f"/p/{game.code}"))
            assert refused(live(tvs[2], f"/t/{game.code}", "10.0.3.1"))
        for response in reversed(watching):
            response.close()
    lines = [record.getMessage() for record in caplog.records if record.name == "banker.live.stream"]
    assert lines == [
        f"a live connection to game {game.code} (seat 1) was turned away: seat ({REASONS['seat']}); "
        "it retries by itself",
        f"a live connection to game {game.code} (screens from 10.0.3.1) was turned away: screens "
        f"({REASONS['screens']}); it retries by itself"]


class Adjustments:
    threads = 24
    channel_request_lookahead = 1


class Channel:
    """What waitress's environ names (`waitress.client_disconnected` is a channel's method)."""

    adj = Adjustments()

    def check_client_disconnected(self):
        return False


@pytest.mark.parametrize(("environ", "config", "limit"), [
    ({"waitress.client_disconnected": Channel().check_client_disconnected}, {}, 24 - SPARE_THREADS),
    ({"waitress.client_disconnected": Channel().check_client_disconnected}, {"LIVE_CONNECTIONS": 3}, 3),
    ({}, {"SERVER_THREADS": 20}, 20 - SPARE_THREADS),
    ({}, {"SERVER_THREADS": 1}, 0),  # gunicorn's sync worker: no page may hold its one thread
    ({}, {}, 200),  # a server whose threads are not counted (Werkzeug's, the tests' client)
])
def test_the_slots_fit_the_threads_the_server_has_less_those_kept_for_pages_and_actions(environ, config, limit):
    slots = Slots({**SHARES, **config})
    taken = [slots.take(environ, f"G{n}", BANKER, f"laptop{n}") for n in range(limit)]
    with pytest.raises(Full) as full:
        slots.take(environ, f"G{limit}", BANKER, f"laptop{limit}")
    assert full.value.reason == "server" and slots.limit == limit
    if limit:
        taken[0]()
        taken[0]()  # given back once, however often it is closed
        assert slots.open == limit - 1
