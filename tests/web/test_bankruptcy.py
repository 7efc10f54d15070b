"""Debts to bankruptcy on the screens: what is owed, to whom and what could be raised; bankruptcy
offered only when even everything would not cover it; to a player (who settles the mortgaged
deeds received) or to the bank (whose auctions follow in board order)."""

import re
from html import unescape

from .games import BOB_BANKRUPT_TO_ANN, BROWN, deed, messages, new_game, page_form, page_forms, play, seat

# Ann holds the brown group with a house on Baltic Avenue and $1,530: selling the house ($25) and
# mortgaging both lots ($30 each) would raise $85 more.
BUILT = (*BROWN, (1, {"type": "build", "square": 3}))
LOT_FOR_SALE = re.compile(r'<div class="lot-for-sale">\s*<span class="deed-card[^"]*" data-square="(\d+)"')


def debt_panel(html: str) -> str:
    """The phone's debt boxes, as text."""
    html = unescape(html)
    return " ".join(chunk.split("</div>", 1)[0] for chunk in html.split('<div class="debt')[1:])


def test_a_debt_the_player_can_raise_shows_what_is_owed_and_raisable_but_no_bankruptcy(client, host, phone):
    game = play(new_game(client, players=3), *BUILT, (1, {"type": "pay", "to": "bank", "amount": 1600}))
    page = phone(game, 1).page()
    panel = debt_panel(page)
    assert "You owe the bank $1,600." in panel
    assert "You have $1,530. Selling every building and mortgaging every deed would raise $85 more." in panel
    assert "Raise the rest with the buttons under your deeds (or a trade), then pay." in panel
    assert "Declare bankruptcy" not in unescape(page) and not page_forms(page, "bankrupt")
    assert not page_forms(page, "pay_debt")
    assert "Ann owes the bank $1,600" in unescape(host(game).page())
    assert not debt_panel(phone(game, 2).page())


def test_a_debt_the_player_can_pay_offers_the_payment(game, phone):
    play(game, (1, {"type": "pay", "to": 2, "amount": 2000}), ("banker", {"type": "bank_pay", "player": 1, "amount": 600}))
    ann = phone(game, 1)
    assert "You owe Bob $2,000." in debt_panel(ann.page())
    pay = page_form(ann.page(), "pay_debt")
    assert pay.label == "Pay $2,000" and not page_forms(ann.page(), "bankrupt")
    ann.submit(pay)
    assert game.cash() == {1: 100, 2: 3500} and game.state()["debts"] == []
    assert not debt_panel(ann.page())


def test_bankruptcy_to_a_player_is_offered_with_what_it_means(client, phone):
    game = play(new_game(client, players=3), (1, {"type": "pay", "to": 2, "amount": 2000}))
    page = phone(game, 1).page()
    panel = debt_panel(page)
    assert "You owe Bob $2,000." in panel
    assert "You have $1,500. Selling every building and mortgaging every deed would raise $0 more." in panel
    assert "Even everything you have would not cover $2,000." in panel
    assert ("Declaring bankruptcy: your buildings go back to the bank at half price, and that cash, your cash, "
            "deeds and cards all go to Bob. You leave the game.") in panel
    assert "Raise the rest" not in panel
    declare = page_form(page, "bankrupt")
    assert declare.label == "Declare bankruptcy" and declare.attrs["hx-confirm"] == "Declare bankruptcy and leave the game?"


def test_bankruptcy_to_the_bank_counts_every_debt_and_says_the_deeds_are_auctioned(client, phone):
    game = play(new_game(client, players=3), *BUILT, (1, {"type": "pay", "to": "bank", "amount": 1600}),
                (1, {"type": "pay", "to": 2, "amount": 100}))  # $1,430 + $85 < $1,600
    page = phone(game, 1).page()
    panel = debt_panel(page)
    assert "You owe the bank $1,600." in panel
    assert "You have $1,430. Selling every building and mortgaging every deed would raise $85 more." in panel
    assert "Even everything you have would not cover $1,600." in panel
    assert ("Declaring bankruptcy: your cash goes to the bank, your buildings back to the bank, your cards back "
            "to their decks, and each of your deeds is auctioned. You leave the game.") in panel
    assert page_form(page, "bankrupt").label == "Declare bankruptcy"


# Ann buys Boardwalk, then Mediterranean Avenue (passing GO), and mortgages Boardwalk: $1,440.
BOARDWALK_FIRST = (("banker", {"type": "move", "player": 1, "square": 37}),
                   (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
                   (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
                   (1, {"type": "mortgage", "square": 39}))


def test_after_bankruptcy_to_the_bank_the_first_deed_in_board_order_is_auctioned(client, host, phone):
    game = play(new_game(client, players=3), *BOARDWALK_FIRST, (1, {"type": "pay", "to": "bank", "amount": 1500}))
    ann = phone(game, 1)
    response = ann.submit(page_form(ann.page(), "bankrupt"), htmx=True)
    assert response.status_code == 200
    told = unescape(response.get_data(as_text=True))
    assert "Ann is bankrupt; everything goes to the bank. Ann's last $1,440 goes to the bank." in told
    assert "Mediterranean Avenue is up for auction." in told
    state = game.state()
    assert seat(state, 1)["bankrupt"] and seat(state, 1)["cash"] == 0 and state["debts"] == []
    assert state["turn"] == 2
    # Back with the bank, unmortgaged, and auctioned in board order (not the order Ann bought them).
    assert [(deed(state, q)["owner"], deed(state, q)["mortgaged"]) for q in (1, 39)] == [(None, False)] * 2
    assert state["auction"]["square"] == 1 and state["auction"]["bidders"] == [2, 3]
    assert state["auction_queue"] == [39]
    for page in (host(game).page(), phone(game, 2).page(), phone(game, 3).page()):
        page = unescape(page)
        assert LOT_FOR_SALE.search(page).group(1) == "1"
        assert "Mediterranean Avenue is up for auction." in page
    assert page_forms(phone(game, 2).page(), "bid")
    # Sold or not, the next deed follows.
    play(game, (2, {"type": "bid", "amount": 10}), (3, {"type": "pass"}))
    state = game.state()
    assert deed(state, 1)["owner"] == 2 and state["auction"]["square"] == 39 and state["auction_queue"] == []
    assert "Boardwalk is up for auction." in unescape(host(game).page())
    assert LOT_FOR_SALE.search(host(game).page()).group(1) == "39"
    play(game, ("banker", {"type": "close_auction"}))  # nobody bids: it stays with the bank
    state = game.state()
    assert state["auction"] is None and deed(state, 39)["owner"] is None


def test_a_bankrupt_players_phone_says_so_and_offers_nothing(client, phone):
    game = play(new_game(client, players=3), (3, {"type": "pay", "to": 2, "amount": 2000}), (3, {"type": "bankrupt"}))
    cy = phone(game, 3)
    page = cy.page()
    assert "You are out of the game" in unescape(page)
    assert not page_forms(page, "pay") and not page_forms(page, "bankrupt")
    assert f"/p/{game.code}/trade/" not in page
    assert cy.client.get(f"/p/{game.code}/trade/1").status_code == 404
    assert phone(game, 1).client.get(f"/p/{game.code}/trade/3").status_code == 404
    assert f"/p/{game.code}/trade/3" not in phone(game, 1).page()
    response = cy.post({"type": "pay", "to": 1, "amount": 5}, htmx=True)
    assert response.status_code == 422 and "Cy is bankrupt and out of the game." in response.get_data(as_text=True)


def out_card(html: str) -> str | None:
    """What a bankrupt player's phone says of them (templates/player/_out.html), as text."""
    found = re.search(r'<div class="out-of-game">(.*?)</div>', unescape(html), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else None


def emptied(html: str, sent: bool = False) -> bool:
    """The phone's wallet and trades cards are there for live updates only: hidden, and empty
    (`sent`: those of them a live update carries)."""
    return all(re.search(rf'<section id="{part}" class="card {part}" hidden( hx-swap-oob="true")?>\s*</section>', html)
               for part in ("wallet", "trades") if not sent or f'id="{part}"' in html)


def test_a_bankrupt_players_phone_shows_they_are_out_and_no_card_they_can_no_longer_use(client, host, phone):
    """Out of the game: the phone says so (whom to, their final place, who is still in) where the
    tools were, shows no empty wallet, deeds or trades, and goes on following the
    game live (whose turn, the standings, the history) to the end, where the story opens."""
    game = play(new_game(client, players=3), (3, {"type": "pay", "to": 2, "amount": 2000}), (3, {"type": "bankrupt"}))
    cy = phone(game, 3)
    page = cy.page()
    assert out_card(page) == ("You are out of the game You went bankrupt to Bob. Your final place: 3 of 3 "
                              "Still in the game, by net worth: Bob · $3,000 Ann · $1,500 This phone follows the "
                              "game to its end; then the story of the game opens here.")
    assert emptied(page)
    assert not page_forms(page) and 'data-cash' not in page  # (the buzz toggles: hidden by the stylesheet)
    for gone in ("No deeds yet.", "Pay someone", "Trades", "Trade with", "You are bankrupt"):
        assert gone not in unescape(page), gone
    assert "Ann's turn" in unescape(page) and "Cy is bankrupt; everything goes to Bob." in unescape(page)
    assert out_card(phone(game, 1).page()) is None and not emptied(phone(game, 1).page())

    # Live: a page that shows nothing gets the same; one a change behind gets the standings anew.
    [pushed] = cy.live()
    assert out_card(pushed.data) == out_card(page) and emptied(pushed.data)
    seen = game.state()["version"]
    play(game, (1, {"type": "pay", "to": 2, "amount": 100}))
    [update] = cy.live(seen)
    assert "Still in the game, by net worth: Bob · $3,100 Ann · $1,400" in out_card(update.data)
    assert emptied(update.data, sent=True)

    play(game, ("banker", {"type": "end_game"}))
    page = cy.page()
    assert out_card(page) == "You are out of the game You went bankrupt to Bob. Your final place: 3 of 3"
    assert emptied(page) and not page_forms(page)
    assert "Bob wins!" in unescape(page) and f'href="/p/{game.code}/story"' in page
    assert cy.client.get(f"/p/{game.code}/story").status_code == 200


def test_a_phone_bankrupt_to_the_bank_and_last_but_one_sees_the_end_and_the_story(client, phone):
    game = play(new_game(client), (1, {"type": "pay", "to": "bank", "amount": 2000}), (1, {"type": "bankrupt"}))
    page = phone(game, 1).page()
    assert out_card(page) == "You are out of the game You went bankrupt to the bank. Your final place: 2 of 2"
    assert emptied(page) and "Bob wins!" in unescape(page) and f'href="/p/{game.code}/story"' in page


def test_a_bankrupt_player_has_no_square_on_the_host_or_their_phone(client, host, phone):
    """A bankrupt player's token leaves the board: the host's balances and the phone's wallet name no
    square for them any more (the board already shows no pawn), while the others keep theirs."""
    game = play(new_game(client, players=3), ("banker", {"type": "move", "player": 3, "square": 39}),
                ("banker", {"type": "move", "player": 2, "square": 37}))
    before = unescape(host(game).page())
    assert "Boardwalk" in balance_row(before, 3) and "On Boardwalk" in unescape(phone(game, 3).page())
    play(game, (3, {"type": "pay", "to": 2, "amount": 2000}), (3, {"type": "bankrupt"}))
    page = unescape(host(game).page())
    assert "Boardwalk" not in balance_row(page, 3) and "<small>" not in balance_row(page, 3)
    assert "Park Place" in balance_row(page, 2)
    assert "On Boardwalk" not in unescape(phone(game, 3).page())


def balance_row(html: str, pid: int) -> str:
    """One player's row of the host's balances."""
    return re.search(rf'<tr id="balance-{pid}".*?</tr>', html, re.S).group(0)


def test_the_creditor_settles_the_mortgaged_deeds_received(client, host, phone):
    game = play(new_game(client, players=3), *BOB_BANKRUPT_TO_ANN)
    state = game.state()
    assert state["pending"] == {"kind": "inherit", "player": 1, "squares": [3]} and state["turn"] == 3
    assert deed(state, 3)["owner"] == 1 and deed(state, 3)["mortgaged"] and seat(state, 1)["cash"] == 2970
    ann = phone(game, 1)
    page = ann.page()
    settle = page_form(page, "receive_deeds")
    assert settle.label == "Settle the deeds" and settle.boxes == [("lift", "3", False)]
    assert "Repay the mortgage on Baltic Avenue now for $33 (otherwise pay the $3 fee)" in unescape(page)
    assert not page_forms(phone(game, 3).page(), "receive_deeds")
    response = ann.post({"type": "receive_deeds", "lift": [5]}, htmx=True)
    assert response.status_code == 422
    assert "Reading Railroad is not a mortgaged deed Ann received." in unescape(response.get_data(as_text=True))
    ann.submit(settle)  # keep it mortgaged: the 10% fee
    state = game.state()
    assert state["pending"] is None and deed(state, 3)["mortgaged"] and seat(state, 1)["cash"] == 2967
    assert "Ann paid the bank $3: 10% on the mortgage of Baltic Avenue." in messages(ann.page())


def test_the_banker_can_settle_the_deeds_for_a_creditor_whose_turn_it_is_not(client, host, phone):
    """A creditor without a phone: the host's banker tools answer their decision for them."""
    game = play(new_game(client, players=3), *BOB_BANKRUPT_TO_ANN)
    banker = host(game)
    page = banker.page()
    assert "Act for Ann" in unescape(page)
    settle = page_form(page, "receive_deeds")
    assert settle.get("player") == "1" and settle.boxes == [("lift", "3", False)]
    banker.submit(settle, check=[3])  # lift it now: $33
    state = game.state()
    assert state["pending"] is None and not deed(state, 3)["mortgaged"] and seat(state, 1)["cash"] == 2937
    assert "Act for Ann" not in unescape(banker.page())
