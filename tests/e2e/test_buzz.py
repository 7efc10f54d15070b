"""Issue 23, item 5: a phone buzzes (navigator.vibrate, stubbed here and counted) when something
needs its player: its turn, money arriving or leaving, a trade offered to them, an auction; not when nothing of theirs changed, and not
once its player turned "Vibrate" off, which the phone remembers. Nor for the player's own taps (a
play-test: every house built buzzed): money their own purchase, house or mortgage moved is no news
to them; the banker doing the same for them, or rent their dice brought, is."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, PHONE, join, money, roll, start_game

pytestmark = pytest.mark.e2e

# Counts the page's calls to navigator.vibrate (each with its pattern) instead of vibrating.
COUNT_BUZZES = """
window.buzzes = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value: function (pattern) { window.buzzes.push(pattern); return true; },
});
"""
# A browser that cannot vibrate, as iOS Safari.
NO_VIBRATION = "delete Navigator.prototype.vibrate;"


def buzzes(phone) -> list:
    return phone.evaluate("window.buzzes")


def test_a_phone_buzzes_when_its_player_is_needed_only_and_not_once_turned_off(contexts):
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    for phone in (ann, bob):
        phone.context.add_init_script(COUNT_BUZZES)
        phone.reload()
        expect(phone.get_by_label("Vibrate")).to_be_checked()  # on by default; the sound is not
        expect(phone.get_by_label("Sound")).not_to_be_checked()

    # Ann rolls to Baltic Avenue and buys it: her cash left by her own tap (no buzz); on Bob's phone
    # only the latest line changed, nothing of his.
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    expect(bob.locator("#turn .latest")).to_contain_text("Ann bought Baltic Avenue", timeout=LIVE)
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1440", timeout=LIVE)
    assert buzzes(ann) == [] and buzzes(bob) == []

    # Ann ends her turn: Bob's turn comes (a buzz of its own); Ann's phone does not buzz.
    ann.locator("#turn").get_by_role("button", name="End turn").tap()
    expect(bob.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    assert buzzes(bob) == [[200, 100, 200]]

    # Bob lands on Baltic Avenue: the rent arrives on Ann's phone and is charged to Bob (his dice
    # brought it, he did not choose it), each buzzes once.
    roll(bob, 1, 2)
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1444", timeout=LIVE)
    expect(bob.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1496", timeout=LIVE)
    assert buzzes(ann) == [[80]] and buzzes(bob) == [[200, 100, 200], [80]]

    # Ann offers Bob a trade (Baltic Avenue for $100 of his): it needs Bob, whose phone buzzes so.
    ann.get_by_role("link", name="Trade with Bob").tap()
    ann.get_by_role("group", name="You give").get_by_role("checkbox", name=re.compile("Baltic Avenue")).check()
    ann.get_by_role("group", name="Bob gives").get_by_label(re.compile("^Cash")).fill("100")
    ann.get_by_role("button", name="Send the offer to Bob").tap()
    expect(bob.locator("#trades .offer-card.incoming")).to_contain_text("Ann offers you", timeout=LIVE)
    assert buzzes(bob) == [[200, 100, 200], [80], [150, 80, 150]]

    # Ann turns vibrating off, and her phone remembers it: her turn comes back without a buzz.
    ann.get_by_label("Vibrate").uncheck()
    ann.reload()
    expect(ann.get_by_label("Vibrate")).not_to_be_checked()
    bob.locator("#turn").get_by_role("button", name="End turn").tap()
    expect(ann.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    assert buzzes(ann) == []  # since the reload: none

    # Ann declines Vermont Avenue: the auction needs Bob too, whose phone buzzes so; Ann's stays still.
    roll(ann, 1, 4)
    ann.locator("#turn").get_by_role("button", name=re.compile("^Decline")).tap()
    expect(bob.locator("#turn .auction")).to_contain_text("Vermont Avenue", timeout=LIVE)
    assert buzzes(bob) == [[200, 100, 200], [80], [150, 80, 150], [150, 80, 150]]
    assert buzzes(ann) == []
    assert not contexts.errors


def test_a_browser_that_cannot_vibrate_says_so(contexts):
    """In the lobby already: the toggles are on the phone's page from the start."""
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    ann = contexts.page("phone", **PHONE)
    ann.context.add_init_script(NO_VIBRATION)
    join(ann, host.locator(".join-panel .url").inner_text(), "Ann", "Car")
    expect(ann.get_by_label("Vibrate")).to_be_disabled()
    expect(ann.get_by_text("This phone's browser cannot vibrate.")).to_be_visible()
    expect(ann.get_by_label("Sound")).to_be_enabled()
    assert not contexts.errors


def store_act(server, code: str, who, **action):
    """One legitimate action through the store in the running server: `who` "banker" or a seat id."""
    from banker import store
    from banker.rules import Actor

    actor = Actor(banker=True) if who == "banker" else Actor(player=who)
    with server.app.app_context():
        return store.act(code, action, actor=actor).state


def test_a_phone_does_not_buzz_for_its_own_taps_but_does_when_the_banker_acts_for_it(contexts, server):
    """Ann owns the browns (through the store, by legal actions) and builds a house on each from her
    phone: her own taps, no buzz. The banker builds one more for her, and charges her: two buzzes.
    A charge beyond her cash (a debt) buzzes too, paying it off herself does not; the end buzzes."""
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    with server.app.app_context():
        from banker import store

        ann_id = next(p.id for p in store.load_state(store.find_game(code)).players if p.name == "Ann")
    store_act(server, code, "banker", type="move", player=ann_id, square=39)
    for square in (1, 3):  # 1 + 1 twice: past Go onto Mediterranean, then Baltic Avenue; each bought
        assert store_act(server, code, ann_id, type="roll", dice=[1, 1]).player(ann_id).position == square
        store_act(server, code, ann_id, type="buy")
    ann.context.add_init_script(COUNT_BUZZES)
    ann.reload()
    cash = ann.locator("#wallet [data-cash]")
    expect(cash).to_have_attribute("data-cash", str(1500 + 200 - 60 - 60))
    browns = ann.locator('#wallet [data-group="brown"]')
    for square, left in ((1, 1530), (3, 1480)):
        browns.locator(f'.lot[data-square="{square}"]').get_by_role("button", name="Build house −$50").tap()
        expect(cash).to_have_attribute("data-cash", str(left), timeout=LIVE)
    assert buzzes(ann) == []

    store_act(server, code, "banker", type="build", player=ann_id, square=1)
    expect(cash).to_have_attribute("data-cash", "1430", timeout=LIVE)
    assert buzzes(ann) == [[80]]
    store_act(server, code, "banker", type="bank_charge", player=ann_id, amount=100)
    expect(cash).to_have_attribute("data-cash", "1330", timeout=LIVE)
    assert buzzes(ann) == [[80], [80]]

    # The banker charges her more than she has: a debt, her cash as it was, and the game waits on
    # her (a play-test: the phone stayed still). It buzzes; paying it off herself does not.
    store_act(server, code, "banker", type="bank_charge", player=ann_id, amount=2000)
    expect(cash).to_have_attribute("data-owed", "2000", timeout=LIVE)
    expect(ann.locator("#turn .debt").first).to_contain_text(f"You owe the bank {money(2000)}.")
    assert cash.get_attribute("data-cash") == "1330" and buzzes(ann) == [[80], [80], [80]]
    store_act(server, code, "banker", type="bank_pay", player=ann_id, amount=700)
    expect(cash).to_have_attribute("data-cash", "2030", timeout=LIVE)
    ann.locator("#turn").get_by_role("button", name=f"Pay {money(2000)}").tap()
    expect(cash).to_have_attribute("data-owed", "0", timeout=LIVE)
    expect(cash).to_have_attribute("data-cash", "30")
    assert buzzes(ann) == [[80], [80], [80], [80]]

    # The banker ends the game: one short buzz, the standings to read.
    store_act(server, code, "banker", type="end_game")
    expect(ann.locator("#turn .standings")).to_be_visible(timeout=LIVE)
    assert buzzes(ann) == [[80], [80], [80], [80], [120]]
    assert not contexts.errors
