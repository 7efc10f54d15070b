"""Issue 36 in a real browser: an organiser runs a one-round tournament night of two tables. Two
phones register by the event's QR address and wait, the event TV shows the registration and then
the seating, the organiser seats and starts the round, each phone becomes its table's phone with no
second join, each table's host screen opens from the event screen with the round's clock, which the
organiser pauses on every table's screens, the tables' ends reach the standings, ties are rolled off
on the organiser's screen, a phone goes back from its table to its tournament page, and the results. Every screen at 360 px (phones) or 1366×768
(laptops), checked by axe, with screenshots in test-artifacts/."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, NARROW, PHONE, check_accessible, check_phone_layout, text_at_200_percent

pytestmark = pytest.mark.e2e

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TV = {"viewport": {"width": 1920, "height": 1080}}


def in_server(server, work):
    with server.app.app_context():
        return work()


def test_a_tournament_night_from_registration_to_results(contexts, server, artifacts):
    from banker.rules import Actor
    from banker.rules.tournament import seat_round
    from banker import store
    from banker.store import tournaments

    organiser = contexts.page("organiser", **LAPTOP)
    organiser.goto("/")
    organiser.get_by_role("link", name="Run a tournament").click()
    check_accessible(organiser, "Run a tournament")
    organiser.get_by_label("Name of the event").fill("Club night")
    organiser.get_by_label("Rounds").fill("1")
    organiser.get_by_role("button", name="Create the tournament").click()
    expect(organiser).to_have_url(re.compile(r"/e/[A-Z0-9]+$"))
    code = organiser.url.rsplit("/", 1)[1]
    register_url = organiser.locator(".register-qr a").inner_text()

    organiser.get_by_role("button", name="Show on a TV").click()
    tv = contexts.page("tv", **TV)
    tv.goto(organiser.url)
    expect(tv.get_by_role("heading", name="Register: scan this code")).to_be_visible()
    organiser.goto(f"/e/{code}")

    phones = []
    for name in ("Ann", "Bob"):
        phone = contexts.page(name, **PHONE)
        phone.goto(register_url)
        phone.get_by_label("Your name").fill(name)
        phone.get_by_role("button", name="Register").tap()
        expect(phone.get_by_text(f"You are registered as {name}")).to_be_visible()
        phones.append(phone)
    check_phone_layout(phones[0], "registered phone")
    check_accessible(phones[0], "registered phone")
    for name in ("Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        in_server(server, lambda: tournaments.register(code, name))
    expect(tv.get_by_text("8 players registered")).to_be_visible(timeout=LIVE)
    # A seed that seats Ann (1) and Bob (2) at different tables, drawn as "Draw the seating again" does.
    seed = next(s for s in range(100) if not any({1, 2} <= set(t) for t in seat_round(list(range(1, 9)), [], s, 4)))
    in_server(server, lambda: tournaments.act(code, {"type": "draw_seed", "seed": seed}, tournaments.ORGANISER))
    expect(organiser.get_by_text(f"from the seed {seed}")).to_be_visible(timeout=LIVE)
    organiser.screenshot(path=artifacts / "tournament-registration-1366x768.png")
    tv.screenshot(path=artifacts / "tournament-tv-registration.png")
    check_accessible(tv, "event TV, registration")

    organiser.get_by_role("button", name="Seat the next round").click()
    expect(organiser.get_by_role("link", name="Host screen of table 2")).to_be_visible()
    expect(tv.locator(".tv-seating li")).to_have_count(8, timeout=LIVE)
    for phone in phones:  # told their table live, on the page they waited on
        expect(phone.get_by_role("link", name=re.compile("Play at table"))).to_be_visible(timeout=LIVE)
    expect(phones[0].get_by_text("In a moment this phone becomes your phone at the table.")).to_be_visible()
    phones[0].screenshot(path=artifacts / "tournament-phone-seated.png")
    organiser.get_by_role("button", name="Start the round").click()
    expect(organiser.locator(".round-clock")).to_contain_text("Round 1")
    check_accessible(organiser, "event screen, round in play")
    check_phone_layout(organiser, "event screen")
    organiser.screenshot(path=artifacts / "tournament-organiser-1366x768.png")
    tv.screenshot(path=artifacts / "tournament-tv-seating.png")

    hosts, games = [], []
    for number in (1, 2):
        host = organiser.context.new_page()  # the organiser's laptop is each table's banker
        host.goto(organiser.get_by_role("link", name=f"Host screen of table {number}").get_attribute("href"))
        expect(host.locator(".time-limit")).to_contain_text("Time left")
        assert clock_off_by(host) <= 1  # to the second from the first moment, not the minutes begun
        hosts.append(host)
        games.append(host.url.rsplit("/", 1)[1])
    for phone in phones:  # gone on to their table by themselves, a moment after the seating was told
        expect(phone).to_have_url(re.compile(r"/p/[A-Z0-9]+$"), timeout=LIVE)
        expect(phone.locator(".time-limit")).to_contain_text("Time left")
        expect(phone.locator(".time-limit")).to_contain_text("Time left")
    assert {phone.url.rsplit("/", 1)[1] for phone in phones} == set(games)
    check_accessible(phones[1], "a table's phone in a tournament")
    # The organiser pauses the round's clock: every table's host screen and phone shows it paused, live.
    organiser.bring_to_front()
    organiser.get_by_role("button", name="Pause the clock").click()
    host_table = next(host for host in hosts if host.url == phones[0].url.replace("/p/", "/t/"))
    for screen in (host_table, phones[0]):
        expect(screen.locator(".time-limit")).to_contain_text(re.compile(r"Clock paused: \d+:\d\d left"), timeout=LIVE)
    check_phone_layout(phones[0], "a table's phone, the round's clock paused")
    phones[0].set_viewport_size({"width": NARROW, "height": 800})
    phones[0].screenshot(path=artifacts / "tournament-phone-clock-paused-360.png")
    host_table.screenshot(path=artifacts / "tournament-host-clock-paused-1366x768.png")
    organiser.get_by_role("button", name="Resume the clock").click()
    for screen in (host_table, phones[0]):
        expect(screen.locator(".time-limit")).to_contain_text("Time left", timeout=LIVE)
    # The organiser undoes the resume: every table shows its clock paused again, live.
    organiser.get_by_role("button", name="Undo", exact=True).click()
    for screen in (host_table, phones[0]):
        expect(screen.locator(".time-limit")).to_contain_text(re.compile(r"Clock paused: \d+:\d\d left"), timeout=LIVE)

    # The first table's banker pays its first seat, and both tables end: the standings follow live.
    organiser.bring_to_front()
    for game in games:
        in_server(server, lambda: store.act(game, {"type": "bank_pay", "player": 1, "amount": 300}, actor=Actor(banker=True)))
        in_server(server, lambda: store.act(game, {"type": "end_game"}, actor=Actor(banker=True)))
    expect(tv.locator(".tv-winner")).to_be_visible(timeout=LIVE)
    expect(organiser.get_by_text("The tournament is over.")).to_be_visible(timeout=LIVE)
    tv.screenshot(path=artifacts / "tournament-tv-final.png")
    check_accessible(tv, "event TV, the end")
    # Both tables' first seats are level on everything, and so are the six others: the organiser
    # records the first roll-off (the winner first, as the choices stand) and its group is gone.
    expect(organiser.locator(".roll-off")).to_have_count(2)
    check_accessible(organiser, "event screen, ties to roll off")
    organiser.screenshot(path=artifacts / "tournament-roll-off-1366x768.png", full_page=True)
    organiser.locator(".roll-off").first.get_by_role("button", name="Record the roll-off").click()
    expect(organiser.locator(".roll-off")).to_have_count(1)
    # From a table's phone, the way back to its player's tournament page, with their points.
    phones[0].bring_to_front()
    text_at_200_percent(phones[0])
    check_phone_layout(phones[0], "a table's phone at its end, at 200% text")
    phones[0].get_by_role("link", name="My tournament: points and next seating").tap()
    expect(phones[0]).to_have_url(re.compile(rf"/e/{code}/me\?stay=1$"))
    check_phone_layout(phones[0], "back to the tournament from a table")
    phones[0].screenshot(path=artifacts / "tournament-phone-back-to-event.png")
    organiser.bring_to_front()

    organiser.get_by_role("link", name="Results").click()
    expect(organiser.locator(".event-results tbody tr")).to_have_count(8)
    check_accessible(organiser, "results")
    check_phone_layout(organiser, "results")
    organiser.screenshot(path=artifacts / "tournament-results-1366x768.png")
    assert not contexts.errors, contexts.errors


def clock_off_by(page) -> int:
    """How many seconds the page's clock shows more or less than its deadline leaves, read at once."""
    shown, left = page.evaluate("""() => {
        const clock = document.querySelector("[data-deadline]");
        return [clock.querySelector("[data-left]").textContent,
                Math.floor((Date.parse(clock.dataset.deadline) - Date.now()) / 1000)];
    }""")
    minutes, seconds = shown.split(":")
    return abs(int(minutes) * 60 + int(seconds) - left)
