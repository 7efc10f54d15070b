"""Bad input gets a clear 4xx answer, never a traceback, and changes nothing."""

import pytest

from .games import bearer

BAD_ACTIONS = [
    pytest.param(1, {"type": "fly"}, 400, "Unknown action type: fly.", id="unknown-action"),
    pytest.param(1, {"dice": [3, 4]}, 400, "Unknown action type: None.", id="no-type"),
    pytest.param(1, {"type": "roll", "dice": [7, 1]}, 400, "dice must be from 1 to 6.", id="dice-7-1"),
    pytest.param(1, {"type": "roll", "dice": [0, 1]}, 400, "dice must be from 1 to 6.", id="dice-0-1"),
    pytest.param(1, {"type": "roll", "dice": [3]}, 400, "dice must be two numbers from 1 to 6.", id="one-die"),
    pytest.param(1, {"type": "roll", "dice": "34"}, 400, "dice must be two numbers from 1 to 6.", id="dice-text"),
    pytest.param(1, {"type": "roll"}, 400, "roll needs dice.", id="no-dice"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": "abc"}, 400, "amount must be a whole number.", id="amount-abc"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": -5}, 400, "amount must be from 1 to 1000000.", id="amount-neg"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 0}, 400, "amount must be from 1 to 1000000.", id="amount-0"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": True}, 400, "amount must be a whole number.", id="amount-true"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 2.5}, 400, "amount must be a whole number.", id="amount-float"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 10**7}, 400, "amount must be from 1 to 1000000.",
                 id="amount-huge"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": "1" * 400}, 400, "amount must be a whole number.",
                 id="amount-400-digits"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": "²"}, 400, "amount must be a whole number.",
                 id="amount-superscript"),
    pytest.param(1, {"type": "pay", "to": 9, "amount": 5}, 400, "There is no player 9 in this game.",
                 id="pay-nobody"),
    pytest.param(1, {"type": "pay", "to": "moon", "amount": 5}, 400, "to must be a whole number.", id="pay-moon"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 5, "memo": "x" * 81}, 400,
                 "memo must be at most 80 printable characters.", id="memo-long"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 5, "memo": "a\u0000b"}, 400,
                 "memo must be at most 80 printable characters.", id="memo-nul"),
    pytest.param(1, {"type": "pay", "to": 2, "amount": 5, "tip": 1}, 400, "pay has no field tip.", id="extra-field"),
    pytest.param(1, {"type": "pay", "to": "free_parking", "amount": 5}, 409,
                 "This game has no Free Parking jackpot.", id="no-jackpot"),
    pytest.param("banker", {"type": "move", "player": 1, "square": 40}, 400, "square must be from 0 to 39.",
                 id="square-40"),
    pytest.param("banker", {"type": "bank_pay", "player": 7, "amount": 5}, 400, "There is no player 7 in this game.",
                 id="bank-pays-nobody"),
    pytest.param("banker", {"type": "bank_pay", "amount": 5, "player": "Ann"}, 400,
                 "player must be a whole number.", id="player-by-name"),
    pytest.param("banker", {"type": "start"}, 409, "The game has already started.",
                 id="start-twice"),
    pytest.param("banker", {"type": "join", "name": "Eve", "token": "cat"}, 409,
                 "The game has already started; joining is closed.", id="join-as-action"),
]


def assert_no_traceback(response) -> None:
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and 'File "' not in body


@pytest.mark.parametrize("who, action, status, says", BAD_ACTIONS)
def test_a_bad_action_gets_a_clear_json_error_and_changes_nothing(game, who, action, status, says):
    before = game.state()
    response = game.act(who, **action)
    assert response.status_code == status
    error = response.get_json()["error"]
    assert error["message"] == says
    assert error["code"]
    assert_no_traceback(response)
    assert game.state() == before


@pytest.mark.parametrize("body, content_type", [
    pytest.param("{not json", "application/json", id="malformed"),
    pytest.param("[1, 2]", "application/json", id="a-list"),
    pytest.param('"roll"', "application/json", id="a-string"),
    pytest.param("", "application/json", id="empty"),
    pytest.param("type=roll", "application/x-www-form-urlencoded", id="a-form"),
])
def test_a_body_that_is_not_a_json_object_gets_400(client, game, body, content_type):
    before = game.state()
    response = client.post(f"/api/games/{game.code}/actions", data=body, content_type=content_type,
                           headers=bearer(game.banker))
    assert response.status_code == 400
    assert response.get_json() == {"error": {"code": "bad_request", "message": "Send a JSON object."}}
    assert game.state() == before


@pytest.mark.parametrize("body, says", [
    ({"edition": "monaco"}, "Unknown edition: monaco."),
    ({"rules": {"start_cash": -1}}, "start_cash must be a whole number from 0 to 100000."),
    ({"rules": {"start_cash": "lots"}}, "start_cash must be a whole number from 0 to 100000."),
    ({"rules": {"dragons": True}}, "Unknown setting: dragons."),
    ({"rules": {"luxury_tax": 50}}, "luxury_tax must be one of: 100, 75."),
])
def test_a_game_with_bad_settings_is_not_created(client, body, says):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == says


def test_a_bad_join_through_the_api_is_refused(client, lobby):
    for body in ({"name": "Cy", "token": "unicorn"}, {"name": "", "token": "dog"}, {"name": "Ann", "token": "dog"},
                 {"name": "Cy"}, [1]):
        response = client.post(f"/api/games/{lobby.code}/players", json=body)
        assert 400 <= response.status_code < 500
        assert response.get_json()["error"]["message"]
    assert len(lobby.state()["players"]) == 2


@pytest.mark.parametrize("method, path", [
    ("get", "/api/games/ZZZZZ"),
    ("get", "/api/games/ZZZZZ/events"),
    ("post", "/api/games/ZZZZZ/actions"),
    ("post", "/api/games/ZZZZZ/players"),
    ("get", "/t/ZZZZZ"),
    ("get", "/t/ZZZZZ/part/players"),
    ("get", "/p/ZZZZZ"),
    ("get", "/j/ZZZZZ"),
    ("get", "/live/ZZZZZ/0"),
    ("get", "/nowhere"),
])
def test_an_unknown_game_code_is_404(client, game, method, path):
    response = getattr(client, method)(path, json={"type": "roll", "dice": [1, 2]} if method == "post" else None,
                                       headers=bearer(game.banker))
    assert response.status_code == 404
    assert_no_traceback(response)
    if path.startswith("/api/"):
        assert response.get_json()["error"]["code"] == "not_found"
    else:
        assert "No such game or page" in response.get_data(as_text=True)


def test_a_game_code_is_read_in_any_case(client, game):
    assert client.get(f"/api/games/{game.code.lower()}", headers=bearer(game.banker)).status_code == 200
    assert client.get(f"/t/{game.code.lower()}").status_code == 200


def test_a_wrong_method_on_the_api_is_a_json_405(client, game):
    response = client.get(f"/api/games/{game.code}/actions", headers=bearer(game.banker))
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    page = client.get(f"/t/{game.code}/act")
    assert page.status_code == 405
    assert_no_traceback(page)


def test_a_bad_home_form_says_why(client):
    page = client.get("/").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post("/games", data={"csrf_token": csrf, "start_cash": "-5", "go_salary": "200"})
    assert response.status_code == 422
    assert "start_cash must be a whole number from 0 to 100000." in response.get_data(as_text=True)
    assert_no_traceback(response)
