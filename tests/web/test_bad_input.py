"""Bad input gets a clear 4xx answer, never a traceback, and changes nothing."""

import pytest

from banker.rules.board import EDITIONS

from .games import AUCTION, BALTIC, BROWN, JAILED_WITH_CARD, TO_CHANCE, TO_CHEST, bearer, new_game, play

BAD_ACTIONS = [
    pytest.param(1, {"type": "fly"}, 400, "Unknown action type: fly.", id="unknown-action"),
    pytest.param(1, {"dice": [3, 4]}, 400, "Unknown action type: None.", id="no-type"),
    pytest.param(1, {"type": "roll", "dice": [7, 1]}, 400, "dice must be from 1 to 6.", id="dice-7-1"),
    pytest.param(1, {"type": "roll", "dice": [0, 1]}, 400, "dice must be from 1 to 6.", id="dice-0-1"),
    pytest.param(1, {"type": "roll", "dice": [3]}, 400, "dice must be two numbers from 1 to 6.", id="one-die"),
    pytest.param(1, {"type": "roll", "dice": "34"}, 400, "dice must be two numbers from 1 to 6.", id="dice-text"),
    pytest.param(1, {"type": "roll"}, 400, "Tap the number on each die.", id="no-dice"),
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
                 "Mediterranean Avenue is mortgaged: repay its mortgage before building in its group.",
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
    pytest.param((), 1, {"type": "offer_trade", "to": 9, "give": {"cash": 5}}, 400,
                 "There is no player 9 in this game.", id="trade-nobody"),  # as from pay: one status per code
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


# Ann keeps the Chance Get Out of Jail Free card; Bob rolls to Chance (7) and must draw.
ANN_HOLDS_CHANCE_CARD = (TO_CHANCE, (1, {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"}),
                         (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [3, 4]}))
IN_JAIL = (("banker", {"type": "move", "player": 1, "square": 27}), (1, {"type": "roll", "dice": [1, 2]}),
           (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}))
ENDED = (("banker", {"type": "end_game"}),)
CHOICE = {"income_tax": "choice"}
JACKPOT = {"free_parking_jackpot": True}
OVER = "The game is over."
BAD_CARD_DEBT_AND_END_ACTIONS = [
    # Cards
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chest", "card": "cc21_walking_path"}, 409,
                 "Ann draws from Chance here.", id="draw-from-the-wrong-deck"),
    pytest.param(None, (TO_CHEST,), 1, {"type": "draw", "deck": "chance", "card": "ch_dividend"}, 409,
                 "Ann draws from Community Chest here.", id="draw-chance-on-chest"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chance", "card": "cc21_walking_path"}, 400,
                 "There is no card cc21_walking_path in that deck.", id="draw-a-chest-card-from-chance"),
    pytest.param({"community_chest": "2008"}, (TO_CHEST,), 1,
                 {"type": "draw", "deck": "chest", "card": "cc21_walking_path"}, 400,
                 "There is no card cc21_walking_path in that deck.", id="draw-a-2021-card-from-the-2008-chest"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chance", "card": "ch_lottery"}, 400,
                 "There is no card ch_lottery in that deck.", id="draw-an-unknown-card"),
    pytest.param(None, (), 1, {"type": "draw", "deck": "chance", "card": "ch_dividend"}, 409,
                 "Ann has no card to draw now.", id="draw-when-none-is-due"),
    pytest.param(None, (TO_CHANCE,), 2, {"type": "draw", "deck": "chance", "card": "ch_dividend"}, 409,
                 "Bob has no card to draw now.", id="draw-for-someone-elses-square"),
    pytest.param(None, ANN_HOLDS_CHANCE_CARD, 2, {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"},
                 409, "That card is in Ann's hand, not in the deck.", id="draw-a-card-in-a-hand"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chance"}, 400, "Pick the card you drew.",
                 id="draw-no-card"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "moon", "card": "ch_dividend"}, 400,
                 "deck must be chance or chest.", id="draw-from-the-moon"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chance", "card": 7}, 400, "card must be a card id.",
                 id="draw-card-number"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "draw", "deck": "chance", "card": "x" * 41}, 400,
                 "card must be a card id.", id="draw-card-id-too-long"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "roll", "dice": [1, 2]}, 409, None, id="roll-before-drawing"),
    pytest.param(None, (TO_CHANCE,), 1, {"type": "end_turn"}, 409, None, id="end-turn-before-drawing"),
    pytest.param(None, (), 1, {"type": "utility_roll", "dice": [1, 2]}, 409, "Ann has no utility roll to make.",
                 id="utility-roll-when-none-is-due"),
    pytest.param(None, (), 1, {"type": "use_jail_card"}, 409, "Ann is not in jail.", id="jail-card-out-of-jail"),
    pytest.param(None, IN_JAIL, 1, {"type": "use_jail_card"}, 409, "Ann has no Get Out of Jail Free card.",
                 id="jail-card-without-one"),
    pytest.param(None, JAILED_WITH_CARD, 1, {"type": "use_jail_card", "card": "ch_get_out_of_jail_free"}, 409,
                 "Ann does not hold that card.", id="jail-card-not-held"),
    # Income Tax
    pytest.param(CHOICE, (), 1, {"type": "income_tax", "choice": "flat"}, 409,
                 "Ann has no Income Tax to choose now.", id="income-tax-none-due"),
    pytest.param(None, ((1, {"type": "roll", "dice": [1, 3]}),), 1, {"type": "income_tax", "choice": "percent"}, 409,
                 "Ann has no Income Tax to choose now.", id="income-tax-after-the-flat-tax"),
    pytest.param(CHOICE, ((1, {"type": "roll", "dice": [1, 3]}),), 1, {"type": "income_tax", "choice": "half"}, 400,
                 "choice must be flat or percent.", id="income-tax-bad-choice"),
    pytest.param(CHOICE, ((1, {"type": "roll", "dice": [1, 3]}),), 1, {"type": "income_tax"}, 400,
                 "income_tax needs choice.", id="income-tax-no-choice"),
    pytest.param(CHOICE, ((1, {"type": "roll", "dice": [1, 3]}),), 1, {"type": "end_turn"}, 409, None,
                 id="end-turn-before-the-tax"),
    # Debts and bankruptcy
    pytest.param(None, (), 1, {"type": "bankrupt"}, 409, "Ann owes nothing and cannot go bankrupt.",
                 id="bankrupt-without-debt"),
    pytest.param(None, (*BROWN, (1, {"type": "build", "square": 3}), (1, {"type": "pay", "to": "bank", "amount": 1600})),
                 1, {"type": "bankrupt"}, 409,
                 "Ann can still raise $1,615 by selling buildings and mortgaging: enough to pay.",
                 id="bankrupt-while-solvent"),
    pytest.param(None, ((1, {"type": "pay", "to": 2, "amount": 1500}),), 1, {"type": "bankrupt"}, 409,
                 "Ann owes nothing and cannot go bankrupt.", id="bankrupt-after-paying-everything"),
    pytest.param(None, (), 1, {"type": "receive_deeds"}, 409, "Ann has no mortgaged deeds to settle.",
                 id="receive-nothing"),
    # The end, and the jackpot
    pytest.param(None, ENDED, "banker", {"type": "end_game"}, 409, OVER, id="end-twice"),
    pytest.param(None, ENDED, 1, {"type": "roll", "dice": [1, 2]}, 409, OVER, id="roll-after-the-end"),
    pytest.param(None, ENDED, 1, {"type": "pay", "to": 2, "amount": 5}, 409, OVER, id="pay-after-the-end"),
    pytest.param(None, ENDED, "banker", {"type": "bank_pay", "player": 1, "amount": 5}, 409, OVER,
                 id="bank-pays-after-the-end"),
    pytest.param(None, ENDED, "banker", {"type": "move", "player": 1, "square": 5}, 409, OVER,
                 id="move-after-the-end"),
    pytest.param(None, ENDED, 1, {"type": "offer_trade", "to": 2, "give": {"cash": 5}}, 409, OVER,
                 id="trade-after-the-end"),
    pytest.param(JACKPOT, ENDED, "banker", {"type": "seed_jackpot", "amount": 5}, 409, OVER,
                 id="seed-after-the-end"),
    pytest.param(None, (TO_CHANCE, *ENDED), 1, {"type": "draw", "deck": "chance", "card": "ch_dividend"}, 409, OVER,
                 id="draw-after-the-end"),
    pytest.param(None, ENDED, "banker", {"type": "start"}, 409, "The game has already started.",
                 id="start-after-the-end"),
    pytest.param(None, (), "banker", {"type": "seed_jackpot", "amount": 100}, 409,
                 "This game has no Free Parking jackpot.", id="seed-without-the-jackpot-rule"),
    pytest.param(JACKPOT, (), "banker", {"type": "seed_jackpot", "amount": 0}, 400,
                 "amount must be from 1 to 1000000.", id="seed-nothing"),
    pytest.param(JACKPOT, (), "banker", {"type": "seed_jackpot"}, 400, "seed_jackpot needs amount.",
                 id="seed-no-amount"),
]


@pytest.mark.parametrize("rules, steps, who, action, status, says", BAD_CARD_DEBT_AND_END_ACTIONS)
def test_a_bad_card_tax_bankruptcy_or_end_action_is_refused_and_changes_nothing(
        client, rules, steps, who, action, status, says):
    game = play(new_game(client, rules=rules), *steps)
    before = game.state()
    response = game.act(who, **action)
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] and error["message"]
    if says:
        assert error["message"] == says
    assert_no_traceback(response)
    assert game.state() == before


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
