"""Issue 10: the host screen on a laptop (1366 x 768) and a TV (1920 x 1080) at a table of eight. In
the lobby, mid-game, during an auction, with a debt open and at the end, everything that matters
is on one screen with no page scrolling: all forty squares, every player's cash and square, the
houses and hotels left, whose turn with its controls, and Undo; clicking leaves nothing scrolled.
Then the banker acts for a seat without a phone, offers a trade in its name, and a big bank charge
asks first."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, PHONE, check_accessible, controls_under_messages, join, money, start_game

pytestmark = pytest.mark.e2e

SIZES = {"laptop": {"width": 1366, "height": 768}, "tv": {"width": 1920, "height": 1080}}
SEATS = [("Annabelle", "hat"), ("Ben", "car"), ("Cleo", "dog"), ("Dan", "iron"), ("Eve", "ship"),
         ("Finn", "wheelbarrow"), ("Gus", "thimble"), ("Hana", "cat")]

# Where each key element is: (what, selector); each must be inside the window and not hidden behind
# anything, nor scrolled away inside its column.
BOARD = [("board square", "#board [data-square]"), ("houses and hotels left", "#board .center-supply")]
MONEY = [("cash", "table.balances td.cash"), ("player's square", "table.balances td.name small"),
         ("houses and hotels left", "#players .supply"), ("Undo", "#players details.undo summary")]
TURN = [("whose turn", "#turn .whose")]
# The banker's rarer tools in play: folded, but each one's name in view, down to the last (a
# play-test found "Bank pays or charges" and "End the game" below the fold of a laptop's column).
TOOLS = [("bank pays or charges", "#bank-tools-box summary"), ("a new phone for a seat", "#seat-phones summary"),
         ("take the game away", "#take-away summary"), ("the story so far", "#players a[href$='/story']"),
         ("end the game", "#end-game summary")]
LOBBY = [("join QR", "[data-qr=join] svg"), ("seat", "ol.seats li"),
         ("start", "#seat-order button.primary")]

UNSEEN = """(elements) => elements.flatMap((element) => {
  const box = element.getBoundingClientRect();
  const inside = box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
    && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5;
  const hit = inside && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit && element.contains(hit) ? [] : [element.outerHTML.slice(0, 100)];
})"""


def store_act(server, code: str, who, **action):
    """One legitimate action through the store in the running server: `who` is "banker", a seat id,
    or None (a newcomer joining)."""
    from banker import store
    from banker.rules import Actor

    actor = Actor(banker=True) if who == "banker" else Actor(player=who)
    with server.app.app_context():
        return store.act(code, action, actor=actor)


def roll(a: int, b: int) -> dict:
    return {"type": "roll", "dice": [a, b]}


def scrolled(page) -> dict:
    return page.evaluate("""() => ({top: scrollY, left: scrollX,
        tall: document.scrollingElement.scrollHeight - innerHeight,
        wide: document.scrollingElement.scrollWidth - innerWidth})""")


def check_one_screen(page, stage: str, keys: list, counts: dict, artifacts) -> None:
    """At each size: no page scrolling, every key element in view, no axe violation; a screenshot."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        what = f"host {stage} on a {size}"
        expect(page.locator("#message .message:visible")).to_have_count(0)  # what a click did, faded
        # Taken first, so that a screen found wanting is there to look at.
        page.screenshot(path=artifacts / f"host-{stage}-{viewport['width']}x{viewport['height']}.png")
        assert scrolled(page) == {"top": 0, "left": 0, "tall": 0, "wide": 0}, what
        for name, selector in keys:
            found = page.locator(selector)
            if name in counts:
                expect(found).to_have_count(counts[name])
            assert found.count(), f"{what}: no {name}"
            unseen = found.evaluate_all(UNSEEN)
            assert not unseen, f"{what}: {name} out of view: {unseen}"
        check_accessible(page, what)


def test_the_host_fits_one_screen_at_every_stage_of_the_evening(contexts, server, artifacts):
    host = contexts.page("host", viewport=SIZES["laptop"])
    host.goto("/")
    # The longest countdown: on a loaded machine the checks of the auction outlast the 15 s default,
    # and a page loaded after the bid (the seat panel, back from it) closes it at zero by itself.
    host.locator("details.house-rules > summary").click()
    host.locator("input[name=auction_countdown_seconds]").fill("120")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    ids = [store_act(server, code, None, type="join", name=name, token=token).player for name, token in SEATS]
    seats = len(SEATS)
    expect(host.locator("ol.seats li")).to_have_count(seats, timeout=LIVE)
    expect(host.locator("#seat-order button")).to_have_count(1)  # one start button
    check_one_screen(host, "lobby", LOBBY, {"seat": seats}, artifacts)

    # Mid-game, one turn each: Annabelle buys the browns and builds on them, others buy, Cleo
    # mortgages Reading Railroad, Dan pays Income Tax.
    host.get_by_role("button", name="Start in this order").click()
    expect(host.locator("#turn .whose")).to_contain_text("Annabelle's turn", timeout=LIVE)
    ann, ben, cleo, dan, eve, finn, gus, hana = ids
    buy = {"type": "buy"}
    turns = {ann: [roll(1, 1), buy, roll(1, 1), buy, roll(3, 4), {"type": "build", "square": 1},
                   {"type": "build", "square": 3}],
             ben: [roll(2, 4), buy], cleo: [roll(2, 3), buy, {"type": "mortgage", "square": 5}],
             dan: [roll(1, 3)], eve: [roll(4, 5), buy], finn: [roll(5, 6), buy], gus: [roll(4, 6)],
             hana: [roll(3, 5), buy]}
    store_act(server, code, "banker", type="move", player=ann, square=39)
    for who, actions in turns.items():
        for action in (*actions, {"type": "end_turn"}):
            store_act(server, code, who, **action)
    expect(host.locator("#turn .whose")).to_contain_text("Annabelle's turn", timeout=LIVE)
    expect(host.locator("#board .sq .house")).to_have_count(2, timeout=LIVE)
    turn = TURN + [("dice", f"#act-for-{ann} .die span"), ("move", f"#act-for-{ann} button.primary")]
    counts = {"board square": 40, "cash": seats, "player's square": seats}
    check_one_screen(host, "mid-game", BOARD + MONEY + turn + TOOLS, counts, artifacts)

    # Clicking leaves nothing scrolled: a die, and the banker's folded tools opened (their column
    # scrolls, not the page). An opened tool is in view whole, down to its buttons: under eight
    # players' balances "Bank charges" was half under the column's foot (a play-test), and the
    # column scrolls itself to show it.
    host.set_viewport_size(SIZES["laptop"])
    host.locator(f"#act-for-{ann}").get_by_role("group", name="Die 1").get_by_text("6", exact=True).click()
    host.locator("#bank-tools-box summary").click()
    charge = host.locator("#bank-tools button")
    expect(charge).to_have_count(2)
    for button in charge.all():
        expect(button).to_be_in_viewport(ratio=1)
    assert not charge.evaluate_all(UNSEEN), "an opened tool's buttons are out of view"
    expect(host.locator("#bank-tools-box summary")).to_be_in_viewport(ratio=1)  # its name still over it
    host.locator("#seat-phones summary").click()
    host.locator("#end-game summary").click()
    assert scrolled(host) == {"top": 0, "left": 0, "tall": 0, "wide": 0}
    host.screenshot(path=artifacts / "host-tools-open-1366x768.png")
    for box in ("#bank-tools-box", "#seat-phones", "#end-game"):
        host.locator(f"{box} summary").click()
    host.locator("#players").evaluate("column => column.scrollTo(0, 0)")

    # An auction with a bid: the countdown runs; nobody's turn box is left empty.
    store_act(server, code, ann, **roll(4, 6))                      # Free Parking
    store_act(server, code, ann, type="end_turn")
    store_act(server, code, ben, **roll(3, 4))                      # States Avenue, for sale
    store_act(server, code, ben, type="decline")
    store_act(server, code, cleo, type="bid", amount=20)
    expect(host.locator("#turn .auction .countdown")).to_be_visible(timeout=LIVE)
    expect(host.locator("#turn .act-for")).to_have_count(0)
    host.locator("form.close-auction [data-auto]").uncheck()  # the banker closes it by hand
    auction = TURN + [("close", "form.close-auction button"), ("countdown", ".auction .countdown")]
    check_one_screen(host, "auction", BOARD + MONEY + auction, counts, artifacts)

    # The banker picks Finn, who has no phone: Finn's bids and pass are in the auction's box, in view
    # with the countdown, the seat panel open under it.
    host.set_viewport_size(SIZES["laptop"])
    host.locator(".seat-picker").get_by_role("link", name="Finn").click()
    expect(host).to_have_url(re.compile(rf"/t/{code}/seats/{finn}$"))
    expect(host.locator("#seat .seat-cash")).to_be_visible()
    host.locator("form.close-auction [data-auto]").uncheck()  # ticked again on a new page
    seat_bids = [("Finn's quick bids", "#turn .seat-bids button[data-bid]"),
                 ("Finn's bid", "#turn .seat-bids .typed-bid button"),
                 ("Finn passes", "#turn .seat-bids form.inline button")]
    check_one_screen(host, "auction-seat", BOARD + MONEY + auction + seat_bids, counts, artifacts)

    # A refusal shows under the bid it answers, over no control, and goes once read.
    host.locator("#turn .seat-bids").get_by_label("Bid for Finn").fill("5")
    host.locator("#turn .seat-bids .typed-bid button").click()
    refusal = host.locator("#turn .seat-bids .typed-bid + .answer .message.error")
    expect(refusal).to_have_text(f"A bid must be at least {money(21)}.")
    assert controls_under_messages(host)["under"] == []
    assert scrolled(host) == {"top": 0, "left": 0, "tall": 0, "wide": 0}
    host.screenshot(path=artifacts / "host-refusal-1366x768.png")
    refusal.click()
    expect(refusal).to_have_count(0)
    host.locator(".seat-picker").get_by_role("link", name="Done").click()
    expect(host).to_have_url(re.compile(rf"/t/{code}$"))

    # A debt: Ben is charged more than he has and could raise (his $1,400 and Oriental Avenue's
    # $50 mortgage): his box offers bankruptcy.
    store_act(server, code, "banker", type="close_auction")
    store_act(server, code, "banker", type="bank_charge", player=ben, amount=1500)
    expect(host.locator("#players ul.debts li")).to_have_text(f"Ben owes the bank {money(1500)}", timeout=LIVE)
    debt = TURN + [("debt", "#players ul.debts li"), ("bankruptcy", f"#act-for-{ben} button.danger")]
    check_one_screen(host, "debt", BOARD + MONEY + debt, counts, artifacts)

    # The end: the standings take the middle column, which scrolls by itself for the chart.
    store_act(server, code, "banker", type="end_game")
    expect(host.locator("#turn .standings h2")).to_contain_text("wins!", timeout=LIVE)
    check_one_screen(host, "end", BOARD + MONEY + [("winner", "#turn .standings h2")], counts, artifacts)


def test_the_banker_acts_for_a_seat_without_a_phone_and_confirms_a_big_charge(contexts, server, artifacts):
    host = contexts.page("host", viewport=SIZES["laptop"])
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    ann, bob = (store_act(server, code, None, type="join", name=name, token=token).player
                for name, token in (("Ann", "hat"), ("Bob", "car")))
    expect(host.locator("ol.seats li")).to_have_count(2, timeout=LIVE)  # the start form names both
    host.get_by_role("button", name="Start in this order").click()
    expect(host.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    store_act(server, code, ann, **roll(1, 2))
    store_act(server, code, ann, type="decline")                    # Baltic Avenue at auction

    # Bob has no phone: the banker picks his seat and bids for him; the panel follows live.
    host.locator(".seat-picker").get_by_role("link", name="Bob").click()
    expect(host).to_have_url(re.compile(rf"/t/{code}/seats/{bob}$"))
    panel, bids = host.locator("#seat"), host.locator("#turn .auction .seat-bids")
    bids.get_by_role("button", name=money(10), exact=True).click()  # proposes $10
    bids.locator(".typed-bid").get_by_role("button", name=f"Send bid {money(10)}").click()
    expect(host.locator("#turn .high-bid")).to_have_text(f"High bid {money(10)} by Bob", timeout=LIVE)
    expect(bids).to_have_count(0)                                   # the high bidder cannot bid again
    store_act(server, code, ann, type="pass")
    expect(panel.locator(".lot-row")).to_have_text(re.compile("Baltic Avenue"), timeout=LIVE)
    check_accessible(host, "the seat panel")
    host.screenshot(path=artifacts / "host-seat-panel-1366x768.png")

    # A charge above Bob's cash asks first: dismissed, nothing happens; accepted, Bob owes the rest.
    host.locator("#bank-tools-box summary").click()
    tools = host.locator("#bank-tools")
    tools.get_by_label("Player").select_option(label="Bob")
    tools.get_by_label("Amount").fill("2000")
    asked = []

    def answer(accept: bool):
        def on_dialog(dialog) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        return on_dialog

    host.once("dialog", answer(False))
    tools.get_by_role("button", name="Bank charges").click()
    assert asked == [(f"Bob has {money(1490)}. Charging more leaves Bob owing the bank the rest, and Bob "
                      "cannot end a turn until it is paid. Charge anyway?")]
    host.once("dialog", answer(True))
    tools.get_by_role("button", name="Bank charges").click()
    debts = host.locator("#players ul.debts li")
    expect(debts).to_have_text([f"Bob owes the bank {money(2000)}"], timeout=LIVE)  # one: the one accepted
    assert len(asked) == 2
    bob_cash = host.locator(f'table.balances tr[data-player="{bob}"] td.cash')
    expect(bob_cash).to_have_text(money(1490))
    # Paying out asks nothing, whatever the amount.
    tools.get_by_label("Player").select_option(label="Bob")
    tools.get_by_label("Amount").fill("3000")
    tools.get_by_role("button", name="Bank pays").click()
    expect(bob_cash).to_have_text(money(4490), timeout=LIVE)
    assert len(asked) == 2


def test_the_banker_offers_a_trade_for_a_seat_without_a_phone(contexts, server, artifacts):
    host = contexts.page("host", viewport=SIZES["laptop"])
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    ann = store_act(server, code, None, type="join", name="Ann", token="hat").player  # no phone
    bob = contexts.page("phone", **PHONE)
    join(bob, host.locator(".join-panel .url").inner_text(), "Bob", "Dog")
    expect(host.locator("ol.seats li")).to_have_count(2, timeout=LIVE)
    host.get_by_role("button", name="Start in this order").click()
    expect(host.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    store_act(server, code, ann, **roll(1, 2))
    store_act(server, code, ann, type="buy")                        # Baltic Avenue

    # From Ann's seat panel to the composer, which speaks of Ann by name.
    host.locator(".seat-picker").get_by_role("link", name="Ann").click()
    host.locator("#seat").get_by_role("link", name="Offer Bob a trade").click()
    expect(host).to_have_url(re.compile(rf"/t/{code}/seats/{ann}/trade/\d+$"))
    composer = host.url
    expect(host.get_by_role("heading", level=1)).to_have_text("Trade for Ann with Bob")
    give = host.get_by_role("group", name="Ann gives")
    expect(give.get_by_label(f"Cash (Ann has {money(1440)})")).to_be_visible()

    # An empty offer is refused where it was made; then Baltic Avenue for $100 of Bob's cash.
    send = host.get_by_role("button", name="Send the offer to Bob")
    send.click()
    expect(host.locator(".answer .message.error")).to_contain_text("The offer is empty: add cash, deeds or cards.")
    assert host.url == composer
    give.get_by_role("checkbox", name=re.compile("Baltic Avenue")).check()
    host.get_by_role("group", name="Bob gives").get_by_label(f"Cash (Bob has {money(1500)})").fill("100")
    check_accessible(host, "the banker's trade composer")
    host.screenshot(path=artifacts / "host-trade-composer-1366x768.png", full_page=True)
    send.click()

    # Back on Ann's seat panel, with the offer to withdraw; Bob's phone has it to answer.
    expect(host).to_have_url(re.compile(rf"/t/{code}/seats/{ann}$"))
    expect(host.locator("#message")).to_contain_text("Ann offers Bob a trade.")
    offer = host.locator("#seat .offer-card")
    expect(offer).to_contain_text("Ann offers Bob")
    expect(offer.get_by_role("button", name="Withdraw")).to_be_visible()
    incoming = bob.locator("#trades .offer-card.incoming")
    expect(incoming).to_contain_text("Ann offers you", timeout=LIVE)
    expect(incoming.get_by_role("button", name="Accept")).to_be_enabled()
    check_accessible(host, "the seat panel with the offer sent")


def test_a_phone_paying_more_than_half_its_cash_taps_twice(contexts):
    """A payment over half the payer's cash, or over all of it, is asked again in the page, under the
    form, naming payee and amount (web/answers/second_tap.py): "No" takes the question away, "Yes" pays;
    half or less pays at once; and "Pay someone" folds after each payment. No browser box."""
    host, _, (ann, _) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    boxes = []
    ann.on("dialog", lambda dialog: boxes.append(dialog.message) or dialog.dismiss())
    ann.locator("#pay-box summary").tap()
    pay = ann.locator("#pay-box form#pay-form")
    pay.get_by_label("To").select_option(label="Bob")
    pay.get_by_label("Amount").fill("1600")
    pay.get_by_role("button", name="Pay").tap()
    question = ann.locator("#pay-box .answer .ask")
    expect(question).to_contain_text(f"Pay Bob {money(1600)}? You have {money(1500)}: the rest stays owed")
    question.get_by_role("link", name="No, change it").tap()
    expect(question).to_have_count(0)
    expect(ann.locator("#wallet [data-cash]")).to_have_text(money(1500))
    expect(host.locator("#players ul.debts")).to_have_count(0)

    pay.get_by_label("Amount").fill("800")
    pay.get_by_role("button", name="Pay").tap()
    expect(question).to_contain_text(f"Pay Bob {money(800)}? That is more than half of your {money(1500)}.")
    expect(ann.locator("#wallet [data-cash]")).to_have_text(money(1500))
    expect(ann.locator("#pay-box")).to_have_attribute("open", "")
    question.get_by_role("button", name=f"Yes, pay {money(800)}").tap()
    expect(ann.locator("#wallet [data-cash]")).to_have_text(money(700), timeout=LIVE)
    expect(ann.locator("#pay-box")).not_to_have_attribute("open", "")
    expect(question).to_have_count(0)
    expect(pay.get_by_label("Amount")).to_have_value("")
    # Half or less asks nothing.
    ann.locator("#pay-box summary").tap()
    pay.get_by_label("To").select_option(label="Bob")
    pay.get_by_label("Amount").fill("350")
    pay.get_by_role("button", name="Pay").tap()
    expect(ann.locator("#wallet [data-cash]")).to_have_text(money(350), timeout=LIVE)
    expect(ann.locator("#pay-box")).not_to_have_attribute("open", "")
    assert boxes == []
