"""Issue: three phones in one auction bid against each other live and the host shows the winner;
a trade offered on one phone is accepted on another and both deed lists change without reload.

Ann declines Reading Railroad; Bob, Carol and Ann bid on their phones (quick bids and a typed one)
while every screen follows the high bid; a bid beyond a phone's cash is impossible there; Bob and
Carol pass and the auction settles itself. Then Ann sells the railroad to Bob for $150 through the
trade composer; Bob accepts on his phone and every screen follows."""

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import LIVE, check_phone_layout, money, roll, start_game

pytestmark = pytest.mark.e2e

START_CASH = 1500
READING = 5                   # Reading Railroad, printed price $200
CAROL_SPENDS = 1400           # Carol pays the bank first: $100 left, so +100 is out of her reach
CAROL_CASH = START_CASH - CAROL_SPENDS
PRICE = 150                   # what Bob pays Ann for the railroad


def quick_bid(phone: Page, step: int, amount: int):
    """The quick-bid button +step (0: an opening bid), which names the bid it would propose."""
    name = f"+{step} → {money(amount)}" if step else money(amount)
    return phone.locator("#turn .quick-bids").get_by_role("button", name=name, exact=True)


def propose(phone: Page, step: int, amount: int) -> None:
    """A quick bid proposes the amount, and says it is not sent yet: "Send bid <amount>"."""
    quick_bid(phone, step, amount).tap()
    proposed(phone, amount)


def proposed(phone: Page, amount: int | None) -> None:
    """The phone's bid box and its button: with a proposal of `amount`, or plain (None)."""
    typed = phone.locator("#turn .typed-bid")
    expect(typed.get_by_label("Your bid")).to_have_value("" if amount is None else str(amount), timeout=LIVE)
    expect(typed.get_by_role("button")).to_have_text("Bid" if amount is None else f"Send bid {money(amount)}")


def propose_and_bid(phone: Page, step: int, amount: int) -> None:
    """A quick bid proposes the amount; the bid goes with one more tap, on "Send bid <amount>"."""
    propose(phone, step, amount)
    phone.locator("#turn .typed-bid").get_by_role("button", name=f"Send bid {money(amount)}", exact=True).tap()


def shows_cash(page: Page, where: str, cash: int) -> None:
    cell = page.locator(where)
    expect(cell).to_have_attribute("data-cash", str(cash), timeout=LIVE)
    expect(cell).to_have_text(money(cash))


def test_three_phones_bid_live_then_trade_the_deed(contexts, server, artifacts):
    host, code, (ann, bob, carol) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog"), ("Carol", "Cat")])
    phones = {"Ann": ann, "Bob": bob, "Carol": carol}
    screens = [host, ann, bob, carol]

    def host_cash(name: str, cash: int) -> None:
        shows_cash(host, f'table.balances tr:has-text("{name}") td.cash', cash)

    # Carol pays the bank on her phone, so later a quick bid is beyond her cash.
    carol.get_by_text("Pay someone").tap()
    pay = carol.locator("#pay-box form")
    pay.get_by_label("To").select_option(label="the bank")
    pay.get_by_label("Amount").fill(str(CAROL_SPENDS))
    pay.get_by_role("button", name="Pay").tap()
    # More than half her cash: she taps again under the question that names payee and amount.
    carol.locator("#pay-box .ask").get_by_role("button", name=f"Yes, pay {money(CAROL_SPENDS)}").tap()
    shows_cash(carol, "#wallet [data-cash]", CAROL_CASH)
    host_cash("Carol", CAROL_CASH)
    for page in screens:   # a screen that refreshes in the middle of a roll would lose the chips
        expect(page.locator("#turn .latest")).to_have_text(
            f"Carol paid the bank {money(CAROL_SPENDS)}.", timeout=LIVE)

    # Ann rolls 2 + 3 onto Reading Railroad and declines it: the auction opens on every screen.
    roll(ann, 2, 3)
    ann.locator("#turn").get_by_role("button", name="Decline").tap()
    panels = {page: page.locator("#turn .auction") for page in screens}
    for page, panel in panels.items():
        expect(panel).to_be_visible(timeout=LIVE)
        expect(panel.locator(f'.deed-card[data-square="{READING}"]')).to_contain_text("Reading Railroad")
        expect(panel.locator(".high-bid")).to_have_text("No bid yet")
        expect(panel.locator(".bidders")).to_have_text("Ann, Bob, Carol")
    auction_id = panels[host].get_attribute("data-auction")

    # The banker unticks the automatic close: the auction must wait for the passes.
    close = host.locator("form.close-auction")
    auto = close.get_by_label("Close when the countdown ends")
    auto.uncheck()
    expect(close.get_by_role("button")).to_have_text("Close without a sale")

    deadlines = []

    def everyone_sees(bid: int, bidder: str) -> None:
        """The new high bid on the host and all three phones, with the same countdown (the same
        deadline, and digits within a second of each other), restarted for this bid."""
        for page, panel in panels.items():
            expect(panel).to_have_attribute("data-high-bid", str(bid), timeout=LIVE)
            expect(panel.locator(".high-bid")).to_have_text(f"High bid {money(bid)} by {bidder}")
        expect(close).to_have_attribute("data-countdown", f"{auction_id}-{bid}")
        shown = {panel.locator(".countdown time").get_attribute("datetime") for panel in panels.values()}
        digits = [int(panel.locator(".countdown time").text_content()) for panel in panels.values()]
        assert len(shown) == 1 and max(digits) - min(digits) <= 1 and 0 < min(digits) <= 15, (shown, digits)
        if bid != (deadlines[-1][0] if deadlines else None):
            assert not deadlines or shown.pop() > deadlines[-1][1]  # a new bid, a new deadline
            deadlines.append((bid, *{panel.locator(".countdown time").get_attribute("datetime")
                                     for panel in panels.values()}))
        expect(close.get_by_role("button")).to_have_text(f"Sell to {bidder} now")
        expect(auto).not_to_be_checked()          # the banker's choice survives the live refresh
        for name, phone in phones.items():
            expect(phone.locator("#turn .auction .mine")).to_have_count(1 if name == bidder else 0)
            expect(phone.locator("#turn .auction").get_by_role("button", name="Pass", exact=True)) \
                .to_have_count(0 if name == bidder else 1)

    # Before any bid the quick bids open at 10, 50 and 100, never 1; Carol's $100 reaches them all.
    for amount in (10, 50, 100):
        expect(quick_bid(bob, 0, amount)).to_be_enabled()
        expect(quick_bid(carol, 0, amount)).to_be_enabled()   # 100: exactly her cash
    expect(panels[bob].locator(".countdown")).to_have_count(0)  # no bid, no countdown
    ann.screenshot(path=artifacts / "auction-phone-open.png", full_page=True)

    # Bob: a quick $10 proposes the bid and sends nothing; "Send bid $10" sends it.
    sent = []
    bob.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    quick_bid(bob, 0, 10).tap()
    expect(bob.locator("#turn .typed-bid").get_by_role("button", name=f"Send bid {money(10)}")).to_be_focused()
    assert sent == [] and panels[host].get_attribute("data-high-bid") == "0"
    bob.locator("#turn .typed-bid").get_by_role("button", name=f"Send bid {money(10)}").tap()
    everyone_sees(10, "Bob")
    assert len(sent) == 1
    bob.screenshot(path=artifacts / "auction-phone-countdown.png", full_page=True)
    expect(quick_bid(carol, 50, 60)).to_be_enabled()
    expect(quick_bid(carol, 100, 110)).to_be_disabled()

    # Ann proposes +1 ($11) and does not send it; Carol types 25. Outbid, Ann's proposal is dropped
    # (a play-test: the stale "Bid $50" stayed under a high bid of $100, and a tap was refused).
    propose(ann, 1, 11)
    typed = carol.locator("#turn .typed-bid")
    typed.get_by_label("Your bid").fill("25")
    typed.get_by_role("button", name="Bid").tap()
    everyone_sees(25, "Carol")
    proposed(ann, None)
    # The high bidder cannot raise her own bid: no bid buttons until someone outbids her.
    expect(carol.locator("#turn .quick-bids")).to_have_count(0)
    expect(carol.locator("#turn .typed-bid")).to_have_count(0)

    # Ann, who declined the deed, bids too: +50, to $75. Bob had proposed $75 as well: no more
    # than the high bid now, it is dropped.
    propose(bob, 50, 75)
    check_phone_layout(bob, "a proposed bid on a phone")
    bob.screenshot(path=artifacts / "auction-phone-proposed.png", full_page=True)
    propose_and_bid(ann, 50, 75)
    everyone_sees(75, "Ann")
    proposed(bob, None)
    expect(quick_bid(carol, 10, 85)).to_be_enabled()
    for step in (50, 100):
        expect(quick_bid(carol, step, 75 + step)).to_be_disabled()
    expect(quick_bid(bob, 100, 175)).to_be_enabled()
    check_phone_layout(carol, "auction on a phone")
    carol.screenshot(path=artifacts / "auction-phone.png", full_page=True)
    host.screenshot(path=artifacts / "auction-host.png", full_page=True)

    # A typed bid beyond her cash is refused, and nothing changes anywhere.
    typed = carol.locator("#turn .typed-bid")
    typed.get_by_label("Your bid").fill("150")
    typed.get_by_role("button", name="Bid").tap()
    expect(carol.locator(".message.error")).to_have_text(
        f"Carol has only {money(CAROL_CASH)}; a bid cannot be more.", timeout=LIVE)
    everyone_sees(75, "Ann")

    # Carol proposes +10 ($85), which still beats the high bid: an update that leaves the high bid
    # (Bob passes) keeps it, as a push keeps whatever a player is doing.
    propose(carol, 10, 85)

    # Bob and Carol pass: the auction settles by itself, with no banker's tap.
    bob.locator("#turn .auction").get_by_role("button", name="Pass", exact=True).tap()
    for panel in panels.values():
        expect(panel.locator(".bidders")).to_have_text("Ann, Bob · passed, Carol", timeout=LIVE)
    proposed(carol, 85)
    carol.locator("#turn .auction").get_by_role("button", name="Pass", exact=True).tap()
    won = f"Ann wins Reading Railroad for {money(75)}."
    for page in screens:
        expect(page.locator("#turn .auction")).to_have_count(0, timeout=LIVE)
        expect(page.locator("#turn .latest")).to_contain_text(won)
    expect(host.locator("#history li", has_text=won)).to_have_count(1)
    expect(ann.locator("#history li", has_text=won)).to_have_count(1)
    ann_cash, bob_cash = START_CASH - 75, START_CASH
    shows_cash(ann, "#wallet [data-cash]", ann_cash)
    host_cash("Ann", ann_cash)
    host_cash("Bob", bob_cash)
    host_cash("Carol", CAROL_CASH)
    owner = host.locator(f'#board [data-square="{READING}"] .owner')
    expect(owner).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    expect(owner).to_have_class(re.compile(r"\btoken-car\b"))
    expect(ann.locator(f'#wallet .lot[data-square="{READING}"]')).to_contain_text("Reading Railroad")
    expect(bob.locator(f'#wallet .lot[data-square="{READING}"]')).to_have_count(0)

    # Ann composes an offer to Bob: her railroad for $150 of his cash.
    ann.get_by_role("link", name="Trade with Bob").tap()
    expect(ann).to_have_url(re.compile(rf"/p/{code}/trade/\d+$"))
    expect(ann.get_by_role("heading", level=1)).to_have_text("Trade with Bob")
    give = ann.get_by_role("group", name="You give")
    get = ann.get_by_role("group", name="Bob gives")
    expect(give.get_by_label(re.compile("^Cash"))).to_be_visible()
    expect(get.get_by_label(f"Cash (Bob has {money(bob_cash)})")).to_be_visible()
    give.get_by_role("checkbox", name=re.compile("Reading Railroad")).check()
    get.get_by_label(re.compile("^Cash")).fill(str(PRICE))
    check_phone_layout(ann, "trade composer")
    ann.screenshot(path=artifacts / "trade-composer.png", full_page=True)
    ann.get_by_role("button", name="Send the offer to Bob").tap()
    expect(ann).to_have_url(re.compile(rf"/p/{code}$"))
    expect(ann.locator("#message")).to_contain_text("Ann offers Bob a trade.")

    # Bob sees the offer arrive live, the deed drawn; Ann sees it waiting; the host lists it.
    incoming = bob.locator("#trades .offer-card.incoming")
    expect(incoming).to_have_count(1, timeout=LIVE)
    expect(incoming).to_contain_text("Ann offers you")
    offered, asked = incoming.locator(".bundle").nth(0), incoming.locator(".bundle").nth(1)
    expect(offered.locator(f'.deed-card.railroad[data-square="{READING}"]')).to_contain_text("Reading Railroad")
    expect(offered.locator(".cash-chip")).to_have_count(0)
    expect(asked.locator(".cash-chip")).to_have_text(money(PRICE))
    expect(asked.locator(".deed-card")).to_have_count(0)
    outgoing = ann.locator("#trades .offer-card.outgoing")
    expect(outgoing).to_have_count(1)
    expect(outgoing).to_contain_text("Waiting for Bob.")
    expect(carol.locator("#trades .offer-card")).to_have_count(0)
    expect(host.locator("#turn .open-trades li")).to_have_text(
        "Offer from Ann to Bob, waiting for an answer", timeout=LIVE)
    check_phone_layout(bob, "incoming offer")
    bob.screenshot(path=artifacts / "trade-incoming.png", full_page=True)

    # Bob accepts: the deed and the cash change hands on every screen.
    incoming.get_by_role("button", name="Accept").tap()
    ann_cash, bob_cash = ann_cash + PRICE, bob_cash - PRICE
    for phone in (ann, bob):
        expect(phone.locator("#trades .offer-card")).to_have_count(0, timeout=LIVE)
    shows_cash(ann, "#wallet [data-cash]", ann_cash)
    shows_cash(bob, "#wallet [data-cash]", bob_cash)
    host_cash("Ann", ann_cash)
    host_cash("Bob", bob_cash)
    expect(ann.locator(f'#wallet .lot[data-square="{READING}"]')).to_have_count(0, timeout=LIVE)
    expect(ann.locator("#wallet")).to_contain_text("No deeds yet.")
    expect(bob.locator(f'#wallet .lot[data-square="{READING}"]')).to_contain_text("Reading Railroad", timeout=LIVE)
    expect(owner).to_have_attribute("title", "owned by Bob", timeout=LIVE)
    expect(owner).to_have_class(re.compile(r"\btoken-dog\b"))
    expect(host.locator("#turn .open-trades")).to_have_count(0)
    done = f"Trade done: Ann gives Reading Railroad; Bob gives {money(PRICE)}."
    for page in (host, ann, bob):
        expect(page.locator("#history li", has_text=done)).to_have_count(1, timeout=LIVE)
    host.screenshot(path=artifacts / "trade-host-after.png", full_page=True)
    bob.screenshot(path=artifacts / "trade-phone-after.png", full_page=True)

    # No reloads but the composer and its way back; nothing left 127.0.0.1; only the refused bid's 422.
    trade_page = re.compile(rf"/p/{code}/trade/\d+$")
    ann_loads = contexts.loads["phone 1"]
    assert ann_loads[:1] == [f"/p/{code}"] and ann_loads[2:] == [f"/p/{code}"], ann_loads
    assert trade_page.match(ann_loads[1]), ann_loads
    assert {k: v for k, v in contexts.loads.items() if k != "phone 1"} == {
        "host": ["/", f"/t/{code}"], "phone 2": [f"/p/{code}"], "phone 3": [f"/p/{code}"],
    }
    assert contexts.blocked == [], "a page tried to reach the internet"
    assert contexts.errors == [
        "phone 3: Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)",
        f"phone 3: Response Status Error Code 422 from /p/{code}/act",
    ], "the pages logged errors"
