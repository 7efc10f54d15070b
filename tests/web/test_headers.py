"""Issue 9, item 10: every answer (page, API, static file, error) carries the security headers; the
Content Security Policy allows exactly what the pages load, the inline CDN fallback by a nonce
made for each request; the session cookie is Secure over HTTPS."""

import re

import pytest

from banker.web import HTMX_CDN_HOST, SCRIPTS

from ..apps import close, make_app
from .games import bearer, csrf_token, new_game

ANSWERS = {
    "page": lambda client, game: client.get("/"),
    "htmx fragment": lambda client, game: client.get(f"/t/{game.code}", headers={"HX-Request": "true"}),
    "api": lambda client, game: client.get(f"/api/games/{game.code}", headers=bearer(game.banker)),
    "static file": lambda client, game: client.get("/static/css/app.css"),
    "page not found": lambda client, game: client.get("/no/such/page"),
    "api not found": lambda client, game: client.get("/api/games/NOSUCH"),
    "form without csrf": lambda client, game: client.post("/games"),
}
SCRIPT_TAG = re.compile(r"<script\b[^>]*>")


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive -> its sources."""
    directives = [d.split() for d in response.headers["Content-Security-Policy"].split(";")]
    return {name: sources for name, *sources in directives}


def nonce_of(response) -> str:
    (nonce,) = [s for s in policy(response)["script-src"] if s.startswith("'nonce-")]
    return nonce.removeprefix("'nonce-").removesuffix("'")


def session_cookie(response, app) -> str:
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie")
                 if c.startswith(app.config["SESSION_COOKIE_NAME"] + "=")]
    return cookie


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=ANSWERS.keys())
def test_every_answer_carries_the_security_headers(client, game, answer):
    response = answer(client, game)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    response.close()


def test_a_server_error_carries_them_too(tmp_path):
    app = make_app(tmp_path / "banker.sqlite", PROPAGATE_EXCEPTIONS=False)

    @app.get("/broken")
    def broken():
        raise RuntimeError("a bug")

    response = app.test_client().get("/broken")
    assert response.status_code == 500
    assert response.headers["X-Frame-Options"] == "DENY" and response.headers["Referrer-Policy"] == "same-origin"
    assert policy(response)["script-src"] == ["'self'", f"'nonce-{nonce_of(response)}'"]
    close(app)


def test_without_the_cdn_everything_comes_from_this_server_and_scripts_by_nonce(client):
    response = client.get("/")
    assert policy(response) == {
        "default-src": ["'self'"],
        "script-src": ["'self'", f"'nonce-{nonce_of(response)}'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
    assert HTMX_CDN_HOST not in response.headers["Content-Security-Policy"]


def test_with_the_cdn_scripts_may_come_from_the_pinned_cdn_files_only(tmp_path):
    app = make_app(tmp_path / "banker.sqlite", HTMX_CDN=True)
    response = app.test_client().get("/")
    assert policy(response)["script-src"] == ["'self'", f"'nonce-{nonce_of(response)}'",
                                              *(script.cdn_url for script in SCRIPTS)]
    assert f"https://{HTMX_CDN_HOST} " not in response.headers["Content-Security-Policy"] + " "
    close(app)


def test_the_policy_allows_no_inline_style_and_no_eval(client):
    header = client.get("/").headers["Content-Security-Policy"]
    assert "unsafe" not in header and "style-src 'self';" in header


@pytest.mark.parametrize("cdn", [False, True], ids=["vendored", "cdn"])
def test_each_request_has_its_own_nonce_and_every_script_tag_carries_it(tmp_path, cdn):
    app = make_app(tmp_path / "banker.sqlite", HTMX_CDN=cdn)
    client = app.test_client()
    nonces = []
    for _ in range(2):
        response = client.get("/")
        nonce = nonce_of(response)
        tags = SCRIPT_TAG.findall(response.get_data(as_text=True))
        # htmx and its extension (from the CDN: each with an inline fallback and the fallback's own
        # tag inside it), then app.js.
        assert len(tags) == (3 * len(SCRIPTS) if cdn else len(SCRIPTS)) + 1
        assert all(f'nonce="{nonce}"' in tag for tag in tags), tags
        nonces.append(nonce)
    assert nonces[0] != nonces[1] and all(len(n) >= 16 for n in nonces)
    close(app)


def test_no_screen_has_an_inline_style(client, host, phone):
    """A style attribute or element would be refused under the policy (the board's squares are
    placed by classes; the join QR code and the end chart are plain SVG)."""
    lobby = new_game(client, start=False)
    game = new_game(client)
    screens = {"home": client.get("/").get_data(as_text=True), "lobby with the join QR": host(lobby).page(),
               "board": host(game).page(), "phone": phone(game, 1).page()}
    game.ok("banker", type="end_game")
    screens["end chart"] = host(game).page()
    assert 'class="worth-chart"' in screens["end chart"] and "<svg" in screens["lobby with the join QR"]
    for name, html in screens.items():
        assert not re.search(r"<style\b|\sstyle=", html), name


def test_the_session_cookie_is_secure_over_https(app):
    response = app.test_client().get("/", base_url="https://localhost")
    assert "; Secure" in session_cookie(response, app)


def test_the_session_cookie_is_not_secure_over_plain_http_on_the_lan(app):
    response = app.test_client().get("/")
    assert "Secure" not in session_cookie(response, app)


def test_the_session_cookie_setting_makes_it_secure_over_http_too(tmp_path):
    app = make_app(tmp_path / "banker.sqlite", SESSION_COOKIE_SECURE=True)
    response = app.test_client().get("/")
    assert "; Secure" in session_cookie(response, app)
    close(app)


def test_a_form_still_works_over_https(app):
    """Over HTTPS the CSRF check also wants a same-origin Referer, which same-origin still sends."""
    client = app.test_client()
    token = csrf_token(client, "https://localhost/")
    response = client.post("/games", data={"csrf_token": token}, base_url="https://localhost",
                           headers={"Referer": "https://localhost/"})
    assert response.status_code == 303 and "; Secure" in session_cookie(response, app)
