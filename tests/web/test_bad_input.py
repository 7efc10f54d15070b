"""Bad input gets a clear 4xx answer, never a traceback, and changes nothing.

Which actions are refused, and with which status, is the rules' to decide (tests/refusals.py, tested
in tests/rules/test_refusals.py); here, the sentence each refusal reads as, and one of each kind
through the API: that the refusal reaches it as JSON with its status, code and words, and changes
nothing."""

import pytest

from banker.rules.board import EDITIONS
from banker.words.narrate import refusal

from ..apps import close, make_app
from ..refusals import REFUSALS
from ..rules.test_refusals import reached, refused
from .games import bearer, new_game, play


def assert_no_traceback(response) -> None:
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and 'File "' not in body


@pytest.fixture(scope="module")
def words(tmp_path_factory):
    """An app to word refusals in (its database is never read): one for the module."""
    app = make_app(tmp_path_factory.mktemp("words") / "banker.sqlite")
    yield app
    close(app)


@pytest.mark.parametrize("rules, steps, who, action, status, says", [case for case in REFUSALS if case.values[-1]])
def test_each_refusal_reads_as_one_sentence_naming_players_squares_and_money(words, rules, steps, who, action,
                                                                           status, says):
    state = reached(rules, steps)
    error = refused(state, who, action)
    with words.test_request_context():
        assert refusal(error, state) == says


# One refusal of each kind through the API: malformed (an unknown type, a field's value), a seat the
# game does not have, illegal now (naming a player and a square; money; after the end), and the
# banker acting for a seat.
THROUGH_THE_API = {"unknown-action", "amount-abc", "pay-nobody", "sell-not-mine", "bid-above-cash",
                   "roll-after-the-end", "bank-pays-nobody"}


@pytest.mark.parametrize("rules, steps, who, action, status, says",
                         [case for case in REFUSALS if case.id in THROUGH_THE_API])
def test_a_refused_action_gets_a_clear_json_error_and_changes_nothing(client, rules, steps, who, action, status,
                                                                     says):
    game = play(new_game(client, rules=rules), *steps)
    before = game.state()
    response = game.act(who, **action)
    assert response.status_code == status, response.get_json()
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
    ({"edition": "monaco"}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": []}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": {}}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": None}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": "u" * 256}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": "us_cards"}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),  # a data file, not a board
    ({"edition": "../../pyproject"}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),
    ({"edition": str(EDITIONS / "us")}, "Unknown edition; the editions are: us, uk, fr, pt, ja."),  # a path to a real board
    ({"rules": {"start_cash": -1}}, "start_cash must be a whole number from 0 to 100000."),
    ({"rules": {"start_cash": "lots"}}, "start_cash must be a whole number from 0 to 100000."),
    ({"rules": {"dragons": True}}, "Unknown setting: dragons."),
    ({"rules": {"luxury_tax": 50}}, "luxury_tax must be one of: 100, 75."),
    ({"rules": {"cards": "uk"}}, "cards must be one of: us, us_2021, us_2008, uk_classic, uk_modern, fr, fr_variant, "
                                 "pt, ja_2008, ja_classic."),
    ({"edition": "fr", "rules": {"cards": ["fr"]}}, "cards must be one of: us, us_2021, us_2008, uk_classic, "
                                                    "uk_modern, fr, fr_variant, pt, ja_2008, ja_classic."),
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
    assert "Starting cash must be a whole number from 0 to 100000." in response.get_data(as_text=True)
    assert_no_traceback(response)


def test_acting_for_a_bankrupt_seat_or_paying_one_is_refused(client):
    game = play(new_game(client, players=3), (1, {"type": "pay", "to": 2, "amount": 2000}), (1, {"type": "bankrupt"}))
    before = game.state()
    for who, action, says in [
        (1, {"type": "pay", "to": 2, "amount": 5}, "Ann is bankrupt and out of the game."),
        ("banker", {"type": "bank_pay", "player": 1, "amount": 5}, "Ann is bankrupt and out of the game."),
        (1, {"type": "bankrupt"}, "Ann is bankrupt and out of the game."),
        (2, {"type": "pay", "to": 1, "amount": 5}, "Ann is bankrupt and out of the game."),
    ]:
        response = game.act(who, **action)
        assert response.status_code == 409 and response.get_json()["error"]["message"] == says, action
    assert game.state() == before


def test_the_game_cannot_end_before_it_starts(lobby):
    response = lobby.act("banker", type="end_game")
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == "The game has not started yet."
    assert lobby.state()["status"] == "lobby"


def test_a_game_body_with_an_unknown_field_is_refused(client):
    response = client.post("/api/games", json={"edition": "us", "junk": [1]})
    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "unknown_field", "message": "A new game has no field junk."}


def test_an_undo_with_a_field_is_refused_and_undoes_nothing(game):
    game.ok(1, type="pay", to=2, amount=10)
    before = game.state()
    response = game.act("banker", type="undo", amount=[1.5])
    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "unknown_field", "message": "undo has no field amount."}
    assert game.state() == before


@pytest.mark.parametrize("preset", ["official", "classic", "jma"])
def test_the_api_creates_each_preset_and_a_setting_beside_it_overrides_it(client, preset):
    response = client.post("/api/games", json={"rules": {"preset": preset, "luxury_tax": 75, "auctions": False}})
    assert response.status_code == 201
    code, token = response.get_json()["code"], response.get_json()["banker_token"]
    rules = client.get(f"/api/games/{code}", headers={"Authorization": f"Bearer {token}"}).get_json()["rules"]
    assert rules["preset"] == preset and rules["luxury_tax"] == 75 and rules["auctions"] is False
    assert rules["deals_between_turns"] is (preset == "jma")
    assert rules["community_chest"] == ("2008" if preset == "classic" else "2021")
