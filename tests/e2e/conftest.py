"""End-to-end fixtures: a real waitress server on 127.0.0.1 and a real headless Chromium.

The server runs create_app() on a SQLite file in a temporary folder, in a background thread, on a
free port, and is shut down after the session. The browser is Debian's Chromium headless shell
(/usr/bin/chromium-headless-shell) driven by Playwright's sync API; every request that is not to 127.0.0.1 goes to a proxy that is not
there, so it fails, and is recorded: the tests never reach the internet (HTMX_CDN is off: the
vendored htmx is served by the app). Any test fails whose pages broke the app's Content Security
Policy: the policy must allow what they really use.
"""

import http.client
import logging
import re
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

# Chromium's headless shell, as Playwright's own headless runs use: the same Blink and V8 without the
# browser's windows around each page. Against the full browser's headless mode (/usr/bin/chromium)
# it spent 0.85 s of CPU instead of 3.2 s opening ten phones' pages, and 20 s instead of 44-51 s in
# test_game_night, test_whole_game and test_phone_screens (the process trees' CPU, 2026-12-06).
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"viewport": {"width": 1440, "height": 1000}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
LIVE = 5_000          # ms: a change must reach every screen within this (it is pushed at once)
NARROW = 360          # px: the narrowest phone the layout must fit
MIN_TARGET = 44       # px: thumb-sized
CSP_VIOLATIONS: list[str] = []  # what any page of the running test logged as refused by the policy


def money(amount: int) -> str:
    return f"${amount:,}"


def join(phone, url: str, name: str, token_label: str) -> None:
    """On a phone: open the join URL, type a name, pick a token, join, land on /p/<code>."""
    from playwright.sync_api import expect

    phone.goto(url)
    phone.get_by_label("Your name").fill(name)
    phone.get_by_text(token_label, exact=True).tap()
    expect(phone.get_by_role("radio", name=token_label)).to_be_checked()
    phone.get_by_role("button", name="Join").tap()
    expect(phone).to_have_url(re.compile(r"/p/[A-Z0-9]+$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text(name)


# The join form's hidden fields (its CSRF token and nonce), and each token's radio with its label.
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')
TOKEN_CHOICE = re.compile(r'<label class="token-choice token-\w+">.*?value="(\w+)".*?</label>', re.S)


def take_seat(phone, url: str, name: str, token_label: str) -> None:
    """On a phone: take a seat with the join page's own form, sent by the phone's browser context
    (whose cookie the seat's badge is then under) without drawing the page, then land on /p/<code>.
    Joining itself is tapped through the join page by `join` where a test is about it; a game that
    only needs its seats filled starts here, for a page load and four taps less per seat."""
    from playwright.sync_api import expect

    html = phone.request.get(url).text()
    form = html.split('class="card stack join-form"', 1)[1]
    tokens = {re.sub(r"<[^>]+>", "", choice).strip(): choice for choice in re.findall(
        r'<label class="token-choice.*?</label>', form, re.S)}
    token = TOKEN_CHOICE.match(tokens[token_label]).group(1)
    answer = phone.request.post(url, form={**dict(HIDDEN.findall(form)), "name": name, "token": token},
                                max_redirects=0)
    assert answer.status == 303, f"joining as {name}: {answer.status} {answer.text()[:300]}"
    phone.goto(answer.headers["location"])
    expect(phone.get_by_role("heading", level=1)).to_contain_text(name)


def roll(phone, a: int, b: int) -> None:
    """On a phone's turn panel: tap the chip for each die, then Move."""
    from playwright.sync_api import expect

    turn = phone.locator("#turn")
    for die, value in (("Die 1", a), ("Die 2", b)):
        turn.get_by_role("group", name=die).get_by_text(str(value), exact=True).tap()
    expect(turn.get_by_role("group", name="Die 1").get_by_role("radio", name=str(a))).to_be_checked()
    expect(turn.get_by_role("group", name="Die 2").get_by_role("radio", name=str(b))).to_be_checked()
    turn.get_by_role("button", name="Move").tap()


# Every tap target of check_phone_layout that is visible (as Playwright's is_visible sees it), with
# its box against the viewport and the start of its HTML: measured in one call.
TAP_TARGETS = """(selector) => [...document.querySelectorAll(selector)].flatMap((e) => {
  const box = e.getBoundingClientRect();
  if (!e.checkVisibility() || getComputedStyle(e).visibility !== 'visible' || !box.width || !box.height) return [];
  return [{x: box.x, width: box.width, height: box.height, html: e.outerHTML.slice(0, 120)}];
})"""


def check_phone_layout(phone, what: str) -> None:
    """At 360 px wide: no horizontal scrolling, and every tap target at least 44 px tall (a checkbox
    counts by the label around it, which is what a thumb hits)."""
    size = phone.viewport_size
    phone.set_viewport_size({"width": NARROW, "height": size["height"]})
    try:
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW, f"{what}: the page is {width}px wide at a {NARROW}px viewport"
        targets = phone.evaluate(TAP_TARGETS, "button, a.button, .die span, .token-choice span, label.check, "
                                 "label.pick, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select")
        for box in targets:
            assert box["height"] >= MIN_TARGET, f"{what}: {box['html']} is {box['height']:.0f}px tall"
            assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW + 0.5, (
                f"{what}: {box['html']} sticks out of the screen")
    finally:
        phone.set_viewport_size(size)


def text_at_200_percent(page) -> None:
    """Twice the text size, as a reader's browser setting gives it: the root font size doubled (the
    stylesheet sizes text in rem). Set through the element's style object, which the Content
    Security Policy allows (a style attribute it refuses)."""
    page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")


# Resolves once the animations and transitions that are moving now, or start within a second (a
# message arriving, a summary's arrow turning), have ended: axe then sees the page at rest. Not the
# fade of a message seconds later, nor an endless animation.
AT_REST = """() => Promise.all(document.getAnimations().filter((animation) => animation.playState === 'running'
    && animation.effect.getComputedTiming().endTime - animation.currentTime <= 1000)
  .map((animation) => animation.finished.catch(() => null))).then(() => null)"""


def axe_violations(page) -> list[str]:
    """What axe-core finds against the WCAG rules it checks on the page as it is now, one line each.
    axe is put into a document once (the first check of each page load), not on every check."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    if not page.evaluate("() => typeof window.axe?.run === 'function'"):
        page.evaluate(Axe().axe_script)
    page.evaluate(AT_REST)
    found = page.evaluate("(options) => axe.run(document, options)", DEFAULT_OPTIONS)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['html'][:80] for n in v['nodes']]}"
            for v in found["violations"]]


# The controls in view that a message on the page overlaps ("under"), and of those the ones a tap at
# their middle would not reach ("blocked": the message catches it).
UNDER_MESSAGES = """() => {
  const boxes = [...document.querySelectorAll('.message')]
    .filter((m) => m.checkVisibility({visibilityProperty: true, opacityProperty: true}))
    .map((m) => m.getBoundingClientRect());
  const found = {under: [], blocked: []};
  for (const control of document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary')) {
    const r = control.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!r.width || !r.height || !control.checkVisibility() || x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    if (!boxes.some((b) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)) continue;
    found.under.push(control.outerHTML.slice(0, 100));
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(control.contains(hit) || hit.contains(control))) found.blocked.push(control.outerHTML.slice(0, 100));
  }
  return found;
}"""


def controls_under_messages(page) -> dict:
    """{"under": controls a message overlaps, "blocked": those of them a tap would not reach}."""
    return page.evaluate(UNDER_MESSAGES)


def check_accessible(page, what: str) -> None:
    """axe-core finds no violation of the WCAG rules it checks on the page as it is now."""
    found = axe_violations(page)
    assert not found, f"{what}: " + "; ".join(found)


class Server:
    """waitress serving the app in a thread, sized as `banker` sizes it; `url` is
    http://127.0.0.1:<port> (a free port, or the given one: a restart)."""

    def __init__(self, app, port: int = 0):
        from waitress.server import create_server

        from banker.cli import server_options

        self.app = app
        # waitress's own loop timeout (1 s; it takes whole seconds, a fraction would make it busy-spin
        # at 0): stop() wakes the loop through its trigger instead of waiting for the timeout.
        self._server = create_server(app, host="127.0.0.1", port=port, **server_options(app))
        self.port = self._server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="waitress-e2e", daemon=True)

    def _run(self):
        try:
            self._server.run()
        except OSError:  # select() on a socket closed by stop()
            if not self._stopping:
                raise

    def start(self):
        self._thread.start()
        return self

    def post(self, path: str, body: bytes, length: int | None = None) -> tuple[int, bytes]:
        """A JSON POST as a client may send it: `length` the Content-Length it claims (the body's
        own by default). Returns the status and the body of the answer."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.putrequest("POST", path)
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(body) if length is None else length))
            connection.endheaders()
            try:
                connection.send(body)
            except OSError:
                pass  # the server may answer and close before the rest of a huge body is sent
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def stop(self):
        """End the live connections, then close the listening socket and every open channel in the
        server's own loop (woken at once through its trigger), whose thread then ends; then stop
        the worker threads."""
        self._stopping = True
        self.app.extensions["banker.notifier"].close()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)
        server = self._server

        def close_all():
            while server._map:
                for dispatcher in list(server._map.values()):
                    dispatcher.handle_close()

        if self._thread.is_alive():
            # As trigger.pull_trigger(close_all), but holding the lock under which the loop runs
            # what it was handed until the wake-up is written: woken first by a response that ends
            # meanwhile, the loop could otherwise close the trigger before the write to it.
            with server.trigger.lock:
                server.trigger.thunks.append(close_all)
                server.trigger._physical_pull()
            self._thread.join(timeout=10)
        if self._thread.is_alive() or server._map:  # the loop did not close them: do it from here
            close_all()
            self._thread.join(timeout=10)
        server.task_dispatcher.shutdown()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    from banker import create_app

    folder = tmp_path_factory.mktemp("e2e")
    app = create_app({
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(folder / "banker.sqlite"),
        "SECRET_KEY": "e2e",
        "RATELIMIT_ENABLED": False,  # every browser of the session is 127.0.0.1
        "LIVE_PER_ADDRESS": 1000,  # so are all their live connections,
        "LIVE_PER_HOST": 1000,  # and 64 of them follow one game's host screen (test_live.py),
        "LIVE_PUBLIC_SHARE": 1,  # without a badge
        "HTMX_CDN": False,
    }, instance_path=str(folder / "instance"))
    running = Server(app).start()
    yield running
    running.stop()
    from banker.models import db
    with app.app_context():
        db.engine.dispose()


def closed_port() -> int:
    """A local port that nothing listens on (bound for a moment to find a free one, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def browser(playwright):
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the e2e tests drive Debian's Chromium headless shell. Install it "
                    "with `sudo apt-get install chromium-headless-shell libzbar0` (libzbar0 decodes the join QR).",
                    pytrace=False)
    # A proxy on a port nobody listens on, bypassed for the test server: a request anywhere else
    # fails in the browser, with no round trip to this process (intercepting every request with a
    # route, as before, added about 80 ms to each page load).
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
                                          proxy={"server": f"http://127.0.0.1:{closed_port()}", "bypass": "127.0.0.1"})
    yield chromium
    chromium.close()


class Contexts:
    """Opens browser contexts that may only talk to the test server, and records what went wrong."""

    def __init__(self, browser, server):
        self.browser, self.server = browser, server
        self.opened = []
        self.blocked: list[str] = []   # requests to anywhere but the test server
        self.errors: list[str] = []    # uncaught page errors and console errors
        self.loads: dict[str, list[str]] = {}  # every page load, per page (htmx swaps are not loads)

    def page(self, name: str, **options):
        context = self.browser.new_context(base_url=self.server.url, **options)
        context.set_default_timeout(10_000)
        context.on("request", self._only_local)
        page = context.new_page()
        self.loads[name] = []
        page.on("framenavigated", lambda frame: frame.parent_frame is None
                and self.loads[name].append(urlsplit(frame.url).path))
        page.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))
        page.on("console", lambda msg: self._console(name, msg))
        self.opened.append(context)
        return page

    def _console(self, name: str, msg) -> None:
        if msg.type != "error":
            return
        self.errors.append(f"{name}: {msg.text}")
        # Chromium logs each refusal as "Refused to ... violates the following Content Security
        # Policy directive: ...".
        if "Content Security Policy" in msg.text:
            CSP_VIOLATIONS.append(f"{name}: {msg.text}")

    def _only_local(self, request):
        """Records a request to anywhere but the test server (which the browser's proxy fails)."""
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and parts.netloc != f"127.0.0.1:{self.server.port}":
            self.blocked.append(request.url)

    def close(self):
        for context in self.opened:
            context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Every e2e test, whichever way it opened its pages, fails on a Content Security Policy violation."""
    CSP_VIOLATIONS.clear()
    result = yield
    assert not CSP_VIOLATIONS, "a page broke the Content Security Policy:\n" + "\n".join(CSP_VIOLATIONS)
    return result


@pytest.fixture
def contexts(browser, server):
    opened = Contexts(browser, server)
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def start_game(contexts, seats: list[tuple[str, str]]):
    """The host creates a game, one phone per (name, token label) takes a seat by the join URL's
    form (`take_seat`), the host starts in join order: (host, code, [phones]). Each phone's page is
    named "phone <n>"."""
    from playwright.sync_api import expect

    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    join_url = host.locator(".join-panel .url").inner_text()
    phones = []
    for n, (name, token_label) in enumerate(seats, start=1):
        phone = contexts.page(f"phone {n}", **PHONE)
        take_seat(phone, join_url, name, token_label)
        phones.append(phone)
    expect(host.locator("ol.seats li")).to_have_count(len(seats), timeout=LIVE)
    host.get_by_role("button", name="Start in this order").click()
    first = seats[0][0]
    expect(host.locator("#turn .whose")).to_contain_text(f"{first}'s turn", timeout=LIVE)
    expect(phones[0].locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    return host, code, phones
