"""A repeated nonce returns the first result and applies nothing: a double tap pays once."""

from html import unescape

import pytest

from .games import AUCTION, page_form, play


def payments(game) -> list[dict]:
    return [e for e in game.events() if e["type"] == "pay"]


def test_same_nonce_twice_applies_once_through_the_api(game):
    first = game.ok(1, type="pay", to=2, amount=75, nonce="tap-1")
    second = game.ok(1, type="pay", to=2, amount=75, nonce="tap-1")
    assert first["repeated"] is False
    assert second["repeated"] is True
    assert second["version"] == first["version"]
    assert second["events"] == first["events"]
    assert game.cash() == {1: 1425, 2: 1575}
    assert len(payments(game)) == 1
    assert game.state()["version"] == first["version"]


def test_a_repeated_nonce_returns_the_first_result_even_with_another_body(game):
    game.ok(1, type="pay", to=2, amount=75, nonce="tap-1")
    second = game.ok(1, type="pay", to=2, amount=500, nonce="tap-1")
    assert second["repeated"] is True
    assert game.cash() == {1: 1425, 2: 1575}


def test_a_new_nonce_applies_again(game):
    game.ok(1, type="pay", to=2, amount=75, nonce="tap-1")
    game.ok(1, type="pay", to=2, amount=75, nonce="tap-2")
    game.ok(1, type="pay", to=2, amount=75)
    game.ok(1, type="pay", to=2, amount=75)
    assert game.cash() == {1: 1200, 2: 1800}
    assert len(payments(game)) == 4


def test_a_nonce_must_be_a_short_string(game):
    for nonce in (5, "x" * 65, ["a"]):
        response = game.act(1, type="pay", to=2, amount=75, nonce=nonce)
        assert response.status_code == 400
        assert response.get_json()["error"]["code"] == "bad_nonce"
    assert game.cash() == {1: 1500, 2: 1500}


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_same_nonce_twice_applies_once_through_a_form(game, phone, htmx):
    ann = phone(game, 1)
    version = game.state()["version"]
    answers = [ann.post({"type": "pay", "to": 2, "amount": 75}, htmx=htmx, nonce="double-tap") for _ in range(2)]
    assert [a.status_code for a in answers] == ([200, 200] if htmx else [303, 303])
    assert game.cash() == {1: 1425, 2: 1575}
    assert game.state()["version"] == version + 1
    assert len(payments(game)) == 1


def test_a_double_tapped_roll_moves_once(game, phone):
    ann = phone(game, 1)
    for _ in range(2):
        ann.post({"type": "roll", "dice": [3, 4]}, htmx=True, nonce="roll-tap")
    state = game.state()
    assert state["players"][0]["position"] == 7
    assert len([e for e in game.events() if e["type"] == "roll"]) == 1


def test_a_double_tapped_undo_undoes_once(game, host):
    game.ok(1, type="pay", to=2, amount=10)
    game.ok(1, type="pay", to=2, amount=20)
    banker = host(game)
    for _ in range(2):
        assert banker.post({"type": "undo"}, htmx=True, nonce="undo-tap").status_code == 200
    assert game.cash() == {1: 1490, 2: 1510}
    assert [e["undone"] for e in payments(game)] == [False, True]


def test_a_nonce_another_seat_used_is_theirs_alone(game):
    """Two API clients that both number their nonces from 1: each one's actions apply."""
    game.ok(1, type="pay", to=2, amount=5, nonce="1")
    response = game.act(2, type="pay", to=1, amount=500, nonce="1")
    assert response.status_code == 200 and response.get_json()["repeated"] is False
    assert game.cash() == {1: 1995, 2: 1005}
    assert game.act(2, type="pay", to=1, amount=500, nonce="1").get_json()["repeated"] is True


def test_a_join_with_a_nonce_a_seat_already_used_takes_a_seat(client, lobby):
    lobby.ok(1, type="opening_roll", dice=[1, 2], nonce="n1")
    response = client.post(f"/api/games/{lobby.code}/players", json={"name": "Eve", "token": "cat", "nonce": "n1"})
    assert response.status_code == 201
    assert len(lobby.state()["players"]) == 3


def test_a_player_sending_the_banker_screens_nonce_first_does_not_block_the_banker(game3, host, phone):
    """Even if a player learnt the nonce of the banker's "Sell to … now" form and used it first, the sale
    goes through."""
    play(game3, *AUCTION, (1, {"type": "bid", "amount": 10}))
    banker = host(game3)
    close = page_form(banker.page(), "close_auction")
    passed = phone(game3, 3).post({"type": "pass"}, htmx=True, nonce=close.get("nonce"))
    assert passed.status_code == 200
    assert page_form(banker.page(), "close_auction").get("nonce") == close.get("nonce")  # the same sale
    sold = banker.submit(close, htmx=True)
    assert sold.status_code == 200 and "Ann wins Baltic Avenue for $10." in unescape(sold.get_data(as_text=True))
    assert game3.state()["auction"] is None
