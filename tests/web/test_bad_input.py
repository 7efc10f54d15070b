"""Bad input gets a clear 4xx answer, never a traceback, and changes nothing."""

import pytest

from .games import AUCTION, BALTIC, BROWN, bearer, play

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


BID_10 = (1, {"type": "bid", "amount": 10})
MORTGAGE_BALTIC = (1, {"type": "mortgage", "square": 3})
BAD_NEW_ACTIONS = [
    # Auctions
    pytest.param((), 1, {"type": "bid", "amount": 10}, 409, "No auction is open.", id="bid-no-auction"),
    pytest.param((), 1, {"type": "pass"}, 409, "No auction is open.", id="pass-no-auction"),
    pytest.param((), "banker", {"type": "close_auction"}, 409, "No auction is open.", id="close-no-auction"),
    pytest.param((*AUCTION, (1, {"type": "pass"})), 1, {"type": "bid", "amount": 10}, 409,
                 "Ann has passed and cannot bid again.", id="bid-after-passing"),
    pytest.param(AUCTION, 1, {"type": "bid", "amount": 1501}, 409, "Ann has only $1,500; a bid cannot be more.",
                 id="bid-above-cash"),
    pytest.param((*AUCTION, BID_10), 2, {"type": "bid", "amount": 10}, 409, "A bid must be at least $11.",
                 id="bid-not-above-high-bid"),
    pytest.param((*AUCTION, BID_10), 1, {"type": "pass"}, 409, "Ann holds the high bid and cannot pass.",
                 id="pass-as-high-bidder"),
    pytest.param(AUCTION, 1, {"type": "bid", "amount": 0}, 400, "amount must be from 1 to 1000000.", id="bid-0"),
    pytest.param(AUCTION, 1, {"type": "bid", "amount": "lots"}, 400, "amount must be a whole number.",
                 id="bid-text"),
    pytest.param(AUCTION, 1, {"type": "bid"}, 400, "bid needs amount.", id="bid-no-amount"),
    pytest.param(AUCTION, 1, {"type": "end_turn"}, 409, "An auction is open: bid or pass first.",
                 id="end-turn-during-auction"),
    pytest.param(AUCTION, "banker", {"type": "close_auction", "high_bid": -1}, 400,
                 "high_bid must be from 0 to 1000000.", id="close-negative-guard"),
    pytest.param(BROWN, "banker", {"type": "auction_building", "building": "castle"}, 400,
                 "building must be house or hotel.", id="auction-a-castle"),
    pytest.param((), "banker", {"type": "auction_building", "building": "house"}, 409,
                 "Nobody can place a house now.", id="auction-house-nobody-can-place"),
    pytest.param(AUCTION, "banker", {"type": "auction_building", "building": "house"}, 409,
                 "An auction is open: bid or pass first.", id="auction-during-auction"),
    # Buildings
    pytest.param((), 1, {"type": "build", "square": 5}, 409,
                 "Reading Railroad cannot have buildings: only streets can.", id="build-on-railroad"),
    pytest.param(BALTIC, 1, {"type": "build", "square": 3}, 409,
                 "To build on Baltic Avenue, Ann needs every lot of its group; Mediterranean Avenue is missing.",
                 id="build-incomplete-group"),
    pytest.param((*BROWN, (1, {"type": "mortgage", "square": 1})), 1, {"type": "build", "square": 3}, 409,
                 "Mediterranean Avenue is mortgaged: lift it before building in its group.",
                 id="build-mortgaged-group"),
    pytest.param((), 1, {"type": "build", "square": "Baltic"}, 400, "square must be a whole number.",
                 id="build-square-by-name"),
    pytest.param(BALTIC, 1, {"type": "sell_building", "square": 3}, 409, "Baltic Avenue has no buildings to sell.",
                 id="sell-nothing"),
    pytest.param((), 1, {"type": "sell_building", "square": 3}, 409, "Ann does not own Baltic Avenue.",
                 id="sell-not-mine"),
    pytest.param((), 1, {"type": "sell_building", "square": 0}, 409, "GO cannot have buildings: only streets can.",
                 id="sell-on-go"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"1": 1}}, 409,
                 "Give a level for every lot of Mediterranean Avenue's group, and only those.", id="levels-half-group"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"1": 0, "3": 2}}, 409,
                 "The group's lots must end within one building of each other.", id="levels-uneven"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"1": 0, "3": 0}}, 409,
                 "Those are already the group's buildings.", id="levels-no-change"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"1": 6, "3": 5}}, 400, "level must be from 0 to 5.",
                 id="levels-6"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"1": True, "3": 1}}, 400,
                 "level must be a whole number.", id="levels-true"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {"x": 1, "3": 1}}, 400,
                 "square must be a whole number.", id="levels-square-x"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": "all"}, 400,
                 "levels must map each lot of a group to 0-5.", id="levels-text"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": [1, 3]}, 400,
                 "levels must map each lot of a group to 0-5.", id="levels-list"),
    pytest.param(BROWN, 1, {"type": "set_buildings", "levels": {}}, 400,
                 "levels must map each lot of a group to 0-5.", id="levels-empty"),
    # Mortgages
    pytest.param((*BALTIC, MORTGAGE_BALTIC), 1, MORTGAGE_BALTIC[1], 409, "Baltic Avenue is already mortgaged.",
                 id="mortgage-twice"),
    pytest.param(BALTIC, 1, {"type": "unmortgage", "square": 3}, 409, "Baltic Avenue is not mortgaged.",
                 id="lift-unmortgaged"),
    pytest.param((), 1, {"type": "mortgage", "square": 0}, 409, "GO is not a deed.", id="mortgage-go"),
    pytest.param((), 1, {"type": "mortgage", "square": 3}, 409, "Ann does not own Baltic Avenue.",
                 id="mortgage-not-mine"),
    pytest.param((*BROWN, (1, {"type": "build", "square": 3})), 1, {"type": "mortgage", "square": 1}, 409,
                 "Baltic Avenue has buildings: sell every building in the group before mortgaging "
                 "Mediterranean Avenue.", id="mortgage-built-group"),
    # Trades
    pytest.param(BALTIC, 1, {"type": "offer_trade", "to": 2, "give": {"cash": 2000}}, 409,
                 "Ann has $1,440: not enough for this trade ($2,000).", id="trade-more-cash-than-you-have"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "get": {"cash": 1501}}, 409,
                 "Bob has $1,500: not enough for this trade ($1,501).", id="trade-more-cash-than-they-have"),
    pytest.param((), 1, {"type": "offer_trade", "to": 1, "give": {"cash": 5}}, 409,
                 "A trade needs two different players.", id="trade-self"),
    pytest.param((), 1, {"type": "offer_trade", "to": 9, "give": {"cash": 5}}, 409,
                 "There is no player 9 in this game.", id="trade-nobody"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2}, 409, "The offer is empty: add cash, deeds or cards.",
                 id="trade-empty"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}}, 409,
                 "Ann does not own Baltic Avenue.", id="trade-not-my-deed"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"squares": [0]}}, 409, "GO is not a deed.",
                 id="trade-go"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"cash": 5}, "get": {"squares": [0]}}, 409,
                 "GO is not a deed.", id="trade-ask-for-go"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "get": {"squares": [0]}, "lift": [0]}, 409,
                 "GO is not a deed.", id="trade-lift-go"),
    pytest.param(BALTIC, 1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "lift": [3]}, 409,
                 "Baltic Avenue is not a mortgaged deed Ann receives.", id="trade-lift-what-i-give"),
    pytest.param((*BROWN, (1, {"type": "build", "square": 3})), 1,
                 {"type": "offer_trade", "to": 2, "give": {"squares": [1]}}, 409,
                 "Baltic Avenue has buildings: the group's buildings must be sold before Mediterranean Avenue "
                 "can change hands.", id="trade-built-group"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"jail_cards": ["chance-jail"]}}, 409,
                 "Ann does not hold that Get Out of Jail Free card.", id="trade-card-not-held"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": "lots"}, 400,
                 "give may hold cash, squares and jail_cards.", id="give-text"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"boats": 1}}, 400,
                 "give may hold cash, squares and jail_cards.", id="give-boats"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"cash": -5}}, 400,
                 "cash must be from 0 to 1000000.", id="give-negative-cash"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"cash": "lots"}}, 400,
                 "cash must be a whole number.", id="give-cash-text"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"squares": "3"}}, 400,
                 "give must be a list of squares.", id="give-squares-text"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "get": {"squares": [3, 3]}}, 400,
                 "get lists a square twice.", id="get-square-twice"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "get": {"squares": [40]}}, 400,
                 "get must be from 0 to 39.", id="get-square-40"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"jail_cards": "all"}}, 400,
                 "jail_cards must list card ids.", id="give-cards-text"),
    pytest.param((), 1, {"type": "offer_trade", "to": 2, "give": {"cash": 5}, "lift": "3"}, 400,
                 "lift must be a list of squares.", id="lift-text"),
    pytest.param((), 1, {"type": "offer_trade", "give": {"cash": 5}}, 400, "offer_trade needs to.", id="trade-no-to"),
    pytest.param((), 1, {"type": "accept_trade", "trade": "abc"}, 400, "trade must be a whole number.",
                 id="accept-trade-text"),
    pytest.param((), 1, {"type": "accept_trade"}, 400, "accept_trade needs trade.", id="accept-no-trade"),
    pytest.param((), 1, {"type": "accept_trade", "trade": 99}, 409, "Offer 99 is no longer open.",
                 id="accept-no-such-offer"),
    pytest.param((), 1, {"type": "withdraw_trade", "trade": 99}, 409, "Offer 99 is no longer open.",
                 id="withdraw-no-such-offer"),
    pytest.param((*BALTIC, (2, {"type": "offer_trade", "to": 1, "give": {"cash": 100}, "get": {"squares": [3]}})),
                 1, {"type": "accept_trade", "trade": 1, "lift": [3]}, 409,
                 "Baltic Avenue is not a mortgaged deed Ann receives.", id="accept-lift-not-received"),
]


@pytest.mark.parametrize("steps, who, action, status, says", BAD_NEW_ACTIONS)
def test_a_bad_auction_building_mortgage_or_trade_action_is_refused_and_changes_nothing(
        game, steps, who, action, status, says):
    play(game, *steps)
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
