"""No secret travels where it can leak: the browser's cookie keeps one key and no game's secret, its
size does not grow with the games, and the database keeps only hashes of what opens a game."""

from html import unescape

from sqlalchemy import inspect, text

from banker.models import db

from .games import bearer, rejoin_address, take_seat
from .test_home import home_form
from .test_join import join, join_form


def cookie(client) -> str:
    return client.get_cookie("session").value


def decoded(app, client) -> dict:
    """What the signed (not encrypted) session cookie says to anyone who reads it."""
    return app.session_interface.get_signing_serializer(app).loads(cookie(client))


def create(client) -> str:
    """A game made on the home page by this browser (its banker); returns its code."""
    form = home_form(client)
    response = client.post(form.action, data=form.data())
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def banks(client, code: str) -> bool:
    """Whether this browser has the banker's tools on the game's host screen."""
    return "Banker's screen" in unescape(client.get(f"/t/{code}").get_data(as_text=True))


def test_the_cookie_keeps_one_key_and_no_secret_of_any_game(app, client, lobby, host):
    made = create(client)
    assert join(client, lobby.code, "Cy", "dog").status_code == 303
    moved = app.test_client()
    assert take_seat(moved, rejoin_address(host(lobby), 1)).status_code == 303

    for browser in (client, moved):
        session = decoded(app, browser)
        assert set(session) <= {"browser", "csrf_token", "_permanent"}
        assert len(session["browser"]) >= 40
        for secret in (lobby.banker, *lobby.seats.values()):
            assert secret not in cookie(browser)
        # The key opens nothing through the API, in any game the browser holds.
        for code in (made, lobby.code):
            assert client.get(f"/api/games/{code}", headers=bearer(session["browser"])).status_code == 401
    assert banks(client, made)
    assert "Cy" in client.get(f"/p/{lobby.code}").get_data(as_text=True)
    assert "Ann" in moved.get(f"/p/{lobby.code}").get_data(as_text=True)


def test_the_cookie_does_not_grow_with_the_games_a_browser_banks(app, client):
    codes = [create(client)]
    size = len(cookie(client))
    codes += [create(client) for _ in range(99)]
    assert len(cookie(client)) == size < 300
    assert banks(client, codes[0]) and banks(client, codes[-1])


def test_the_database_keeps_only_hashes_of_what_opens_a_game(app, client, lobby, host):
    """Browser keys, seat and banker tokens, nonces (a web join's too), rejoin codes and TV view keys:
    none in clear."""
    fields = join_form(client, lobby.code)
    assert client.post(f"/j/{lobby.code}", data={**fields, "name": "Cy", "token": "dog"}).status_code == 303
    lobby.ok(1, type="opening_roll", dice=[1, 2], nonce="api-nonce-1")
    address = rejoin_address(host(lobby), 2)
    unused = rejoin_address(host(lobby), 1)
    assert take_seat(app.test_client(), address).status_code == 303
    tv = client.post(f"/api/games/{lobby.code}/tv", headers=bearer(lobby.banker)).get_json()["url"]
    with app.app_context():
        tables = inspect(db.engine).get_table_names()
        assert {"badges", "claims", "tv_keys"} <= set(tables)
        stored = "\n".join(str(row) for table in tables for row in db.session.execute(text(f"SELECT * FROM {table}")))
    clear = [lobby.banker, *lobby.seats.values(), decoded(app, client)["browser"], "api-nonce-1",
             address.rsplit("/", 1)[1], unused.rsplit("/", 1)[1], fields["nonce"], tv.rsplit("/", 1)[1]]
    for secret in clear:
        assert secret not in stored
