"""Issue 23, item 4: the TV screen at 1920×1080, read from a sofa: the join QR in the lobby, then the
board, the standings turning from cash to net worth and the latest events, all pushed live with no
request of the TV's own; nothing scrolls, and axe finds nothing. A new link stops the old one."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, PHONE, check_accessible, join, roll

pytestmark = pytest.mark.e2e

TV = {"viewport": {"width": 1920, "height": 1080}}


def tv_link(host) -> str:
    """The banker taps "Show on a TV" on the host screen and reads the link off its page."""
    host.goto(re.sub(r"/tv/.*", "", host.url))
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Show on a TV").click()
    expect(host.locator('[data-qr="tv"]')).to_be_visible()
    return host.locator("main .url").inner_text()


def test_the_tv_shows_the_game_across_the_room(contexts, server, artifacts):
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    join_url = host.locator(".join-panel .url").inner_text()

    # The lobby: the TV shows the join QR, and each player as they join.
    tv = contexts.page("tv", **TV)
    tv.clock.install()
    asked = []
    tv.on("request", lambda request: asked.append(request.url))
    tv.goto(tv_link(host))
    expect(tv.locator('#tv-lobby [data-qr="join"] svg')).to_be_visible()
    ann, bob = contexts.page("Ann", **PHONE), contexts.page("Bob", **PHONE)
    join(ann, join_url, "Ann", "Car")
    join(bob, join_url, "Bob", "Dog")
    expect(tv.locator("#tv-lobby .seats li")).to_have_count(2, timeout=LIVE)
    check_accessible(tv, "the TV in the lobby")
    tv.screenshot(path=artifacts / "tv-lobby.png")

    # In play: the board, whose turn, the standings and the latest events, pushed as they change.
    host.goto(re.sub(r"/tv/.*", "", host.url))
    host.get_by_role("button", name="Start in this order").click()
    expect(tv.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    expect(tv.locator("#tv-lobby")).to_be_hidden()
    expect(ann.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    expect(tv.locator('#board [data-square="3"] .owner')).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    expect(tv.locator("#tv-news li").first).to_have_text("Ann bought Baltic Avenue for $60.")
    cash = tv.locator('[data-ranking="cash"]')
    expect(cash).to_be_visible()
    expect(cash.locator("tr").first).to_contain_text("Bob")  # $1,500 against Ann's $1,440
    worth = tv.locator('[data-ranking="worth"]')
    expect(worth).to_be_hidden()
    tv.clock.fast_forward(8_000)  # the standings turn to net worth, Ann's deed counted
    expect(worth).to_be_visible()
    expect(cash).to_be_hidden()
    expect(worth.locator('tr[data-player="1"] .cash')).to_have_text("$1,500")
    # Readable from a sofa: the newest event and whose turn in large type; nothing scrolls.
    assert float(tv.locator("#tv-news li").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 36
    assert float(tv.locator("#turn .whose").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 48
    assert tv.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight "
                       "&& document.scrollingElement.scrollWidth <= innerWidth")
    assert [url for url in asked if "/live" not in url and url != tv.url and "/static/" not in url] == []
    assert len([url for url in asked if "/live" in url]) == 1  # one connection, kept open: no polling
    check_accessible(tv, "the TV in play")
    tv.screenshot(path=artifacts / "tv-playing.png")

    # An auction: its lot, the high bid and the countdown, large.
    from banker import store
    from banker.rules import Actor

    code = re.search(r"/t/([A-Z0-9]+)", host.url).group(1)
    with server.app.app_context():
        for player, action in ((1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [2, 4]}),
                               (2, {"type": "decline"}), (1, {"type": "bid", "amount": 120})):
            store.act(code, action, actor=Actor(player=player))
    auction = tv.locator("#turn .auction")
    expect(auction.locator(".high-bid")).to_have_text("High bid $120 by Ann", timeout=LIVE)
    expect(auction.locator(".lot-for-sale")).to_contain_text("Oriental Avenue")
    expect(auction.locator(".countdown time")).to_be_visible()
    assert auction.locator("button, form").count() == 0
    expect(tv.locator("#tv-news li")).to_have_count(5)  # new events came one by one; five are kept
    expect(tv.locator("#tv-news li").first).to_have_text("Ann bids $120.")
    check_accessible(tv, "the TV during an auction")
    tv.screenshot(path=artifacts / "tv-auction.png")

    # A new link: the TV on the old one says so.
    tv_link(host)
    expect(tv.get_by_role("heading", name="This TV link no longer works")).to_be_visible(timeout=LIVE)
    assert not contexts.errors and not contexts.blocked
