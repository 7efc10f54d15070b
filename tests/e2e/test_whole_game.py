"""Issue: a whole short game to the end screen, ending in a bankruptcy, with the chart visible; a
screenshot of the end screen kept as a test artifact.

The host creates a game on the home page with $300 each, Ann and Bob join on their phones and play
it out there: Ann rolls 3 + 4 onto Chance, picks "Advance to the nearest utility" in the card picker and buys
Electric Company; Bob pays the Income Tax; Bob pays Ann rent on Electric Company (4 x the dice);
Ann buys Water Works; Bob lands on Community Chest, picks the car wash card (pay $100) with $68 in hand and nothing
to sell, and declares bankruptcy. Every screen then shows the end, without a reload: "Ann wins!",
the standings with each part of net worth, and the chart with a line per player."""

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import (
    DESKTOP,
    LIVE,
    NARROW,
    PHONE,
    check_phone_layout,
    join,
    money,
    roll,
)

pytestmark = pytest.mark.e2e

START_CASH = 300
CHANCE, INCOME_TAX, ELECTRIC, FREE_PARKING, CHEST, WATER_WORKS = 7, 4, 12, 20, 17, 28
UTILITY_PRICE = 150
INCOME_TAX_AMOUNT = 200
CAR_WASH = 100                     # Community Chest (2021): "You go to the local school's car wash…: Pay $100"


def shows_cash(page: Page, where: str, cash: int) -> None:
    cell = page.locator(where)
    expect(cell).to_have_attribute("data-cash", str(cash), timeout=LIVE)
    expect(cell).to_have_text(money(cash))


def standings_fit(phone: Page, what: str) -> None:
    """At 360 px wide, the standings table stays inside its card (the page may still not scroll
    sideways when it does not, so check_phone_layout alone would miss it)."""
    size = phone.viewport_size
    phone.set_viewport_size({"width": NARROW, "height": size["height"]})
    try:
        over = phone.locator("#turn .standings").evaluate(
            "s => s.querySelector('table').getBoundingClientRect().right - s.getBoundingClientRect().right")
        assert over <= 0.5, f"{what}: the standings table sticks {over:.0f}px out of its card at {NARROW}px"
    finally:
        phone.set_viewport_size(size)


def test_a_short_game_ends_in_bankruptcy_on_every_screen(contexts, server, artifacts):
    # The host sets a small starting cash on the home page and creates the game.
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_label("Starting cash").fill(str(START_CASH))
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    expect(host.locator(".house-rules-summary")).to_have_text(f"House rules: start cash {money(START_CASH)}")
    join_url = host.locator(".join-panel .url").inner_text()
    ann = contexts.page("phone 1", **PHONE)
    bob = contexts.page("phone 2", **PHONE)
    join(ann, join_url, "Ann", "Car")
    join(bob, join_url, "Bob", "Dog")
    expect(host.locator("ol.seats li")).to_have_count(2, timeout=LIVE)
    host.get_by_role("button", name="Start in this order").click()
    expect(host.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    screens = [host, ann, bob]
    ids = {name: host.locator("table.balances tr", has_text=name).get_attribute("data-player")
           for name in ("Ann", "Bob")}

    def cash_everywhere(ann_cash: int, bob_cash: int) -> None:
        shows_cash(ann, "#wallet [data-cash]", ann_cash)
        shows_cash(bob, "#wallet [data-cash]", bob_cash)
        shows_cash(host, f'table.balances tr[data-player="{ids["Ann"]}"] td.cash', ann_cash)
        shows_cash(host, f'table.balances tr[data-player="{ids["Bob"]}"] td.cash', bob_cash)

    def on_square(name: str, phone: Page, square: int, square_name: str) -> None:
        expect(phone.locator("#wallet .where")).to_have_text(f"On {square_name}", timeout=LIVE)
        expect(host.locator(f'#board [data-square="{square}"] .pawn[title="{name}"]')).to_have_count(1, timeout=LIVE)

    def end_turn(phone: Page, next_name: str, next_phone: Page) -> None:
        phone.locator("#turn").get_by_role("button", name="End turn").tap()
        expect(next_phone.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
        expect(host.locator("#turn .whose")).to_contain_text(f"{next_name}'s turn", timeout=LIVE)

    cash_everywhere(START_CASH, START_CASH)
    expect(ann.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)

    # Ann: 3 + 4 onto Chance. She draws "Advance to the nearest Utility" and taps it in the picker.
    roll(ann, 3, 4)
    on_square("Ann", ann, CHANCE, "Chance")
    picker = ann.locator("#turn .card-picker")
    expect(ann.locator("#turn .offer")).to_have_text("Draw the top Chance card and tap the one you got:")
    expect(picker.get_by_role("button")).to_have_count(16)
    check_phone_layout(ann, "card picker")
    ann.screenshot(path=artifacts / "game-card-picker.png", full_page=True)
    expect(bob.locator("#turn .card-picker")).to_have_count(0)   # only the drawer picks
    picker.get_by_role("button", name=re.compile(r"^Advance to the nearest utility\..*→ Electric Company, 10× a new roll")).tap()
    # The card moves her to Electric Company (no GO on the way, no cash change) and offers it.
    on_square("Ann", ann, ELECTRIC, "Electric Company")
    expect(ann.locator("#turn .card-picker")).to_have_count(0)
    expect(ann.locator("#turn .offer")).to_have_text(f"Electric Company is for sale at {money(UTILITY_PRICE)}.")
    cash_everywhere(START_CASH, START_CASH)
    drew = ("Ann drew “Advance to the nearest utility. If unowned, you may buy it from the Bank. If owned, roll the "
            "dice and pay the owner ten times the amount thrown”.")
    for page in screens:
        expect(page.locator("#turn .latest")).to_contain_text(drew, timeout=LIVE)
    ann.locator("#turn").get_by_role("button", name=f"Buy for {money(UTILITY_PRICE)}").tap()
    ann_cash, bob_cash = START_CASH - UTILITY_PRICE, START_CASH
    cash_everywhere(ann_cash, bob_cash)
    owner = host.locator(f'#board [data-square="{ELECTRIC}"] .owner')
    expect(owner).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    end_turn(ann, "Bob", bob)

    # Bob: 1 + 3 onto Income Tax, paid at once.
    roll(bob, 1, 3)
    bob_cash -= INCOME_TAX_AMOUNT
    cash_everywhere(ann_cash, bob_cash)
    on_square("Bob", bob, INCOME_TAX, "Income Tax")
    end_turn(bob, "Ann", ann)

    # Ann: 3 + 5 to Free Parking (nothing happens there by the official rules).
    roll(ann, 3, 5)
    on_square("Ann", ann, FREE_PARKING, "Free Parking")
    cash_everywhere(ann_cash, bob_cash)
    end_turn(ann, "Bob", bob)

    # Bob: 2 + 6 onto Ann's Electric Company: 4 x 8 rent, paid at once.
    roll(bob, 2, 6)
    rent = 4 * 8
    ann_cash, bob_cash = ann_cash + rent, bob_cash - rent
    cash_everywhere(ann_cash, bob_cash)
    rent_line = f"Bob paid Ann {money(rent)} rent for Electric Company (4 × 8)."
    for page in screens:
        expect(page.locator("#history li", has_text=rent_line)).to_have_count(1, timeout=LIVE)
    end_turn(bob, "Ann", ann)

    # Ann: 2 + 6 onto Water Works, and buys it.
    roll(ann, 2, 6)
    ann.locator("#turn").get_by_role("button", name=f"Buy for {money(UTILITY_PRICE)}").tap()
    ann_cash -= UTILITY_PRICE
    cash_everywhere(ann_cash, bob_cash)
    expect(host.locator(f'#board [data-square="{WATER_WORKS}"] .owner')).to_have_attribute(
        "title", "owned by Ann", timeout=LIVE)
    end_turn(ann, "Bob", bob)

    # Bob: 1 + 4 onto Community Chest; he draws the car wash card (pay $100) with $68 and no deeds: a debt he cannot pay.
    roll(bob, 1, 4)
    on_square("Bob", bob, CHEST, "Community Chest")
    expect(bob.locator("#turn .offer")).to_have_text("Draw the top Community Chest card and tap the one you got:")
    bob.locator("#turn .card-picker").get_by_role("button", name=re.compile("^You go to the local school's car wash")).tap()
    debt = bob.locator("#turn .debt").first
    expect(debt).to_contain_text(f"You owe the bank {money(CAR_WASH)}.", timeout=LIVE)
    expect(debt).to_contain_text(f"You have {money(bob_cash)}. Selling every building and mortgaging "
                                 f"every deed would raise {money(0)} more.")
    box = bob.locator("#turn .bankrupt-box")
    expect(box).to_contain_text(f"Even everything you have would not cover {money(CAR_WASH)}.")
    expect(box).to_contain_text("each of your deeds is auctioned. You leave the game.")
    expect(bob.locator("#turn").get_by_role("button", name="End turn")).to_have_count(0)
    expect(host.locator("#players ul.debts li")).to_have_text(f"Bob owes the bank {money(CAR_WASH)}", timeout=LIVE)
    cash_everywhere(ann_cash, bob_cash)        # nothing paid yet
    check_phone_layout(bob, "debt he cannot cover")
    bob.screenshot(path=artifacts / "game-bankrupt-debt.png", full_page=True)

    # Bob declares bankruptcy and confirms the browser's dialog.
    asked = []

    def confirm(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    bob.once("dialog", confirm)
    box.get_by_role("button", name="Declare bankruptcy").tap()

    # Every screen shows the end without a reload: the winner, the standings and the chart.
    worth = {"Ann": (ann_cash, 2 * UTILITY_PRICE, 0), "Bob": (0, 0, 0)}
    for page in screens:
        standings = page.locator("#turn .standings")
        expect(standings.get_by_role("heading", level=2)).to_have_text("Ann wins!", timeout=LIVE)
        expect(standings.locator("thead th")).to_have_text(["#", "Player", "Cash", "Deeds", "Buildings", "Total"])
        rows = standings.locator("tbody tr")
        expect(rows).to_have_count(2)
        for row, (place, name) in zip((rows.nth(0), rows.nth(1)), (("1", "Ann"), ("out", "Bob"))):
            cash, deeds, buildings = worth[name]
            expect(row).to_have_attribute("data-player", ids[name])
            expect(row.locator("td")).to_have_text(
                [place, name, money(cash), money(deeds), money(buildings), money(cash + deeds + buildings)])
        expect(rows.nth(1)).to_have_class("out")
        chart = standings.locator("svg.worth-chart")
        expect(chart).to_be_visible()
        lines = chart.locator("polyline")
        expect(lines).to_have_count(2)
        for n, name in enumerate(("Ann", "Bob")):
            expect(lines.nth(n)).to_have_attribute("data-player", ids[name])
            # A point per action since the start, so both lines cross the whole chart.
            assert len(lines.nth(n).get_attribute("points").split()) > 10
        expect(standings.locator(".chart-legend li")).to_have_text(["Ann", "Bob"])
        drawn = chart.bounding_box()
        assert drawn["width"] >= 300 and drawn["height"] >= 140, f"the chart is drawn {drawn}"
        expect(page.locator("#turn .card-picker, #turn .dice, #turn .bankrupt-box")).to_have_count(0)
    assert asked == ["Declare bankruptcy and leave the game?"]
    # The last entry tells the end, and no next turn.
    over = (f"Bob is bankrupt; everything goes to the bank. Bob's last {money(bob_cash)} goes to the bank. "
            "The game is over: Ann wins!")
    for page in screens:
        expect(page.locator("#history li").first).to_contain_text(over, timeout=LIVE)
    expect(host.locator("#players ul.debts")).to_have_count(0, timeout=LIVE)
    # Bob's phone says he is out, in place of an empty wallet (issue 23).
    out = bob.locator("#turn .out-of-game")
    expect(out.get_by_role("heading", name="You are out of the game")).to_be_visible(timeout=LIVE)
    expect(out).to_contain_text("You went bankrupt to the bank.")
    expect(out).to_contain_text("Your final place: 2 of 2")
    expect(bob.locator("#wallet")).to_be_hidden()
    expect(bob.locator("#buzz")).to_be_hidden()
    expect(ann.locator("#buzz")).to_be_visible()

    # The end screen fits a 360 px phone; pictures of it are kept (test-artifacts/, CI keeps it).
    for phone, who in ((ann, "winner's"), (bob, "bankrupt player's")):
        check_phone_layout(phone, f"end screen on the {who} phone")
        standings_fit(phone, f"the {who} phone")
        # The end leaves nothing to do: no empty trades panel, no mortgage buttons on the deeds.
        expect(phone.locator("#trades")).to_be_hidden()
        expect(phone.locator("#wallet .holdings").get_by_role("button")).to_have_count(0)
    expect(ann.locator("#wallet .holdings .lot")).to_have_count(2)   # her deeds, shown without buttons
    host.screenshot(path=artifacts / "end-host.png", full_page=True)
    ann.screenshot(path=artifacts / "end-phone.png", full_page=True)
    bob.screenshot(path=artifacts / "end-phone-bankrupt.png", full_page=True)
    ann.set_viewport_size({"width": NARROW, "height": 780})
    ann.screenshot(path=artifacts / "end-phone-360.png", full_page=True)
    for picture in ("end-host.png", "end-phone.png", "end-phone-bankrupt.png", "end-phone-360.png"):
        assert (artifacts / picture).stat().st_size > 10_000, f"{picture} was not kept"

    # Nothing reloaded: each page loaded only on the way in; nothing left 127.0.0.1; no errors.
    assert contexts.loads == {"host": ["/", f"/t/{code}"],
                              "phone 1": [f"/j/{code}", f"/p/{code}"],
                              "phone 2": [f"/j/{code}", f"/p/{code}"]}
    assert contexts.blocked == [], "a page tried to reach the internet"
    assert contexts.errors == [], "the pages logged errors"
