"""Issue 34, item 4: a phone at 360 px with text at 200%, measured in Chromium. The outcome of a tap
never lies over the next control; after a form, the next decision is in view; in an auction the
leader and the countdown are above the fold; no heading breaks inside a word; the story's chart
text grows with the reader's.

200% text is the root font size doubled (conftest.text_at_200_percent), which is what a phone's
large-text setting does: Android Chrome's text scaling and iOS's Dynamic Type enlarge the CSS
font sizes (the stylesheet sizes text in rem), while the layout viewport stays 360 CSS px wide. A
page zoom or a device scale factor would instead shrink the viewport in CSS px, which the narrow
layout already covers; it is not what "large text" does. Screenshots in test-artifacts/large-*.png."""

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, NARROW, check_accessible, controls_under_messages, roll, start_game, text_at_200_percent
from .test_buildings import player_id, store_act

pytestmark = pytest.mark.e2e

SCREEN = {"width": NARROW, "height": 740}

# Whether each element is wholly inside the screen (scrolled as the page is now).
IN_VIEW = """(elements) => elements.map((e) => { const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= -0.5 && r.bottom <= innerHeight + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5; })"""
# Every word of every heading on the page on more lines than one (a word: a run of letters between
# spaces and hyphens, as tests/e2e/test_board_tiles.py counts them).
BROKEN_WORDS = r"""() => [...document.querySelectorAll('h1, h2, h3')].filter((h) => h.checkVisibility()).flatMap((h) => {
  const found = [];
  const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
  for (let text = walk.nextNode(); text; text = walk.nextNode()) {
    for (const m of text.data.matchAll(/[^\s\-\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+/gu)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) found.push(m[0]);
    }
  }
  return found;
})"""


def in_view(page, selector: str) -> bool:
    return all(page.locator(selector).evaluate_all(IN_VIEW))


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

    # Bob's dice, low on the page (its Move button far down at this size): doubles onto Oriental
    # Avenue. The next decision, the latest line and Buy, comes into view.
    bob.locator("#turn").get_by_role("button", name="Move").scroll_into_view_if_needed()
    assert not in_view(bob, "#turn .latest")
    roll(bob, 3, 3)
    buy = bob.locator("#turn").get_by_role("button", name="Buy for $100")
    expect(buy).to_be_visible(timeout=LIVE)
    expect(bob.locator("#turn .latest")).to_contain_text("doubles")
    assert in_view(bob, "#turn .latest") and in_view(bob, "#news h2")
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

    # No heading breaks inside a word: the join page in French (« Rejoindre »), in Japanese, and the
    # phone's own screen.
    assert bob.evaluate(BROKEN_WORDS) == []
    for lang in ("fr", "pt", "ja"):
        bob.goto(f"/j/{code}?lang={lang}")
        large(bob)
        assert bob.evaluate(BROKEN_WORDS) == [], lang
    bob.screenshot(path=artifacts / "large-join-ja.png")
    assert not contexts.errors and not contexts.blocked


def test_the_story_chart_text_grows_with_the_readers_text(contexts, server, artifacts):
    """The story's net-worth chart draws its words in its own units: at 200% text they are about
    twice as large on the screen, the drawing wider and scrolling in its box, the page not."""
    from banker.rules import Actor

    from ..web.test_story import EVENING

    host, code, (ann, _) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    seats = {1: Actor(player=player_id(server, code, "Ann")), 2: Actor(player=player_id(server, code, "Bob"))}
    for who, action in EVENING:
        store_act(server, code, seats[who], **action)
    store_act(server, code, Actor(banker=True), type="end_game")
    ann.set_viewport_size(SCREEN)
    ann.goto(f"/p/{code}/story")
    tick = ann.locator(".worth-chart text.tick").first

    def height() -> float:
        return tick.evaluate("(t) => t.getBoundingClientRect().height")

    normal = height()
    text_at_200_percent(ann)
    assert 1.8 <= height() / normal <= 2.2
    assert ann.evaluate("document.documentElement.scrollWidth") <= NARROW
    ann.locator(".worth-chart").scroll_into_view_if_needed()
    ann.screenshot(path=artifacts / "large-story-chart.png")
