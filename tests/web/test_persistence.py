"""A restart mid-game: a new app on the same database file shows the same game to the same screens."""

import re

import pytest

from ..apps import close, make_app
from .games import Game
from .test_join import join

pytestmark = pytest.mark.storage  # what a restart finds is what the database kept

RANDOM_FIELDS = re.compile(r'(name="(?:csrf_token|nonce)" value=)"[^"]*"|("X-CSRFToken": )"[^"]*"|( nonce=)"[^"]*"')


def played(game: Game) -> None:
    """Money, a deed, positions, a debt and the turn all away from where they started."""
    game.ok(1, type="roll", dice=[1, 2])
    game.ok(1, type="buy")
    game.ok(1, type="end_turn")
    game.ok(2, type="roll", dice=[1, 2])
    game.ok("banker", type="bank_charge", player=2, amount=5000, memo="a debt")


def same_page(html: str) -> str:
    """The page without the per-render secrets (CSRF token, form nonces, the scripts' CSP nonce)."""
    return RANDOM_FIELDS.sub(r"\1\2\3", html)


def test_a_new_app_on_the_same_database_shows_the_same_game(app, database, game, host, phone):
    played(game)
    state, events = game.state(), game.events()
    banker, ann = host(game), phone(game, 1)
    pages = {"host": banker.page(), "phone": ann.page()}

    again = make_app(database)
    try:
        client = again.test_client()
        restarted = Game(client, game.code, game.banker, game.seats)
        assert restarted.state() == state
        assert restarted.events() == events
        for browser, name in ((banker, "host"), (ann, "phone")):
            browser.client = _with_cookies_of(again, browser.client)
            assert same_page(browser.page()) == same_page(pages[name])
        assert 'data-cash="1444"' in pages["host"] and 'data-cash="1496"' in pages["host"]
        assert "Banker" in pages["host"] and "Ann" in pages["phone"]
        restarted.ok(2, type="pay", to="bank", amount=4)
    finally:
        close(again)
    assert game.state()["players"][1]["cash"] == 1492


def _with_cookies_of(app, old):
    """A client of the restarted app carrying a browser's cookie (the phone did not restart)."""
    client = app.test_client()
    client.set_cookie("session", old.get_cookie("session").value)
    return client


def test_a_restarted_app_keeps_its_generated_secret_key_so_phones_stay_seated(database):
    first = make_app(database, SECRET_KEY=None)
    try:
        client = first.test_client()
        code = client.post("/api/games", json={}).get_json()["code"]
        phone = first.test_client()
        assert join(phone, code, "Ann", "hat").status_code == 303
        cookie = phone.get_cookie("session").value
    finally:
        close(first)
    key = database.folder / "instance" / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600

    again = make_app(database, SECRET_KEY=None)
    try:
        assert again.config["SECRET_KEY"] == key.read_text().strip()
        phone = again.test_client()
        phone.set_cookie("session", cookie)
        page = phone.get(f"/p/{code}")
        assert page.status_code == 200 and "Ann" in page.get_data(as_text=True)
    finally:
        close(again)
