"""Trades on the phones: the composer, offers in and out with their deeds drawn, the mortgage lift
choice and its fee, offers that can no longer happen, and refusals that change nothing."""

from html import unescape

import pytest

from .games import BALTIC, HTMX, deed, messages, new_game, page_form, page_forms, play, seat

ROLL = "roll"


def steps(*actions):
    """(who, type, fields) triples as API steps."""
    return tuple((who, {"type": kind, **fields}) for who, kind, fields in actions)


# Ann buys Electric Company (doubles) and mortgages it, then buys Pennsylvania Railroad: 1225 cash.
UTILITY_AND_RAILROAD = steps(
    (1, ROLL, {"dice": [6, 6]}), (1, "buy", {}), (1, "mortgage", {"square": 12}),
    (1, ROLL, {"dice": [1, 2]}), (1, "buy", {}))
# Ann holds the brown group with a house on Mediterranean Avenue, and Vermont Avenue; Bob holds
# Reading Railroad, mortgaged.
BUILT_AND_MORTGAGED = steps(
    ("banker", "move", {"player": 1, "square": 39}),
    (1, ROLL, {"dice": [1, 1]}), (1, "buy", {}), (1, ROLL, {"dice": [1, 1]}), (1, "buy", {}),
    (1, ROLL, {"dice": [2, 3]}), (1, "buy", {}), (1, "build", {"square": 1}), (1, "end_turn", {}),
    (2, ROLL, {"dice": [2, 3]}), (2, "buy", {}), (2, "mortgage", {"square": 5}))


def offer_cards(html: str, kind: str) -> dict[int, str]:
    """The offer cards ("incoming" or "outgoing") on a phone, by trade id."""
    html = unescape(html)
    cards = {}
    for chunk in html.split(f'<div class="offer-card {kind}" data-trade="')[1:]:
        trade, body = chunk.split('"', 1)
        cards[int(trade)] = body.split('<div class="offer-card', 1)[0]
    return cards


def test_the_composer_lists_only_deeds_that_can_change_hands(client, phone):
    game = play(new_game(client), *BUILT_AND_MORTGAGED)
    ann = phone(game, 1)
    composer = ann.page(f"/p/{game.code}/trade/2")
    offer = page_form(composer, "offer_trade")
    assert offer.action == f"/p/{game.code}/trade/2" and offer.get("to") == "2"
    assert [v for n, v, _ in offer.boxes if n == "give_squares"] == ["8"]  # not the built brown group
    assert [v for n, v, _ in offer.boxes if n == "get_squares"] == ["5"]
    assert [v for n, v, _ in offer.boxes if n == "lift"] == ["5"]  # Bob's Reading Railroad is mortgaged
    text = unescape(composer)
    assert "If I get it, repay the mortgage now ($110) instead of paying the 10% fee" in text
    assert "Cash (you have $1,430)" in text and "Cash (Bob has $1,400)" in text
    assert 'class="deed-card railroad mortgaged" data-square="5"' in composer

    bob = phone(game, 2)
    offer = page_form(bob.page(f"/p/{game.code}/trade/1"), "offer_trade")
    assert [v for n, v, _ in offer.boxes if n == "give_squares"] == ["5"]
    assert [v for n, v, _ in offer.boxes if n == "get_squares"] == ["8"]


def test_the_composer_is_only_for_another_seat_of_the_game(game, phone, stranger):
    ann = phone(game, 1)
    for partner in (1, 9):
        assert ann.client.get(f"/p/{game.code}/trade/{partner}").status_code == 404
    response = stranger(game).client.get(f"/p/{game.code}/trade/2")
    assert response.status_code == 302 and response.headers["Location"] == f"/j/{game.code}"
    assert "Trade with Bob" in unescape(ann.page())


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_sending_an_offer_from_the_composer_returns_to_the_phone(game, phone, htmx):
    play(game, *BALTIC)
    ann = phone(game, 1)
    composer = page_form(ann.page(f"/p/{game.code}/trade/2"), "offer_trade")
    response = ann.submit(composer, htmx=htmx, check=[3], get_cash=100)
    if htmx:
        assert response.status_code == 200
        assert response.headers["HX-Redirect"] == f"/p/{game.code}"
    else:
        assert response.status_code == 303
        assert response.headers["Location"] == f"/p/{game.code}"
    trades = game.state()["trades"]
    assert [(t["id"], t["offerer"], t["to"], t["give"], t["get"], t["lift"]) for t in trades] == [
        (1, 1, 2, {"cash": 0, "squares": [3], "jail_cards": []}, {"cash": 100, "squares": [], "jail_cards": []}, [])]
    page = ann.page()
    assert "Ann offers Bob a trade." in messages(page)
    outgoing = offer_cards(page, "outgoing")
    assert list(outgoing) == [1] and "You offer Bob" in outgoing[1] and "Waiting for Bob." in outgoing[1]
    assert 'data-square="3"' in outgoing[1] and '<span class="cash-chip">$100</span>' in outgoing[1]


REFUSED_OFFERS = [
    pytest.param({"give_cash": 1441}, [], "Ann has $1,440: not enough for this trade ($1,441).", id="more-cash"),
    pytest.param({"give_squares": 39}, [], "Ann does not own Boardwalk.", id="not-my-deed"),
    pytest.param({"get_squares": 39}, [], "Bob does not own Boardwalk.", id="not-their-deed"),
    pytest.param({"give_cash": "lots"}, [], "cash must be a whole number.", id="cash-text"),
    pytest.param({}, [], "The offer is empty: add cash, deeds or cards.", id="empty"),
    pytest.param({"get_cash": 5}, [3], "Baltic Avenue is not a mortgaged deed Ann receives.", id="lift-own-deed"),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("typed, lift, says", REFUSED_OFFERS)
def test_a_refused_offer_says_why_on_the_composer_and_changes_nothing(game, phone, typed, lift, says, htmx):
    play(game, *BALTIC)
    ann = phone(game, 1)
    here = f"/p/{game.code}/trade/2"
    composer = page_form(ann.page(here), "offer_trade")
    data = composer.data(**{k: v for k, v in typed.items() if k.endswith("_cash")})
    for name in ("give_squares", "get_squares"):  # deeds the page does not offer, as a crafted post
        if name in typed:
            data[name] = [str(typed[name])]
    if lift:
        data["lift"] = [str(s) for s in lift]
    before = game.state()
    response = ann.client.post(here, data=data, headers=HTMX if htmx else {})
    if htmx:
        assert response.status_code == 422
        assert "HX-Redirect" not in response.headers
        assert says in unescape(response.get_data(as_text=True))
    else:
        assert response.status_code == 303 and response.headers["Location"] == here
        assert says in messages(ann.page(here))
    assert game.state() == before


def test_a_trade_with_yourself_is_refused_through_the_api(game):
    play(game, *BALTIC)
    before = game.state()
    response = game.act(1, type="offer_trade", to=1, give={"squares": [3]}, get={"cash": 5})
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == "A trade needs two different players."
    assert game.state() == before


def test_a_trade_with_a_bankrupt_player_is_refused_and_their_open_offers_are_dropped(client, phone):
    game = play(new_game(client, players=3),
                (1, {"type": "offer_trade", "to": 3, "give": {"cash": 50}}),
                (3, {"type": "offer_trade", "to": 1, "give": {"cash": 20}}),
                (3, {"type": "pay", "to": 2, "amount": 2000}))
    assert len(game.state()["trades"]) == 2
    result = game.ok(3, type="bankrupt")
    assert [e["kind"] for e in result["events"]].count("trade_dropped") == 2
    state = game.state()
    assert state["trades"] == [] and seat(state, 3)["bankrupt"]
    for who, action, says in [
        (1, {"type": "offer_trade", "to": 3, "give": {"cash": 50}}, "Cy is out of the game."),
        (2, {"type": "offer_trade", "to": 3, "get": {"cash": 5}}, "Cy is out of the game."),
        (3, {"type": "offer_trade", "to": 1, "give": {"cash": 5}}, "Cy is bankrupt and out of the game."),
    ]:
        response = game.act(who, **action)
        assert response.status_code == 409 and response.get_json()["error"]["message"] == says
    assert game.state() == state
    ann = phone(game, 1)
    page = unescape(ann.page())
    assert "Trade with Bob" in page and "Trade with Cy" not in page
    assert not offer_cards(page, "outgoing") and not offer_cards(page, "incoming")
    assert "The offer between Ann and Cy can no longer happen and was removed." in page
    assert ann.client.get(f"/p/{game.code}/trade/3").status_code == 404
    response = ann.client.post(f"/p/{game.code}/trade/3", data={"csrf_token": ann.csrf, "type": "offer_trade",
                                                                  "to": "3", "give_cash": "50"}, headers=HTMX)
    assert response.status_code == 422 and "Cy is out of the game." in response.get_data(as_text=True)
    assert game.state() == state


def test_the_receiver_sees_the_deeds_and_a_lift_choice_for_each_mortgaged_deed(game, host, phone):
    play(game, *UTILITY_AND_RAILROAD,
         (1, {"type": "offer_trade", "to": 2, "give": {"squares": [12, 15]}, "get": {"cash": 300}}))
    bob = phone(game, 2)
    incoming = offer_cards(bob.page(), "incoming")
    assert list(incoming) == [1]
    card = incoming[1]
    assert "Ann offers you" in card and "and asks for" in card
    assert 'class="deed-card utility mortgaged" data-square="12"' in card
    assert 'class="deed-card railroad" data-square="15"' in card
    assert '<span class="cash-chip">$300</span>' in card
    accept = page_form(bob.page(), "accept_trade", trade=1)
    assert [(n, v, c) for n, v, c in accept.boxes] == [("lift", "12", False)]  # the railroad is not mortgaged
    assert "Repay the mortgage on Electric Company now for $83 (otherwise pay the $8 fee)" in card
    assert not accept.disabled and page_form(bob.page(), "reject_trade", trade=1)
    assert not offer_cards(bob.page(), "outgoing")

    ann = phone(game, 1)
    assert list(offer_cards(ann.page(), "outgoing")) == [1] and not offer_cards(ann.page(), "incoming")
    assert page_form(ann.page(), "withdraw_trade", trade=1)
    assert not page_forms(ann.page(), "accept_trade")
    assert "Offer from Ann to Bob, waiting for an answer" in unescape(host(game).page())


@pytest.mark.parametrize("lift, bob_pays, says", [
    pytest.param(False, 8, "Bob paid the bank $8: 10% on the mortgage of Electric Company.", id="keep-mortgage"),
    pytest.param(True, 83, "Bob repaid the mortgage on Electric Company for $83.", id="lift"),
])
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_accepting_charges_the_fee_or_the_lift(game, phone, lift, bob_pays, says, htmx):
    """Electric Company's mortgage is 75: the fee is 10% rounded up (8), lifting costs 83."""
    play(game, *UTILITY_AND_RAILROAD,
         (1, {"type": "offer_trade", "to": 2, "give": {"squares": [12, 15]}, "get": {"cash": 300}}))
    bob = phone(game, 2)
    accept = page_form(bob.page(), "accept_trade", trade=1)
    response = bob.submit(accept, htmx=htmx, check=[12] if lift else [])
    assert response.status_code == (200 if htmx else 303)
    state = game.state()
    assert (seat(state, 1)["cash"], seat(state, 2)["cash"]) == (1225 + 300, 1500 - 300 - bob_pays)
    assert (deed(state, 12)["owner"], deed(state, 15)["owner"]) == (2, 2)
    assert deed(state, 12)["mortgaged"] is not lift and deed(state, 15)["mortgaged"] is False
    assert state["trades"] == []
    text = game.events()[-1]["text"]
    assert "Trade done: Ann gives Electric Company and Pennsylvania Railroad; Bob gives $300." in text
    assert says in text
    assert not offer_cards(bob.page(), "incoming") and not offer_cards(phone(game, 1).page(), "outgoing")


def test_the_offerer_can_ask_to_lift_what_they_receive(client, phone):
    """Ann asks for Bob's mortgaged Reading Railroad (100) and ticks the lift: she pays 110 on acceptance."""
    game = play(new_game(client), *BUILT_AND_MORTGAGED)
    ann = phone(game, 1)
    composer = page_form(ann.page(f"/p/{game.code}/trade/2"), "offer_trade")
    ann.submit(composer, htmx=True, check=[5], give_cash=200)
    assert game.state()["trades"][0]["lift"] == [5]
    before = game.cash()
    bob = phone(game, 2)
    accept = page_form(bob.page(), "accept_trade", trade=1)
    assert accept.boxes == []  # Bob receives no mortgaged deed
    bob.submit(accept, htmx=True)
    state = game.state()
    assert deed(state, 5)["owner"] == 1 and not deed(state, 5)["mortgaged"]
    assert game.cash() == {1: before[1] - 200 - 110, 2: before[2] + 200}


def test_an_offer_that_can_no_longer_happen_disappears_from_both_phones(client, phone):
    game = new_game(client, players=3)
    play(game, *BALTIC,
         (1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}}),
         (1, {"type": "offer_trade", "to": 3, "give": {"squares": [3]}, "get": {"cash": 50}}))
    ann, bob, cy = phone(game, 1), phone(game, 2), phone(game, 3)
    assert list(offer_cards(ann.page(), "outgoing")) == [1, 2]
    assert list(offer_cards(bob.page(), "incoming")) == [1]

    cy.submit(page_form(cy.page(), "accept_trade", trade=2), htmx=True)
    state = game.state()
    assert deed(state, 3)["owner"] == 3 and state["trades"] == []
    assert "The offer between Ann and Bob can no longer happen and was removed." in game.events()[-1]["text"]
    for phone_page in (ann.page(), bob.page(), ann.pushed()):
        assert 'data-trade="1"' not in phone_page and 'data-trade="2"' not in phone_page


def test_an_offer_that_cannot_execute_now_says_why_and_cannot_be_accepted(game, phone):
    play(game, *BALTIC, (1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}}),
         (2, {"type": "pay", "to": "bank", "amount": 1450}))
    bob = phone(game, 2)
    says = "Not possible now: Bob has $50: not enough for this trade ($100)."
    assert says in offer_cards(bob.page(), "incoming")[1]
    assert page_form(bob.page(), "accept_trade", trade=1).disabled
    assert says in offer_cards(phone(game, 1).page(), "outgoing")[1]
    before = game.state()
    response = game.act(2, type="accept_trade", trade=1)
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == "Bob has $50: not enough for this trade ($100)."
    assert game.state() == before


@pytest.mark.parametrize("who, kind, says", [
    (2, "reject_trade", "Bob rejected Ann's offer."),
    (1, "withdraw_trade", "Ann withdrew the offer to Bob."),
])
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_rejecting_or_withdrawing_removes_the_offer_from_both_phones(game, phone, who, kind, says, htmx):
    play(game, *BALTIC, (1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}}))
    ann, bob = phone(game, 1), phone(game, 2)
    actor = ann if who == 1 else bob
    response = actor.submit(page_form(actor.page(), kind, trade=1), htmx=htmx)
    if htmx:
        assert says in unescape(response.get_data(as_text=True))
    else:
        assert says in messages(actor.page())
    state = game.state()
    assert state["trades"] == [] and deed(state, 3)["owner"] == 1 and game.cash() == {1: 1440, 2: 1500}
    for browser in (ann, bob):
        assert 'data-trade="1"' not in browser.page()


@pytest.mark.parametrize("who, action, says", [
    (1, {"type": "accept_trade", "trade": 1}, "Only Bob can accept this offer."),
    (1, {"type": "reject_trade", "trade": 1}, "Only Bob can reject this offer."),
    (2, {"type": "withdraw_trade", "trade": 1}, "Only Ann can withdraw this offer."),
    (1, {"type": "accept_trade", "trade": 2}, "Offer 2 is no longer open."),
])
def test_only_the_right_side_answers_an_offer(game3, who, action, says):
    """Ann offers Bob; Ann may not answer it and Bob may not withdraw it; Cy is not part of it at all."""
    play(game3, *BALTIC, (1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}}))
    before = game3.state()
    response = game3.act(who, **action)
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == says
    assert game3.state() == before
    for kind in ("accept_trade", "reject_trade", "withdraw_trade"):
        response = game3.act(3, type=kind, trade=1)
        assert response.status_code == 409
    assert game3.state() == before
