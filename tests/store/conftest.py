"""Fixtures for the store tests: the app on the test's database (tests/conftest.py) with its context
pushed, so that a test calls the store as the pages and the API do, without HTTP; and what the
store announced to the game's live pages."""

import pytest

from banker.store import actions, claims

from ..apps import close, make_app


@pytest.fixture
def app(database):
    """The app, its context pushed for the whole test (a thread of the test pushes its own)."""
    app = make_app(database)
    with app.app_context():
        yield app
    close(app)


@pytest.fixture
def announced(monkeypatch) -> list[tuple[str, int]]:
    """The (game code, version) pairs the store announces to live pages, in order, from now on."""
    heard: list[tuple[str, int]] = []

    def heard_of(code, version, commit=None):
        heard.append((code, version))

    # Both modules that commit announce: an action (actions.act) and a seat taken over (claims.take_seat).
    monkeypatch.setattr(actions, "announce", heard_of)
    monkeypatch.setattr(claims, "announce", heard_of)
    return heard
