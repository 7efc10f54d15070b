"""Rate limits: one address cannot create games, take seats or try codes without end; another
address is not held back by it."""

import pytest

from ..apps import close, make_app
from .games import csrf_token

ELSEWHERE = {"REMOTE_ADDR": "10.0.0.9"}


@pytest.fixture
def limited(database):
    app = make_app(database, RATELIMIT_ENABLED=True)
    yield app
    close(app)


def test_creating_games_is_limited_per_address(limited):
    client = limited.test_client()
    answers = [client.post("/api/games", json={}) for _ in range(11)]
    assert [a.status_code for a in answers] == [201] * 10 + [429]
    assert answers[-1].get_json() == {"error": {"code": "too_many_requests",
                                                "message": "Too many requests from this address; wait a minute and try again."}}
    assert client.post("/api/games", json={}, environ_base=ELSEWHERE).status_code == 201


def test_the_home_form_is_limited_with_a_message_on_the_page(limited):
    client = limited.test_client()
    csrf = csrf_token(client, "/")
    answers = [client.post("/games", data={"csrf_token": csrf}) for _ in range(11)]
    assert [a.status_code for a in answers] == [303] * 10 + [429]
    assert "Too many tries from this device; wait a minute and try again." in answers[-1].get_data(as_text=True)


def test_joining_is_limited_per_address(limited):
    client = limited.test_client()
    code = client.post("/api/games", json={}).get_json()["code"]
    answers = [client.post(f"/api/games/{code}/players", json={"name": f"P{n}", "token": "hat"}) for n in range(61)]
    assert answers[0].status_code == 201 and answers[59].status_code == 409  # the hat is taken
    assert answers[60].status_code == 429


def test_trying_unknown_codes_is_limited_and_then_no_code_answers(limited):
    client = limited.test_client()
    code = client.post("/api/games", json={}).get_json()["code"]
    assert client.get(f"/j/{code}").status_code == 200  # a known code costs nothing
    tried = [client.get(path) for path in ["/j/ZZZZ2", "/t/ZZZZ3", "/join?code=ZZZZ4", "/api/games/ZZZZ5",
                                           f"/j/{code}/r/not-a-code", f"/tv/{code}/not-a-view-key"] * 5]
    assert {a.status_code for a in tried} == {404}
    assert client.get(f"/j/{code}").status_code == 429  # 30 misses: no more tries this minute
    assert client.get("/j/ZZZZ6").status_code == 429
    assert client.get(f"/j/{code}", environ_base=ELSEWHERE).status_code == 200
