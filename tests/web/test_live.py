"""Live updates: the version probe every page polls, and the fragments it makes refresh."""

import pytest

from .games import HTMX


def test_the_probe_is_204_and_empty_while_nothing_changed(client, game):
    version = game.state()["version"]
    response = client.get(f"/live/{game.code}/{version}")
    assert response.status_code == 204
    assert response.data == b""
    assert "HX-Trigger" not in response.headers


def test_the_probe_fires_game_changed_with_a_new_probe_when_the_version_moved(client, game):
    version = game.state()["version"]
    game.ok(1, type="pay", to=2, amount=5)
    response = client.get(f"/live/{game.code}/{version}")
    assert response.status_code == 200
    assert response.headers["HX-Trigger"] == "game-changed"
    body = response.get_data(as_text=True)
    assert f'data-version="{version + 1}"' in body
    assert f'hx-get="/live/{game.code}/{version + 1}"' in body
    assert client.get(f"/live/{game.code}/{version + 1}").status_code == 204


def test_the_probe_sets_no_cookie(game, phone):
    ann = phone(game, 1)
    version = game.state()["version"]
    for seen in (version, version - 1):
        assert "Set-Cookie" not in ann.client.get(f"/live/{game.code}/{seen}").headers


def test_every_page_starts_polling_at_its_version(game, host, phone):
    version = game.state()["version"]
    for browser in (host(game), phone(game, 1)):
        assert f'hx-get="/live/{game.code}/{version}"' in browser.page()


@pytest.mark.parametrize("screen, name", [("t", "turn"), ("t", "players"), ("t", "board"), ("t", "history"),
                                          ("p", "turn"), ("p", "wallet"), ("p", "history")])
def test_each_fragment_comes_alone_for_htmx_and_inside_the_page_otherwise(game, host, phone, screen, name):
    browser = host(game) if screen == "t" else phone(game, 1)
    path = f"/{screen}/{game.code}/part/{name}"
    fragment = browser.client.get(path, headers=HTMX)
    assert fragment.status_code == 200
    assert "HX-Request" in fragment.headers["Vary"]
    html = fragment.get_data(as_text=True)
    assert f'id="{name}"' in html and "<html" not in html
    assert 'hx-trigger="game-changed from:body"' in html
    page = browser.client.get(path)
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True)


@pytest.mark.parametrize("screen", ["t", "p"])
def test_an_unknown_fragment_is_404(game, host, phone, screen):
    browser = host(game) if screen == "t" else phone(game, 1)
    for name in ("nope", "page", "../table/page"):
        response = browser.client.get(f"/{screen}/{game.code}/part/{name}", headers=HTMX)
        assert response.status_code == 404
        assert "Traceback" not in response.get_data(as_text=True)


def test_a_phone_fragment_without_a_seat_is_404(client, game):
    assert client.get(f"/p/{game.code}/part/wallet", headers=HTMX).status_code == 404
