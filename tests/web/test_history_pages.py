"""The API's history comes in pages (GET /api/games/<code>/events?after=&limit=, docs/api.md): put
together they are the whole log, `next` leads from each to the one after it and is null on the last,
a bad page is refused, and the store reads one page, never the whole log."""

import pytest
from sqlalchemy import event

from banker.models import db
from banker.web.pages import api

from .games import bearer, new_game


def played(client, steps: int = 24):
    """A game with an undo and a take-back in its log, `steps` payments long."""
    game = new_game(client)
    for n in range(steps):
        game.ok("banker", type="bank_pay", player=1 + n % 2, amount=n + 1)
        if n == 10:
            game.ok("banker", type="undo")
        if n == 15:
            game.ok(2, type="pay", to=1, amount=3)
            game.ok(2, type="take_back")
    return game


def page(game, query: str) -> dict:
    response = game.client.get(f"/api/games/{game.code}/events?{query}", headers=bearer(game.banker))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_pages_put_together_are_the_whole_log(client):
    game = played(client)
    whole = page(game, "limit=1000")
    assert whole["next"] is None
    version = game.state()["version"]
    assert [e["seq"] for e in whole["events"]] == list(range(1, version + 1))
    assert [e["type"] for e in whole["events"]].count("undo") == 2
    assert any(e["undone"] for e in whole["events"])
    for size in (1, 7, version - 1, version):
        assert game.events(limit=size) == whole["events"]


def test_next_leads_to_the_page_after_and_is_null_on_the_last(client):
    game = played(client, steps=4)
    version = game.state()["version"]
    first = page(game, f"limit={version - 1}")
    assert len(first["events"]) == version - 1
    assert first["next"] == f"http://localhost/api/games/{game.code}/events?after={version - 1}&limit={version - 1}"
    last = client.get(first["next"], headers=bearer(game.banker)).get_json()
    assert [e["seq"] for e in last["events"]] == [version] and last["next"] is None
    assert page(game, f"limit={version}")["next"] is None  # a page that ends on the newest event is the last
    assert page(game, f"after={version}") == {"events": [], "next": None}
    assert page(game, "after=99999")["events"] == []
    assert len(page(game, "")["events"]) == version  # the default page holds 500


@pytest.mark.parametrize("query, says", [
    ("after=-1", "after"), ("after=x", "after"), ("after=1.5", "after"), ("after=", "after"),
    ("after=1234567890123", "after"), ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"),
    ("limit=", "limit"), ("limit=-5", "limit"),
])
def test_a_bad_page_is_refused_and_says_which_value(client, game, query, says):
    response = client.get(f"/api/games/{game.code}/events?{query}", headers=bearer(game.banker))
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad_page" and error["message"].startswith(says)
    assert str(api.MOST) in error["message"] or says == "after"


def test_a_page_reads_only_its_own_events_from_the_log(app, client):
    game = played(client, steps=40)
    sent = []

    def record(conn, cursor, statement, parameters, *args):
        sent.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        body = page(game, "after=20&limit=10")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert [e["seq"] for e in body["events"]] == list(range(21, 31))
    # The statements that read whole events (the page's rows): one, of ten rows at most.
    reads = [(s, p) for s, p in sent if s.startswith("SELECT events.id")]
    assert len(reads) == 1, sent
    statement, parameters = reads[0]
    assert "LIMIT" in statement and 10 in parameters and 20 in parameters, reads
