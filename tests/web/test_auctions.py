"""Auctions on the screens: the live panel on every phone and the host, quick bids, and the
banker's countdown close (guarded by the high bid it was started for, once across screens)."""

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from html import unescape

import pytest

from .games import AUCTION, BROWN, deed, messages, new_game, page_form, page_forms, play, seat


@pytest.fixture
def bidding(client):
    """Ann (50 cash) declined Baltic Avenue; Bob bid 20, Cy passed: auction 1 is open."""
    game = new_game(client, players=3)
    return play(game, ("banker", {"type": "bank_charge", "player": 1, "amount": 1450}), *AUCTION,
                (2, {"type": "bid", "amount": 20}), (3, {"type": "pass"}))


def panel(html: str) -> str:
    """The auction panel of a page (empty when there is none)."""
    html = unescape(html)
    if 'class="auction"' not in html:
        return ""
    return html.split('<div class="auction"', 1)[1].split('<section', 1)[0]


def test_the_auction_panel_is_on_every_phone_and_the_host(bidding, host, phone, stranger):
    screens = {pid: phone(bidding, pid) for pid in (1, 2, 3)}
    screens |= {"banker": host(bidding), "table": stranger(bidding)}
    for who, browser in screens.items():
        for html in (browser.page(), browser.pushed()):
            shown = panel(html)
            assert 'data-auction="1"' in shown and 'data-high-bid="20"' in shown, who
            assert "High bid $20 by Bob" in shown, who
            assert 'data-high-bidder="2"' in shown, who
            assert 'class="deed-card g-brown" data-square="3"' in shown and "printed price\u00a0$60" in shown, who
            assert "Cy · passed" in shown, who
            assert "Ann · passed" not in shown and "Bob · passed" not in shown, who


QUICK_BID = re.compile(r'<button type="button" class="bid" data-bid="(\d+)" data-money="[^"]*"\s*(disabled)?>(.*?)</button>',
                       re.S)


def quick_bids(html: str) -> list[tuple[int, str, bool]]:
    """The quick bids a page proposes: (amount, label, disabled)."""
    return [(int(amount), " ".join(unescape(label).split()), bool(disabled))
            for amount, disabled, label in QUICK_BID.findall(html)]


def test_quick_bids_propose_1_10_50_100_more_and_are_disabled_above_the_bidders_cash(bidding, phone):
    ann = phone(bidding, 1)
    assert quick_bids(ann.page()) == [(21, "+1 → $21", False), (30, "+10 → $30", False), (70, "+50 → $70", True),
                                      (120, "+100 → $120", True)]  # Ann has $50
    # A quick bid only proposes (static/app.js fills the bid box): the one form that bids is the typed one.
    [send] = page_forms(ann.page(), "bid")
    assert send.label == "Bid" and send.get("amount") == ""
    assert 'data-proposed="Send bid {amount}"' in ann.page()
    assert page_form(ann.page(), "pass")

    bob, cy = phone(bidding, 2), phone(bidding, 3)
    assert "You hold the high bid." in panel(bob.page())
    assert not page_forms(bob.page(), "pass")
    assert not page_forms(cy.page(), "bid") and not page_forms(cy.page(), "pass")

    response = ann.submit(send, htmx=True, amount=30)  # +10, then "Send bid $30"
    assert response.status_code == 200 and "Ann bids $30." in unescape(response.get_data(as_text=True))
    assert (bidding.state()["auction"]["high_bid"], bidding.state()["auction"]["high_bidder"]) == (30, 1)
    assert [(amount, disabled) for amount, _, disabled in quick_bids(bob.page())] == [
        (31, False), (40, False), (80, False), (130, False)]
    assert "High bid $30 by Ann" in panel(cy.page())


def test_before_any_bid_the_quick_bids_open_at_10_50_and_100(client, phone):
    game = play(new_game(client), *AUCTION)
    assert quick_bids(phone(game, 2).page()) == [(10, "$10", False), (50, "$50", False), (100, "$100", False)]


def test_a_typed_bid_above_cash_is_refused_on_the_phone(bidding, phone):
    ann = phone(bidding, 1)
    before = bidding.state()
    response = ann.submit(page_form(ann.page(), "bid", amount=""), htmx=True, amount=51)
    assert response.status_code == 422
    assert "Ann has only $50; a bid cannot be more." in unescape(response.get_data(as_text=True))
    assert bidding.state() == before


def closing(game) -> None:
    """Auction 1 of Baltic Avenue with Ann's bid of 10 standing."""
    play(game, *AUCTION, (1, {"type": "bid", "amount": 10}))


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_closing_with_a_stale_high_bid_is_refused_and_changes_nothing(game, host, htmx):
    closing(game)
    banker = host(game)
    close = page_form(banker.page(), "close_auction")
    assert close.get("high_bid") == "10" and re.fullmatch("[0-9a-f]{32}", close.get("nonce"))
    assert close.attrs["data-countdown"] == "1-10"  # auction and high bid
    assert close.label == "Sell to Ann now"
    game.ok(2, type="bid", amount=30)
    before = game.state()

    response = banker.submit(close, htmx=htmx)
    says = "A new bid of $30 came in; the countdown starts again."
    if htmx:
        assert response.status_code == 422
        assert says in unescape(response.get_data(as_text=True))
    else:
        assert response.status_code == 303
        assert says in messages(banker.page())
    assert game.state() == before

    api = game.act("banker", type="close_auction", high_bid=10)
    assert api.status_code == 409
    assert api.get_json()["error"] == {"code": "new_bid", "message": says}
    assert game.state() == before

    fresh = page_form(banker.page(), "close_auction")
    assert (fresh.get("high_bid"), fresh.label) == ("30", "Sell to Bob now") and fresh.get("nonce") != close.get("nonce")
    banker.submit(fresh, htmx=htmx)
    state = game.state()
    assert state["auction"] is None and deed(state, 3)["owner"] == 2 and seat(state, 2)["cash"] == 1470


def test_two_banker_screens_closing_at_once_close_once(app, game, host):
    closing(game)
    screens = [host(game), host(game)]
    forms = [page_form(s.page(), "close_auction") for s in screens]
    assert forms[0].get("nonce") == forms[1].get("nonce")
    version = game.state()["version"]
    barrier = threading.Barrier(2)

    def close(i):
        barrier.wait()
        return screens[i].submit(forms[i], htmx=True)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(close, range(2)))

    assert [a.status_code for a in answers] == [200, 200]
    assert all("Ann wins Baltic Avenue for $10." in unescape(a.get_data(as_text=True)) for a in answers)
    state = game.state()
    assert state["version"] == version + 1
    assert state["auction"] is None and deed(state, 3)["owner"] == 1 and seat(state, 1)["cash"] == 1490
    assert [e["type"] for e in game.events()].count("close_auction") == 1


def test_an_undone_close_can_be_closed_again_from_the_banker_screen(game, host):
    """Undo brings the auction back with the same id and high bid; the close form must not carry the
    undone close's nonce (a repeat would report the sale and apply nothing) nor its spent countdown."""
    closing(game)
    banker = host(game)
    first = page_form(banker.page(), "close_auction")
    banker.submit(first, htmx=True)
    assert game.state()["auction"] is None
    banker.submit(page_form(banker.page(), "undo"), htmx=True)
    assert game.state()["auction"]["high_bid"] == 10
    again = page_form(banker.page(), "close_auction")
    assert again.get("nonce") != first.get("nonce")
    assert again.attrs["data-countdown"] != first.attrs["data-countdown"]  # the countdown starts over
    assert banker.submit(again, htmx=True).status_code == 200
    state = game.state()
    assert state["auction"] is None and deed(state, 3)["owner"] == 1 and seat(state, 1)["cash"] == 1490


def test_a_deed_auction_with_no_bid_closes_unsold(game, host):
    play(game, *AUCTION)
    banker = host(game)
    close = page_form(banker.page(), "close_auction")
    assert close.label == "Close without a sale" and close.get("high_bid") == "0"
    assert banker.submit(close, htmx=True).status_code == 200
    state = game.state()
    assert state["auction"] is None and deed(state, 3)["owner"] is None
    assert game.cash() == {1: 1500, 2: 1500}
    assert "Nobody bid: Baltic Avenue stays with the bank." in game.events()[-1]["text"]


def test_a_won_building_is_placed_from_the_phone(client, host, phone):
    """A house auctioned by the banker: the winner pays the bid and places it with "Place here"."""
    game = new_game(client)
    play(game, ("banker", {"type": "move", "player": 1, "square": 39}),
         (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
         (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
         ("banker", {"type": "auction_building", "building": "house"}))
    ann = phone(game, 1)
    assert "one house" in panel(ann.page())
    ann.submit(page_form(ann.page(), "bid", amount=""), htmx=True, amount=5)
    assert "Ann wins a house for $5 and must place it now." in game.events()[-1]["text"]
    page = unescape(ann.page())
    # The sentence leads to the lot where the house may go (at 200% text it was screens below).
    assert '<a href="#place-here">You won a house' in page
    assert re.search(r'<li class="lot[^"]*" data-square="1" data-level="0" id="place-here">', page)
    assert page.count('id="place-here"') == 1  # the first lot that takes it, not Baltic Avenue too
    place = page_form(page, "build", square=1)
    assert place.label == "Place here" and not place.disabled
    ann.submit(place, htmx=True)
    state = game.state()
    assert deed(state, 1)["houses"] == 1 and state["pending"] is None
    assert seat(state, 1)["cash"] == 1580 - 5 and state["bank"]["houses"] == 31
    assert game.events()[-1]["text"] == "Ann placed the house won at auction on Mediterranean Avenue."


def test_the_live_turn_panel_of_the_host_carries_the_close_form_only_for_the_banker(game, host, stranger):
    closing(game)
    assert page_forms(host(game).pushed(), "close_auction")
    table = stranger(game)
    assert not page_forms(table.page(), "close_auction")  # the page first: its cookie opens the live connection
    assert not page_forms(table.pushed(), "close_auction")


TYPED_BID = re.compile(r'<form [^>]*class="typed-bid row" id="([^"]+)" hx-preserve>')


def test_a_bid_typed_for_one_lot_is_not_kept_for_another_auction_with_the_same_id(client, phone):
    """The typed bid is kept through pushes (hx-preserve, by its id). After undos an auction may open
    again with the same id for another lot: its bid box has another id, so a page that goes from
    one straight to the other (a phone waking up) drops the amount typed for the first."""
    game = play(new_game(client), *AUCTION)
    first = (game.state()["auction"], TYPED_BID.findall(phone(game, 2).page()))
    play(game, ("banker", {"type": "undo"}), ("banker", {"type": "undo"}),  # the decline, then the roll
         (1, {"type": "roll", "dice": [1, 5]}), (1, {"type": "decline"}))  # Oriental Avenue instead
    second = (game.state()["auction"], TYPED_BID.findall(phone(game, 2).page()))
    assert first[0]["id"] == second[0]["id"] and (first[0]["square"], second[0]["square"]) == (3, 6)
    assert len(first[1]) == len(second[1]) == 1 and first[1] != second[1]


def test_the_host_offers_a_shortage_auction_only_when_legal_and_its_bidders_get_bid_controls(
        client, host, phone, stranger):
    """The banker's tools offer a house or hotel's auction while the rules allow one; the phones
    that could place it get the deed auction's bid controls, the others none."""
    game = new_game(client, players=3)
    banker = host(game)
    assert not page_forms(banker.page(), "auction_building")  # nobody could place a building
    play(game, *BROWN)  # Ann owns the brown group
    html = banker.page()
    assert [f.get("building") for f in page_forms(html, "auction_building")] == ["house"]
    assert "Auction the bank's last buildings" in html
    assert not page_forms(stranger(game).page(), "auction_building")
    assert not page_forms(phone(game, 1).page(), "auction_building")

    opened = banker.submit(page_form(html, "auction_building"), htmx=True)
    assert opened.status_code == 200
    assert game.state()["auction"]["building"] == "house"
    assert not page_forms(banker.page(), "auction_building")  # one auction at a time
    assert not page_forms(banker.pushed(), "auction_building")
    ann, bob = phone(game, 1), phone(game, 2)
    assert "one house" in panel(ann.page()) and "one house" in panel(bob.page())
    assert page_forms(ann.page(), "bid") and page_forms(ann.page(), "pass")
    assert not page_forms(bob.page(), "bid")  # Bob has no lot to place it on
    assert page_forms(banker.page(), "close_auction")

