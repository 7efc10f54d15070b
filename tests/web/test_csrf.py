"""CSRF: every cookie-authenticated form needs the page's token; the JSON API needs a bearer token instead."""

from html import unescape

import pytest

from .games import CSRF, HTMX, bearer, form

EXPIRED = "This form has expired or did not come from this game's pages; reload the page and try again."


def forms(game, host, phone):
    """Each cookie-authenticated form: (browser, path, fields without a CSRF token)."""
    banker = host(game)
    ann = phone(game, 1)
    return {
        "phone-act": (ann, f"/p/{game.code}/act", form({"type": "pay", "to": 2, "amount": 50}, None)),
        "host-act": (banker, f"/t/{game.code}/act", form({"type": "bank_pay", "player": 1, "amount": 50}, None)),
        "rejoin": (banker, f"/t/{game.code}/seats/1/rejoin", {}),
        "create": (banker, "/games", {"start_cash": "1500", "go_salary": "200"}),
    }


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("which", ["phone-act", "host-act", "rejoin", "create"])
def test_a_form_without_the_csrf_token_is_refused_and_changes_nothing(game, host, phone, which, htmx):
    browser, path, fields = forms(game, host, phone)[which]
    before = game.state()
    response = browser.client.post(path, data=fields, headers=HTMX if htmx else {})
    assert response.status_code == 400
    assert EXPIRED in unescape(response.get_data(as_text=True))
    assert game.state() == before
    assert browser.client.get(f"/p/{game.code}").status_code in (200, 302)
    assert game.act(1, type="roll", dice=[3, 4]).status_code == 200  # Ann's secret still works


def test_a_join_form_without_the_csrf_token_takes_no_seat(client, lobby):
    response = client.post(f"/j/{lobby.code}", data={"nonce": "n", "name": "Cy", "token": "dog"})
    assert response.status_code == 400
    assert EXPIRED in unescape(response.get_data(as_text=True))
    assert len(lobby.state()["players"]) == 2


def test_a_csrf_token_from_another_browser_is_refused(game, phone):
    ann, bob = phone(game, 1), phone(game, 2)
    response = ann.client.post(f"/p/{game.code}/act", data=form({"type": "pay", "to": 2, "amount": 5}, bob.csrf))
    assert response.status_code == 400
    assert game.cash() == {1: 1500, 2: 1500}


def test_htmx_may_send_the_csrf_token_as_a_header(game, phone):
    ann = phone(game, 1)
    response = ann.client.post(f"/p/{game.code}/act", data=form({"type": "pay", "to": 2, "amount": 5}, None),
                               headers={**HTMX, "X-CSRFToken": ann.csrf})
    assert response.status_code == 200
    assert game.cash() == {1: 1495, 2: 1505}


def test_every_page_carries_the_csrf_token_for_htmx(game, host, phone):
    for browser in (host(game), phone(game, 1)):
        page = browser.page()
        # The page's own forms' token: a token is signed with the time, so one from an earlier
        # load differs when a second has passed in between.
        assert f'"X-CSRFToken": "{CSRF.search(page).group(1)}"' in page


def test_the_api_needs_no_csrf_token_but_a_bearer_token(client, game, host):
    action = {"type": "pay", "to": 2, "amount": 5}
    assert client.post(f"/api/games/{game.code}/actions", json=action).status_code == 401
    banker = host(game)  # a browser holding the banker's cookie is not the API's concern
    assert banker.client.post(f"/api/games/{game.code}/actions", json=action).status_code == 401
    assert game.cash() == {1: 1500, 2: 1500}
    response = client.post(f"/api/games/{game.code}/actions", json=action, headers=bearer(game.seats[1]))
    assert response.status_code == 200
    assert game.cash() == {1: 1495, 2: 1505}
