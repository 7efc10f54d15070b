"""How the web answers who may act: by bearer token on the API, by the session cookie on the pages.

Who may take each action is decided by the rules and tested there, for every action
(tests/rules/test_permissions.py); here a few actions of each kind go through every caller, to show
how a refusal is answered (401, 403, a message on the page) and that it changes nothing."""

from html import unescape

import pytest

from .games import SCENARIOS, bearer, messages, new_game, ready

# A seat's own action, one in a deal between seats (a trade's answer), and two of the banker's own
# (one naming no seat): the kinds of action a caller can be refused.
SEAT_ACTIONS = ["roll", "accept_trade"]
BANKER_ONLY = ["end_game", "undo"]
FEW = SEAT_ACTIONS + BANKER_ONLY

CALLERS = [
    pytest.param("nobody", 401, id="no-token"),
    pytest.param("other_game_banker", 401, id="other-games-banker"),
    pytest.param("other_game_seat", 401, id="other-games-seat"),
    pytest.param("other_seat", 403, id="another-seat"),
    pytest.param("banker", 200, id="banker"),
]


def token_of(caller: str, game, client) -> str | None:
    """The secret a caller holds: none, one from another game, Bob's (seat 2), or the banker's."""
    if caller.startswith("other_game"):
        other = new_game(client, start=False)
        return other.banker if caller == "other_game_banker" else other.seats[1]
    return {"nobody": None, "other_seat": game.seats[2], "banker": game.banker}[caller]


@pytest.mark.parametrize("caller, status", CALLERS)
@pytest.mark.parametrize("name", FEW)
def test_only_the_seat_itself_or_the_banker_may_act_for_a_seat(client, name, caller, status):
    """Every action names Ann's seat (start and undo name none); only the banker gets it through."""
    scenario = SCENARIOS[name]
    game = ready(client, name)
    before = game.state()
    response = client.post(f"/api/games/{game.code}/actions", json=scenario.by_banker(),
                           headers=bearer(token_of(caller, game, client)))
    assert response.status_code == status, response.get_json()
    if status == 200:
        assert scenario.done(game.state())
        return
    error = response.get_json()["error"]
    assert error["code"] and error["message"]
    assert game.state() == before


@pytest.mark.parametrize("name", BANKER_ONLY)
def test_banker_only_actions_are_forbidden_to_a_player_even_for_their_own_seat(client, name):
    game = ready(client, name)
    before = game.state()
    response = game.act(1, **SCENARIOS[name].action)
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "banker_only"
    assert game.state() == before


@pytest.mark.parametrize("name", SEAT_ACTIONS)
def test_a_player_may_name_their_own_seat(client, name):
    game = ready(client, name)
    game.ok(1, **SCENARIOS[name].by_banker())
    assert SCENARIOS[name].done(game.state())


def test_a_seat_token_cannot_read_another_game(client, game):
    other = new_game(client)
    response = client.get(f"/api/games/{game.code}", headers=bearer(other.seats[1]))
    assert response.status_code == 401
    response = client.get(f"/api/games/{game.code}/events", headers=bearer(other.banker))
    assert response.status_code == 401


def test_a_token_in_another_scheme_is_not_accepted(client, game):
    response = client.get(f"/api/games/{game.code}", headers={"Authorization": f"Token {game.banker}"})
    assert response.status_code == 401


@pytest.mark.parametrize("visitor, htmx", [("stranger", False), ("phone", True)], ids=["stranger-form", "phone-htmx"])
@pytest.mark.parametrize("name", FEW)
def test_host_forms_without_the_banker_cookie_are_forbidden_and_change_nothing(
        client, stranger, phone, name, visitor, htmx):
    scenario = SCENARIOS[name]
    game = ready(client, name)
    browser = stranger(game) if visitor == "stranger" else phone(game, 1)
    before = game.state()
    response = browser.post(scenario.by_banker(), htmx=htmx, path=f"/t/{game.code}/act")
    assert response.status_code == 403
    assert "Only the banker" in unescape(response.get_data(as_text=True))
    assert game.state() == before


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("name", SEAT_ACTIONS)
def test_a_phone_cannot_act_for_another_seat(client, phone, name, htmx):
    game = ready(client, name)
    bob = phone(game, 2)
    before = game.state()
    response = bob.post(SCENARIOS[name].by_banker(), htmx=htmx)
    says = "You can only act for your own seat."
    if htmx:
        assert response.status_code == 422
        assert says in response.get_data(as_text=True)
    else:
        assert response.status_code == 303
        assert says in messages(bob.page())
    assert game.state() == before


@pytest.mark.parametrize("name", BANKER_ONLY)
def test_a_phone_cannot_take_banker_only_actions(client, phone, name):
    game = ready(client, name)
    ann = phone(game, 1)
    before = game.state()
    response = ann.post(SCENARIOS[name].by_banker(), htmx=True)
    assert response.status_code == 422
    assert "Only the banker can" in response.get_data(as_text=True)
    assert game.state() == before


def test_rejoin_codes_are_only_for_the_banker(game, stranger, phone):
    for browser in (stranger(game), phone(game, 2)):
        response = browser.client.post(f"/t/{game.code}/seats/1/rejoin", data={"csrf_token": browser.csrf})
        assert response.status_code == 403
    assert game.ok(1, type="roll", dice=[3, 4])


def test_the_host_page_shows_banker_tools_only_to_the_banker(game, host, stranger):
    banker = host(game).page()
    visitor = stranger(game).page()
    assert "Banker's screen" in unescape(banker) and "Table view" in visitor
    assert "bank-tools" in banker and "bank-tools" not in visitor
    assert "/rejoin" in banker and "/rejoin" not in visitor


def test_a_rejoin_code_for_a_seat_that_does_not_exist_is_404(game, host):
    banker = host(game)
    response = banker.client.post(f"/t/{game.code}/seats/9/rejoin", data={"csrf_token": banker.csrf})
    assert response.status_code == 404
