"""Issue 23, item 4: the TV screen (/tv/<code>/<view key>). The banker makes its link (the host
screen's "Show on a TV", or the API); the view key opens that read-only screen and its live
connection, nothing else; a new key stops the old link, on a TV still open on it too; the screen
follows the game live with no request of its own."""

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from banker.live import slots

from .games import Browser, bearer, new_game
from .test_live import Listener


def tv_link(game) -> str:
    """A new TV link through the API, as the path a TV opens."""
    response = game.client.post(f"/api/games/{game.code}/tv", headers=bearer(game.banker))
    assert response.status_code == 200, response.get_json()
    url = urlsplit(response.get_json()["url"])
    assert url.path.startswith(f"/tv/{game.code}/") and not url.query
    return url.path


def tv(app, path: str) -> Browser:
    """A TV's browser: a fresh client with no cookie, opening the link."""
    return Browser(app.test_client(), path.split("/")[2], path)


def counted(app) -> list[str]:
    """The path of every request the app is asked from now on, as the server sees them."""
    asked, answer = [], app.wsgi_app

    def wsgi(environ, start_response):
        asked.append(environ["PATH_INFO"])
        return answer(environ, start_response)

    app.wsgi_app = wsgi
    return asked


def up_to(listener, version: int):
    """The events a live connection pushes until the one showing `version` (two changes in a row
    may come as one), as one event holding all they sent."""
    event = listener.next_event()
    while event.id != str(version):
        later = listener.next_event()
        event = type(later)(later.id, later.name, event.data + later.data)
    return event


def test_the_banker_gets_a_tv_link_and_it_shows_the_game_read_only(app, game):
    game.ok("banker", type="bank_pay", player=2, amount=250, memo="found")
    screen = tv(app, tv_link(game))
    page = screen.page()
    assert "Ann's turn" in page and 'id="board-cells"' in page and 'data-square="39"' in page
    # The standings, cash and net worth side by side (Bob first: $1,750 in all), explained in a line;
    # the latest events in words.
    rankings = re.findall(r'data-ranking="(\w+)".*?data-player="(\d)"', page, re.S)
    assert rankings == [("worth", "2")]
    assert re.search(r'data-player="2">.*?class="cash">\$1,750</td>\s*<td class="worth">\$1,750</td>', page, re.S)
    assert "Net worth: cash, deeds at their printed price" in page
    assert "The bank paid Bob $250. (found)" in page
    assert "32 houses" in page and "12 hotels" in page  # left in the bank, on the board's middle
    # No tools, no secrets: no form at all, no token, and nothing of the banker's or a seat's.
    assert "<form" not in page and game.banker not in page
    assert not any(token in page for token in game.seats.values())
    assert screen.client.get(screen.home).headers["Cache-Control"] == "no-store"


def test_only_the_banker_makes_a_tv_link(client, game):
    path = f"/api/games/{game.code}/tv"
    assert client.post(path).status_code == 401
    assert client.post(path, headers=bearer("made-up")).status_code == 401
    refused = client.post(path, headers=bearer(game.seats[1]))
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "banker_only"
    assert client.post("/api/games/ZZZZZ/tv", headers=bearer(game.banker)).status_code == 404


def test_the_view_key_opens_nothing_else(app, game, phone):
    path = tv_link(game)
    key, before = path.rsplit("/", 1)[1], game.state()
    screen = tv(app, path)
    screen.page()  # the TV's browser has opened its page (and so holds its cookie, if any)
    client = screen.client
    # The API: the key is no token.
    for method, url in (("get", f"/api/games/{game.code}"), ("get", f"/api/games/{game.code}/events"),
                        ("post", f"/api/games/{game.code}/actions"), ("post", f"/api/games/{game.code}/tv")):
        answer = getattr(client, method)(url, json={"type": "end_turn"}, headers=bearer(key))
        assert answer.status_code == 401, (url, answer.status_code)
    # The host screen: the public table view, without the banker's tools; its forms refused.
    host = client.get(f"/t/{game.code}").get_data(as_text=True)
    assert "Table view" in host and "table.act" not in host and f"/t/{game.code}/act" not in host
    assert f"/t/{game.code}/tv" not in host  # nor the "Show on a TV" button
    csrf = re.search(r'"X-CSRFToken": "([^"]+)"', host).group(1)
    for url in (f"/t/{game.code}/act", f"/t/{game.code}/tv", f"/t/{game.code}/seats/1/rejoin"):
        assert client.post(url, data={"csrf_token": csrf, "type": "end_turn"}).status_code == 403, url
    assert client.get(f"/t/{game.code}/tv/{key}").status_code == 403  # the banker's page of the link
    # A phone: no seat here.
    assert client.get(f"/p/{game.code}").status_code in (302, 303)
    refused = client.post(f"/p/{game.code}/act", data={"csrf_token": csrf, "type": "end_turn"})
    assert refused.status_code == 303 and urlsplit(refused.headers["Location"]).path == f"/j/{game.code}"
    # Another game's TV screen.
    other = new_game(game.client)
    assert client.get(f"/tv/{other.code}/{key}").status_code == 404
    # And nothing changed.
    assert game.state() == before


def test_renewing_the_key_stops_the_old_link_and_tells_an_open_tv(app, game):
    old = tv(app, tv_link(game))
    version = game.state()["version"]
    assert "Ann's turn" in old.page()
    listener = Listener(old, version)
    try:
        listener.idle()
        new = tv(app, tv_link(game))
        event = listener.next_event()
        assert "This TV link no longer works" in event.data
        assert '<div id="live" hidden hx-swap-oob="true"></div>' in event.data  # its connection ends
        listener._thread.join(timeout=10)
        assert not listener._thread.is_alive()
    finally:
        listener.close(app)
    answer = old.client.get(old.home)
    assert answer.status_code == 404 and "This TV link does not work" in answer.get_data(as_text=True)
    again = old.client.get(f"{old.home}/live?v={version}")  # reconnecting: told again, and it stops
    assert again.status_code == 200 and "This TV link no longer works" in again.get_data(as_text=True)
    assert '<div id="live" hidden hx-swap-oob="true"></div>' in again.get_data(as_text=True)
    assert "Ann's turn" in new.page()


def test_the_tv_follows_the_game_live_with_no_request_of_its_own(app, game):
    screen = tv(app, tv_link(game))
    version = game.state()["version"]
    asked = counted(app)
    screen.page()
    listener = Listener(screen, version)
    try:
        listener.idle()
        opened = len(asked)
        game.ok("banker", type="bank_pay", player=2, amount=300)  # Bob's cash: standings and news only
        event = listener.next_event()
        assert event.id == str(version + 1)
        assert 'id="tv-standings"' in event.data and "The bank paid Bob $300." in event.data
        # The new event alone, at the top of the list (the TV keeps five).
        assert f'<ol hx-swap-oob="afterbegin:#tv-news-rows"><li id="tv-n-{version + 1}"' in event.data
        assert 'id="tv-news"' not in event.data
        assert not any(f'id="{part}"' in event.data for part in ("board", "turn", "tv-lobby"))

        game.ok(1, type="roll", dice=[1, 2])  # Ann to Baltic Avenue: her pawn moves, the dice on the turn
        event = listener.next_event()
        assert 'id="turn"' in event.data and "rolled 1 + 2" in event.data
        assert 'id="sq-3"' in event.data and 'id="sq-0"' in event.data  # the two squares alone, not the board
        assert 'id="board"' not in event.data

        game.ok(1, type="decline")  # an auction of Baltic Avenue: its lot on the TV, without a bid button
        game.ok(2, type="bid", amount=40)
        event = up_to(listener, version + 4)
        assert "Auction" in event.data and "High bid $40 by Bob" in event.data and "data-closes-at" in event.data
        assert "<form" not in event.data and "<button" not in event.data
        # The TV asked nothing: every change was pushed (the API's calls are the game's).
        assert [path for path in asked[opened:] if not path.startswith("/api/")] == []
    finally:
        listener.close(app)


def test_the_lobby_shows_the_join_qr(app, lobby):
    page = tv(app, tv_link(lobby)).page()
    assert 'data-qr="join"' in page and f"/j/{lobby.code}" in page and "Scan to join" in page
    assert "Ann" in page and "Bob" in page and "Seats (2/8)" in page


def test_the_host_screen_shows_the_banker_a_tv_link(app, game, host):
    banker = host(game)
    page = banker.page()
    assert f'action="/t/{game.code}/tv"' in page and "Show on a TV" in page
    # The game's first link stops no TV: the button asks nothing. Once a link exists, it warns.
    warning = "A TV showing an earlier link stops showing the game."
    assert warning not in unescape(page)
    made = banker.client.post(f"/t/{game.code}/tv", data={"csrf_token": banker.csrf})
    assert made.status_code == 303
    link_page = banker.client.get(made.headers["Location"])
    assert link_page.headers["Cache-Control"] == "no-store"
    html = link_page.get_data(as_text=True)
    assert warning in unescape(html) and warning in unescape(banker.page())
    # The link's page has one way to a new link, which says so: not a second "Show on a TV".
    assert "Show on a TV" not in html.split("<title>", 1)[1].split("</title>", 1)[1]
    assert html.count(f'action="/t/{game.code}/tv"') == 1 and "Make a new TV link</button>" in html
    url = unescape(re.search(r'<p class="url tv-url">(.+?)</p>', html).group(1).replace("<wbr>", ""))
    assert 'data-qr="tv"' in html and urlsplit(url).query == "lang=en"
    assert "Ann's turn" in tv(app, urlsplit(url).path).page()
    # A new link (the API's here) stops this one: its page says so, and offers a new one.
    tv_link(game)
    html = banker.client.get(made.headers["Location"]).get_data(as_text=True)
    assert "This TV link no longer works" in html and 'data-qr="tv"' not in html
    assert tv(app, urlsplit(url).path).client.get(urlsplit(url).path).status_code == 404


def test_the_link_is_short_enough_to_type_on_a_remote(app, game):
    """8 characters without look-alikes (0/O, 1/I), typed in either case; a key made before, 43
    characters long, still opens the TV until the banker makes a new one."""
    from banker import store
    from banker.models import TvKey, db

    path = tv_link(game)
    key = path.rsplit("/", 1)[1]
    assert re.fullmatch(f"[{store.CODE_ALPHABET}]{{8}}", key), key
    assert "Ann's turn" in tv(app, path).page()
    assert "Ann's turn" in tv(app, path[:-8] + key.lower()).page()  # typed in lower case
    # One character off is another key: refused.
    other = path[:-1] + ("2" if key[-1] != "2" else "3")
    assert app.test_client().get(other).status_code == 404
    # A long key of before (as store.new_view_key made them, token_urlsafe(32)) keeps working.
    old = store.new_token()
    with app.app_context():
        game_id = db.session.scalar(db.select(TvKey.game_id))
        db.session.execute(db.update(TvKey).where(TvKey.game_id == game_id).values(key_hash=store.token_hash(old)))
        db.session.commit()
    assert len(old) == 43 and "Ann's turn" in tv(app, f"/tv/{game.code}/{old}").page()
    assert app.test_client().get(f"/tv/{game.code}/{old.lower()}").status_code == 404  # compared as it is
    assert app.test_client().get(path).status_code == 404


def test_a_tv_has_its_own_share_of_the_games_live_connections(app, game, monkeypatch):
    """Anyone with the code may watch the host screen, but cannot crowd out the game's TV."""
    path = tv_link(game)
    live = app.extensions["banker.live"]
    monkeypatch.setattr(live, "per_host", 1)
    give_back = live.take({}, game.code, slots.SCREENS, address="10.0.0.1")
    with pytest.raises(slots.Full):
        live.take({}, game.code, slots.SCREENS, address="10.0.0.2")
    try:
        response = app.test_client().get(f"{path}/live?v=0", buffered=False)
        assert response.status_code == 200
        response.close()
    finally:
        give_back()


def test_the_end_names_the_winner_and_ranks_everyone(app, game):
    screen = tv(app, tv_link(game))
    game.ok(1, type="roll", dice=[1, 2])
    game.ok(1, type="buy")  # Ann: $1,440 in cash, $1,500 in all
    game.ok("banker", type="bank_charge", player=2, amount=20)  # Bob: $1,480, more cash, less in all
    game.ok("banker", type="end_game")
    page = screen.page()
    assert "Ann wins!" in page and "Ann's turn" not in page
    # The final standings by net worth: Ann above Bob, who has more cash.
    rankings = re.findall(r'data-ranking="(\w+)".*?data-player="(\d)"', page, re.S)
    assert rankings == [("final", "1")]
    assert re.search(r'data-ranking="final".*?data-player="1">.*?\$1,440.*?\$1,500.*?data-player="2">.*?\$1,480', page, re.S)


LAST_TURN = '<p class="time-limit over"><strong>Last turn</strong></p>'


def test_a_last_turn_called_is_said_on_every_screen_until_the_end(app, game, host, phone):
    """The banker calls the last turn of a game with no time limit: the TV is told live, and the TV,
    the host and each phone say "Last turn" after the next roll too (the play-test's table read it
    once, in the latest line, which the next roll replaced)."""
    screen = tv(app, tv_link(game))
    version = game.state()["version"]
    screen.page()
    listener = Listener(screen, version)
    try:
        listener.idle()
        game.ok("banker", type="last_turn")
        assert LAST_TURN in listener.next_event().data
    finally:
        listener.close(app)
    game.ok(1, type="roll", dice=[1, 2])
    for page in (screen.page(), host(game).page(), phone(game, 1).page(), phone(game, 2).page()):
        assert LAST_TURN in page
