"""The host screen's join QR: what it encodes is what the page prints, with PUBLIC_URL when browsing on localhost."""

import re
from html import unescape

import pytest
from PIL import Image
from pyzbar.pyzbar import decode

from ..apps import close, make_app

QUIET = 4  # modules of white around the code, as a reader expects
SCALE = 8


def read_qr(svg: str) -> str:
    """Decode the qrcode library's SVG (one unit square per dark module) with a real QR reader."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    image = Image.new("L", (size + 2 * QUIET, size + 2 * QUIET), 255)
    for x, y in re.findall(r"M(\d+),(\d+)H", svg):
        image.putpixel((int(x) + QUIET, int(y) + QUIET), 0)
    image = image.resize((image.width * SCALE, image.height * SCALE), Image.NEAREST)
    found = decode(image)
    assert len(found) == 1
    return found[0].data.decode()


def join_panel(html: str) -> tuple[str, str]:
    """The join QR's SVG and the join address printed beside it."""
    svg = re.search(r'<div class="qr" data-qr="join"[^>]*>(.*?)</div>', html, re.S).group(1)
    url = re.search(r'<p class="url">([^<]+)</p>', html).group(1)
    return svg, unescape(url)


def test_the_host_page_shows_a_join_qr_for_the_join_address(client, lobby):
    svg, url = join_panel(client.get(f"/t/{lobby.code}").get_data(as_text=True))
    assert url == f"http://localhost/j/{lobby.code}"
    assert read_qr(svg) == url
    assert lobby.code in client.get(f"/t/{lobby.code}").get_data(as_text=True)
    assert client.get(url).status_code == 200


def test_the_join_qr_follows_the_address_the_host_browses(client, lobby):
    html = client.get(f"/t/{lobby.code}", base_url="http://192.168.1.20:8000").get_data(as_text=True)
    svg, url = join_panel(html)
    assert url == f"http://192.168.1.20:8000/j/{lobby.code}"
    assert read_qr(svg) == url


@pytest.mark.parametrize("host", ["http://localhost:5000", "http://127.0.0.1:5000", "http://[::1]:5000"])
def test_the_join_qr_uses_public_url_when_the_host_browses_on_localhost(database, host):
    app = make_app(database, PUBLIC_URL="http://192.168.1.20:5000")
    try:
        client = app.test_client()
        response = client.post("/api/games", json={}, base_url=host)
        code = response.get_json()["code"]
        assert response.get_json()["join_url"] == f"http://192.168.1.20:5000/j/{code}"
        svg, url = join_panel(client.get(f"/t/{code}", base_url=host).get_data(as_text=True))
        assert url == f"http://192.168.1.20:5000/j/{code}"
        assert read_qr(svg) == url
        html = client.get(f"/t/{code}", base_url="http://10.0.0.7:5000").get_data(as_text=True)
        assert join_panel(html)[1] == f"http://10.0.0.7:5000/j/{code}"
    finally:
        close(app)


def test_the_rejoin_qr_encodes_the_rejoin_address(game, host):
    banker = host(game)
    html = banker.client.post(f"/t/{game.code}/seats/2/rejoin", data={"csrf_token": banker.csrf},
                              follow_redirects=True).get_data(as_text=True)
    svg = re.search(r'data-qr="rejoin"[^>]*>(.*?)</div>', html, re.S).group(1)
    url = re.search(r'<p class="url">([^<]+)</p>', html).group(1)
    assert re.fullmatch(rf"http://localhost/j/{game.code}/r/[\w-]{{20,}}", url)
    assert read_qr(svg) == url
    assert "Bob" in html


def test_the_api_gives_the_join_address_the_page_shows(client):
    data = client.post("/api/games", json={}).get_json()
    assert data["join_url"] == f"http://localhost/j/{data['code']}"
    assert join_panel(client.get(f"/t/{data['code']}").get_data(as_text=True))[1] == data["join_url"]
    assert client.get(data["join_url"]).status_code == 200
