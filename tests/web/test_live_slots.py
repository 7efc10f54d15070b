"""Issue 22: nobody takes more than a share of the live connections' slots (banker/live/slots.py):
a browser without its page's cookie takes none, a client address at most LIVE_PER_ADDRESS, and in
each game each seat's phones, the banker's screens and the other screens their own share.
The real servers' side (their threads, hanging up, slow clients) is tests/test_slots.py."""

import pytest

from banker.live.slots import SPARE_THREADS, Slots

from ..apps import close, make_app
from .conftest import badged
from .games import new_game


@pytest.fixture
def small(database):
    """An app whose shares are small enough to fill: two connections per address, one per seat,
    two for the banker's screens and two for the others'."""
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


# A test client's streams opened in one thread are closed in the reverse order, and every browser
# has its page (its cookie) before the first opens: each stream holds its request's context, as a
# server's worker thread does.

def test_one_address_takes_at_most_its_share_and_another_address_still_connects(small):
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
    slots = Slots({"LIVE_CONNECTIONS": 200, "LIVE_PER_ADDRESS": 1000, "LIVE_PER_SEAT": 1000, "LIVE_PER_HOST": 1000,
                   **config})
    taken = [slots.take(environ, f"10.0.0.{n % 250}", f"G{n}", "screens") for n in range(limit + 1)]
    assert None not in taken[:limit] and taken[limit] is None and slots.limit == limit
    if limit:
        taken[0]()
        taken[0]()  # given back once, however often it is closed
        assert slots.open == limit - 1
