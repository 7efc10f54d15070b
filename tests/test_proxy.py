"""Issue 33: the hosted recipe as written, for real, on a port of its own. Debian's nginx with the
docs' own files from deploy/nginx/ and a self-signed certificate (tests/nginx.py), in front of
gunicorn started with the shipped config module (`-c python:banker.gunicorn_config`, set through
its environment variables) on a database of the test PostgreSQL server. Every client names the
server `tables.example.org:<port>`, as a browser does on a port other than 443.

gunicorn runs one worker here, so that one process's live slots are counted: its BANKER_THREADS
less those kept for pages and actions (banker/live/slots.py reads them from gunicorn's
configuration)."""

import http.client
import json
import os
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest

from banker.live.slots import SPARE_THREADS
from banker.rules.state import MAX_PLAYERS, TOKENS

from .apps import give_back, postgres_database
from .e2e.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, LIVE, closed_port
from .e2e.test_game_night import decode_qr
from .nginx import NAME, UNVERIFIED, Proxy
from .postgres import free_port
from .test_slots import until

THREADS = 108
SLOTS = THREADS - SPARE_THREADS  # a club of 90 screens fits, with two to spare


@pytest.fixture(scope="module")
def hosted_database(postgres, tmp_path_factory):
    """A database of the module's own on the test PostgreSQL server: its URL."""
    database = postgres_database(postgres, tmp_path_factory.mktemp("database"))
    yield database.uri
    give_back(postgres, database)


@pytest.fixture(scope="module")
def gunicorn(hosted_database, tmp_path_factory):
    """gunicorn as docs/hosting.md starts it, on a free port: its port."""
    folder = tmp_path_factory.mktemp("gunicorn")
    instance = folder / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("PROXY_FIX = 1\nHTMX_CDN = False\n"
                                        "RATELIMIT_ENABLED = False  # every client is 127.0.0.x, the joins many\n")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": hosted_database, "BANKER_INSTANCE": str(instance),
           "BANKER_BIND": f"127.0.0.1:{port}", "BANKER_WORKERS": "1", "BANKER_THREADS": str(THREADS)}
    with open(folder / "gunicorn.log", "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:banker.gunicorn_config"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert until(lambda: process.poll() is None and _answers(port), 30), (folder / "gunicorn.log").read_text()
        yield port
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # its master and worker, without waiting for open pages
        process.wait(timeout=10)


def _answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@pytest.fixture(scope="module")
def nginx(gunicorn):
    """nginx with the docs' site in front of gunicorn (tests/nginx.py): its port."""
    proxy = Proxy(gunicorn).start()
    yield proxy.port
    proxy.stop()


class Client:
    """HTTPS to the proxy from a client `address` of 127.0.0.x, naming the server as a browser would
    (`tables.example.org:<port>`), on one keep-alive connection."""

    def __init__(self, port: int, address: str = "127.0.0.1"):
        self.host = f"{NAME}:{port}"
        self.connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=UNVERIFIED,
                                                      source_address=(address, 0))
        self.stream: http.client.HTTPResponse | None = None

    def request(self, method: str, path: str, body: str | None = None, **headers) -> http.client.HTTPResponse:
        """The answer, its headers read (its body still to read: a live connection's never ends)."""
        self.connection.request(method, path, body, {"Host": self.host, **headers})
        return self.connection.getresponse()

    def get(self, path: str, cookie: str = "") -> tuple[int, str, str]:
        """(status, body, the cookie it set or the one given)."""
        response = self.request("GET", path, **({"Cookie": cookie} if cookie else {}))
        return response.status, response.read().decode(), _cookie(response) or cookie

    def a_game(self) -> dict:
        response = self.request("POST", "/api/games", "{}", **{"Content-Type": "application/json"})
        assert response.status == 201
        return json.loads(response.read())

    def join(self, code: str, name: str, token: str) -> str:
        """A phone takes a seat with the join form, as a browser sends it over HTTPS (its Referer
        is checked against the host and port): the seat's cookie."""
        status, page, cookie = self.get(f"/j/{code}")
        assert status == 200
        form = {"csrf_token": _field(page, "csrf_token"), "nonce": _field(page, "nonce"), "name": name,
                "token": token}
        response = self.request("POST", f"/j/{code}", urlencode(form), Cookie=cookie,
                                Referer=f"https://{self.host}/j/{code}",
                                **{"Content-Type": "application/x-www-form-urlencoded"})
        response.read()
        assert response.status == 303, response.status
        return _cookie(response) or cookie

    def follow(self, path: str, cookie: str) -> int:
        """A page's live connection (`path`/live): its status; the connection stays open while it
        streams."""
        response = self.request("GET", f"{path}/live", Cookie=cookie, Accept="text/event-stream")
        if response.status == 200:
            self.stream = response
        else:
            response.read()
        return response.status

    def close(self):
        if self.stream is not None:
            self.stream.close()
        self.connection.close()


def _cookie(response) -> str:
    found = response.getheader("Set-Cookie")
    return found.split(";", 1)[0] if found else ""


def _field(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]+)"', page).group(1)


def test_the_join_link_carries_the_port(nginx):
    client = Client(nginx)
    try:
        made = client.a_game()
    finally:
        client.close()
    assert made["join_url"] == f"https://{NAME}:{nginx}/j/{made['code']}"


def test_behind_a_router_forwarding_another_port_the_links_keep_the_browsers_and_a_clients_own_port_is_not_believed(nginx):
    """A router forwarding its 8443 to nginx's port: the browser asked for :8443, and so do the
    links and the form check, whatever port nginx listens on; an X-Forwarded-Port the client sends
    itself is dropped by the proxy."""
    client = Client(nginx)
    client.host = f"{NAME}:8443"
    try:
        made = client.a_game()
        page = client.request("GET", f"/j/{made['code']}", **{"X-Forwarded-Port": "9999"})
        body = page.read().decode()
        cookie = client.join(made["code"], "Ann", "hat")
    finally:
        client.close()
    assert made["join_url"] == f"https://{NAME}:8443/j/{made['code']}"
    assert page.status == 200 and ":9999" not in body and cookie


@pytest.mark.e2e
def test_a_browser_creates_a_game_over_https_and_its_screen_follows_the_table(nginx, playwright):
    """The home page's form POST over HTTPS on a port of its own (refused as "This form has expired"
    when the proxy dropped the port); the join link and QR carry the port; a seat taken meanwhile
    reaches the host screen live, through nginx."""
    from playwright.sync_api import expect

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium-headless-shell", pytrace=False)
    # The server's name leads to the proxy; anywhere else, to a proxy that is not there.
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                         args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
                                         proxy={"server": f"http://127.0.0.1:{closed_port()}", "bypass": NAME})
    try:
        context = browser.new_context(base_url=f"https://{NAME}:{nginx}", ignore_https_errors=True, **DESKTOP)
        context.set_default_timeout(10_000)
        host = context.new_page()
        host.goto("/")
        host.get_by_role("button", name="Create game").click()
        expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
        code = host.url.rsplit("/", 1)[1]
        join_url = f"https://{NAME}:{nginx}/j/{code}"
        expect(host.locator(".join-panel .url")).to_have_text(join_url)
        assert decode_qr(host.locator("[data-qr=join]").screenshot()) == join_url

        phone = Client(nginx)
        try:
            phone.join(code, "Ann", "hat")
        finally:
            phone.close()
        expect(host.locator("ol.seats li")).to_have_count(1, timeout=LIVE)
        expect(host.locator("ol.seats li").first).to_contain_text("Ann")
    finally:
        browser.close()


def _seats(port: int, count: int) -> list[tuple[str, str]]:
    """`count` seats taken with the join form in games of eight, from one address: (the phone's
    page, its cookie) each."""
    client = Client(port)
    try:
        codes = [client.a_game()["code"] for _ in range(-(-count // MAX_PLAYERS))]
    finally:
        client.close()

    def seat(n: int) -> tuple[str, str]:
        phone = Client(port)
        try:
            code = codes[n // MAX_PLAYERS]
            return f"/p/{code}", phone.join(code, f"P{n}", TOKENS[n % MAX_PLAYERS])
        finally:
            phone.close()

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(seat, range(count)))


def _open(port: int, screens: list[tuple[str, str]], addresses: list[str]) -> tuple[list[int], list[Client]]:
    """Each screen's live connection, from its address in turn: the statuses, and the clients
    (their connections open)."""
    clients = [Client(port, address) for address in addresses]
    return [client.follow(path, cookie) for client, (path, cookie) in zip(clients, screens)], clients


def _close(gunicorn: int, clients: list[Client]) -> None:
    """The pages closed; once gunicorn has closed each connection nginx opened to it (it sees a
    hang-up within 2 seconds), their slots are back."""
    for client in clients:
        client.close()
    assert until(lambda: _open_upstream(gunicorn) == 0, 15)


def _open_upstream(port: int) -> int:
    """Connections to gunicorn's port that it has not closed yet (established, or closed by nginx
    only: CLOSE_WAIT), from the kernel's table."""
    local = f":{port:04X}"
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for row in rows if row.split()[1].endswith(local) and row.split()[3] in ("01", "08"))


def test_a_club_behind_one_address_gets_every_seats_screen_up_to_the_workers_threads(nginx, gunicorn):
    """Ninety phones and two more, each its own seat, from the proxy's one forwarded address all
    follow their game; the next is told to retry: the worker's slots are its threads (from the
    config module's BANKER_THREADS) less 16."""
    _close(gunicorn, [])  # the browser test's host screen has given its slot back
    screens = _seats(nginx, SLOTS + 1)
    statuses, clients = _open(nginx, screens, ["127.0.0.1"] * len(screens))
    try:
        assert statuses == [200] * SLOTS + [503]
    finally:
        _close(gunicorn, clients)


def test_screens_holding_nothing_from_many_addresses_cannot_crowd_out_the_seats(nginx, gunicorn):
    """Host screens opened by anyone with a game's code (no badge), one from each of as many
    addresses as the worker has slots, over games of two such screens each: they stop at their
    share, and a seat's phone still follows its game."""
    _close(gunicorn, [])  # every other test's screens have given their slots back
    client = Client(nginx)
    try:
        codes = [client.a_game()["code"] for _ in range(SLOTS // 2)]
    finally:
        client.close()
    addresses = [f"127.0.{1 + n // 250}.{2 + n % 250}" for n in range(SLOTS)]

    def public_screen(n: int) -> tuple[str, str]:
        visitor = Client(nginx, addresses[n])
        try:
            status, _, cookie = visitor.get(f"/t/{codes[n // 2]}")
            assert status == 200
            return f"/t/{codes[n // 2]}", cookie
        finally:
            visitor.close()

    with ThreadPoolExecutor(4) as pool:
        public = list(pool.map(public_screen, range(SLOTS)))
    seat = _seats(nginx, 1)
    statuses, clients = _open(nginx, public, addresses)
    try:
        seated, seated_clients = _open(nginx, seat, ["127.0.0.1"])
        clients += seated_clients
        assert seated == [200]
        assert 503 in statuses
    finally:
        _close(gunicorn, clients)
