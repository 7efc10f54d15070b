"""Fixtures for the web tests: a real app on the test's database (tests/conftest.py), its test client,
games made through the JSON API, and browsers for the host's laptop and the players' phones."""

import secrets
import threading

import pytest
from sqlalchemy import event, select

from banker import models
from banker.models import db
from banker.store import token_hash

from ..apps import close, make_app
from .games import Browser, Game, new_game


@pytest.fixture
def app(database):
    app = make_app(database)
    yield app
    close(app)


@pytest.fixture
def client(app):
    return app.test_client()


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


@pytest.fixture
def lobby(client) -> Game:
    """Ann (1) and Bob (2) seated, the game not started."""
    return new_game(client, start=False)


@pytest.fixture
def game(client) -> Game:
    """Ann (1) and Bob (2), started in that order: Ann's turn, both on GO with 1500."""
    return new_game(client)


@pytest.fixture
def game3(client) -> Game:
    """Ann (1), Bob (2) and Cy (3), started in that order."""
    return new_game(client, players=3)


def badged(app, game: Game, role: str, player: int | None = None):
    """A browser (test client) holding the banker's or a seat's badge for a game made through the
    API, as creating the game on the home page or joining from the join page leaves it: its cookie
    keeps its key, the game keeps the badge. (Not through a rejoin code: taking a seat retires the
    seat's API token, which the game's API calls still use; test_join covers rejoining.)"""
    client = app.test_client()
    key = secrets.token_urlsafe(32)
    with app.app_context():
        game_id = db.session.scalar(select(models.Game.id).where(models.Game.code == game.code))
        db.session.add(models.Badge(browser_hash=token_hash(key), game_id=game_id, role=role, player_id=player))
        db.session.commit()
    with client.session_transaction() as session:
        session["browser"] = key
    return client


@pytest.fixture
def host(app):
    """Opens the banker's laptop for a game: a browser holding the banker's badge."""

    def open_host(game: Game) -> Browser:
        return Browser(badged(app, game, "banker"), game.code, f"/t/{game.code}")

    return open_host


@pytest.fixture
def phone(app):
    """Opens a player's phone: a browser holding the seat's badge."""

    def open_phone(game: Game, pid: int) -> Browser:
        return Browser(badged(app, game, "seat", pid), game.code, f"/p/{game.code}")

    return open_phone


@pytest.fixture
def stranger(app):
    """Opens the host screen in a browser with no seat and no banker secret."""

    def open_stranger(game: Game) -> Browser:
        return Browser(app.test_client(), game.code, f"/t/{game.code}")

    return open_stranger
