"""A small first load: static files under URLs that carry their content's hash and are kept for a
year, answers compressed for browsers that accept it (never the live connection), and a phone's
first load, its biggest page included, within 40 KB before htmx."""

import gzip
import hashlib
import re
from pathlib import Path

import pytest

from banker.web import SCRIPTS
from banker.web.serving.assets import Versions

from .games import new_game, play

STATIC = Path(__file__).parents[2] / "static"
FOREVER = {"public", "max-age=31536000", "immutable"}
# What Chromium asks for over plain http to a LAN address (br and zstd only over https or localhost).
LAN_BROWSER = {"Accept-Encoding": "gzip, deflate"}
LINKED = re.compile(r'<(?:link rel="stylesheet" href|script src)="(/static/[^"]+)"')


def version(filename: str) -> str:
    return hashlib.sha256((STATIC / filename).read_bytes()).hexdigest()[:12]


def cache_control(response) -> set[str]:
    return {part.strip() for part in response.headers.get("Cache-Control", "").split(",")}


def transferred(response) -> int:
    """Bytes on the wire: the status line, the headers and the body as sent."""
    head = f"HTTP/1.1 {response.status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in response.headers) + "\r\n"
    return len(head.encode()) + len(response.get_data())


def ann_owns_every_deed(client):
    """Ann (1) buys every deed of the board, one turn each (the banker puts her three squares
    before it and she rolls 1 + 2); Bob (2) spends his turns just visiting jail."""
    game = new_game(client)
    play(game, ("banker", {"type": "bank_pay", "player": 1, "amount": 10_000}))
    for square in sorted(d["square"] for d in game.state()["deeds"]):
        play(game, ("banker", {"type": "move", "player": 1, "square": (square - 3) % 40}),
             (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}),
             ("banker", {"type": "move", "player": 2, "square": 0}),
             (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}))
    assert {d["owner"] for d in game.state()["deeds"]} == {1}
    return game


def test_pages_link_static_files_by_the_hash_of_their_content(client):
    page = client.get("/").get_data(as_text=True)
    for filename in ("css/app.css", "app.js"):
        assert f"/static/{filename}?v={version(filename)}" in page


def test_a_versioned_static_file_is_kept_for_a_year_without_asking_again(client):
    response = client.get(f"/static/css/app.css?v={version('css/app.css')}")
    assert response.status_code == 200 and cache_control(response) == FOREVER
    assert response.get_data() == (STATIC / "css/app.css").read_bytes()


@pytest.mark.parametrize("query", ["", "?v=0123456789ab"], ids=["unversioned", "an older version"])
def test_a_static_file_under_another_url_is_revalidated_on_every_use(client, query):
    response = client.get(f"/static/css/app.css{query}")
    assert response.status_code == 200 and cache_control(response) == {"no-cache"}
    assert response.headers["ETag"]


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.package for s in SCRIPTS])
def test_the_vendored_htmx_is_kept_for_a_year_under_the_url_the_cdn_fallback_writes(client, script):
    """Its file name carries the pinned release, whose bytes test_htmx checks against the SRI hash."""
    page = client.get("/").get_data(as_text=True)
    assert f'<script src="/static/{script.vendored}" nonce=' in page
    assert cache_control(client.get(f"/static/{script.vendored}")) == FOREVER


def test_a_changed_file_gets_a_new_version(tmp_path):
    (tmp_path / "app.js").write_text("one")
    versions = Versions(str(tmp_path))
    first = versions("app.js")
    assert versions("app.js") == first == hashlib.sha256(b"one").hexdigest()[:12]
    (tmp_path / "app.js").write_text("two, longer")
    assert versions("app.js") == hashlib.sha256(b"two, longer").hexdigest()[:12]
    assert versions("missing.js") is None and versions("../secret_key") is None


@pytest.mark.parametrize("path", ["/", "/static/css/app.css", "/static/app.js", f"/static/{SCRIPTS[0].vendored}"])
def test_pages_and_static_files_are_compressed_for_a_browser_that_accepts_it(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=LAN_BROWSER)
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    body = gzip.decompress(packed.get_data())
    if path.startswith("/static/"):
        assert body == plain.get_data()
    else:  # the page's nonces differ from one answer to the next
        assert len(body) == pytest.approx(len(plain.get_data()), abs=200)
    assert len(packed.get_data()) < len(body) / 2
    assert "Content-Encoding" not in plain.headers


def test_the_live_connection_is_never_compressed_and_starts_at_once(client, game, phone):
    """A compressor would hold the pushes back until it had enough bytes to pack."""
    ann = phone(game, 1)
    response = ann.client.get(f"/p/{game.code}/live?v=-1", buffered=False,
                              headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    try:
        assert response.mimetype == "text/event-stream" and "Content-Encoding" not in response.headers
        assert next(iter(response.response)).startswith(b"retry: ")
    finally:
        response.close()


def test_a_phones_first_load_is_at_most_40_kb_before_htmx(client, phone):
    """The page of a player holding every deed (the longest wallet) with the stylesheet and app.js
    it links, compressed as for a phone on the LAN; htmx is counted apart (kept a year once
    fetched, or from the CDN)."""
    game = ann_owns_every_deed(client)
    ann = phone(game, 1).client
    page = ann.get(f"/p/{game.code}", headers=LAN_BROWSER)
    html = gzip.decompress(page.get_data()).decode()
    linked = [path for path in LINKED.findall(html) if "/vendor/" not in path]
    assert sorted(p.split("?")[0] for p in linked) == ["/static/app.js", "/static/css/app.css"]
    total = transferred(page) + sum(transferred(ann.get(path, headers=LAN_BROWSER)) for path in linked)
    assert total <= 40_000, f"{total:,} bytes"
    assert len(html) > 35_000  # the longest wallet really is there
