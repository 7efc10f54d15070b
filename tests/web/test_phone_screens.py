"""Issue 10, the phones: a history worth reading (its player's events and the table's big moments),
a wallet whose colour groups fold, a card picker in groups, and a seat gone to another phone."""

import random
import re
from html import unescape

import pytest

from banker import store
from banker.models import db
from banker.screens import PhoneScreen

from ..evenings import next_move
from .games import BROWN, TO_CHANCE, new_game, page_form, play, rejoin_address, take_seat

SEAT_MOVED = "This seat moved to another phone; ask the banker for a new rejoin code."


def history(html: str) -> list[str]:
    """The phone's history rows, newest first."""
    section = html.split('<section id="history"', 1)[1].split("</section>", 1)[0]
    return [unescape(text).strip() for text in re.findall(r"</time>(.*?)</li>", section, re.S)]


def group_open(html: str) -> dict[str, bool]:
    """Each colour group of the wallet, and whether it is shown unfolded."""
    return {key: rest.startswith(" open") for key, rest in re.findall(r'<details class="group[^"]*" '
                                                                       r'data-group="(\w+)" id="group-\w+"( open)?',
                                                                       html)}


def test_a_phone_shows_its_own_events_and_the_tables_big_moments_not_every_turn(game3, host, phone):
    play(game3, (1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}),
         (2, {"type": "roll", "dice": [1, 2]}), (2, {"type": "buy"}), (2, {"type": "end_turn"}),
         (3, {"type": "roll", "dice": [4, 6]}), (3, {"type": "end_turn"}))
    ann = history(phone(game3, 1).page())
    assert ann == ["Bob bought Baltic Avenue for $60.",
                   "Ann ended the turn. It is Bob's turn.",
                   "Ann rolled 4 + 6. Ann moves to Jail / Just Visiting.",
                   "The game starts. Order: Ann, Bob, and Cy.",
                   "Ann joined the game."]
    assert history(phone(game3, 3).page()) == ["Cy ended the turn. It is Ann's turn.",
                                               "Cy rolled 4 + 6. Cy moves to Jail / Just Visiting.",
                                               "Bob bought Baltic Avenue for $60.",
                                               "The game starts. Order: Ann, Bob, and Cy.",
                                               "Cy joined the game."]
    # The host tells everything.
    told = unescape(host(game3).page())
    assert "Cy ended the turn. It is Ann's turn." in told and "Bob rolled 1 + 2." in told


def test_an_undo_shows_on_the_phones_that_showed_what_it_took_back(game3, phone):
    play(game3, (1, {"type": "pay", "to": 2, "amount": 5}), ("banker", {"type": "undo"}))
    said = "The banker undid: Ann paid Bob $5."
    for pid in (1, 2):
        assert history(phone(game3, pid).page())[0] == said
    assert said not in history(phone(game3, 3).page())


def test_the_wallet_folds_each_group_and_opens_those_where_something_can_be_done_now(game, phone):
    play(game, *BROWN, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}))  # and Oriental Avenue
    ann = phone(game, 1)
    assert group_open(ann.page()) == {"brown": True, "light_blue": False}  # a house can go up; nothing to do
    game.ok(1, type="pay", to=2, amount=5000)  # a debt: mortgaging Oriental Avenue would raise cash
    assert group_open(ann.page()) == {"brown": True, "light_blue": True}


def test_the_card_picker_shows_the_moves_first_then_money_then_jail_then_another_card(game, phone):
    play(game, TO_CHANCE)
    picker = phone(game, 1).page().split('<div class="card-picker">', 1)[1]
    picker, another = picker.split('<details class="custom-card">', 1)
    assert "Another card…" in unescape(another.split("</summary>", 1)[0])
    groups = re.split(r'<h3 id="cards-\w+">', picker)[1:]
    assert [unescape(g.split("</h3>", 1)[0]) for g in groups] == ["Cards that move you", "Pay or collect", "Jail"]
    assert [re.findall(r'name="card" value="(\w+)"', g) for g in groups] == [
        ["ch_advance_boardwalk", "ch_advance_go", "ch_advance_illinois", "ch_advance_st_charles",
         "ch_nearest_railroad_1", "ch_nearest_railroad_2", "ch_nearest_utility", "ch_go_back_3", "ch_trip_reading"],
        ["ch_dividend", "ch_general_repairs", "ch_speeding_fine", "ch_chairman", "ch_building_loan"],
        ["ch_get_out_of_jail_free", "ch_go_to_jail"],
    ]


@pytest.mark.parametrize("where", ["phone", "composer"])
def test_a_stale_tap_on_a_phone_whose_seat_moved_gets_a_short_message(app, game, host, phone, where):
    old = phone(game, 1)
    path = f"/p/{game.code}" if where == "phone" else f"/p/{game.code}/trade/2"
    form = page_form(old.page(path), "roll" if where == "phone" else "offer_trade")
    take_seat(app.test_client(), rejoin_address(host(game), 1))
    before = game.state()
    tapped = old.submit(form, htmx=True, die1="3", die2="4", give_cash="5")
    assert tapped.status_code == 403
    assert unescape(tapped.get_data(as_text=True)).strip() == f'<p class="message error" role="alert">{SEAT_MOVED}</p>'
    sent = old.submit(form, die1="3", die2="4", give_cash="5")  # a plain form goes to the join page
    assert sent.status_code == 303 and sent.headers["Location"] == f"/j/{game.code}"
    assert game.state() == before


def test_a_tap_from_a_browser_that_never_had_a_seat_gets_a_short_message(game, stranger):
    browser = stranger(game)
    tapped = browser.post({"type": "roll", "dice": [3, 4]}, htmx=True, path=f"/p/{game.code}/act")
    assert tapped.status_code == 403 and SEAT_MOVED in unescape(tapped.get_data(as_text=True))
    assert "<form" not in tapped.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_jailed_phone_says_in_jail_once(client, phone, lang):
    game = play(new_game(client), ("banker", {"type": "move", "player": 1, "square": 27}),
                (1, {"type": "roll", "dice": [1, 2]}))  # onto Go to Jail
    ann = phone(game, 1)
    ann.client.set_cookie("lang", lang)
    where = re.search(r'<p class="where">(.*?)</p>', ann.page(), re.S)[1]
    assert where == {"en": "<strong>In jail</strong>", "ja": "<strong>刑務所に収監中</strong>"}[lang]


def test_a_phones_latest_line_is_what_concerns_it_or_the_table(client, phone, host):
    game = play(new_game(client, players=3), (1, {"type": "pay", "to": 2, "amount": 5}),
                (2, {"type": "offer_trade", "to": 1, "give": {"cash": 10}}), (1, {"type": "reject_trade", "trade": 1}))
    latest = {pid: re.search(r'<p class="latest"[^>]*>(.*?)</p>', unescape(phone(game, pid).page()))[1] for pid in (1, 2, 3)}
    assert latest[1] == latest[2] == "Ann rejected Bob's offer."
    assert latest[3] == "The game starts. Order: Ann, Bob, and Cy."  # not Ann and Bob's payment or trade
    assert '<p class="latest" id="news">Ann rejected Bob\'s offer.</p>' in unescape(host(game).page())


def test_the_wallet_names_the_newest_money_its_player_did_not_move_themself(client, phone):
    """What the phone's buzz reads (static/app.js): the wallet's data-moved, the newest entry that
    moved the player's money without their own tap choosing it. Ann's own purchase, house and
    take-back leave it; the rent her dice brought, rent arriving from Bob, the banker's charge and
    the banker's undo move it on."""
    game = new_game(client)

    def moved(pid: int) -> tuple[int, int]:
        found = re.search(r'data-cash="(\d+)" data-moved="(\d+)"', phone(game, pid).page())
        return int(found[1]), int(found[2])

    def version() -> int:
        return game.state()["version"]

    assert moved(1) == (1500, 0)
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}))  # Baltic Avenue, her own tap
    assert moved(1) == (1440, 0)
    play(game, (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [1, 2]}))  # Bob pays Ann $4 rent
    rent = version()
    assert moved(1) == (1444, rent) and moved(2) == (1496, rent)  # Bob's dice brought it: news to him too
    play(game, (2, {"type": "end_turn"}), ("banker", {"type": "bank_charge", "player": 1, "amount": 44}))
    charge = version()
    assert moved(1) == (1400, charge)
    play(game, ("banker", {"type": "move", "player": 1, "square": 39}),  # a correction: nothing paid
         (1, {"type": "roll", "dice": [1, 1]}))  # past Go (the salary: news) to Mediterranean Avenue
    salary = version()
    assert moved(1) == (1600, salary)
    play(game, (1, {"type": "buy"}), (1, {"type": "build", "square": 1}))  # her own taps
    assert moved(1) == (1490, salary)
    play(game, (1, {"type": "take_back"}))  # her own house taken back: still her own doing
    assert moved(1) == (1540, salary)
    play(game, ("banker", {"type": "undo"}))  # the banker undoes her purchase: news
    assert moved(1) == (1600, version())


def test_the_money_news_from_the_screen_before_is_the_money_news_read_afresh(app, client):
    """The live path takes a phone's money news from its screen of the version before (one new
    entry to look at, not all of them): over a random evening with undos, it is what reading every
    entry again says, on each seat."""
    game = new_game(client, players=3)
    rng = random.Random(7)
    before: dict[int, PhoneScreen] = {}
    news = set()
    with app.test_request_context():
        for _ in range(60):
            who, action = next_move(game.state(), rng)
            game.act(who, **action)
            db.session.remove()
            row = store.known(store.find_game(game.code))
            for seat in (1, 2, 3):
                screen, fresh = PhoneScreen(row, seat), PhoneScreen(row, seat)
                screen.previous = before.get(seat)
                assert screen.money_news == fresh.money_news, (seat, action)
                news.add(fresh.money_news["money_news"])
                before[seat] = screen
    assert len(news) > 5  # the evening moved money many times


def test_a_debt_laid_on_a_player_is_money_news_and_paying_it_off_themself_is_not(client, phone):
    """A charge the player cannot pay becomes a debt and leaves the cash as it was (the play-test:
    Bruno's phone stayed still while the game waited on him): the wallet's data-moved moves on, and
    data-owed says what changed. Ann's own payment beyond her cash is her own debt; paying a debt
    off with her own tap moves neither."""
    game = new_game(client)

    def wallet(pid: int) -> tuple[int, int, int]:
        found = re.search(r'data-cash="(\d+)" data-moved="(\d+)" data-owed="(\d+)"', phone(game, pid).page())
        return int(found[1]), int(found[2]), int(found[3])

    def version() -> int:
        return game.state()["version"]

    assert wallet(1) == (1500, 0, 0)
    play(game, ("banker", {"type": "bank_charge", "player": 1, "amount": 2000}))  # more than she has
    charged = version()
    assert wallet(1) == (1500, charged, 2000)
    play(game, ("banker", {"type": "bank_pay", "player": 1, "amount": 600}))
    paid = version()
    assert wallet(1) == (2100, paid, 2000)
    play(game, (1, {"type": "pay_debt"}))  # her own tap
    assert wallet(1) == (100, paid, 0)
    play(game, (1, {"type": "pay", "to": 2, "amount": 300}))  # her own payment, beyond her cash
    assert wallet(1) == (100, paid, 300)
    assert wallet(2)[1] == 0  # a debt owed to Bob is no money of his yet


def test_the_pay_box_folds_after_a_payment(game, phone):
    """static/app.js folds the marked box (a payment over half the cash asks first: test_second_tap)."""
    page = phone(game, 1).page()
    assert '<details id="pay-box" class="pay-box" data-fold>' in page
