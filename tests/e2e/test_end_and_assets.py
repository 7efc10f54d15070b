"""Issue 10, items 11 and 13, in a real browser. The end screen: the standings keep their Total
column on a 360 px phone with text at 200%, the chart's every label lies inside its drawing (money
in five digits), and axe finds nothing on the phone or the host. The first load: a phone's page,
stylesheet and script come to at most 40 KB on the wire before htmx, and the next visit asks for
nothing but the page."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from .conftest import LIVE, NARROW, PHONE, check_accessible, start_game, text_at_200_percent

pytestmark = pytest.mark.e2e

# Streets, three squares past a square the banker may put a token on (not Go To Jail), in turn order.
LOTS = (1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21)
WINDFALL = 9_000  # the bank pays Ann this much: her total goes to five digits


def store_act(server, code: str, actor, **action):
    """One legitimate action through the store, inside the running server's app context."""
    from banker import store

    with server.app.app_context():
        return store.act(code, action, actor=actor).state


def play_and_end(server, code: str) -> None:
    """Each seat in turn: the banker puts the token three squares before a street, the player rolls
    1 + 2 onto it, buys it and ends the turn; the bank pays Ann a windfall; the banker ends the game."""
    from banker import store
    from banker.rules import Actor

    banker = Actor(banker=True)
    with server.app.app_context():
        state = store.load_state(store.find_game(code))
    for lot in LOTS:
        who = state.turn
        seat = Actor(player=who)
        store_act(server, code, banker, type="move", player=who, square=(lot - 3) % 40)
        state = store_act(server, code, seat, type="roll", dice=[1, 2])
        if state.pending:
            store_act(server, code, seat, type="buy")
        state = store_act(server, code, seat, type="end_turn")
    ann = next(p.id for p in state.players if p.name == "Ann")
    store_act(server, code, banker, type="bank_pay", player=ann, amount=WINDFALL)
    store_act(server, code, banker, type="end_game")


def chart_labels_outside(page) -> list[str]:
    """The chart's labels whose box (as the browser laid the glyphs out) leaves its drawing."""
    return page.evaluate("""() => {
        const svg = document.querySelector('svg.worth-chart'), box = svg.viewBox.baseVal;
        return [...svg.querySelectorAll('text')].filter(text => {
            const b = text.getBBox();
            return b.x < box.x || b.y < box.y
                || b.x + b.width > box.x + box.width || b.y + b.height > box.y + box.height;
        }).map(text => text.textContent);
    }""")


def totals_out_of_view(page) -> list[str]:
    """The Total column's cells that are not wholly inside the viewport, or whose text spills out."""
    return page.evaluate("""() => [...document.querySelectorAll('.standings tr > :nth-child(6)')].filter(cell => {
        const r = cell.getBoundingClientRect();
        return r.left < 0 || r.right > document.documentElement.clientWidth || cell.scrollWidth > cell.clientWidth;
    }).map(cell => cell.textContent)""")


def heading_lines(page) -> dict:
    """The standings' headings as laid out: the lines they take together (one row of headings, or
    more), and each heading or part's label broken over more than one line."""
    return page.evaluate("""() => {
        const shown = [...document.querySelectorAll('.standings th')].filter(th => th.checkVisibility());
        const lines = (element) => { const range = document.createRange(); range.selectNodeContents(element);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; };
        return {rows: new Set(shown.map(th => Math.round(th.getBoundingClientRect().top))).size,
                broken: [...shown, ...document.querySelectorAll('.standings td[data-label]')]
                    .filter(cell => lines(cell) > 1).map(cell => cell.textContent)};
    }""")


def test_the_end_screen_keeps_totals_and_chart_labels_in_view_at_360_px_and_200_percent_text(
        contexts, server, artifacts):
    host, code, (ann, bob, cleo) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog"), ("Cleo", "Top hat")])
    play_and_end(server, code)
    for page in (host, ann, bob, cleo):
        expect(page.locator(".standings h2")).to_have_text("Ann wins!", timeout=LIVE)
    # "I count it myself" has nothing left to ask: gone with the end, live (it stayed until a reload).
    expect(ann.locator("#counting")).to_have_count(1)
    expect(ann.locator("#counting")).to_be_hidden()
    total = ann.locator('.standings tr[data-player] td.total').first
    assert re.fullmatch(r"\$\d\d,\d{3}", total.inner_text()), total.inner_text()
    expect(ann.get_by_role("img", name="Net worth over the game")).to_be_visible()
    expect(ann.locator(".chart-legend li")).to_have_text(["Ann", "Bob", "Cleo"])

    # The headings take one row, none broken, on the host's column and (below) on a narrow phone:
    # where the parts go under the name and total, each is named in its row.
    assert heading_lines(host) == {"rows": 1, "broken": []}
    check_accessible(host, "the host's end screen")
    check_accessible(ann, "a phone's end screen")
    assert chart_labels_outside(host) == [] and chart_labels_outside(ann) == []
    host.screenshot(path=artifacts / "end-host-five-digits.png", full_page=True)
    ann.screenshot(path=artifacts / "end-phone-five-digits.png", full_page=True)

    ann.set_viewport_size({"width": NARROW, "height": PHONE["viewport"]["height"]})
    text_at_200_percent(ann)
    standings = ann.locator(".standings")
    standings.scroll_into_view_if_needed()
    box = standings.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW
    assert standings.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert totals_out_of_view(ann) == []
    assert ann.locator(".standings tr > :nth-child(6)").count() == 4  # the heading and three players
    assert chart_labels_outside(ann) == []
    assert heading_lines(ann) == {"rows": 1, "broken": []}
    # Each name whole on one line (the total goes under it when both do not fit): not "C / le / o".
    assert names_broken(ann) == []
    ann.set_viewport_size({"width": NARROW // 2, "height": PHONE["viewport"]["height"]})  # 200% zoom, too
    assert names_broken(ann) == []
    ann.set_viewport_size({"width": NARROW, "height": PHONE["viewport"]["height"]})
    check_accessible(ann, "a phone's end screen at 360 px and 200% text")
    ann.screenshot(path=artifacts / "end-phone-360px-200pct.png", full_page=True)


def names_broken(page) -> list[str]:
    """The standings' player names that take more than one line."""
    return page.locator(".standings td:nth-child(2)").evaluate_all("""cells => cells.filter((cell) => {
      const name = [...cell.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
      const range = document.createRange(); range.selectNodeContents(name);
      return new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top))).size > 1;
    }).map((cell) => cell.textContent.trim())""")


def path_of(url: str) -> str:
    """A URL's path, without its server or query (a static file's version)."""
    return urlsplit(url).path


def test_a_phones_first_load_is_at_most_40_kb_before_htmx_and_the_next_visit_only_asks_for_the_page(contexts):
    from banker.rules import Actor

    host, code, (ann, _bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    # The same phone with an empty cache: its cookie (its seat), none of its files.
    phone = contexts.page("phone 1, first load", storage_state=ann.context.storage_state(), **PHONE)
    # Chromium keeps no cache while requests are routed (the guard against leaving the test
    # server); this page only asks the test server anyway (the CDN is off).
    phone.context.unroute_all()
    encodings: dict[str, str | None] = {}
    started, finished, failed = [], [], []  # the page's requests
    phone.on("request", lambda request: started.append(request))
    phone.on("requestfinished", lambda request: finished.append(request))
    phone.on("requestfailed", lambda request: failed.append(request))
    phone.on("response", lambda response: encodings.setdefault(path_of(response.url),
                                                               response.headers.get("content-encoding")))

    def sizes_on_the_wire() -> dict[str, int]:
        """Once the page has loaded and each request it made has finished (Playwright may tell of a
        file's end after the page's load event), but the live connection, which stays open: what
        each path cost on the wire."""
        phone.wait_for_load_state("load")
        while unfinished := [request.url for request in started if request not in finished
                             and request not in failed and path_of(request.url) != f"/p/{code}/live"]:
            try:
                phone.wait_for_event("requestfinished", timeout=LIVE)
            except PlaywrightTimeout as error:
                raise AssertionError(f"unfinished: {unfinished}; failed: "
                                     f"{[(request.url, request.failure) for request in failed]}") from error
        sizes = {}
        for request in finished:
            sent = request.sizes()
            # A file from the cache crossed no network: Chromium says so as a body of minus its headers.
            sizes[path_of(request.url)] = max(sent["responseBodySize"] + sent["responseHeadersSize"], 0)
        return sizes

    # The live connection's answer comes after the page's load: wait for its headers.
    with phone.expect_response(lambda response: path_of(response.url) == f"/p/{code}/live") as live:
        phone.goto(f"/p/{code}")
    expect(phone.locator("#turn h2")).to_have_text("Your turn")
    sizes = sizes_on_the_wire()
    htmx = {path: n for path, n in sizes.items() if path.startswith("/static/vendor/")}
    before_htmx = {path: n for path, n in sizes.items() if path not in htmx}
    assert sorted(before_htmx) == [f"/p/{code}", "/static/app.js", "/static/css/app.css"]
    assert sum(before_htmx.values()) <= 40_000, before_htmx
    assert len(htmx) == 2 and sum(htmx.values()) < 25_000, htmx  # 54 KB as files

    # All compressed, through waitress, but the live connection, whose pushes a compressor would
    # hold back: a change still shows at once.
    assert all(encodings[path] for path in sizes) and live.value.headers.get("content-encoding") is None
    ann_id = int(host.locator("table.balances tr", has_text="Ann").get_attribute("data-player"))
    store_act(contexts.server, code, Actor(banker=True), type="bank_pay", player=ann_id, amount=100)
    expect(phone.locator("#wallet [data-cash]")).to_have_attribute("data-cash", "1600", timeout=LIVE)

    for requests in (started, finished, failed):
        requests.clear()
    phone.goto(f"/p/{code}")
    expect(phone.locator("#turn h2")).to_have_text("Your turn")
    sizes = sizes_on_the_wire()
    assert [path for path, n in sizes.items() if n] == [f"/p/{code}"], sizes
