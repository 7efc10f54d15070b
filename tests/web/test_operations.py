"""Issue 33, item 4: what a self-hoster expects. `/healthz` answers 200 while the database answers and
503 when it does not; `/metrics` is off by default, and on answers only this machine, in the
Prometheus text format; the access log writes a line per request with no secret in it. (The same
under real servers: tests/test_wheel.py for `banker`, tests/test_gunicorn_operations.py for gunicorn.)"""

import logging
import shutil

import pytest
from prometheus_client.parser import text_string_to_metric_families

from banker.models import db
from banker.web.serving.operations import logged_path

from ..apps import close, make_app, sqlite_database
from .conftest import badged
from .games import Browser, bearer, new_game, rejoin_address, take_seat
from .test_live import Listener
from .test_tv import counted, tv_link


def scraped(client) -> dict:
    """/metrics read as Prometheus reads it: {(sample name, sorted labels): value}."""
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.get_data(as_text=True))
            for sample in family.samples}


@pytest.fixture
def metered(database):
    app = make_app(database, METRICS=True)
    yield app
    close(app)


def test_healthz_is_200_while_the_database_answers_and_tells_nothing_else(app, client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store" and "Set-Cookie" not in response.headers


def test_healthz_is_never_rate_limited(database):
    app = make_app(database, RATELIMIT_ENABLED=True)
    client = app.test_client()
    assert {client.get("/healthz").status_code for _ in range(70)} == {200}  # past every per-minute limit
    close(app)


def test_healthz_is_503_while_the_database_is_away_and_200_once_it_is_back(tmp_path, caplog):
    """The SQLite file's folder taken away (a disk unplugged): a new connection cannot open it."""
    folder = tmp_path / "data"
    folder.mkdir()
    app = make_app(sqlite_database(folder))
    client = app.test_client()
    game = new_game(client, start=False)
    folder.rename(tmp_path / "away")
    with app.app_context():
        db.engine.dispose()  # the pooled connections hold the file open; a new one must find it
    response = client.get("/healthz")
    assert response.status_code == 503 and response.get_json() == {"status": "unavailable"}
    assert str(tmp_path) not in response.get_data(as_text=True)
    assert "health check: the database does not answer (unable to open database file)" in caplog.text
    (tmp_path / "away").rename(folder)
    assert client.get("/healthz").status_code == 200
    assert game.state()["status"] == "lobby"
    close(app)


def test_metrics_are_off_by_default(client):
    assert client.get("/metrics").status_code == 404


@pytest.mark.parametrize(("proxies", "address", "forwarded", "status"), [
    (0, "127.0.0.1", None, 200),
    (0, "::1", None, 200),
    (0, "192.0.2.7", None, 404),
    (0, "127.0.0.1", "192.0.2.7", 404),  # a proxy on this machine that the app was not told to believe
    (1, "127.0.0.1", "127.0.0.1", 200),  # this machine, through the proxy
    (1, "127.0.0.1", "192.0.2.7", 404),  # a client of the proxy
])
def test_metrics_answer_this_machine_only(database, proxies, address, forwarded, status):
    app = make_app(database, METRICS=True, PROXY_FIX=proxies)
    response = app.test_client().get("/metrics", environ_base={"REMOTE_ADDR": address},
                                     headers={"X-Forwarded-For": forwarded} if forwarded else {})
    assert response.status_code == status
    close(app)


def test_metrics_count_actions_by_type_and_outcome_and_time_them(metered):
    client = metered.test_client()
    game = new_game(client)  # two joins and a start
    game.ok(1, type="roll", dice=[1, 2])
    assert game.act(2, type="roll", dice=[1, 2]).status_code == 409  # not Bob's turn
    assert game.act(1, type="no_such_thing").status_code == 400
    game.ok(1, type="buy", nonce="n1")
    game.ok(1, type="buy", nonce="n1")  # the same nonce again: the first answer, nothing applied
    found = scraped(client)
    actions = {labels: value for (name, labels), value in found.items() if name == "banker_actions_total"}
    assert actions[(("outcome", "applied"), ("type", "join"))] == 2
    assert actions[(("outcome", "applied"), ("type", "roll"))] == 1
    assert actions[(("outcome", "refused"), ("type", "roll"))] == 1
    assert actions[(("outcome", "refused"), ("type", "other"))] == 1  # never a label of the client's choosing
    assert actions[(("outcome", "applied"), ("type", "buy"))] == 1
    assert actions[(("outcome", "repeated"), ("type", "buy"))] == 1
    assert found["banker_action_seconds_count", ()] == sum(actions.values())


def test_metrics_count_database_errors(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    app = make_app(sqlite_database(folder), METRICS=True)
    client = app.test_client()
    game = new_game(client, start=False)
    shutil.move(folder, tmp_path / "away")
    with app.app_context():
        db.engine.dispose()
    assert game.act("banker", type="start", order=[1, 2]).status_code == 503
    assert scraped(client)["banker_database_errors_total", (("kind", "unavailable"),)] == 1
    close(app)


def test_metrics_follow_the_open_live_connections_and_the_renders(metered):
    client = metered.test_client()
    game = new_game(client)
    assert scraped(client)["banker_live_connections", ()] == 0
    listener = Listener(Browser(badged(metered, game, "seat", 1), game.code, f"/p/{game.code}"),
                        seen=game.state()["version"])
    listener.idle()
    assert scraped(client)["banker_live_connections", ()] == 1
    renders = scraped(client).get(("banker_render_seconds_count", ()), 0)
    game.ok(1, type="roll", dice=[1, 2])
    listener.next_event()  # rendered and pushed
    assert scraped(client)["banker_render_seconds_count", ()] > renders
    listener.close(metered)
    assert scraped(client)["banker_live_connections", ()] == 0


def test_a_refused_live_connection_is_counted_by_its_reason_every_time(database):
    """A seat's second phone over its share (LIVE_PER_SEAT 1 here), retrying as its page does: each
    refusal is counted with its reason (the log says it once a minute: test_live_slots.py)."""
    app = make_app(database, METRICS=True, LIVE_PER_SEAT=1)
    try:
        game = new_game(app.test_client())
        phone, second = badged(app, game, "seat", 1), badged(app, game, "seat", 1)
        watching = phone.get(f"/p/{game.code}/live", buffered=False)
        assert watching.status_code == 200
        for _retry in range(3):
            refused = second.get(f"/p/{game.code}/live", buffered=False)
            refused.close()
            assert refused.status_code == 503
        watching.close()
        assert scraped(app.test_client())["banker_live_refused_total", (("reason", "seat"),)] == 3
    finally:
        close(app)


def test_the_access_log_writes_a_line_per_request_and_no_secret(app, game, host, caplog):
    """Rejoin codes and view keys in paths, API tokens in headers, a token in a query, the session
    cookie, a live connection: a line for each request, none with a secret in it."""
    banker = host(game)
    address = rejoin_address(banker, 1)
    rejoin = address.rsplit("/", 1)[1]
    tv = tv_link(game)
    key = tv.rsplit("/", 1)[1]
    cookie = banker.client.get_cookie("session").value
    asked = counted(app)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="banker.access"):
        new_phone = app.test_client()
        take_seat(new_phone, address)
        app.test_client().get(tv)
        app.test_client().get(f"{tv}/live", buffered=False).close()
        app.test_client().get(f"{tv}/no-such-page")  # a path that matches no route still hides the key
        app.test_client().get(f"/?token={rejoin}&lang=fr")
        banker.page()
        game.state()
        app.test_client().get(f"/api/games/{game.code}", headers=bearer(game.seats[2]))
    lines = [record.getMessage() for record in caplog.records if record.name == "banker.access"]
    assert len(lines) == len(asked) == 9
    secrets = (rejoin, key, cookie, game.banker, *game.seats.values())
    assert not [line for line in lines for secret in secrets if secret in line]
    assert f'"GET /j/{game.code}/r/***" 200' in lines[0] and f'"POST /j/{game.code}/r/***" 303' in lines[1]
    assert f'"GET /tv/{game.code}/***/live" 200' in "\n".join(lines)
    assert '"GET /tv/***" 404' in "\n".join(lines)
    assert '"GET /?***&lang=fr" 200' in "\n".join(lines)
    assert all(line.startswith("127.0.0.1 ") for line in lines)


def test_the_access_log_keeps_a_path_on_one_printable_line():
    """A server gives the path %-decoded: a %0A in it is a line break, encoded again in the log."""
    environ = {"PATH_INFO": "/x\nforged line", "QUERY_STRING": "lang=fr%0A&v=1"}
    assert logged_path(environ) == "/x%0Aforged%20line?lang=fr%0A&v=1"


def test_the_access_log_can_be_turned_off(database, caplog):
    app = make_app(database, ACCESS_LOG=False)
    with caplog.at_level(logging.INFO, logger="banker.access"):
        app.test_client().get("/healthz")
    assert not [record for record in caplog.records if record.name == "banker.access"]
    close(app)


def test_the_access_log_gives_the_address_the_app_sees(database, caplog):
    """Behind a proxy (PROXY_FIX), the client's own address, as the rate limits and /metrics see it."""
    app = make_app(database, PROXY_FIX=1)
    with caplog.at_level(logging.INFO, logger="banker.access"):
        app.test_client().get("/healthz", headers={"X-Forwarded-For": "192.0.2.9"})
    [line] = [record.getMessage() for record in caplog.records if record.name == "banker.access"]
    assert line.startswith('192.0.2.9 "GET /healthz" 200 ')
    close(app)
