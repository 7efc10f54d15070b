"""Issue 9: a seat moves to a new phone by a rejoin code that opening does not use up; the new
phone takes the seat with a tap, the old phone is told at once, and the code then opens nothing.
Issue 20: the host's code page is post/redirect/get (a reload shows the same code, which still
works), and it says live that the seat was taken, then goes back to the table. Issue 23: the tap is
post/redirect/get too (Back and reload never tap again), and the old phone, reloaded, says where
its seat went."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, PHONE, check_accessible, check_phone_layout, start_game

pytestmark = pytest.mark.e2e


def test_a_seat_moves_to_a_new_phone_with_a_tap_and_the_code_works_once(contexts, artifacts):
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])

    host.locator("#seat-phones summary").click()
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Rejoin code for Ann").click()
    expect(host.get_by_role("heading", name="New phone for Ann")).to_be_visible()
    expect(host).to_have_url(re.compile(rf"/t/{code}/seats/\d+/rejoin/[\w-]+$"))
    address = host.locator("p.url").inner_text()
    host.reload()  # a GET: the same code, no new one
    expect(host.locator("p.url")).to_have_text(address)
    host.evaluate("() => { window.notReloaded = true; }")

    # A link preview, or the new phone before its owner taps: nothing moves yet.
    new = contexts.page("new phone", **PHONE)
    new.goto(address)
    expect(new.get_by_role("heading", name="Take Ann's seat")).to_be_visible()
    check_accessible(new, "take a seat")
    check_phone_layout(new, "take a seat")
    new.screenshot(path=artifacts / "rejoin-take-seat.png")
    expect(ann.locator("#turn h2")).to_have_text("Your turn")

    early = contexts.page("early phone", **PHONE)  # opened the link too, and taps too late
    early.goto(address)

    new.get_by_role("button", name="Take this seat").tap()
    expect(new.get_by_role("heading", level=1)).to_contain_text("Ann")
    expect(new.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    expect(ann.get_by_text("This seat moved to another phone")).to_be_visible(timeout=LIVE)

    # Issue 23's trips: Back from the new phone's screen says it has the seat (and a second Back
    # goes on past it); a refused tap lands on a page a reload asks with GET; the old phone,
    # reloaded, says where its seat went.
    new.go_back()
    expect(new.get_by_role("heading", name="This phone plays Ann's seat")).to_be_visible()
    new.go_back()
    expect(new).not_to_have_url(address)
    early.get_by_role("button", name="Take this seat").tap()
    expect(early.get_by_text("This rejoin code is no longer valid")).to_be_visible()
    methods = []
    early.on("request", lambda request: methods.append(request.method))
    early.reload()
    expect(early.get_by_text("This rejoin code is no longer valid")).to_be_visible()
    assert early.url == address and "POST" not in methods
    ann.reload()
    expect(ann.get_by_role("heading", name="Ann's seat is now played on another phone")).to_be_visible()
    expect(ann.get_by_role("link", name="Watch the game")).to_be_visible()
    expect(host.get_by_text("Ann's seat is on the new phone.")).to_be_visible(timeout=LIVE)
    assert host.evaluate("() => window.notReloaded") is True  # told live, not by a reload
    expect(host).to_have_url(re.compile(rf"/t/{code}$"), timeout=LIVE)
    expect(host.locator("#seat-phones")).to_be_attached()

    # Used up: another phone opening the same address is told to ask for a new code.
    late = contexts.page("late phone", **PHONE)
    late.goto(address)
    expect(late.get_by_text("This rejoin code is no longer valid")).to_be_visible()
