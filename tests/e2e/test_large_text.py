"""Issue 34, item 4: a phone at 360 px with text at 200%, measured in Chromium. The outcome of a tap
never lies over the next control; after a form, the next decision is in view; in an auction the
leader and the countdown are above the fold; no heading breaks inside a word.

200% text is the root font size doubled (conftest.text_at_200_percent), which is what a phone's
large-text setting does: Android Chrome's text scaling and iOS's Dynamic Type enlarge the CSS
font sizes (the stylesheet sizes text in rem), while the layout viewport stays 360 CSS px wide. A
page zoom or a device scale factor would instead shrink the viewport in CSS px, which the narrow
layout already covers; it is not what "large text" does. Screenshots in test-artifacts/large-*.png."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import (LIVE, NARROW, check_accessible, controls_under_messages, join, roll, start_game,
                       text_at_200_percent)
from .test_board_tiles import WORDS
from .test_buildings import player_id, store_act

pytestmark = pytest.mark.e2e

SCREEN = {"width": NARROW, "height": 740}
ORIENTAL, CHANCE, VERMONT, READING = 6, 7, 8, 5

# Whether each element is wholly inside the screen (scrolled as the page is now).
IN_VIEW = """(elements) => elements.map((e) => { const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= -0.5 && r.bottom <= innerHeight + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5; })"""
# Every word of every heading on the page that is on more lines than one (test_board_tiles.WORDS).
BROKEN_WORDS = "() => { " + WORDS + """
return [...document.querySelectorAll('h1, h2, h3')].filter((h) => h.checkVisibility())
  .flatMap((h) => wordsOf(h).filter((w) => w.lines > 1).map((w) => w.word)); }"""


def in_view(page, selector: str) -> bool:
    return all(page.locator(selector).evaluate_all(IN_VIEW))


def comes_into_view(page, selector: str) -> bool:
    """Waits (up to LIVE) for every element of `selector` to be in view: the page scrolls once the
    live update has drawn it, a moment after its words arrive. Fails the test if it never is."""
    page.wait_for_function(f"() => ({IN_VIEW})([...document.querySelectorAll({selector!r})]).every(Boolean)",
                           timeout=LIVE)
    return True


def told(page, control, where, said: str, cash: str, shot, press: str = "tap") -> None:
    """A tap on `control`: what it did is said in the page, in `where` (under what was tapped), and
    once the live update has brought the new `cash` (a [data-cash] selector) it is still there, in
    view, and lies over no control."""
    control.scroll_into_view_if_needed()
    getattr(control, press)()
    message = where.locator(".message.ok")
    expect(message).to_contain_text(said, timeout=LIVE)
    expect(page.locator(cash)).to_have_count(1, timeout=LIVE)
    expect(message).to_contain_text(said)
    assert all(message.evaluate_all(IN_VIEW))
    assert controls_under_messages(page)["under"] == []
    if shot:
        page.screenshot(path=shot)


def large(page) -> None:
    page.set_viewport_size(SCREEN)
    text_at_200_percent(page)


def test_a_phone_at_200_percent_text(contexts, server, artifacts):
    from banker.rules import Actor

    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    large(bob)
    ids = {name: player_id(server, code, name) for name in ("Ann", "Bob")}
    # An auction: Ann declines Baltic Avenue and bids; on Bob's phone, scrolled to its top, the leader
    # and the countdown show without scrolling.
    store_act(server, code, Actor(player=ids["Ann"]), type="roll", dice=[1, 2])
    store_act(server, code, Actor(player=ids["Ann"]), type="decline")
    store_act(server, code, Actor(player=ids["Ann"]), type="bid", amount=20)
    expect(bob.locator("#turn .auction .countdown")).to_be_visible(timeout=LIVE)
    bob.evaluate("() => scrollTo(0, 0)")
    assert in_view(bob, "#turn .auction .high-bid") and in_view(bob, "#turn .auction .countdown")
    bob.screenshot(path=artifacts / "large-auction.png")
    check_accessible(bob, "an auction on a phone at 200% text")
    store_act(server, code, Actor(player=ids["Bob"]), type="pass")
    store_act(server, code, Actor(player=ids["Ann"]), type="end_turn")
    expect(bob.locator("#turn .auction")).to_have_count(0, timeout=LIVE)
    expect(bob.locator("#news h2")).to_have_text("Your turn", timeout=LIVE)

    # Bob's dice, tapped with the page scrolled past the latest line (Move at the top of the screen):
    # doubles onto Oriental Avenue. The next decision, the latest line and Buy, comes into view.
    bob.locator("#turn").get_by_role("button", name="Move").evaluate("(b) => b.scrollIntoView({block: 'start'})")
    assert not in_view(bob, "#turn .latest")
    roll(bob, 3, 3)
    buy = bob.locator("#turn").get_by_role("button", name="Buy for $100")
    expect(buy).to_be_visible(timeout=LIVE)
    expect(bob.locator("#turn .latest")).to_contain_text("doubles")
    assert comes_into_view(bob, "#turn .latest") and in_view(bob, "#news h2")
    bob.screenshot(path=artifacts / "large-doubles.png")

    # Buying: what it did never lies over the next decision, the dice to roll again.
    buy.tap()
    again = bob.locator("#turn form.dice button")
    expect(again).to_be_visible(timeout=LIVE)
    for _ in range(3):  # while the confirmation shows (it fades or is dropped)
        assert controls_under_messages(bob)["under"] == []
        bob.wait_for_timeout(200)
    assert in_view(bob, "#news h2")
    bob.screenshot(path=artifacts / "large-bought.png")

    # The light blues complete (the banker puts Bob's token where the dice would have; Bob has $1,180
    # left): a mortgage, a build and a payment in the wallet, each told under what was tapped, and
    # kept there, in view and over no control, by the live update that follows.
    banker, seat = Actor(banker=True), Actor(player=ids["Bob"])
    for before, dice in ((CHANCE, [1, 1]), (READING, [1, 2])):
        store_act(server, code, banker, type="move", player=ids["Bob"], square=before)
        store_act(server, code, seat, type="roll", dice=dice)
        store_act(server, code, seat, type="buy")
    blues = bob.locator('#wallet [data-group="light_blue"]')
    expect(blues.locator("summary")).to_contain_text("3 of 3", timeout=LIVE)
    vermont, oriental = (blues.locator(f'.lot[data-square="{n}"]') for n in (VERMONT, ORIENTAL))
    told(bob, vermont.get_by_role("button", name=re.compile("^Mortgage")), vermont.locator(".answer"), "Bob mortgaged Vermont Avenue",
         '#wallet [data-cash="1230"]', artifacts / "large-mortgaged.png")
    told(bob, vermont.get_by_role("button", name=re.compile("^Repay")), vermont.locator(".answer"), "Bob repaid",
         '#wallet [data-cash="1175"]', None)
    told(bob, oriental.get_by_role("button", name=re.compile("^Build")), oriental.locator(".answer"), "Bob built a house on Oriental",
         '#wallet [data-cash="1125"]', artifacts / "large-built.png")
    pay = bob.locator("#pay-box")
    pay.locator("summary").tap()
    pay.get_by_label("To").select_option(label="the bank")
    pay.get_by_label("Amount").fill("10")
    told(bob, pay.get_by_role("button", name="Pay"), bob.locator("#pay-box + .answer"), "Bob paid the bank $10.",
         '#wallet [data-cash="1115"]', artifacts / "large-paid.png")

    # The host at the same size: the bank's payment, told under its form.
    large(host)
    tools = host.locator("#bank-tools-box")
    tools.locator("summary").click()
    tools.get_by_label("Amount").fill("5")
    told(host, tools.get_by_role("button", name="Bank pays"), host.locator("#bank-tools + .answer"),
         "The bank paid Ann $5.", f'#balances [data-player="{ids["Ann"]}"] [data-cash="1485"]', artifacts / "large-host-paid.png", press="click")

    # No heading breaks inside a word: the join page in French (« Rejoindre »), in Japanese, and the
    # phone's own screen.
    assert bob.evaluate(BROKEN_WORDS) == []
    for lang in ("fr", "pt", "ja"):
        bob.goto(f"/j/{code}?lang={lang}")
        large(bob)
        assert bob.evaluate(BROKEN_WORDS) == [], lang
    bob.screenshot(path=artifacts / "large-join-ja.png")

    # A new game's lobby: the one thing asked of a phone, its opening roll, comes first, and the
    # whole form, both dice and "Send my roll", is on the first screen, in each language (the
    # play-tests found the dice below the fold, then the two dice's rows of six taller than a phone:
    # at large text the dice stand side by side, in rows of three, the ask is one short line).
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    join(bob, host.locator(".join-panel .url").inner_text() + "?lang=en", "Bob", "Dog")
    lobby = bob.url
    for lang in ("en", "fr", "pt"):  # the two longest asks (each page a live connection: a seat holds four)
        if lang != "en":
            bob.goto(f"{lobby}?lang={lang}")
        large(bob)
        expect(bob.locator("#turn form.dice button")).to_be_visible(timeout=LIVE)
        assert bob.evaluate("scrollY") == 0 and in_view(bob, "#turn form.dice"), lang
        bob.screenshot(path=artifacts / f"large-lobby-{lang}.png")
    assert not contexts.errors and not contexts.blocked
