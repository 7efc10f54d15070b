"""Issue 10, items 14 to 16: every screen in every state it takes during a game, swept in two
walks (independent tests, which parallel workers can share).

Before the game and as it starts: the home page (house rules open), the join page (open and
closed), the lobby on the host and a phone, the first turn on the host and the phones (the folded
forms open). Mid-game on the host and the phones: a buy offer (and its price asked, on a phone that
counts it itself, with a wrong answer told beside it), an auction, the card picker, a debt
and an incoming trade. Around a seat and at the end: the trade composer, the host's seat panel and
the banker's composer for a seat, the rejoin QR (and its page once replaced) and the "Take this
seat" page; the end screens; the old phone of a seat taken by a new one; the error page.

A phone screen is checked at 390 px and at 360 px with text at 200%;
a host screen at 1440 px, at 1440 px with text at 200% and at 360 px with text at 200% (a tablet
or a phone opening the table view). At each size the page never scrolls sideways, nothing sticks
out of the window and no box scrolls sideways inside it; at the first and the last size axe-core
finds no violation and every tap target is at least 44 x 44 px. Every QR code is an image with a
name. Each screen at each size is left in test-artifacts/ as a11y-<screen>-<size>.jpg. Problems
are collected over each walk and reported together, so that one run lists all of them."""

import re
from typing import NamedTuple

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, MIN_TARGET, NARROW, PHONE, axe_violations, join, start_game
from .test_buildings import player_id, store_act

pytestmark = pytest.mark.e2e

BALTIC, CHANCE = 3, 7


class Size(NamedTuple):
    """A window to check a screen in: its name in the screenshots, its size, text at 200% or not,
    and whether axe and the tap targets are checked there too (the page's width always is)."""
    name: str
    viewport: dict
    large_text: bool
    audit: bool


NARROW_LARGE = Size(f"{NARROW}-200pct", {"width": NARROW, "height": 780}, True, True)
# Text at 200% on the 390 px phone too adds nothing: what fits 360 px at 200% fits it.
PHONE_SIZES = [Size("390", PHONE["viewport"], False, True), NARROW_LARGE]
HOST_SIZES = [Size("1440", DESKTOP["viewport"], False, True), Size("1440-200pct", DESKTOP["viewport"], True, False),
              NARROW_LARGE]

# What a thumb or a pointer hits: a radio or checkbox counts by the label around it.
SMALL_TARGETS = """(min) => [...document.querySelectorAll(
    'a[href], button, summary, select, textarea, input:not([type=hidden])')].flatMap((element) => {
  const target = element.matches('input[type=radio], input[type=checkbox]')
    ? element.closest('label') || element : element;
  if (!target.checkVisibility({visibilityProperty: true})) return [];
  const box = target.getBoundingClientRect();
  if (box.width >= min && box.height >= min) return [];
  return [`${target.outerHTML.slice(0, 90)} is ${Math.round(box.width)} x ${Math.round(box.height)} px`];
})"""

# How far the page scrolls sideways; what sticks out past the window's edges; and the boxes that
# scroll by themselves (the host's columns, the history) but would scroll sideways. Against the
# window's width as set: on a phone Chromium zooms out to show a page that is too wide, and then
# innerWidth grows with it.
OVERFLOW = """(width) => {
  const scrolls = (e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
    && e !== document.documentElement && e !== document.body;
  const clips = (e) => ['hidden', 'clip'].includes(getComputedStyle(e).overflowX);
  const shown = [...document.body.querySelectorAll('*')].filter((e) => e.checkVisibility({visibilityProperty: true}));
  const out = shown.filter((e) => {
    const box = e.getBoundingClientRect();
    if (box.width === 0 || (box.right <= width + 0.5 && box.left >= -0.5)) return false;
    for (let up = e.parentElement; up; up = up.parentElement) if (scrolls(up) || clips(up)) return false;
    return true;
  });
  const describe = (e) => e.outerHTML.slice(0, 60).replace(/\\s+/g, ' ');
  const outer = out.filter((e) => !out.includes(e.parentElement));
  const sideways = shown.filter((e) => scrolls(e) && e.scrollWidth > e.clientWidth + 1);
  return {excess: document.documentElement.scrollWidth - width,
          out: outer.slice(0, 4).map((e) => { const r = e.getBoundingClientRect();
            return `${describe(e)} from ${Math.round(r.left)} to ${Math.round(r.right)} px`; }),
          inside: sideways.map((e) => `${describe(e)} by ${e.scrollWidth - e.clientWidth} px`)};
}"""


class Sweep:
    """Checks screens as they come and keeps what failed on each, to report all at once."""

    def __init__(self, artifacts):
        self.artifacts = artifacts
        self.problems: list[str] = []
        self.screens: list[str] = []

    def phone(self, page, screen: str) -> None:
        self._check(page, screen, PHONE_SIZES)

    def host(self, page, screen: str, sizes: list[Size] = HOST_SIZES) -> None:
        self._check(page, f"host-{screen}", sizes)

    def _check(self, page, screen: str, sizes: list[Size]) -> None:
        self.screens.append(screen)
        original = page.viewport_size
        try:
            for size in sizes:
                page.set_viewport_size(size.viewport)
                # Through the element's style object, which the Content Security Policy allows.
                page.evaluate("(large) => { document.documentElement.style.fontSize = large ? '200%' : ''; }",
                              size.large_text)
                what = f"{screen} at {size.name}"
                if size.audit:
                    self.problems += [f"{what}: axe: {v}" for v in axe_violations(page)]
                    self.problems += [f"{what}: small target: {t}" for t in page.evaluate(SMALL_TARGETS, MIN_TARGET)]
                overflow = page.evaluate(OVERFLOW, size.viewport["width"])
                if overflow["excess"] > 0 or overflow["out"]:
                    self.problems.append(f"{what}: scrolls sideways by {overflow['excess']} px: {overflow['out']}")
                self.problems += [f"{what}: a box scrolls sideways: {box}" for box in overflow["inside"]]
                page.screenshot(path=self.artifacts / f"a11y-{screen}-{size.name}.jpg", type="jpeg", quality=80,
                                full_page=True)
        finally:
            page.evaluate("() => { document.documentElement.style.fontSize = ''; }")
            page.set_viewport_size(original)

    def qr_named(self, page, screen: str, name: str) -> None:
        """The page's one QR code is an image named `name` (a screen reader says what it is for)."""
        named = page.get_by_role("img", name=name, exact=True).locator("svg")
        if page.locator("[data-qr] svg").count() != 1 or named.count() != 1:
            self.problems.append(f"{screen}: no QR code named {name!r}: "
                                 f"{page.locator('[data-qr]').first.aria_snapshot()[:80]!r}")

    def report(self) -> None:
        print(f"{len(self.screens)} screens swept: {', '.join(self.screens)}")
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)


def test_the_screens_before_the_game_and_of_its_first_turn(contexts, server, artifacts):
    sweep = Sweep(artifacts)

    # The home page with the house rules open, on a phone and on the laptop that creates the game.
    visitor = contexts.page("visitor", **PHONE)
    visitor.goto("/")
    visitor.locator("details.house-rules > summary").tap()
    expect(visitor.locator("details.house-rules")).to_have_attribute("open", "")
    sweep.phone(visitor, "home")
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.locator("details.house-rules > summary").click()
    sweep.host(host, "home")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    join_url = host.locator(".join-panel .url").inner_text()

    # The join page, then the lobby on a phone (the opening roll) and on the host (the join QR).
    ann = contexts.page("phone 1", **PHONE)
    ann.goto(join_url)
    sweep.phone(ann, "join")
    join(ann, join_url, "Ann", "Car")
    bob = contexts.page("phone 2", **PHONE)
    join(bob, join_url, "Bob", "Dog")
    expect(ann.locator("#turn")).to_contain_text("Bob", timeout=LIVE)
    sweep.phone(ann, "lobby")
    expect(host.locator("ol.seats li")).to_have_count(2, timeout=LIVE)
    sweep.host(host, "lobby")
    sweep.qr_named(host, "host-lobby", f"QR code to join game {code}")

    # Mid-game: Ann's turn, on her phone (the dice), Bob's (waiting) and the host (act for Ann).
    host.get_by_role("button", name="Start in this order").click()
    expect(ann.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    expect(host.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    sweep.phone(ann, "turn")
    bob.locator("#pay-box > summary").tap()  # the folded forms open, on the phone and the host
    sweep.phone(bob, "waiting")
    bob.locator("#pay-box > summary").tap()
    tools = host.locator("#players details.tools > summary")
    tools.evaluate_all("all => all.forEach((summary) => summary.click())")
    expect(host.locator("#players details.tools:not([open])")).to_have_count(0)
    sweep.host(host, "turn")
    tools.evaluate_all("all => all.forEach((summary) => summary.click())")
    visitor.goto(join_url)  # the join page once the game is on
    expect(visitor.get_by_role("alert")).to_contain_text("already started")
    sweep.phone(visitor, "join-closed")

    sweep.report()


def play_to_an_open_trade(server, code: str, host, ann, bob):
    """From Ann's first turn of a two-seat game, through the store: each stage is named (yielded) once
    the host and the phone it concerns show it: "buy" (Ann on Baltic Avenue), "auction" (Ann
    declined, Bob bid; the host's countdown stopped), "card-picker" (Bob on Chance), "debt" (Bob owes
    more than he can raise; undone once the walk goes on) and "trade" (Ann offers Bob $50 for his
    Baltic Avenue, which he won at the auction)."""
    from banker.rules import Actor

    banker = Actor(banker=True)
    ann_id, bob_id = player_id(server, code, "Ann"), player_id(server, code, "Bob")

    # A buy offer: Ann rolls 1 + 2 onto Baltic Avenue.
    store_act(server, code, Actor(player=ann_id), type="roll", dice=[1, 2])
    expect(ann.locator("#turn .offer")).to_contain_text("Baltic Avenue is for sale", timeout=LIVE)
    expect(host.locator("#turn .act-for .offer")).to_be_visible(timeout=LIVE)
    yield "buy"

    # An auction: Ann declines, Bob bids; Ann's phone may bid, the host counts down.
    store_act(server, code, Actor(player=ann_id), type="decline")
    store_act(server, code, Actor(player=bob_id), type="bid", amount=10)
    expect(ann.locator("#turn .auction .quick-bids")).to_be_visible(timeout=LIVE)
    expect(host.locator("#turn .auction .countdown")).to_be_visible(timeout=LIVE)
    host.locator("form.close-auction [data-auto]").uncheck()  # a sweep takes longer than the countdown
    yield "auction"
    store_act(server, code, banker, type="close_auction")
    store_act(server, code, Actor(player=ann_id), type="end_turn")

    # The card picker: Bob rolls 1 + 2 from Income Tax onto Chance.
    store_act(server, code, banker, type="move", player=bob_id, square=CHANCE - 3)
    store_act(server, code, Actor(player=bob_id), type="roll", dice=[1, 2])
    expect(bob.locator("#turn .card-picker")).to_be_visible(timeout=LIVE)
    expect(host.locator("#turn .card-picker")).to_be_visible(timeout=LIVE)
    yield "card-picker"
    store_act(server, code, Actor(player=bob_id), type="draw", deck="chance", card="ch_advance_go")

    # A debt Bob cannot cover: the bank charges him more than he has and could raise.
    store_act(server, code, banker, type="bank_charge", player=bob_id, amount=5000)
    expect(bob.locator("#turn .bankrupt-box")).to_be_visible(timeout=LIVE)
    expect(host.locator("#players ul.debts li")).to_be_visible(timeout=LIVE)
    yield "debt"
    store_act(server, code, banker, type="undo")
    expect(bob.locator("#turn .bankrupt-box")).to_have_count(0, timeout=LIVE)

    # An incoming trade: Ann offers Bob $50 for his Baltic Avenue; his phone links to it.
    store_act(server, code, Actor(player=ann_id), type="offer_trade", to=bob_id,
              give={"cash": 50}, get={"squares": [BALTIC]})
    expect(bob.locator("#trades .offer-card.incoming")).to_have_count(1, timeout=LIVE)
    expect(bob.locator("#turn .offer a")).to_be_visible()
    expect(host.locator("#turn .open-trades li")).to_have_count(1, timeout=LIVE)
    yield "trade"


def count_the_price(server, code: str, ann):
    """Ann turns "I count it myself" on: without a reload her phone asks for the price in place of
    "Buy for $60", and a wrong one is answered beside the form with where the price is written. The
    third wrong one tells the price, with "Buy for $60": once tapped, that answer goes (the play-test
    found it offering to pay a paid sum for the rest of the evening). The banker undoes the purchase;
    the next wrong try tells the price again, and is left for the walk to decline the deed."""
    from banker.rules import Actor

    ann.locator("#counting").get_by_role("button", name="Turn it on").click()
    question = ann.get_by_label("Baltic Avenue is for sale: how much does it cost?")
    expect(question).to_be_visible()
    expect(ann.get_by_role("button", name="Buy for $60")).to_be_hidden()
    for wrong, told in (("6", "printed on its square of the board"), ("16", "1 more try"), ("66", "It is $60.")):
        question.fill(wrong)
        ann.locator("#turn form.count").get_by_role("button", name="Buy", exact=True).click()
        expect(ann.locator("#turn .answer")).to_contain_text(told)
    ann.locator("#turn .counted").get_by_role("button", name="Buy for $60").click()
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1440", timeout=LIVE)
    expect(ann.locator(".counted")).to_have_count(0)
    store_act(server, code, Actor(banker=True), type="undo")
    expect(question).to_be_visible(timeout=LIVE)
    question.fill("6")
    ann.locator("#turn form.count").get_by_role("button", name="Buy", exact=True).click()
    expect(ann.locator("#turn .counted")).to_contain_text("It is $60.")


def test_the_screens_of_a_turn_in_every_state_then_around_a_seat_and_at_the_end(contexts, server, artifacts):
    from banker.rules import Actor

    sweep = Sweep(artifacts)
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    for stage in play_to_an_open_trade(server, code, host, ann, bob):
        if stage == "buy":
            sweep.phone(ann, "buy")
            count_the_price(server, code, ann)
            sweep.phone(ann, "buy-counting")
        elif stage == "auction":
            expect(ann.locator(".counted")).to_have_count(0)  # told of a price no longer asked: gone
            sweep.phone(ann, "auction")
            sweep.phone(bob, "auction-high-bidder")
        elif stage == "card-picker":
            sweep.phone(bob, "card-picker")
        elif stage == "debt":
            sweep.phone(bob, "debt")
        elif stage == "trade":
            sweep.phone(bob, "incoming-trade")
            sweep.phone(ann, "outgoing-trade")
        sweep.host(host, stage)
    assert sweep.screens[-1] == "host-trade", sweep.screens  # every stage was reached

    # Around a seat and at the end, from the open trade on (one walk: the game to the trade is
    # played once, not once more for these screens).
    ann_id, bob_id = player_id(server, code, "Ann"), player_id(server, code, "Bob")

    # The trade composer; the host's seat panel for Bob (the offer, his deed, paying) and the
    # banker's trade composer for him.
    ann.goto(f"/p/{code}/trade/{bob_id}")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Trade with Bob")
    sweep.phone(ann, "trade-composer")
    ann.goto(f"/p/{code}")
    host.goto(f"/t/{code}/seats/{bob_id}")
    expect(host.locator("#seat .offer-card")).to_have_count(1)
    sweep.host(host, "seat-panel")
    host.goto(f"/t/{code}/seats/{bob_id}/trade/{ann_id}")
    expect(host.get_by_role("heading", level=1)).to_have_text("Trade for Bob with Ann")
    sweep.host(host, "trade-composer")

    # A new phone for Ann: the rejoin QR on the host and the "Take this seat" page (taken at the end);
    # the first code's page once a newer code replaced it.
    def new_code() -> str:
        host.goto(f"/t/{code}")
        host.locator("#seat-phones > summary").click()
        host.once("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="Rejoin code for Ann").click()
        expect(host.get_by_role("heading", name="New phone for Ann")).to_be_visible()
        return host.url

    replaced = new_code()
    sweep.host(host, "rejoin")
    sweep.qr_named(host, "host-rejoin", "QR code to take Ann's seat on a new phone")
    new_code()
    host.goto(replaced)
    expect(host.get_by_role("alert")).to_contain_text("This code no longer works")
    sweep.host(host, "rejoin-replaced")
    host.go_back()
    visitor = contexts.page("visitor", **PHONE)
    visitor.goto(host.locator("p.url").inner_text())
    expect(visitor.get_by_role("button", name="Take this seat")).to_be_visible()
    sweep.phone(visitor, "take-seat")

    # The end, on the host and both phones.
    host.goto(f"/t/{code}")
    store_act(server, code, Actor(banker=True), type="end_game")
    for page in (host, ann, bob):
        expect(page.locator("#turn .standings h2")).to_contain_text("wins!", timeout=LIVE)
    sweep.phone(ann, "end")
    sweep.host(host, "end")

    # The new phone takes the seat: the old one says so.
    visitor.get_by_role("button", name="Take this seat").tap()
    expect(ann.get_by_role("heading", name="This seat moved to another phone")).to_be_visible(timeout=LIVE)
    sweep.phone(ann, "seat-moved")

    # The error page: no such game.
    visitor.goto("/t/NOSUCH")
    expect(visitor.get_by_role("alert")).to_have_text("No such game or page. Check the code.")
    # What the page is there to say stays: it neither fades (an action's outcome does) nor goes on a tap.
    expect(visitor.get_by_role("alert")).to_have_css("animation-name", "none")
    visitor.get_by_role("alert").click()
    expect(visitor.get_by_role("alert")).to_be_visible()
    sweep.phone(visitor, "404")
    sweep.host(visitor, "404", [size for size in HOST_SIZES if size not in PHONE_SIZES])  # 360 px swept above

    sweep.report()
