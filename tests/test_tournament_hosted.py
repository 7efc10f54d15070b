"""A tournament hosted on PostgreSQL by two server processes (issue 36): an event action made
through one reaches the live screens another follows (a registered phone, a table's host screen), the
round's clock paused on the tables with it, and when the round's time runs out both processes'
clock keepers call the last turn, which is recorded once, and every table is told once."""

import http.client
import re
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

from sqlalchemy import create_engine, text

from .test_hosted import call, hosted, next_update, watch  # noqa: F401 (hosted: the fixture)

PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def registered_phone(port: int, code: str, name: str) -> tuple[str, int]:
    """A phone that registers through the event's QR page: its cookie header, and the version its
    page (/e/<code>/me) was drawn at."""
    jar = CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}/e/{code}"
    form = browser.open(f"{base}/register").read().decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', form).group(1)
    page = browser.open(f"{base}/register", urllib.parse.urlencode({"csrf_token": token, "name": name}).encode())
    assert page.url.endswith(f"/e/{code}/me")
    version = int(re.search(r"me/live\?v=(\d+)", page.read().decode()).group(1))
    return "; ".join(f"{c.name}={c.value}" for c in jar), version


def follow(port: int, path: str, cookie: str):
    """A live connection, as a page opens it: (connection, stream)."""
    live = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    live.request("GET", path, headers={"Cookie": cookie})
    stream = live.getresponse()
    assert stream.status == 200 and stream.read1(65536).startswith(b"retry:")
    return live, stream


def shows(stream, text: bytes) -> bytes:
    """Read a live connection's updates until one shows `text` (a page drawn at an older version is
    first brought up to date: that update comes first)."""
    received, given_up = b"", time.monotonic() + 60  # a guard against waiting for ever, not a measure
    while text not in received:
        assert time.monotonic() < given_up, f"no update showed {text!r}"
        received += next_update(stream)
    return received


def counted(database: str, code: str) -> tuple[int, list[int]]:
    """How many times the tournament's log, and each of its tables' games, holds the last turn."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            event = connection.execute(text(
                "SELECT count(*) FROM tournament_actions a JOIN tournaments t ON t.id = a.tournament_id "
                "WHERE t.code = :code AND a.type = 'last_turn'"), {"code": code}).scalar()
            tables = connection.execute(text(
                "SELECT count(e.seq) FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
                "LEFT JOIN events e ON e.game_id = tt.game_id AND e.type = 'last_turn' "
                "WHERE t.code = :code GROUP BY tt.game_id ORDER BY tt.game_id"), {"code": code}).scalars().all()
    finally:
        engine.dispose()
    return event, tables


def test_an_event_through_two_processes_and_its_last_turn_at_time_recorded_once(hosted):
    first, second = hosted(), hosted()
    status, made = call(first, "/api/events", {"name": "Club night", "rounds": 1, "round_minutes": 5})
    assert status == 201
    code, organiser = made["code"], made["organiser_token"]
    cookie, version = registered_phone(second, code, PLAYERS[0])
    for name in PLAYERS[1:]:
        assert call(first, f"/api/events/{code}/players", {"name": name})[0] == 201
    phone, stream = follow(second, f"/e/{code}/me/live?v={version}", cookie)
    tables = []
    try:
        # Seated through the first process: the phone the second follows shows its table.
        seated = call(first, f"/api/events/{code}/actions", {"type": "seat_round"}, organiser)[1]
        shows(stream, b"Table ")
        games = [t["game"] for t in seated["state"]["rounds"][0]["tables"]]
        assert call(first, f"/api/events/{code}/actions", {"type": "start_round"}, organiser)[0] == 200
        at = call(second, f"/api/games/{games[0]}", token=organiser)[1]["version"]
        tables = [watch(second, game, at) for game in games[:1]]
        # Paused through the first process: the table's host screen on the second says so.
        assert call(first, f"/api/events/{code}/actions", {"type": "pause_clock"}, organiser)[0] == 200
        shows(tables[0][1], b"Clock paused:")
        # A round of five minutes is long for a test: the clock kept one second when it is paused.
        engine = create_engine(hosted.database)
        with engine.begin() as connection:
            connection.execute(text("UPDATE tournaments SET state = jsonb_set(state::jsonb, "
                                    "'{clock,paused_remaining}', '1')::json WHERE code = :code"), {"code": code})
        engine.dispose()
        # Run again through the first: both processes' keepers hear of it, and both call the last
        # turn at its time (nobody else does: no page of the event calls it, no table acts).
        assert call(first, f"/api/events/{code}/actions", {"type": "resume_clock"}, organiser)[0] == 200
        shows(tables[0][1], b"Last turn")
    finally:
        for live, reading in [(phone, stream), *tables]:
            reading.close()
            live.close()
    assert counted(hosted.database, code) == (1, [1, 1])
    time.sleep(0.2)  # a late caller would be refused, and write nothing: still once
    assert counted(hosted.database, code) == (1, [1, 1])
