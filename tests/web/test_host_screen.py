"""The host screen (issue 10): the banker acts for any seat from the seat panel, a bank charge above a
seat's cash asks first, and no panel shows before it has something to offer."""

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest

from .games import AUCTION, BALTIC, HTMX, Browser, deed, new_game, page_form, page_forms, play, seat

# Ann rolls to Just Visiting and ends her turn; the banker puts Bob on Boardwalk; he rolls doubles
# twice, buying Mediterranean Avenue (passing GO) and Baltic Avenue, then 3 + 4 to Just Visiting,
# and ends his turn. Ann's turn: Bob holds the brown group and 1500 + 200 - 60 - 60 = 1580.
BOB_HAS_THE_BROWNS = ((1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}),
                      ("banker", {"type": "move", "player": 2, "square": 39}),
                      (2, {"type": "roll", "dice": [1, 1]}), (2, {"type": "buy"}),
                      (2, {"type": "roll", "dice": [1, 1]}), (2, {"type": "buy"}),
                      (2, {"type": "roll", "dice": [3, 4]}), (2, {"type": "end_turn"}))


def seat_screen(banker: Browser, pid: int) -> Browser:
    """The banker's screen with the seat panel of `pid` open, as picking that seat opens it."""
    return Browser(banker.client, banker.code, f"/t/{banker.code}/seats/{pid}")


def act_for_boxes(html: str) -> list[str]:
    """The turn panel's "Act for" boxes, by id."""
    return re.findall(r'id="(act-for-\d+)"', html)


def bank_seats(html: str) -> list[tuple]:
    """The seats the banker's pay-or-charge form offers: (id, name, cash, cash in words), as
    static/app.js reads them: the option's name, and the cash of its row in the balances."""
    options = html.split('id="bank-tools"', 1)[1].split("</select>", 1)[0]
    cash = dict(re.findall(r'data-player="(\d)">.*?<td class="cash" data-cash="(\d+)">([^<]+)</td>', html, re.S) and
                [(pid, (amount, words)) for pid, amount, words in
                 re.findall(r'data-player="(\d)">.*?<td class="cash" data-cash="(\d+)">([^<]+)</td>', html, re.S)])
    return [(pid, name, *cash[pid]) for pid, name in re.findall(r'value="(\d)" data-name="(\w+)"', options)]


# Acting for any seat.

def test_the_seat_picker_offers_every_seat_still_playing(game3, host):
    play(game3, (1, {"type": "pay", "to": 2, "amount": 2000}), (1, {"type": "bankrupt"}))
    page = host(game3).page()
    assert re.findall(rf'href="/t/{game3.code}/seats/(\d+)"', page) == ["2", "3"]  # Ann is out
    assert 'aria-current="page"' not in page and not page_forms(page, "pay")


def test_the_banker_bids_for_a_seat_whose_turn_it_is_not_and_the_other_passes(client, host):
    game = play(new_game(client), *AUCTION)  # Ann's turn; Baltic Avenue up for auction
    bob = seat_screen(host(game), 2)
    page = bob.page()
    assert f'href="/t/{game.code}/seats/2" aria-current="page"' in page
    response = bob.submit(page_form(page, "bid", player=2, amount=""), htmx=True, amount=10)
    assert response.status_code == 200 and "Bob bids $10." in unescape(response.get_data(as_text=True))
    auction = game.state()["auction"]
    assert (auction["high_bidder"], auction["high_bid"]) == (2, 10)
    ann = seat_screen(bob, 1)
    ann.submit(page_form(ann.page(), "pass", player=1), htmx=True)
    state = game.state()
    assert state["auction"] is None and deed(state, 3)["owner"] == 2 and seat(state, 2)["cash"] == 1490


@pytest.mark.parametrize("type, square, applied", [
    ("build", 1, lambda s: deed(s, 1)["houses"] == 1 and seat(s, 2)["cash"] == 1580 - 50),
    ("mortgage", 3, lambda s: deed(s, 3)["mortgaged"] and seat(s, 2)["cash"] == 1580 + 30),
])
def test_the_banker_builds_and_mortgages_for_a_seat_whose_turn_it_is_not(client, host, type, square, applied):
    game = play(new_game(client), *BOB_HAS_THE_BROWNS)
    bob = seat_screen(host(game), 2)
    button = page_form(bob.page(), type, player=2, square=square)
    assert not button.disabled
    response = bob.submit(button)  # a plain form comes back to Bob's panel
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{game.code}/seats/2"
    state = game.state()
    assert state["turn"] == 1 and applied(state)


def test_the_banker_pays_for_a_seat_whose_turn_it_is_not(client, host):
    game = play(new_game(client), *BOB_HAS_THE_BROWNS)
    bob = seat_screen(host(game), 2)
    pay = page_form(bob.page(), "pay", player=2)
    assert pay.choices["to"] == ["1", "bank"]
    # More than half of Bob's $1,580 asks first (test_second_tap), and the box folds once the payment
    # is applied (static/app.js).
    assert re.search(r'<details class="tools" id="seat-pay-2" data-fold>', bob.page())
    sent = {**pay.data(amount="25", memo="pizza"), "to": "1"}  # Ann, chosen in the list
    response = bob.client.post(pay.action, data=sent, headers=HTMX)
    assert "Bob paid Ann $25. (pizza)" in unescape(response.get_data(as_text=True))
    assert game.cash() == {1: 1525, 2: 1555}


def test_the_banker_moves_a_token_by_hand_and_nothing_is_paid(client, host):
    """A card the app does not know, or a slip: the seat panel puts the token where it is on the
    table (after asking), paying nothing, not even GO passed on the way."""
    game = play(new_game(client), (1, {"type": "roll", "dice": [3, 4]}))  # Ann on Chance (7)
    ann = seat_screen(host(game), 1)
    move = page_form(ann.page(), "move", player=1)
    assert move.get("square") == "7"  # where the token is now, selected
    assert move.choices["square"] == [str(i) for i in range(40)]
    assert unescape(move.attrs["hx-confirm"]).startswith("Put Ann's token on the square chosen?")
    response = ann.client.post(move.action, data={**move.data(), "square": "3"}, headers=HTMX)
    assert "The banker put Ann on Baltic Avenue." in unescape(response.get_data(as_text=True))
    state = game.state()
    assert seat(state, 1)["position"] == 3 and game.cash() == {1: 1500, 2: 1500}
    assert state["pending"]["kind"] == "draw"  # moved, not landed: Ann's card is still to draw


@pytest.mark.parametrize("square, says", [("40", "square must be"), ("x", "square must be"), ("", "square")])
def test_a_bad_square_for_a_hand_move_is_refused_and_moves_nothing(game, host, square, says):
    ann = seat_screen(host(game), 1)
    move = page_form(ann.page(), "move", player=1)
    response = ann.client.post(move.action, data={**move.data(), "square": square}, headers=HTMX)
    assert response.status_code == 422 and says in unescape(response.get_data(as_text=True))
    assert seat(game.state(), 1)["position"] == 0


def test_a_token_in_jail_is_not_offered_a_hand_move(client, host):
    game = play(new_game(client), ("banker", {"type": "move", "player": 1, "square": 27}),
                (1, {"type": "roll", "dice": [2, 1]}))  # Ann from Ventnor Avenue onto Go To Jail
    assert seat(game.state(), 1)["in_jail"]
    assert not page_forms(seat_screen(host(game), 1).page(), "move")


def test_the_banker_answers_a_trade_for_the_seat_it_was_offered_to(client, host):
    game = play(new_game(client), *BALTIC, (1, {"type": "end_turn"}),
                (2, {"type": "offer_trade", "to": 1, "give": {"cash": 100}, "get": {"squares": [3]}}))
    banker = host(game)
    offerer = seat_screen(banker, 2).page()
    assert not page_forms(offerer, "accept_trade") and page_form(offerer, "withdraw_trade", player=2, trade=1)
    ann = seat_screen(banker, 1)
    ann.submit(page_form(ann.page(), "accept_trade", player=1, trade=1), htmx=True)
    state = game.state()
    assert deed(state, 3)["owner"] == 2 and state["trades"] == [] and game.cash() == {1: 1540, 2: 1400}


def test_a_seat_panel_keeps_up_on_its_own_live_connection(client, host):
    game = play(new_game(client), *BOB_HAS_THE_BROWNS)
    bob = seat_screen(host(game), 2)
    assert f'sse-connect="/t/{game.code}/seats/2/live?v=' in bob.page()
    game.ok(2, type="build", square=3)
    pushed = unescape(bob.pushed())
    assert "Bob has $1,530." in pushed and "Sell house +$25" in pushed


def test_only_the_banker_has_a_seat_panel_and_only_for_a_seat_at_the_table(game, host, stranger):
    banker = host(game)
    assert banker.client.get(f"/t/{game.code}/seats/9").status_code == 404
    visitor = stranger(game).page(f"/t/{game.code}/seats/1")
    assert "seat-title" not in visitor and not page_forms(visitor, "pay")


# Big charges.

def test_a_charge_above_the_seats_cash_asks_the_banker_first(client, host):
    game = play(new_game(client), *BALTIC)  # Ann has $1,440, Bob $1,500
    page = host(game).page()
    assert bank_seats(page) == [("1", "Ann", "1440", "$1,440"), ("2", "Bob", "1500", "$1,500")]
    # The question is the Charge button's, not the Pay button's: paying out never asks.
    question = re.search(r'value="bank_charge" data-over-cash="([^"]+)"', page)
    assert question and unescape(question.group(1)).startswith("{name} has {cash}. Charging more leaves {name}")
    assert not re.search(r'value="bank_pay"[^>]*data-over-cash', page)
    game.ok("banker", type="bank_pay", player=1, amount=100)
    assert bank_seats(host(game).page())[0] == ("1", "Ann", "1540", "$1,540")


# No empty or premature panels.

def test_no_act_for_box_during_an_auction_where_the_turn_has_nothing_to_do(client, host):
    game = play(new_game(client), *AUCTION)  # Ann may bid or pass, which the seat panel offers
    page = host(game).page()
    assert act_for_boxes(page) == [] and "Act for Ann" not in unescape(page)


def test_no_act_for_box_for_a_debtor_who_must_raise_cash_first(client, host):
    # Ann has $1,440 and Baltic Avenue (mortgage $30): a $1,450 charge is more than she has but not
    # more than she could raise, so there is neither a payment nor a bankruptcy to offer yet.
    game = play(new_game(client), *BALTIC, ("banker", {"type": "bank_charge", "player": 1, "amount": 1450}))
    banker = host(game)
    assert act_for_boxes(banker.page()) == []
    game.ok(1, type="mortgage", square=3)
    page = unescape(banker.page())
    assert act_for_boxes(page) == ["act-for-1"]
    assert page_form(page, "pay_debt", player=1).label == "Pay the bank $1,450"


def test_the_act_for_box_offers_the_turn_to_whose_turn_it_is(game, host):
    page = unescape(host(game).page())
    assert act_for_boxes(page) == ["act-for-1"]
    roll = page_form(page, "roll", player=1)
    assert roll.label == "Move Ann"


def test_the_auction_countdown_appears_with_the_first_bid_everywhere_from_the_servers_deadline(client, host, phone):
    game = play(new_game(client), *AUCTION)
    banker = host(game)
    assert page_form(banker.page(), "close_auction").label == "Close without a sale"
    assert 'class="countdown' not in banker.page() and game.state()["auction"]["closes_at"] is None
    before = datetime.now(UTC).replace(microsecond=0)  # the API gives milliseconds
    game.ok(2, type="bid", amount=10)
    closes_at = datetime.fromisoformat(game.state()["auction"]["closes_at"])
    assert before + timedelta(seconds=15) <= closes_at <= datetime.now(UTC) + timedelta(seconds=15)
    for page in (banker.page(), phone(game, 1).page(), phone(game, 2).page()):
        clock = re.search(r'<p class="countdown[^"]*" data-closes-at="([^"]+)" data-now="[^"]+">\s*Closes in '
                          r'<time datetime="([^"]+)" data-left>(\d+)</time> s', page)
        assert clock and datetime.fromisoformat(clock[1]) == closes_at == datetime.fromisoformat(clock[2])
        assert 14 <= int(clock[3]) <= 15


def test_the_last_five_seconds_of_the_countdown_are_marked(client, host, phone):
    game = play(new_game(client, rules={"auction_countdown_seconds": 5}), *AUCTION, (2, {"type": "bid", "amount": 10}))
    for page in (host(game).page(), phone(game, 1).page()):
        assert re.search(r'<p class="countdown ending" data-closes-at="[^"]+"', page)
    game = play(new_game(client, rules={"auction_countdown_seconds": 60}), *AUCTION, (2, {"type": "bid", "amount": 10}))
    assert re.search(r'<p class="countdown" data-closes-at="[^"]+"', host(game).page())


def test_a_countdown_of_0_leaves_the_close_to_the_banker(client, host):
    game = play(new_game(client, rules={"auction_countdown_seconds": 0}), *AUCTION, (2, {"type": "bid", "amount": 10}))
    page = host(game).page()
    assert game.state()["auction"]["closes_at"] is None and 'class="countdown' not in page
    assert "data-auto" not in page and page_form(page, "close_auction").label == "Sell to Bob now"


def test_the_lobby_has_one_start_button_and_no_balances_yet(client, host):
    game = new_game(client, start=False)
    play(game, (1, {"type": "opening_roll", "dice": [1, 2]}), (2, {"type": "opening_roll", "dice": [6, 6]}))
    page = host(game).page()
    [start] = page_forms(page, "start")
    assert start.label == "Start in this order"
    assert (start.get("pos-1"), start.get("pos-2")) == ("2", "1")  # the places follow the rolls
    seats = page.split('<ol class="seats">', 1)[1].split("</ol>", 1)[0]
    assert seats.index("Bob") < seats.index("Ann")  # and the list reads in that order
    assert "<button" not in page.split('id="players"', 1)[1].split("</section>", 1)[0]
    assert 'class="balances"' not in page


def test_an_opening_roll_tie_is_told_on_the_tied_phones_and_the_host(client, host, phone):
    game = new_game(client, players=3, start=False)
    play(game, (1, {"type": "opening_roll", "dice": [4, 4]}), (2, {"type": "opening_roll", "dice": [5, 3]}),
         (3, {"type": "opening_roll", "dice": [1, 1]}))
    assert "You tied with Bob at 8: roll again." in phone(game, 1).page()
    assert "You tied with Ann at 8: roll again." in phone(game, 2).page()
    assert "tied with" not in phone(game, 3).page()
    seats = host(game).page().split('<ol class="seats">', 1)[1].split("</ol>", 1)[0]
    assert seats.count("tied with") == 2
    assert "tied with Bob: rolls again" in seats and "tied with Ann: rolls again" in seats
    # The rolls on a line of their own under the name (beside it they squeezed "· Car" onto two lines).
    assert len(re.findall(r'</span>\s*<span class="rolls"><span class="badge">rolled 8</span>\s*<span class="badge tie">', seats)) == 2
    play(game, (1, {"type": "opening_roll", "dice": [1, 2]}), (2, {"type": "opening_roll", "dice": [2, 2]}))
    assert "tied with" not in phone(game, 1).page() + host(game).page()


def test_tied_names_are_listed_in_the_readers_language(client, host, phone):
    """Three tied at 8: their names joined as the reader's language joins a list (Babel's
    format_list): 「Bob、Cy」 in Japanese, not "Bob, Cy"."""
    game = new_game(client, players=3, start=False)
    play(game, *((pid, {"type": "opening_roll", "dice": [4, 4]}) for pid in (1, 2, 3)))
    assert "You tied with Bob and Cy at 8: roll again." in phone(game, 1).page()
    ann = phone(game, 1).page(f"/p/{game.code}?lang=ja")
    assert "Bob、Cy" in unescape(ann) and "Bob, Cy" not in ann
    assert "tied with Ann and Cy: rolls again" in host(game).page()


STOPPED = "The banker program stopped. Start it again in its terminal (banker) and this page will catch up."
LOST = "Connection lost: reconnecting to the banker’s laptop…"


@pytest.mark.parametrize(("address", "says"), [("127.0.0.1", STOPPED), ("::1", STOPPED), ("192.0.2.7", LOST)])
def test_the_host_screen_on_the_servers_own_machine_says_the_banker_program_stopped(game, host, address, says):
    """When the live connection is lost (static/app.js shows the line): on the banker's own laptop
    only the `banker` program can have stopped; elsewhere, as on a phone, it may be the network."""
    banker = host(game)
    page = unescape(banker.client.get(banker.home, environ_base={"REMOTE_ADDR": address}).get_data(as_text=True))
    assert re.search(r'<p id="reconnecting"[^>]*>([^<]*)</p>', page).group(1) == says
    assert ("Start it again in its terminal (banker), then tap again" in page) == (says == STOPPED)


def test_a_phone_on_the_servers_own_machine_keeps_the_phones_words(game, phone):
    page = unescape(phone(game, 1).page())
    assert re.search(r'<p id="reconnecting"[^>]*>([^<]*)</p>', page).group(1) == LOST


def test_the_hosts_buy_and_decline_name_the_seat_so_a_stale_page_cannot_act_for_another(game, host):
    """The banker's Buy / Decline for Ann carry her seat, so a tap from a page that fell behind is
    checked against Ann's offer, never applied to whoever's turn it is by then."""
    play(game, (1, {"type": "roll", "dice": [1, 2]}))  # Ann on Baltic Avenue, offered it
    page = host(game).page()
    assert page_form(page, "buy").get("player") == page_form(page, "decline").get("player") == "1"
