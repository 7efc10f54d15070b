"""Issue 8: every screen learns of a change the moment it is committed, through one live connection
per page, without polling, without a reload, and also after the server restarts; one server holds
many open pages while actions stay answered."""

import json
import socket
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, PHONE, Contexts, Server, check_accessible, join, money, roll, start_game

pytestmark = pytest.mark.e2e


def api(server, path: str, body: dict, token: str | None = None) -> dict:
    """One JSON API call to a real server."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Requests:
    """Every request a page sends, as the browser's network log shows it."""

    def __init__(self, page):
        self.seen: list[str] = []
        page.on("request", lambda request: self.seen.append(f"{request.method} {request.url}"))

    def since(self, mark: int) -> list[str]:
        return self.seen[mark:]


def cash_on(page, name: str):
    return page.locator("#players tr", has_text=name).locator("[data-cash]")


def test_a_change_on_one_screen_shows_on_every_other_without_a_request(contexts, server, artifacts):
    """A host and three phones: each page holds one live connection; while idle nobody asks the
    server anything, and a tap on one phone reaches the host and the other phones as pushed HTML."""
    host, code, phones = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog"), ("Cy", "Cat")])
    ann, bob, cy = phones
    pages = {"host": host, "Ann": ann, "Bob": bob, "Cy": cy}
    loaded = {name: list(loads) for name, loads in contexts.loads.items()}
    logs = {name: Requests(page) for name, page in pages.items()}

    # Idle: the pages poll nothing (the live connection stays open, sending only comments).
    time.sleep(2.5)
    for name, log in logs.items():
        assert log.seen == [], f"{name} sent {log.seen} while nothing happened"

    # Ann rolls 1 + 2 to Baltic Avenue and buys it: two requests from her phone, none from the others.
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    expect(cash_on(host, "Ann")).to_have_attribute("data-cash", str(1500 - 60), timeout=LIVE)
    expect(host.locator('#board [data-square="3"] .owner')).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    for other in (bob, cy):
        expect(other.locator("#turn .latest")).to_contain_text("Ann bought Baltic Avenue for $60.", timeout=LIVE)
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1440", timeout=LIVE)
    expect(ann.locator('#wallet .lot[data-square="3"]')).to_contain_text("Baltic Avenue")
    assert [r for r in logs["Ann"].seen if r.startswith("POST")] == [f"POST {server.url}/p/{code}/act"] * 2
    for name in ("host", "Bob", "Cy"):
        assert logs[name].seen == [], f"{name} sent {logs[name].seen} to learn of the change"

    # Ann ends her turn: Bob's phone turns to "Your turn" at once, still with no request of his.
    ann.locator("#turn").get_by_role("button", name="End turn").tap()
    expect(bob.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    expect(host.locator("#turn .whose")).to_contain_text("Bob's turn", timeout=LIVE)
    assert logs["Bob"].seen == [] and logs["host"].seen == []
    assert contexts.loads == loaded  # no page was reloaded
    host.screenshot(path=artifacts / "live-host.png")
    bob.screenshot(path=artifacts / "live-phone-bob.png", full_page=True)
    check_accessible(host, "the host after live updates")
    check_accessible(bob, "a phone after live updates")
    assert not contexts.errors and not contexts.blocked


def store_act(server, code: str, actor, **action):
    """One legitimate action through the store, inside the running server's app context."""
    from banker import store

    with server.app.app_context():
        return store.act(code, action, actor=actor)


def test_a_push_keeps_what_a_player_was_doing(contexts, server, artifacts):
    """Ann has tapped one die and opened the pay form when Bob's payment is pushed to her phone:
    the tapped die, the typed amount and the open form are all still there, and focus with them.
    What a push keeps is the reader's, not the server's: Bob's pay box (folded after his payment,
    opened again), with a payee chosen and an amount typed, stops offering Cy once Cy is bankrupt (and offers Cy again when the banker
    undoes it) and keeps what Bob chose and typed; Ann's brown group, which the server opened while
    she was in debt and she never touched, folds again once the debt is paid."""
    from banker.rules import Actor

    host, code, (ann, bob, cy) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog"), ("Cy", "Cat")])
    turn = ann.locator("#turn")
    turn.get_by_role("group", name="Die 1").get_by_text("4", exact=True).tap()
    ann.locator("#pay-box summary").tap()
    amount = ann.locator("#pay-box").get_by_label("Amount")
    amount.fill("35")
    bob.locator("#pay-box summary").tap()
    pay = bob.locator("#pay-box")
    payee = pay.get_by_label("To")
    payee.select_option(label="Ann")
    pay.get_by_label("Amount").fill("10")
    pay.get_by_role("button", name="Pay").tap()
    expect(ann.locator("#turn .latest")).to_contain_text("Bob paid Ann $10.", timeout=LIVE)
    expect(pay).not_to_have_attribute("open", "")  # Bob's box folds after his payment
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1510")
    expect(turn.get_by_role("group", name="Die 1").get_by_role("radio", name="4")).to_be_checked()
    expect(ann.locator("#pay-box")).to_have_attribute("open", "")
    expect(amount).to_have_value("35")
    expect(amount).to_be_focused()

    banker, ann_id, cy_id = Actor(banker=True), 1, 3
    pay.locator("summary").tap()
    expect(payee.locator("option", has_text="Cy")).to_have_count(1)
    payee.select_option(label="Ann")
    pay.get_by_label("Amount").fill("35")
    store_act(server, code, banker, type="bank_charge", player=cy_id, amount=2000)
    store_act(server, code, Actor(player=cy_id), type="bankrupt")
    expect(payee.locator("option", has_text="Cy")).to_have_count(0, timeout=LIVE)
    expect(payee).to_have_value(str(ann_id))
    expect(pay.get_by_label("Amount")).to_have_value("35")
    expect(pay).to_have_attribute("open", "")
    bob.screenshot(path=artifacts / "live-pay-box-after-bankruptcy.png", full_page=True)
    store_act(server, code, banker, type="undo")  # Cy is back, still owing the bank
    expect(payee.locator("option", has_text="Cy")).to_have_count(1, timeout=LIVE)
    expect(payee).to_have_value(str(ann_id))
    expect(pay.get_by_label("Amount")).to_have_value("35")

    store_act(server, code, Actor(player=ann_id), type="roll", dice=[1, 2])
    store_act(server, code, Actor(player=ann_id), type="buy")
    brown = ann.locator("#group-brown")
    expect(brown).to_be_attached(timeout=LIVE)
    expect(brown).not_to_have_attribute("open", "")
    store_act(server, code, banker, type="bank_charge", player=ann_id, amount=2000)
    expect(brown).to_have_attribute("open", "", timeout=LIVE)  # in debt: mortgaging Baltic would help
    store_act(server, code, banker, type="bank_pay", player=ann_id, amount=2000)
    store_act(server, code, Actor(player=ann_id), type="pay_debt")
    expect(ann.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1450", timeout=LIVE)  # debt paid
    expect(brown).not_to_have_attribute("open", "")
    # Ann opens it herself; the banker undoes back to before she bought Baltic, and the group is
    # gone from her phone; she buys it again: it comes back as the server draws it, closed (what a
    # reader did to a panel is forgotten once it has gone from the page).
    brown.locator("summary").tap()
    expect(brown).to_have_attribute("open", "")
    for _ in range(4):  # pay_debt, bank_pay, bank_charge, buy
        store_act(server, code, banker, type="undo")
    expect(brown).not_to_be_attached(timeout=LIVE)
    store_act(server, code, Actor(player=ann_id), type="buy")
    expect(brown).to_be_attached(timeout=LIVE)
    expect(brown).not_to_have_attribute("open", "")
    assert not contexts.errors


def test_a_hidden_page_closes_its_connection_and_catches_up_when_shown(contexts, server):
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    # Bob's phone goes to sleep (the page is hidden): its live connection closes.
    bob.evaluate("""() => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    expect(bob.locator("#live:not([sse-connect])")).to_have_count(1)
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    expect(host.locator("#turn .latest")).to_contain_text("Ann bought Baltic Avenue", timeout=LIVE)
    time.sleep(0.5)
    expect(bob.locator("#turn .latest")).not_to_contain_text("Ann bought Baltic Avenue")  # asleep: no news
    # Bob wakes the phone: it reconnects from the version it shows and gets what it missed.
    bob.evaluate("""() => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    expect(bob.locator("#turn .latest")).to_contain_text("Ann bought Baltic Avenue for $60.", timeout=LIVE)
    assert contexts.loads["phone 2"].count(f"/p/{code}") == 1  # no reload
    assert not contexts.errors


# The controls on the screen that the "reconnecting" banner overlaps.
UNDER_BANNER = """() => { const b = document.getElementById('reconnecting').getBoundingClientRect();
  return [...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary')].filter((c) => {
    const r = c.getBoundingClientRect();
    return c.checkVisibility() && r.width && r.height && r.bottom > b.top && r.top < b.bottom && r.right > b.left && r.left < b.right;
  }).map((c) => c.outerHTML.slice(0, 80)); }"""


def test_after_a_server_restart_open_pages_catch_up_by_themselves(browser, tmp_path):
    """The server stops mid-game; a change is made while it is down (through the database) and
    another once it is back: the open host and phone show both without a reload."""
    from banker import create_app, store
    from banker.rules import Actor

    config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'banker.sqlite'}", "SECRET_KEY": "restart",
              "HTMX_CDN": False}
    first = Server(create_app(config, instance_path=str(tmp_path / "instance"))).start()
    contexts = Contexts(browser, first)
    try:
        created = api(first, "/api/games", {})
        code, banker = created["code"], created["banker_token"]
        phone = contexts.page("phone", **PHONE)
        join(phone, f"{first.url}/j/{code}", "Ann", "Car")
        api(first, f"/api/games/{code}/players", {"name": "Bob", "token": "dog"})
        api(first, f"/api/games/{code}/actions", {"type": "start", "order": [1, 2]}, banker)
        host = contexts.page("host", **DESKTOP)
        host.goto(f"/t/{code}")
        expect(phone.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
        expect(cash_on(host, "Ann")).to_have_attribute("data-cash", "1500")

        first.stop()
        for page in (host, phone):  # each says it lost the connection, and keeps trying
            expect(page.locator("#reconnecting")).to_be_visible(timeout=LIVE)
        # The host screen is on the server's own machine: it says what stopped and how to start it.
        expect(host.locator("#reconnecting")).to_have_text(
            "The banker program stopped. Start it again in its terminal (banker) and this page will catch up.")
        expect(phone.locator("#reconnecting")).to_have_text("Connection lost: reconnecting to the banker’s laptop…")
        # The banner lies over no control: the host's columns end over it, and a phone keeps room for
        # it under its last control (it floated over the foot of the screen).
        phone.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
        for page in (host, phone):
            assert page.evaluate(UNDER_BANNER) == []
        while_down = create_app(config, instance_path=str(tmp_path / "instance"))
        with while_down.app_context():
            store.act(code, {"type": "bank_pay", "player": 1, "amount": 111}, actor=Actor(banker=True))
            from banker.models import db
            db.engine.dispose()
        time.sleep(1.5)  # the pages try to reconnect and find nobody there

        second = Server(create_app(config, instance_path=str(tmp_path / "instance")), port=first.port).start()
        try:
            for page in (host, phone):  # what changed while the server was down
                expect(page.locator("#turn .latest")).to_contain_text(f"The bank paid Ann {money(111)}.", timeout=LIVE)
                expect(page.locator("#reconnecting")).to_be_hidden()
            expect(phone.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1611")
            api(second, f"/api/games/{code}/actions", {"type": "bank_pay", "player": 1, "amount": 222}, banker)
            expect(cash_on(host, "Ann")).to_have_attribute("data-cash", "1833", timeout=LIVE)
            expect(phone.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1833", timeout=LIVE)
            assert contexts.loads == {"phone": [f"/j/{code}", f"/p/{code}"], "host": [f"/t/{code}"]}
        finally:
            contexts.close()
            second.stop()
    finally:
        first.stop()


def test_pages_of_a_game_the_server_no_longer_has_say_so_and_stop_trying(browser, tmp_path, artifacts):
    """The server is started afresh on another database, without the game its open pages follow:
    each page says so in the banner at its foot, once reconnected, and tries no more (a page that
    kept trying would, all evening, count against its address's limit on unknown codes)."""
    from banker import create_app

    def config(name: str) -> dict:
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}", "SECRET_KEY": "afresh", "HTMX_CDN": False}

    first = Server(create_app(config("first.sqlite"), instance_path=str(tmp_path / "instance"))).start()
    contexts = Contexts(browser, first)
    try:
        code = api(first, "/api/games", {})["code"]
        phone = contexts.page("phone", **PHONE)
        join(phone, f"{first.url}/j/{code}", "Ann", "Car")
        host = contexts.page("host", **DESKTOP)
        host.goto(f"/t/{code}")
        live = []
        for page in (host, phone):
            page.on("request", lambda request: live.append(request.url) if "/live" in request.url else None)
        first.stop()
        afresh = Server(create_app(config("afresh.sqlite"), instance_path=str(tmp_path / "instance")),
                        port=first.port).start()
        try:
            for page in (host, phone):
                expect(page.locator("#reconnecting")).to_contain_text(
                    "This game is no longer on the banker’s laptop", timeout=LIVE)
                expect(page.locator("#reconnecting a")).to_have_attribute("href", "/")
                assert page.locator("[sse-connect]").count() == 0
            asked = len(live)
            time.sleep(2)  # the SSE extension would have tried again within half a second, then one
            assert len(live) == asked
            host.screenshot(path=artifacts / "game-gone-host.png")
            phone.screenshot(path=artifacts / "game-gone-phone.png")
        finally:
            contexts.close()
            afresh.stop()
    finally:
        first.stop()


def open_stream(server, path: str, cookie: str) -> socket.socket:
    """A live connection as a browser opens it (with its page's cookie), read up to its first line
    (sent at once)."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                       f"Cookie: {cookie}\r\n\r\n".encode())
    assert read_until(connection, b"retry:").startswith(b"HTTP/1.1 200")
    return connection


def read_until(connection: socket.socket, marker: bytes) -> bytes:
    """What the connection sends up to and including `marker`."""
    seen = b""
    while marker not in seen:
        chunk = connection.recv(65536)
        assert chunk, "the live connection closed"
        seen += chunk
    return seen


def test_sixty_four_open_live_connections_do_not_hold_up_an_action(server):
    """Eight tables of eight: 64 pages hold their live connections open while a player acts; the
    action is answered and every one of the 64 gets the change pushed."""
    created = api(server, "/api/games", {})
    code, banker = created["code"], created["banker_token"]
    api(server, f"/api/games/{code}/players", {"name": "Ann", "token": "hat"})
    api(server, f"/api/games/{code}/players", {"name": "Bob", "token": "car"})
    state = api(server, f"/api/games/{code}/actions?state=1", {"type": "start", "order": [1, 2]}, banker)["state"]
    with urllib.request.urlopen(f"{server.url}/t/{code}", timeout=30) as page:
        cookie = page.headers["Set-Cookie"].split(";")[0]
    streams = [open_stream(server, f"/t/{code}/live?v={state['version']}", cookie) for _ in range(64)]
    try:
        done = api(server, f"/api/games/{code}/actions", {"type": "bank_pay", "player": 2, "amount": 64}, banker)
        assert done["version"] == state["version"] + 1
        for stream in streams:
            assert f"id: {done['version']}".encode() in read_until(stream, b"The bank paid Bob")
    finally:
        for stream in streams:
            stream.close()
