"""The work one change costs the live path (banker/live/), counted, never timed: a change is worked
out once per game in memory, and a watching screen reads nothing from the database for it."""

import re
import threading

import pytest
from sqlalchemy import event, update

from banker.models import Game as GameRow
from banker.models import db

from .games import new_game
from .test_live import Listener


@pytest.fixture
def statements(app):
    """Every statement the app sends its database from now on, with the thread that sent it."""
    sent: list[tuple[str, str]] = []

    def record(conn, cursor, statement, *args):
        sent.append((threading.current_thread().name, statement))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    yield sent
    event.remove(engine, "before_cursor_execute", record)


def watching(app, client, host, phone, players: int = 7):
    """A game of `players` with the host screen and every phone open and idle."""
    game = new_game(client, players=min(players, 3), start=False)
    for name, token in (("Di", "cat"), ("Ed", "ship"), ("Flo", "iron"), ("Gus", "thimble"))[:max(0, players - 3)]:
        game.join(name, token)
    game.ok("banker", type="start", order=list(game.seats))
    version = game.state()["version"]
    listeners = [Listener(host(game), version)] + [Listener(phone(game, p), version) for p in range(1, players + 1)]
    for listener in listeners:
        listener.idle()
    return game, listeners


def test_an_ordinary_change_reads_nothing_on_the_watching_screens(app, client, host, phone, statements):
    game, listeners = watching(app, client, host, phone)
    try:
        main = threading.current_thread().name
        for action in ({"type": "bank_pay", "player": 2, "amount": 5}, {"type": "roll", "dice": [2, 3]}):
            statements.clear()
            version = game.ok("banker" if action["type"] == "bank_pay" else 1, **action)["version"]
            for listener in listeners:
                assert listener.next_event().id == str(version)
            assert statements and all(thread == main for thread, _ in statements), statements
    finally:
        listeners[0].close(app)


def test_a_version_made_elsewhere_is_read_once_for_every_screen(app, client, host, phone, statements):
    """Another process's commit (heard through the relay) or a database written behind the app's
    back: the renderer reads the game from the database once, and every screen shows it."""
    game, listeners = watching(app, client, host, phone, players=3)
    try:
        with app.app_context():
            db.session.execute(update(GameRow).where(GameRow.code == game.code).values(version=GameRow.version + 1))
            db.session.commit()
        version = game.state()["version"]
        statements.clear()
        app.extensions["banker.notifier"].publish(game.code, version)
        for listener in listeners:
            assert listener.next_event().id == str(version)
        reads = [s for thread, s in statements if thread.startswith("banker-render") and "FROM games" in s]
        assert len(reads) == 1, statements
    finally:
        listeners[0].close(app)


def test_the_forms_a_screen_is_pushed_carry_its_own_token_and_new_nonces(app, client, host, phone):
    """Screens share their HTML, not what belongs to one browser: each form a browser is pushed
    carries that browser's CSRF token and a nonce of its own, and it works."""
    game = new_game(client)
    bob, banker = phone(game, 2), host(game)
    for browser in (bob, banker):
        browser.page()  # the session's CSRF token is made with the page
    listeners = [Listener(bob, game.state()["version"]), Listener(banker, game.state()["version"])]
    try:
        for listener in listeners:
            listener.idle()
        game.ok("banker", type="bank_charge", player=2, amount=2000)
        pushed = [listener.next_event().data for listener in listeners]
        nonces = [re.findall(r'name="nonce" value="([^"]*)"', html) for html in pushed]
        assert all(nonces) and len(set(nonces[0] + nonces[1])) == len(nonces[0] + nonces[1])
        form = re.search(r'<form[^>]*hx-confirm[^>]*>.*?</form>', pushed[0], re.S).group(0)
        fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
        assert fields["type"] == "bankrupt"
        response = bob.client.post(f"/p/{game.code}/act", data=fields)
        assert response.status_code == 303, response.get_data(as_text=True)
        assert game.state()["status"] == "ended"
    finally:
        listeners[0].close(app)
