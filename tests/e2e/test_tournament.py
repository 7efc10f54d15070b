"""Issue 11 in a real browser: a table picks the tournament (JMA) rules on the home page, the third
miss in jail asks for the fine or a Get Out of Jail Free card on the phone, and a hotel is sold the
JMA way (not broken into houses outside a debt)."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, PHONE, check_accessible, join
from .test_end_and_assets import store_act

pytestmark = pytest.mark.e2e


def tournament_game(contexts):
    """The host picks "Tournament" on the home page (the fields follow) and seats Ann and Bob."""
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_text("House rules and variants").click()
    deals = host.get_by_label(re.compile("only between turns"))
    expect(deals).not_to_be_checked()
    host.get_by_role("radio", name=re.compile("Tournament")).check()
    expect(deals).to_be_checked()  # the page filled the fields in with the preset's values
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    expect(host.locator(".house-rules-summary")).to_have_text("Tournament rules (Japan Monopoly Association).")
    code = host.url.rsplit("/", 1)[1]
    join_url = host.locator(".join-panel .url").inner_text()
    phones = []
    for n, (name, token) in enumerate([("Ann", "Car"), ("Bob", "Dog")], start=1):
        phone = contexts.page(f"phone {n}", **PHONE)
        join(phone, join_url, name, token)
        phones.append(phone)
    expect(host.locator("ol.seats li")).to_have_count(2, timeout=LIVE)
    host.get_by_role("button", name="Start in this order").click()
    expect(host.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    return host, code, phones


def turn(server, code, who, to, dice, *then):
    """`who` is put on square `to` by the banker (unless None), rolls `dice`, takes `then` actions
    and ends the turn."""
    from banker.rules import Actor

    if to is not None:
        store_act(server, code, Actor(banker=True), type="move", player=who, square=to)
    store_act(server, code, Actor(player=who), type="roll", dice=dice)
    for action in then:
        store_act(server, code, Actor(player=who), **action)
    return store_act(server, code, Actor(player=who), type="end_turn")


def test_the_third_miss_in_jail_offers_the_card_and_the_hotel_is_sold_the_jma_way(contexts, server, artifacts):
    from banker.rules import Actor

    host, code, (ann, bob) = tournament_game(contexts)
    ANN, BOB = 1, 2
    # Ann draws Chance's Get Out of Jail Free card; Bob buys the three light blues over three turns;
    # Ann goes to jail (27 + 3 = Go To Jail); Bob builds hotel / 4 / 4 before his roll.
    turn(server, code, ANN, 4, [1, 2], {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"})
    turn(server, code, BOB, 3, [1, 2], {"type": "buy"})
    turn(server, code, ANN, 0, [4, 6])
    turn(server, code, BOB, 5, [1, 2], {"type": "buy"})
    turn(server, code, ANN, 27, [1, 2])
    turn(server, code, BOB, 6, [1, 2], {"type": "buy"})
    store_act(server, code, Actor(player=BOB), type="set_buildings", levels={"6": 5, "8": 4, "9": 4})
    for _ in range(2):
        turn(server, code, ANN, None, [1, 2])  # a miss in jail
        turn(server, code, BOB, 0, [4, 6])
    store_act(server, code, Actor(player=ANN), type="roll", dice=[1, 2])

    # The third miss waits on Ann's phone: the fine or her card, then she moves 3.
    turn_panel = ann.locator("#turn")
    expect(turn_panel).to_contain_text("Third miss: pay the fine or use a Get Out of Jail Free card", timeout=LIVE)
    expect(turn_panel.get_by_role("button", name="Pay the $50 fine and leave jail")).to_be_visible()
    check_accessible(ann, "third miss")
    ann.screenshot(path=artifacts / "jma-third-miss.png")
    turn_panel.get_by_role("button", name="Use a Get Out of Jail Free card").tap()
    # Out of jail by the card, she moves 3 to States Avenue and is offered it; the fine was not paid.
    expect(turn_panel.get_by_role("button", name="Buy for $140")).to_be_visible(timeout=LIVE)

    # Bob's hotel: not broken into houses outside a debt (the button says why), sold with the group.
    group = bob.locator("#group-light_blue")
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    sell_hotel = group.get_by_role("button", name=re.compile("^Sell hotel"))
    expect(sell_hotel).to_be_disabled()
    expect(sell_hotel).to_have_attribute("title", re.compile("wait until Ann's roll is settled"))  # mid-turn
    turn_panel.get_by_role("button", name="Buy for $140").tap()
    expect(sell_hotel).to_have_attribute("title", re.compile("Outside a debt a hotel is not broken into houses"),
                                         timeout=LIVE)
    check_accessible(bob, "wallet with a hotel under JMA")
    bob.screenshot(path=artifacts / "jma-hotel.png")
    sold = group.get_by_role("button", name="Sell every building: +$325")  # the same under both rules
    sold.tap()
    expect(group.get_by_role("button", name=re.compile("^Sell"))).to_have_count(0, timeout=LIVE)
