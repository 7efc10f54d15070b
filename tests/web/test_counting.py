""""I count it myself" on a phone (web/pages/counting.py): the phone asks for the rent, a tax, a card's
sum and a price before they are paid; a right answer pays, a wrong one says how it is worked out
and changes nothing, and the third wrong one tells the sum for one tap to pay. The setting is
this phone's alone: the host screen is the same with it on and off.

On the US board, from GO: 1 and 2 lands on Baltic Avenue (3, $60, rent $4), 1 and 3 on Income Tax
(4, $200), 3 and 4 on Chance (7)."""

import re

import pytest

from .games import HTMX, page_forms

ANN, BOB = 1, 2


def counting(browser, on: bool = True):
    """Turn the phone's setting on (or off) as its card's button does."""
    response = browser.client.post(f"{browser.home}/count/setting", headers=HTMX,
                                   data={"csrf_token": browser.csrf, "on": "1" if on else "0"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def count_form(browser, key: str):
    """The form on the phone's turn panel that asks for the sum `key` ("price", "debt-<id>")."""
    [found] = page_forms(browser.page(), sum=key)
    return found


def guess(browser, key: str, typed: str, htmx: bool = True):
    """Type a sum into the phone's form for `key` and send it."""
    return browser.submit(count_form(browser, key), htmx=htmx, guess=typed)


def debt_key(game) -> str:
    [debt] = game.state()["debts"]
    return f"debt-{debt['id']}"


@pytest.fixture
def ann(game, phone):
    """Ann's phone, counting."""
    browser = phone(game, ANN)
    counting(browser)
    return browser


@pytest.fixture
def bob_owes_rent(game, phone):
    """Ann holds Baltic Avenue; Bob's phone counts, and his roll of 1 and 2 lands him there."""
    game.ok(ANN, type="roll", dice=[1, 2])
    game.ok(ANN, type="buy")
    game.ok(ANN, type="end_turn")
    bob = phone(game, BOB)
    counting(bob)
    assert bob.post({"type": "roll", "dice": [1, 2]}, htmx=True).status_code == 200
    return bob


def test_a_counted_rent_stands_as_a_debt_and_the_phone_asks_for_it(game, bob_owes_rent):
    assert game.cash() == {ANN: 1440, BOB: 1500}
    [debt] = game.state()["debts"]
    assert (debt["debtor"], debt["creditor"], debt["amount"]) == (BOB, ANN, 4)
    assert "The rent for Baltic Avenue, to Ann: how much is it?" in bob_owes_rent.page()


def test_a_right_rent_pays_it(game, bob_owes_rent):
    response = guess(bob_owes_rent, debt_key(game), "4")
    assert response.status_code == 200
    assert game.cash() == {ANN: 1444, BOB: 1496} and game.state()["debts"] == []


def test_a_wrong_rent_says_how_it_is_worked_out_and_changes_nothing(game, bob_owes_rent):
    version = game.state()["version"]
    response = guess(bob_owes_rent, debt_key(game), "8")
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Baltic Avenue with no houses: the rent is $4." in text and "2 more tries" in text
    assert game.state()["version"] == version and game.cash() == {ANN: 1440, BOB: 1500}


def test_the_third_wrong_rent_tells_the_sum_and_one_tap_pays_it(game, bob_owes_rent):
    key = debt_key(game)
    for typed in ("1", "2"):
        assert guess(bob_owes_rent, key, typed).status_code == 422
    told = guess(bob_owes_rent, key, "3")
    assert told.status_code == 422 and "It is $4." in told.get_data(as_text=True)
    [pay] = page_forms(told.get_data(as_text=True), "pay_debt")
    assert pay.label == "Pay $4"
    assert bob_owes_rent.submit(pay, htmx=True).status_code == 200
    assert game.cash() == {ANN: 1444, BOB: 1496}


def test_a_double_tap_of_the_right_sum_pays_once(game, bob_owes_rent):
    form = count_form(bob_owes_rent, debt_key(game))
    for _ in range(2):
        bob_owes_rent.submit(form, htmx=True, guess="4")
    assert game.cash() == {ANN: 1444, BOB: 1496}


def test_a_right_price_buys_the_deed(game, ann):
    ann.post({"type": "roll", "dice": [1, 2]}, htmx=True)
    assert "Baltic Avenue is for sale: how much does it cost?" in ann.page()
    assert guess(ann, "price", "60").status_code == 200
    assert game.cash()[ANN] == 1440 and game.state()["deeds"][1]["owner"] == ANN


def test_a_wrong_price_points_to_the_board_and_the_third_tells_it(game, ann):
    ann.post({"type": "roll", "dice": [1, 2]}, htmx=True)
    wrong = guess(ann, "price", "600")
    assert "The price of Baltic Avenue is printed on its square of the board." in wrong.get_data(as_text=True)
    guess(ann, "price", "6")
    told = guess(ann, "price", "16").get_data(as_text=True)
    assert "It is $60." in told
    [buy] = page_forms(told, "buy")
    assert buy.label == "Buy for $60"
    ann.submit(buy, htmx=True)
    assert game.cash()[ANN] == 1440 and game.state()["deeds"][1]["owner"] == ANN


def test_a_tax_is_counted(game, ann):
    ann.post({"type": "roll", "dice": [1, 3]}, htmx=True)
    assert game.cash()[ANN] == 1500 and "Income Tax: how much do you pay?" in ann.page()
    # Where the sum is written, not the sum (the play-test's phone told it at the first wrong try,
    # then said there were two more tries before it would).
    told = guess(ann, debt_key(game), "20").get_data(as_text=True)
    assert "Income Tax: its sum is printed on its square of the board." in told and "$200" not in told
    assert guess(ann, debt_key(game), "200").status_code == 200
    assert game.cash()[ANN] == 1300


def test_a_tax_a_house_rule_changed_from_the_board_is_told_with_its_sum(client, phone):
    """Luxury Tax at 75 (the pre-2008 rules) where the board prints 100: the board would mislead, so
    a wrong try says the sum the table plays with."""
    from .games import new_game

    game = new_game(client, rules={"luxury_tax": 75})
    game.ok("banker", type="move", player=ANN, square=35)
    ann = phone(game, ANN)
    counting(ann)
    ann.post({"type": "roll", "dice": [1, 2]}, htmx=True)  # Luxury Tax, 38
    assert "Luxury Tax costs $75." in guess(ann, debt_key(game), "100").get_data(as_text=True)


def test_a_card_is_counted(game, ann):
    ann.post({"type": "roll", "dice": [3, 4]}, htmx=True)
    ann.post({"type": "draw", "deck": "chance", "card": "ch_speeding_fine"}, htmx=True)
    assert game.cash()[ANN] == 1500 and "Your card: how much do you pay?" in ann.page()
    key = debt_key(game)
    assert "The sum is written on your card." in guess(ann, key, "50").get_data(as_text=True)
    guess(ann, key, "51")
    assert "It is $15." in guess(ann, key, "52").get_data(as_text=True)
    assert guess(ann, key, "15").status_code == 200
    assert game.cash()[ANN] == 1485


def test_without_the_setting_the_phone_pays_at_once(game, phone):
    ann = phone(game, ANN)
    ann.post({"type": "roll", "dice": [1, 3]}, htmx=True)
    assert game.cash()[ANN] == 1300 and game.state()["debts"] == []


def test_turning_it_off_pays_at_once_again(game, ann):
    assert "Turn it on" in counting(ann, on=False)
    ann.post({"type": "roll", "dice": [1, 3]}, htmx=True)
    assert game.cash()[ANN] == 1300


def test_a_plain_form_is_told_on_the_page(game, ann):
    ann.post({"type": "roll", "dice": [1, 3]}, htmx=True)
    response = guess(ann, debt_key(game), "20", htmx=False)
    assert response.status_code == 303
    assert "Not quite. Income Tax: its sum is printed on its square of the board." in ann.page()


@pytest.mark.parametrize("typed", ["", "abc", "-5", "1e3", "9" * 30])
def test_a_sum_that_is_no_whole_number_is_refused_and_changes_nothing(game, ann, typed):
    ann.post({"type": "roll", "dice": [1, 3]}, htmx=True)
    version = game.state()["version"]
    response = guess(ann, debt_key(game), typed)
    assert response.status_code == 422 and "Type the sum in figures" in response.get_data(as_text=True)
    assert game.state()["version"] == version


@pytest.mark.parametrize("key, status, said", [
    ("debt-99", 422, "Ann has no debt to pay."),
    ("bogus", 409, "There is nothing to count now."),
])
def test_a_sum_that_is_not_owed_is_refused(game, ann, key, status, said):
    version = game.state()["version"]
    response = ann.client.post(f"{ann.home}/count", data={"csrf_token": ann.csrf, "sum": key, "guess": "4"},
                               headers=HTMX)
    assert response.status_code == status and said in response.get_data(as_text=True)
    assert game.state()["version"] == version


def test_the_host_screen_is_the_same_with_the_setting_on_and_off(game, phone, host):
    ann, laptop = phone(game, ANN), host(game)
    game.ok(ANN, type="roll", dice=[1, 2])  # a deed offered: the phone would ask its price
    before = unique(laptop.page())
    counting(ann)
    assert "how much does it cost?" in ann.page()
    assert unique(laptop.page()) == before and f"/p/{game.code}/count" not in before


def unique(html: str) -> str:
    """A page without what every render makes anew: each form's nonce, the scripts' nonce and the
    CSRF token (signed with the time)."""
    return re.sub(r'(name="(?:nonce|csrf_token)" value|nonce)="[^"]+"|"X-CSRFToken": "[^"]+"', "", html)

