"""Bodies too big or too deeply nested to be a game's are refused with a clear 4xx, before they cost
the server anything, on the test client and on a real server."""

import json

import pytest

from ..e2e.conftest import Server
from ..apps import close, make_app
from .games import HTMX, bearer

# Within the size limit, and deeper than the JSON parser can go.
DEEP = '{"type": "pay", "to": ' + "[" * 20_000 + "]" * 20_000 + ', "amount": 5}'
BIG = json.dumps({"type": "pay", "to": 2, "amount": 5, "memo": "x" * 100_000})


def endpoints(game):
    return [(f"/api/games/{game.code}/actions", bearer(game.banker)), (f"/api/games/{game.code}/players", {}),
            ("/api/games", {})]


def test_deeply_nested_json_is_a_400_on_every_json_endpoint(client, game):
    before = game.state()
    for path, headers in endpoints(game):
        response = client.post(path, data=DEEP, content_type="application/json", headers=headers)
        assert response.status_code == 400, path
        assert response.get_json() == {"error": {"code": "too_deep", "message": "The JSON is nested too deeply."}}
    assert game.state() == before


def test_a_body_over_the_limit_is_a_413_in_the_api_error_shape(client, game):
    before = game.state()
    for path, headers in endpoints(game):
        response = client.post(path, data=BIG, content_type="application/json", headers=headers)
        assert response.status_code == 413, path
        assert response.get_json() == {"error": {"code": "too_large",
                                                 "message": "The request is too large (at most 64 KB)."}}
    assert game.state() == before


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_form_over_the_limit_is_a_413_with_a_message(game, host, htmx):
    banker = host(game)
    before = game.state()
    response = banker.client.post(f"/t/{game.code}/act", data={"csrf_token": banker.csrf, "type": "undo",
                                                               "memo": "x" * 100_000},
                                  headers=HTMX if htmx else {})
    assert response.status_code == 413
    assert "That was too much to send at once." in response.get_data(as_text=True)
    assert game.state() == before


def test_a_real_server_refuses_deep_and_big_bodies_and_never_reads_a_huge_one(database):
    app = make_app(database)
    server = Server(app).start()
    try:
        assert server.post("/api/games", DEEP.encode())[0] == 400
        status, body = server.post("/api/games", BIG.encode())
        assert status == 413 and json.loads(body)["error"]["code"] == "too_large"
        # 300 MB announced: refused on its headers, after the first megabyte at most.
        status, _ = server.post("/api/games", b"[" * 1024, length=300 * 1024 * 1024)
        assert status == 413
    finally:
        server.stop()
        close(app)
