"""The banker composes trade offers for a seat without a phone, on the phones' composer opened from
the seat panel: the offer goes out in the seat's name, the partner's phone sees it, a refusal stays
on the composer, and nobody but the banker gets the page."""

import re
from html import unescape

import pytest

from .games import BALTIC, HTMX, messages, new_game, page_form, page_forms, play

# Ann buys Baltic Avenue (1440) and ends her turn; Bob buys Reading Railroad and mortgages it (1400).
ANN_HAS_BALTIC_BOB_READING = (*BALTIC, (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [2, 3]}),
                              (2, {"type": "buy"}), (2, {"type": "mortgage", "square": 5}))


def composer(game, seat: int = 1, partner: int = 2) -> str:
    """The banker's composer for `seat`'s offer to `partner` (by default Ann's to Bob)."""
    return f"/t/{game.code}/seats/{seat}/trade/{partner}"


def test_the_seat_panel_offers_a_trade_with_each_other_player_still_in_the_game(game3, host):
    play(game3, (1, {"type": "pay", "to": 2, "amount": 2000}), (1, {"type": "bankrupt"}))  # Ann is out
    bob = host(game3).page(f"/t/{game3.code}/seats/2")
    links = re.findall(rf'href="/t/{game3.code}/seats/2/trade/(\d+)">([^<]+)</a>', bob)
    assert links == [("3", "Offer Cy a trade")]


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_the_banker_offers_a_trade_for_a_seat_without_a_phone_and_the_partner_sees_it(client, host, phone, htmx):
    game = play(new_game(client), *ANN_HAS_BALTIC_BOB_READING)
    banker = host(game)
    page = banker.page(composer(game))
    text = unescape(page)
    assert "Trade for Ann with Bob" in text and "Ann gives" in text and "You give" not in text
    assert "Cash (Ann has $1,440)" in text and "Cash (Bob has $1,400)" in text
    assert "If Ann gets it, repay the mortgage now ($110) instead of paying the 10% fee" in text
    offer = page_form(page, "offer_trade")
    assert offer.action == composer(game) and (offer.get("player"), offer.get("to")) == ("1", "2")
    assert offer.box("give_squares", 3) and offer.box("get_squares", 5) and offer.box("lift", 5)

    data = offer.data(give_cash="50")
    data.update(give_squares=["3"], get_squares=["5"], lift=["5"])
    response = banker.client.post(offer.action, data=data, headers=HTMX if htmx else {})
    seat_panel = f"/t/{game.code}/seats/1"
    if htmx:
        assert response.status_code == 200 and response.headers["HX-Redirect"] == seat_panel
    else:
        assert response.status_code == 303 and response.headers["Location"] == seat_panel
    assert [(t["offerer"], t["to"], t["give"], t["get"], t["lift"]) for t in game.state()["trades"]] == [
        (1, 2, {"cash": 50, "squares": [3], "jail_cards": []}, {"cash": 0, "squares": [5], "jail_cards": []}, [5])]
    panel = banker.page(seat_panel)
    assert "Ann offers Bob a trade." in messages(panel)
    assert page_form(panel, "withdraw_trade", player=1, trade=1)

    bob = phone(game, 2).page()
    assert "Ann offers you" in unescape(bob) and page_form(bob, "accept_trade", trade=1)


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("typed, says", [
    pytest.param({}, "The offer is empty: add cash, deeds or cards.", id="empty"),
    pytest.param({"give_cash": "1441"}, "Ann has $1,440: not enough for this trade ($1,441).", id="more-cash"),
])
def test_a_refused_offer_says_why_on_the_host_composer_and_changes_nothing(client, host, typed, says, htmx):
    game = play(new_game(client), *ANN_HAS_BALTIC_BOB_READING)
    banker = host(game)
    offer = page_form(banker.page(composer(game)), "offer_trade")
    before = game.state()
    response = banker.client.post(offer.action, data=offer.data(**typed), headers=HTMX if htmx else {})
    if htmx:
        assert response.status_code == 422 and "HX-Redirect" not in response.headers
        assert says in unescape(response.get_data(as_text=True))
    else:
        assert response.status_code == 303 and response.headers["Location"] == composer(game)
        assert says in messages(banker.page(composer(game)))
    assert game.state() == before


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("who", ["stranger", "the seat's phone"])
def test_only_the_banker_composes_for_a_seat(game, host, phone, stranger, who, method):
    play(game, *BALTIC)
    offer = page_form(host(game).page(composer(game)), "offer_trade")
    browser = stranger(game) if who == "stranger" else phone(game, 1)
    before = game.state()
    if method == "GET":
        response = browser.client.get(composer(game))
    else:
        data = {**offer.data(check=[3]), "csrf_token": [browser.csrf]}
        response = browser.client.post(composer(game), data=data)
    assert response.status_code == 403
    assert "Only the banker's screen can do that." in unescape(response.get_data(as_text=True))
    assert game.state() == before


def test_the_composer_is_only_between_two_players_still_in_the_game(game3, host):
    play(game3, (1, {"type": "pay", "to": 3, "amount": 2000}), (1, {"type": "bankrupt"}))  # Ann is out
    banker = host(game3)
    for seat, partner in ((2, 2), (2, 9), (9, 2), (2, 1), (1, 2)):
        assert banker.client.get(composer(game3, seat, partner)).status_code == 404, (seat, partner)
    assert page_forms(banker.page(composer(game3, 2, 3)), "offer_trade", player=2, to=3)
