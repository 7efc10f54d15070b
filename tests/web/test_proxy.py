"""Behind a reverse proxy (the hosted mode): with PROXY_FIX = 1 the app believes the proxy's
X-Forwarded-* headers, so join links and QR codes show the public https address, cookies are
Secure and the rate limits count each client's own address; without it those headers are ignored,
so no client can pick its own address or scheme. PUBLIC_URL gives the public address outright."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from ..postgres import free_port

from ..apps import close, make_app
from .games import CSRF
from .test_join_qr import join_panel, read_qr

PUBLIC = "tables.example.org"
# What the proxy adds to a request from 203.0.113.7 that reached it over https.
FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": PUBLIC, "X-Forwarded-For": "203.0.113.7"}


def from_client(address: str) -> dict:
    """The proxy's headers for a request from `address`."""
    return {**FORWARDED, "X-Forwarded-For": address}


@pytest.fixture
def proxied(database):
    app = make_app(database, PROXY_FIX=1)
    yield app
    close(app)


@pytest.fixture
def limited(database):
    """Behind one proxy, with the rate limits on."""
    app = make_app(database, PROXY_FIX=1, RATELIMIT_ENABLED=True)
    yield app
    close(app)


def cookies(response) -> dict[str, str]:
    """Each cookie the answer sets, by name, with its attributes."""
    return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}


def test_join_links_and_the_join_qr_show_the_public_https_address(proxied):
    client = proxied.test_client()
    created = client.post("/api/games", json={}, headers=FORWARDED).get_json()
    code = created["code"]
    assert created["join_url"] == f"https://{PUBLIC}/j/{code}"
    svg, url = join_panel(client.get(f"/t/{code}", headers=FORWARDED).get_data(as_text=True))
    assert url == f"https://{PUBLIC}/j/{code}"
    assert read_qr(svg) == url


def test_a_public_port_the_proxy_names_is_kept(proxied):
    client = proxied.test_client()
    headers = {**FORWARDED, "X-Forwarded-Port": "8443"}
    created = client.post("/api/games", json={}, headers=headers).get_json()
    assert created["join_url"] == f"https://{PUBLIC}:8443/j/{created['code']}"


def test_cookies_are_secure_when_the_proxy_says_https(proxied):
    client = proxied.test_client()
    code = client.post("/api/games", json={}, headers=FORWARDED).get_json()["code"]
    set = cookies(client.get(f"/j/{code}?lang=fr", headers=FORWARDED))
    assert "; Secure" in set["session"] and "; HttpOnly" in set["session"]
    assert "; Secure" in set["lang"]
    plain = cookies(proxied.test_client().get(f"/j/{code}?lang=fr", headers={**FORWARDED, "X-Forwarded-Proto": "http"}))
    assert "Secure" not in plain["session"] and "Secure" not in plain["lang"]


def test_the_pages_forms_work_through_the_proxy(proxied):
    """Over https the CSRF check also compares the Referer with the address asked for: the public one."""
    client = proxied.test_client()
    token = CSRF.search(client.get("/", headers=FORWARDED).get_data(as_text=True)).group(1)
    elsewhere = client.post("/games", data={"csrf_token": token}, headers={**FORWARDED, "Referer": "https://evil.example/"})
    assert elsewhere.status_code == 400
    made = client.post("/games", data={"csrf_token": token}, headers={**FORWARDED, "Referer": f"https://{PUBLIC}/"})
    assert made.status_code == 303 and made.headers["Location"].startswith("/t/")
    assert "; Secure" in cookies(made)["session"]
    page = client.get(made.headers["Location"], headers=FORWARDED)
    assert page.status_code == 200 and "Banker's screen" in page.get_data(as_text=True)


def test_the_limits_count_the_address_the_proxy_forwards(limited):
    client = limited.test_client()
    answers = [client.post("/api/games", json={}, headers=from_client("203.0.113.7")) for _ in range(11)]
    assert [a.status_code for a in answers] == [201] * 10 + [429]
    assert client.post("/api/games", json={}, headers=from_client("203.0.113.8")).status_code == 201
    # A client that sends its own X-Forwarded-For gets the proxy's address for it appended: the
    # last one, the proxy's, is the one believed.
    spoofed = client.post("/api/games", json={}, headers=from_client("198.51.100.1, 203.0.113.7"))
    assert spoofed.status_code == 429


def test_without_the_setting_forwarded_headers_are_ignored(database):
    app = make_app(database, RATELIMIT_ENABLED=True)
    try:
        client = app.test_client()
        answers = [client.post("/api/games", json={}, headers=from_client(f"203.0.113.{n}")) for n in range(11)]
        assert [a.status_code for a in answers] == [201] * 10 + [429]  # all from 127.0.0.1, whatever they say
        assert answers[0].get_json()["join_url"] == f"http://localhost/j/{answers[0].get_json()['code']}"
        code = answers[0].get_json()["code"]
        assert "Secure" not in cookies(client.get(f"/j/{code}?lang=fr", headers=FORWARDED))["session"]
        assert join_panel(client.get(f"/t/{code}", headers=FORWARDED).get_data(as_text=True))[1] == \
            f"http://localhost/j/{code}"
    finally:
        close(app)


@pytest.fixture
def served(database):
    """`banker` on this database, as a hosted server runs it behind a proxy on the same machine:
    listening on 127.0.0.1, with an instance/config.py that sets PROXY_FIX and PUBLIC_URL."""
    instance = database.folder / "served"
    instance.mkdir()
    (instance / "config.py").write_text(f'PROXY_FIX = 1\nPUBLIC_URL = "https://{PUBLIC}"\n', encoding="utf-8")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database.uri, "BANKER_INSTANCE": str(instance)}
    process = subprocess.Popen([sys.executable, "-m", "banker", "--offline", "--host", "127.0.0.1",
                                "--port", str(port), "--lang", "en"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stdout.read()
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


def create_game(port: int, headers: dict) -> dict:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/api/games", "{}", {"Content-Type": "application/json", **headers})
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    assert response.status == 201
    return data


def test_banker_keeps_the_public_url_its_config_gives_and_trusts_its_proxy(served):
    # A proxy that forwards to 127.0.0.1 and passes on nothing: PUBLIC_URL, not the LAN address.
    made = create_game(served, {})
    assert made["join_url"] == f"https://{PUBLIC}/j/{made['code']}"
    # A proxy that says where the client went.
    made = create_game(served, {**FORWARDED, "X-Forwarded-Host": "play.example.net"})
    assert made["join_url"] == f"https://play.example.net/j/{made['code']}"
