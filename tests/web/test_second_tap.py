"""A payment of more than half the payer's cash takes a second tap that names the payee and the
amount (web/answers/second_tap.py): on a phone and for a seat on the host, by htmx and as plain forms; half
or less, the bank's own tools and the API are not asked."""

import re
from html import unescape

from .games import page_form, page_forms


def asked(response) -> tuple[str, object]:
    """The question of a second tap, and its form (the payment again, marked sure)."""
    html = response.get_data(as_text=True)
    question = unescape(re.search(r'<div class="ask" role="alert">\s*<p><strong>(.*?)</strong>', html, re.S).group(1))
    return question, page_form(html, "pay")


def send(browser, form, to: str, htmx: bool = True, **typed):
    """A payment form as the page shows it, with a payee chosen from its list and the rest typed."""
    return browser.client.post(form.action, data={**form.data(**typed), "to": to},
                               headers={"HX-Request": "true"} if htmx else {})


def test_a_phone_paying_more_than_half_its_cash_is_asked_again_naming_payee_and_amount(game, phone):
    ann = phone(game, 1)
    pay = page_form(ann.page(), "pay")
    assert "data-over-half" not in ann.page()  # no browser box: the server asks
    first = send(ann, pay, "2", amount="800", memo="rent")
    assert first.status_code == 200 and first.headers["HX-Retarget"] == "this"
    question, again = asked(first)
    assert question == "Pay Bob $800? That is more than half of your $1,500."
    assert game.cash() == {1: 1500, 2: 1500}  # nothing paid yet
    assert {k: v for k, (v,) in again.data().items() if k in ("to", "amount", "memo")} == {
        "to": "2", "amount": "800", "memo": "rent"}
    assert again.get("sure") == "1" and again.label == "Yes, pay $800"
    done = ann.submit(again, htmx=True)
    assert done.status_code == 200 and "Ann paid Bob $800. (rent)" in unescape(done.get_data(as_text=True))
    ann.submit(again, htmx=True)  # a double tap on Yes pays once
    assert game.cash() == {1: 700, 2: 2300}
    # Half or less is paid at once; more than the cash asks in the words of a debt.
    assert send(ann, page_form(ann.page(), "pay"), "bank", amount="350").status_code == 200
    assert game.cash()[1] == 350
    question, _ = asked(send(ann, page_form(ann.page(), "pay"), "bank", amount="400"))
    assert question == ("Pay the bank $400? You have $350: the rest stays owed, and you cannot end your turn "
                        "until it is paid.")
    assert game.cash()[1] == 350


def test_without_javascript_the_question_is_a_page_and_its_yes_pays(game, phone):
    ann = phone(game, 1)
    first = send(ann, page_form(ann.page(), "pay"), "2", htmx=False, amount="1000")
    assert first.status_code == 200 and "<main" in first.get_data(as_text=True)
    question, again = asked(first)
    assert question == "Pay Bob $1,000? That is more than half of your $1,500."
    assert re.search(r'<a class="button" href="/p/\w+" data-dismiss>No, change it</a>', first.get_data(as_text=True))
    assert game.cash() == {1: 1500, 2: 1500}
    done = ann.submit(again)
    assert done.status_code == 303 and game.cash() == {1: 500, 2: 2500}


def test_the_banker_paying_for_a_seat_is_asked_in_the_seats_name(host, game):
    banker = host(game)
    panel = f"/t/{game.code}/seats/2"
    pay = page_form(banker.page(panel), "pay", player="2")
    first = send(banker, pay, "1", amount="900")
    question, again = asked(first)
    assert question == "Pay Ann $900 for Bob? That is more than half of Bob's $1,500."
    assert again.get("player") == "2" and game.cash() == {1: 1500, 2: 1500}
    banker.submit(again, htmx=True)
    assert game.cash() == {1: 2400, 2: 600}
    # The bank's own charge keeps its question in the browser (data-over-cash), and the API asks nothing.
    assert page_forms(banker.page(), "bank_charge") or "bank_charge" in banker.page()
    game.ok(2, type="pay", to=1, amount=500)
    assert game.cash() == {1: 2900, 2: 100}
