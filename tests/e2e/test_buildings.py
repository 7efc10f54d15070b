"""Issue: a phone builds on a complete group and the host's supply counter and board map change
without a reload. Ann owns the dark blue group (arranged through the store with legal actions, not
the UI); on her phone she builds evenly, is told why an uneven house is refused, sells the whole
group back and mortgages Boardwalk; the host's supply, board and balances follow live. Then, in a
building shortage, the banker auctions a house from the host, both phones bid, and the winner places
it."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, money, start_game
from .test_tv import SHOWN

pytestmark = pytest.mark.e2e

START_CASH = 1500
MEDITERRANEAN, BALTIC, SHORT_LINE, PARK_PLACE, BOARDWALK = 1, 3, 35, 37, 39
PARK_PRICE, BOARDWALK_PRICE = 350, 400
HOUSE = 200                      # dark blue house cost; selling one refunds half
BOARDWALK_LOAN, BOARDWALK_LIFT = 200, 220
SUPPLY = 32
EVENLY = "Build evenly: Boardwalk needs its next building before Park Place."


def store_act(server, code: str, actor, **action):
    """One legitimate action through the store, inside the running server's app context."""
    from banker import store

    with server.app.app_context():
        return store.act(code, action, actor=actor).state


def player_id(server, code: str, name: str) -> int:
    from banker import store

    with server.app.app_context():
        state = store.load_state(store.find_game(code))
    return next(p.id for p in state.players if p.name == name)


def test_building_on_a_complete_group_updates_the_host_live(contexts, server, artifacts):
    from banker.rules import Actor

    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])

    # Ann gets the dark blues the legal way: the banker puts her token on Short Line, then she
    # rolls 1 + 1 onto Park Place, buys it, rolls 1 + 1 again (doubles) onto Boardwalk, buys it.
    ann_id = player_id(server, code, "Ann")
    banker, seat = Actor(banker=True), Actor(player=ann_id)
    store_act(server, code, banker, type="move", player=ann_id, square=SHORT_LINE)
    for square in (PARK_PLACE, BOARDWALK):
        assert store_act(server, code, seat, type="roll", dice=[1, 1]).player(ann_id).position == square
        assert store_act(server, code, seat, type="buy").deeds[square].owner == ann_id
    cash = START_CASH - PARK_PRICE - BOARDWALK_PRICE

    # Everything below happens on screens that are never reloaded: they must catch up live.
    host_supply = host.locator("#players .supply")
    center_supply = host.locator(".center-supply")
    host_cash = host.locator(f'table.balances tr[data-player="{ann_id}"] td.cash')
    ann_cash = ann.locator("#wallet [data-cash]")
    park = host.locator(f'#board [data-square="{PARK_PLACE}"]')
    boardwalk = host.locator(f'#board [data-square="{BOARDWALK}"]')
    blues = ann.locator('#wallet [data-group="dark_blue"]')
    my_park = blues.locator(f'.lot[data-square="{PARK_PLACE}"]')
    my_boardwalk = blues.locator(f'.lot[data-square="{BOARDWALK}"]')

    def shows(houses: int, cash: int) -> None:
        """The bank's supply on both host counters, and Ann's cash on her phone and the host."""
        for counter in (host_supply, center_supply):
            expect(counter).to_have_attribute("data-houses", str(houses), timeout=LIVE)
            expect(counter).to_have_attribute("data-hotels", "12")
        expect(host_supply).to_contain_text(f"{houses} houses left")
        expect(center_supply).to_contain_text(f"{houses} houses")
        for where in (ann_cash, host_cash):
            expect(where).to_have_attribute("data-cash", str(cash), timeout=LIVE)
            expect(where).to_have_text(money(cash))

    expect(blues.locator("summary")).to_contain_text("2 of 2 · complete", timeout=LIVE)
    expect(park.locator(".owner")).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    expect(boardwalk.locator(".owner")).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    shows(SUPPLY, cash)

    # One house on Park Place: the second one there must wait for Boardwalk, and the phone says so.
    my_park.get_by_role("button", name=f"Build house −{money(HOUSE)}").tap()
    expect(ann.locator("#turn .latest")).to_contain_text("Park Place", timeout=LIVE)
    expect(my_park).to_have_attribute("data-level", "1")
    waiting = my_park.get_by_role("button", name=f"Build house −{money(HOUSE)}")
    expect(waiting).to_be_disabled()
    expect(waiting).to_have_attribute("title", EVENLY)
    expect(my_park.locator(".why")).to_have_text(EVENLY)
    my_boardwalk.get_by_role("button", name=f"Build house −{money(HOUSE)}").tap()
    cash -= 2 * HOUSE
    shows(SUPPLY - 2, cash)
    for square in (park, boardwalk):
        expect(square.locator(".band .house")).to_have_count(1, timeout=LIVE)
        expect(square.locator(".band .hotel")).to_have_count(0)
    for lot in (my_park, my_boardwalk):
        expect(lot).to_have_attribute("data-level", "1")
        expect(lot.locator(".buildings .house")).to_have_count(1)
    expect(ann.locator("#wallet .supply")).to_have_attribute("data-houses", str(SUPPLY - 2))

    # A second house on Park Place is fine; a third before Boardwalk's second is not.
    my_park.get_by_role("button", name=f"Build house −{money(HOUSE)}").tap()
    cash -= HOUSE
    shows(SUPPLY - 3, cash)
    expect(park.locator(".band .house")).to_have_count(2, timeout=LIVE)
    third = my_park.get_by_role("button", name=f"Build house −{money(HOUSE)}")
    expect(third).to_be_disabled()
    expect(third).to_have_attribute("title", EVENLY)
    expect(my_park.locator(".why")).to_have_text(EVENLY)
    ann.screenshot(path=artifacts / "buildings-phone-built.png", full_page=True)
    host.screenshot(path=artifacts / "buildings-host-built.png", full_page=True)
    # A screen that was stale when tapped (the button still enabled) is refused by the server.
    third.evaluate("button => button.disabled = false")
    third.tap()
    expect(ann.locator(".message.error")).to_have_text(EVENLY, timeout=LIVE)
    shows(SUPPLY - 3, cash)
    expect(park.locator(".band .house")).to_have_count(2)

    # Selling the whole group at once: half the cost back, the houses back in the bank.
    blues.get_by_role("button", name=f"Sell every building: +{money(3 * HOUSE // 2)}").tap()
    cash += 3 * HOUSE // 2
    shows(SUPPLY, cash)
    for square in (park, boardwalk):
        expect(square.locator(".band .house")).to_have_count(0, timeout=LIVE)
    for lot in (my_park, my_boardwalk):
        expect(lot).to_have_attribute("data-level", "0")
        expect(lot.locator(".buildings .house")).to_have_count(0)
    expect(blues.locator(".sell-all")).to_have_count(0)

    # Mortgaging Boardwalk: the host marks it, the phone turns the deed face down with a lift price.
    my_boardwalk.get_by_role("button", name=f"Mortgage +{money(BOARDWALK_LOAN)}").tap()
    cash += BOARDWALK_LOAN
    shows(SUPPLY, cash)
    expect(boardwalk).to_have_class(re.compile(r"\bmortgaged\b"), timeout=LIVE)
    expect(boardwalk.locator(".mortgage-mark")).to_be_visible()
    expect(park.locator(".mortgage-mark")).to_have_count(0)
    # Ann's pawn stands on Boardwalk: the stripes lie under the whole tile, and her pawn shows over them.
    mark, tile = boardwalk.locator(".mortgage-mark").bounding_box(), boardwalk.bounding_box()
    assert mark["width"] >= tile["width"] - 8 and mark["height"] >= tile["height"] - 8, (mark, tile)
    assert boardwalk.locator(".pawn").evaluate(SHOWN), "the mortgage mark covers Ann's pawn"
    expect(my_boardwalk).to_have_class(re.compile(r"\bmortgaged\b"))
    expect(my_boardwalk.locator(".rent")).to_have_text("mortgaged")
    lift = my_boardwalk.get_by_role("button", name=f"Repay mortgage −{money(BOARDWALK_LIFT)}")
    expect(lift).to_be_enabled()
    expect(my_boardwalk).to_have_css("opacity", "1")   # only the head is dimmed, not the Lift button
    expect(my_park.get_by_role("button", name=f"Build house −{money(HOUSE)}")).to_be_disabled()
    expect(my_park.locator(".why")).to_have_text("Boardwalk is mortgaged: repay its mortgage before building in its group.")
    expect(bob.locator("#history")).not_to_contain_text("mortgaged")   # only Ann's phone hears of it
    ann.screenshot(path=artifacts / "buildings-phone-mortgaged.png", full_page=True)
    ann.locator('#wallet [data-group="dark_blue"]').screenshot(path=artifacts / "buildings-phone-deeds.png")
    host.screenshot(path=artifacts / "buildings-host-mortgaged.png", full_page=True)

    # A building shortage, from the host and both phones. Bob gets the brown group through legal
    # turns (arranged through the store), and Ann repays Boardwalk's mortgage: both could place a
    # house. The banker opens the house's auction from the host's tools; the two phones bid.
    store_act(server, code, banker, type="move", player=ann_id, square=17)
    store_act(server, code, seat, type="roll", dice=[1, 2])  # the third roll: onto Free Parking
    store_act(server, code, seat, type="end_turn")
    bob_id = player_id(server, code, "Bob")
    bob_seat = Actor(player=bob_id)
    store_act(server, code, banker, type="move", player=bob_id, square=BOARDWALK)
    for square in (MEDITERRANEAN, BALTIC):  # past GO (+200) and onto each brown lot, bought
        assert store_act(server, code, bob_seat, type="roll", dice=[1, 1]).player(bob_id).position == square
        store_act(server, code, bob_seat, type="buy")
    store_act(server, code, banker, type="move", player=bob_id, square=7)
    store_act(server, code, bob_seat, type="roll", dice=[1, 2])  # Just Visiting
    store_act(server, code, bob_seat, type="end_turn")
    state = store_act(server, code, seat, type="unmortgage", square=BOARDWALK)
    bob_cash = state.player(bob_id).cash

    host.locator("#shortage-box summary").click()
    host.get_by_role("button", name="Auction one house").click()
    for page in (host, ann, bob):
        auction = page.locator("#turn .auction")
        expect(auction.locator(".lot-for-sale")).to_contain_text("one house", timeout=LIVE)
        expect(auction.locator(".bidders")).to_have_text("Ann, Bob")
    expect(host.locator("#shortage-box")).to_have_count(0)  # one auction at a time
    for phone, bid in ((ann, 10), (bob, 20)):
        typed = phone.locator("#turn .typed-bid")
        typed.get_by_label("Your bid").fill(str(bid))
        typed.get_by_role("button", name="Bid").tap()
        expect(host.locator("#turn .auction .high-bid")).to_contain_text(money(bid), timeout=LIVE)
    ann.locator("#turn").get_by_role("button", name="Pass").tap()
    expect(bob.locator("#turn .offer")).to_contain_text("You won a house", timeout=LIVE)
    bob.locator(f'#wallet .lot[data-square="{MEDITERRANEAN}"]').get_by_role("button", name="Place here").tap()
    bob_cash -= 20
    expect(host.locator(f'#board [data-square="{MEDITERRANEAN}"] .band .house')).to_have_count(1, timeout=LIVE)
    for counter in (host_supply, center_supply):
        expect(counter).to_have_attribute("data-houses", str(SUPPLY - 1), timeout=LIVE)
        expect(counter).to_have_attribute("data-hotels", "12")
    expect(bob.locator("#wallet [data-cash]")).to_have_attribute("data-cash", str(bob_cash), timeout=LIVE)
    expect(host.locator(f'table.balances tr[data-player="{bob_id}"] td.cash')).to_have_attribute(
        "data-cash", str(bob_cash))
    expect(host.locator("#turn .auction")).to_have_count(0)
    host.screenshot(path=artifacts / "buildings-host-shortage.png", full_page=True)

    # No screen reloaded; the only error is the refused stale tap's 422.
    assert contexts.loads == {"host": ["/", f"/t/{code}"],
                              "phone 1": [f"/p/{code}"], "phone 2": [f"/p/{code}"]}
    assert contexts.blocked == [], "a page tried to reach the internet"
    refused = f"/p/{code}/act"   # Chromium and htmx both log the 422 of the refused tap
    assert contexts.errors == [
        "phone 1: Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)",
        f"phone 1: Response Status Error Code 422 from {refused}",
    ], "the pages logged errors"
