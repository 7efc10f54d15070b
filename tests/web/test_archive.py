"""A game taken away and brought back: the archive (GET /api/games/<code>/export) imported on
another laptop (POST /api/games/import, the home page's "Import a game") gives the same game, which
goes on; a file that does not replay is refused by its first bad event and creates nothing; the
ledger as CSV."""

import csv
import http.client
import io
import json
import os
import pickle
import random
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from banker import game_file, models, store
from banker.models import db
from banker.rules import Actor, GameError
from banker.rules.cards import printing_decks
from banker.rules.view import state_json
from banker.store import undo
from banker.game_file import Replay
from banker.web.files import books
from banker.web.files import imports

from ..apps import close, make_app
from ..e2e.conftest import Server
from ..evenings import next_move
from ..store.tables import BANKER, new_table
from .games import CSRF, Game, bearer, csrf_token, new_game, rejoin_address, take_seat


def exported(game) -> dict:
    response = game.client.get(f"/api/games/{game.code}/export", headers=bearer(game.banker))
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data())


def imported(client, body, **headers):
    return client.post("/api/games/import", data=body if isinstance(body, (bytes, str)) else json.dumps(body),
                       content_type="application/json", headers=headers)


def games_count(app) -> tuple[int, int, int]:
    """Games, events and seats in the database."""
    with app.app_context():
        return tuple(db.session.scalar(select(func.count()).select_from(table))
                     for table in (models.Game, models.Event, models.Seat))


def played(game) -> None:
    """A short evening with a purchase, rent, a card, a payment, an undo and a take-back (seq 4 to 14)."""
    game.ok(1, type="roll", dice=[1, 2])              # Ann to Baltic Avenue
    game.ok(1, type="buy")
    game.ok(1, type="end_turn")
    game.ok(2, type="roll", dice=[1, 2])              # Bob pays Ann $4 rent
    game.ok(2, type="pay", to=1, amount=10, memo="snacks")
    game.ok(2, type="take_back")                      # Bob takes the payment back
    game.ok(2, type="end_turn")
    game.ok(1, type="roll", dice=[2, 2])              # doubles, to Chance
    game.ok(1, type="draw", deck="chance", card=_collect_card())
    game.ok("banker", type="bank_pay", player=2, amount=5, memo="found")
    game.ok("banker", type="undo")                    # the banker takes the bank's payment back


def _collect_card() -> str:
    """A Chance card of the US game that pays the drawer."""
    return next(c["id"] for c in printing_decks("us_2021")["chance"] if c["effect"]["kind"] == "collect")


@pytest.mark.storage  # the events, times and checkpoints as each database keeps them
def test_the_round_trip_gives_the_same_game_and_it_goes_on(app, client, host, monkeypatch):
    monkeypatch.setattr(undo, "CHECKPOINT_EVERY", 4)  # checkpoints (and an undo from one) in a short game
    game = new_game(client)
    played(game)
    archive = exported(game)
    assert (archive["format"], archive["version"], archive["edition"]) == ("tabletop-banker-game", 1, "us")
    assert [e["seq"] for e in archive["events"]] == list(range(1, game.state()["version"] + 1))
    assert [e["undone"] for e in archive["events"]].count(True) == 2

    before = games_count(app)
    response = imported(client, archive)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert set(answer) == {"code", "banker_token"} and answer["code"] != game.code
    assert games_count(app) == (before[0] + 1, before[1] * 2, before[2] * 2)

    copy = type(game)(client, answer["code"], answer["banker_token"])
    assert copy.state() == game.state()
    assert copy.events() == game.events()
    with app.app_context():
        checkpoints = [db.session.execute(select(models.Checkpoint.seq, models.Checkpoint.state)
                                          .join(models.Game).where(models.Game.code == code)
                                          .order_by(models.Checkpoint.seq)).all()
                       for code in (game.code, copy.code)]
    assert checkpoints[0] == checkpoints[1] and len(checkpoints[0]) >= 3

    # The imported game goes on: the banker acts, and Ann's seat comes back on a new phone.
    copy.ok("banker", type="undo")
    assert copy.state()["version"] == game.state()["version"] + 1
    phone = app.test_client()
    assert phone.get(f"/p/{copy.code}").status_code == 302  # no seat yet
    taken = take_seat(phone, rejoin_address(host(copy), 1))
    assert taken.status_code == 303 and taken.headers["Location"] == f"/p/{copy.code}"
    assert phone.get(f"/p/{copy.code}").status_code == 200


def test_the_host_tools_link_the_files_and_a_seat_token_cannot_export(client, host):
    game = new_game(client)
    html = host(game).client.get(f"/t/{game.code}").get_data(as_text=True)
    assert f'href="/t/{game.code}/export.json"' in html and f'href="/t/{game.code}/ledger.csv"' in html
    assert host(game).client.get(f"/t/{game.code}/export.json").status_code == 200
    for path in (f"/api/games/{game.code}/export", f"/api/games/{game.code}/ledger.csv"):
        refused = client.get(path, headers=bearer(game.seats[1]))
        assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "banker_only"
    assert client.get(f"/t/{game.code}/export.json").status_code == 403  # a browser that is not the banker


def edited(archive: dict, seq: int, **changes) -> dict:
    archive = json.loads(json.dumps(archive))
    archive["events"][seq - 1].update(changes)
    return archive


@pytest.fixture
def archive(client) -> dict:
    game = new_game(client)
    played(game)
    return exported(game)


def refusals(archive: dict) -> list[tuple[object, str, str]]:
    """(body, the code, words of the message) of files that must be refused."""
    text = json.dumps(archive)
    roll = archive["events"][3]
    assert roll["type"] == "roll"
    return [
        # An edited roll: still legal, but it no longer gives what the file says.
        (edited(archive, 4, action={**roll["action"], "dice": [2, 2]}), "bad_event",
         "Event 4 of the file does not replay: the rules give other effects than the file says."),
        # A purchase made impossible: the rules' own refusal, in words.
        (edited(archive, 5, actor="2"), "bad_event", "Event 5 of the file does not replay: "),
        (edited(archive, 6, undone=True), "bad_event", "Event 6 of the file does not replay: the file marks it undone"),
        ({**archive, "version": 2}, "archive_version",
         "This file is version 2 of the game format; this app reads version 1."),
        ({**archive, "edition": "mars"}, "archive_edition", "This file's board is not one this app knows"),
        ({**archive, "format": "other"}, "not_an_archive", "This file is not a game exported by Tabletop Banker."),
        (b"\x89PNG junk", "not_an_archive", "This file is not a game exported by Tabletop Banker."),
        (text[: len(text) // 2], "archive_cut_short", "This file is cut short: it may not have been copied whole."),
        (text + "}", "not_an_archive", "This file is not a game exported by Tabletop Banker."),
        ({**archive, "events": archive["events"][:3] + archive["events"][4:]}, "bad_event",
         "Event 4 of the file does not replay: the events must be numbered 1, 2, 3"),
        # Times to come: a purge would never take the game (the year 9999), or not a time at all
        # once told in UTC (past the year 9999).
        (edited(archive, 7, time="9999-12-31T23:59:00+00:00"), "bad_event",
         "Event 7 of the file does not replay: its time, 9999-12-31 23:59 UTC, is later than this computer's clock"),
        (edited(archive, 7, time=(datetime.now(UTC) + timedelta(minutes=11)).isoformat()), "bad_event",
         "Event 7 of the file does not replay: its time, "),
        (edited(archive, 7, time="9999-12-31T23:59:00-05:00"), "bad_event",
         "Event 7 of the file does not replay: its actor, time, type or action is not as the app writes them."),
        ({**archive, "created_at": "9999-01-01T00:00:00+00:00"}, "archive_in_the_future",
         "This file is dated 9999-01-01 00:00 UTC, later than this computer's clock: check the date of the laptop "
         "that exported it, and of this one."),
    ]


@pytest.mark.storage  # one transaction: nothing written on either database
def test_a_file_that_does_not_replay_is_refused_by_its_first_bad_event_and_nothing_is_created(app, client, archive):
    before = games_count(app)
    for body, code, says in refusals(archive):
        response = imported(client, body)
        assert response.status_code == 400, (code, response.get_json())
        error = response.get_json()["error"]
        assert error["code"] == code and error["message"].startswith(says), error
    assert games_count(app) == before
    assert imported(client, archive).status_code == 201  # the file as exported is fine
    # A clock a few minutes fast on the laptop that exported it is no reason to refuse its file.
    assert imported(client, edited(archive, 7, time=(datetime.now(UTC) + timedelta(minutes=5)).isoformat())
                    ).status_code == 201


def test_the_refusal_names_the_event_in_the_readers_language(client, archive):
    response = imported(client, edited(archive, 5, actor="2"), **{"Accept-Language": "fr"})
    message = response.get_json()["error"]["message"]
    # The rules' refusal is told as the French reader reads it, naming the seat by its name.
    assert response.status_code == 400 and " 5 " in message
    assert message.endswith("Bob n'a aucune propriété à acheter en ce moment.")


def test_a_large_file_is_replayed_in_a_process_of_its_own_and_comes_back_refused_or_whole(app, client, archive,
                                                                                         monkeypatch):
    """Every file replayed apart (APART 0), and none in this process (a replay here fails the test):
    a refusal comes back whole (the rules' error inside it, told in the reader's language from the
    game's state), and a file that replays is written here as the same game. That process loads the
    rules, not the app: the very command the server starts (imports.replaying), with Python telling
    each module it imports (PYTHONPROFILEIMPORTTIME), replays the file without Flask, its parts,
    SQLAlchemy or the store (they were 58 MB of each such process; docs/benchmarks.md)."""
    monkeypatch.setattr(imports, "APART", 0)
    monkeypatch.setattr(Replay, "event", lambda *_: pytest.fail("replayed in the server's process"))
    before = games_count(app)
    response = imported(client, edited(archive, 5, actor="2"), **{"Accept-Language": "fr"})
    error = response.get_json()["error"]
    assert response.status_code == 400 and error["code"] == "bad_event"
    assert error["message"].endswith("Bob n'a aucune propriété à acheter en ce moment.")
    assert games_count(app) == before
    response = imported(client, archive)
    assert response.status_code == 201
    copy = Game(client, response.get_json()["code"], response.get_json()["banker_token"])
    assert exported(copy)["events"] == archive["events"]
    ran = subprocess.run(imports.replaying(undo.CHECKPOINT_EVERY), input=json.dumps(archive).encode(),
                         capture_output=True, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    assert ran.returncode == 0, ran.stderr.decode()[-2000:]
    replay = pickle.loads(ran.stdout)
    assert isinstance(replay, Replay) and len(replay.rows) == len(archive["events"])
    loaded = {line.rsplit("|", 1)[1].strip() for line in ran.stderr.decode().splitlines()
              if line.startswith("import time:") and line.count("|") == 2}
    assert {"banker", "banker.rules", "banker.game_file", "json"} <= loaded
    assert sorted(name for name in loaded if name.startswith(("flask", "werkzeug", "jinja2", "sqlalchemy",
                                                               "banker.store", "banker.models"))) == []


def test_a_file_cut_short_at_any_byte_is_told_apart_from_junk(app, client):
    game = new_game(client)
    game.ok(1, type="roll", dice=[1, 2])
    game.ok(1, type="buy")
    game.ok(1, type="pay", to=2, amount=10, memo="café, 日本")  # UTF-8 of two and three bytes in the file
    game.ok("banker", type="bank_pay", player=2, amount=5, memo='a "quote" and a \\')
    whole = game.client.get(f"/api/games/{game.code}/export", headers=bearer(game.banker)).get_data()
    assert "café, 日本".encode() in whole and json.loads(whole)["events"][-1]["effects"]
    said = set()
    for end in range(len(whole.rstrip())):  # the copy stopped at byte `end`: ends in a word, a string, a character…
        with pytest.raises(game_file.BadArchive) as refused:
            game_file.read(whole[:end])
        said.add(refused.value.code)
    assert said == {"archive_cut_short"}
    for junk in (b"\x89PNG\r\n\x1a\n\x00", b"<!doctype html><p>game</p>", b"Time,From,To\n1,2,3",
                 whole.replace(b"\n", b"\n#", 1), "{\"memo\": \"café\"}".encode("latin-1"), whole + b"}",
                 b'{"a": 1.x}', b'{"a": tx}', b'"\\u00zz"', b"[" * 100_000):
        with pytest.raises(game_file.BadArchive) as refused:
            game_file.read(junk)
        assert refused.value.code == "not_an_archive", junk[:40]
    # Told so by the API (400) and on the home page, and nothing is made.
    before = games_count(app)
    response = imported(client, whole[: len(whole) * 2 // 3])
    assert response.status_code == 400 and response.get_json()["error"] == {
        "code": "archive_cut_short", "message": "This file is cut short: it may not have been copied whole."}
    browser = app.test_client()
    page = browser.post("/games/import", data={"csrf_token": csrf_token(browser, "/"), "archive": (
        io.BytesIO(whole[:-40]), "game.json")})
    assert page.status_code == 422 and "This file is cut short: it may not have been copied whole." in page.get_data(
        as_text=True)
    assert games_count(app) == before


class Huge(io.RawIOBase):
    """50 MB of spaces that are made only as they are read, counting what was read."""

    size = 50 * 1024 * 1024

    def __init__(self):
        self.at = self.read_bytes = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=0):
        self.at = {0: offset, 1: self.at + offset, 2: self.size + offset}[whence]
        return self.at

    def tell(self):
        return self.at

    def readinto(self, buffer):
        n = max(0, min(len(buffer), self.size - self.at))
        buffer[:n] = b" " * n
        self.at += n
        self.read_bytes += n
        return n


def test_a_50_mb_file_is_refused_before_it_is_read(app, client):
    before, body = games_count(app), Huge()
    response = client.post("/api/games/import", input_stream=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == {"code": "too_large",
                                            "message": "A game file is at most 8 MB; this one is larger."}
    assert body.read_bytes == 0 and games_count(app) == before


def test_the_home_page_imports_a_file_and_refuses_a_bad_one_on_the_page(app, client, archive):
    browser = app.test_client()
    csrf = csrf_token(browser, "/")
    before = games_count(app)
    bad = browser.post("/games/import", data={"csrf_token": csrf, "archive": (
        io.BytesIO(json.dumps(edited(archive, 4, effects=[])).encode()), "game.json")})
    assert bad.status_code == 422
    assert "Event 4 of the file does not replay: the rules give other effects" in bad.get_data(as_text=True)
    forged = app.test_client().post("/games/import", data={"archive": (io.BytesIO(json.dumps(archive).encode()),
                                                                       "g.json")})
    assert forged.status_code == 400  # no CSRF token
    assert games_count(app) == before

    huge = Huge()  # 50 MB: refused on its length, with the page's message
    too_big = browser.post("/games/import", input_stream=huge, content_type="multipart/form-data; boundary=x")
    assert too_big.status_code == 413 and huge.read_bytes == 0
    assert "A game file is at most 8 MB; this one is larger." in too_big.get_data(as_text=True)
    assert games_count(app) == before

    done = browser.post("/games/import", data={"csrf_token": csrf, "archive": (
        io.BytesIO(json.dumps(archive).encode()), "game.json")})
    assert done.status_code == 303
    page = browser.get(done.headers["Location"]).get_data(as_text=True)
    assert "Bank pays or charges" in page  # this browser banks the imported game


def test_the_ledger_csv_of_a_short_game(client):
    game = new_game(client)
    game.ok(1, type="roll", dice=[1, 2])     # Ann to Baltic Avenue
    game.ok(1, type="buy")                   # Ann pays the bank 60
    game.ok(1, type="end_turn")
    game.ok(2, type="roll", dice=[1, 2])     # Bob pays Ann 4 rent
    game.ok(2, type="pay", to=1, amount=10, memo="snacks")
    game.ok("banker", type="undo")           # the payment is taken back: not in the ledger
    game.ok("banker", type="bank_pay", player=2, amount=25, memo="found")
    response = client.get(f"/api/games/{game.code}/ledger.csv", headers=bearer(game.banker))
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    times = {e["seq"]: datetime.fromisoformat(e["time"]).replace(microsecond=0) for e in game.events()}
    assert [row[1:] for row in rows] == [
        ["From", "To", "Amount", "Reason"],
        ["Ann", "the bank", "60", "Purchase: Baltic Avenue"],
        ["Bob", "Ann", "4", "Rent: Baltic Avenue"],
        ["the bank", "Bob", "25", "Paid by the bank (found)"],
    ]
    assert rows[0][0] == "Time"
    # The purchase, the rent and the bank's payment: the times of events 5, 7 and 10, to the second.
    assert [datetime.fromisoformat(row[0]) for row in rows[1:]] == [times[5], times[7], times[10]]


# Names a spreadsheet would run as formulas (issue 33's probe), one per dangerous first character
# that a name can have (the rules strip a name's tabs and line ends).
FORMULAS = ["=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(1)"]


def test_the_ledger_csv_writes_names_that_look_like_formulas_as_text(client):
    game = new_game(client, players=0, start=False)
    seats = [game.join(name, token) for name, token in zip(FORMULAS, ("hat", "car", "dog", "iron"))]
    game.ok("banker", type="start", order=seats)
    for payer, memo in zip(seats, ("=A1", "+1", "-1", "@A1")):
        game.ok(payer, type="pay", to=seats[(payer % len(seats))], amount=7, memo=memo)
    game.ok("banker", type="bank_charge", player=seats[0], amount=3, memo="=1")
    response = client.get(f"/api/games/{game.code}/ledger.csv", headers=bearer(game.banker))
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    quoted = ["'" + name for name in FORMULAS]
    assert [row[1:] for row in rows[1:]] == [
        [quoted[0], quoted[1], "7", "Payment (=A1)"], [quoted[1], quoted[2], "7", "Payment (+1)"],
        [quoted[2], quoted[3], "7", "Payment (-1)"], [quoted[3], quoted[0], "7", "Payment (@A1)"],
        [quoted[0], "the bank", "3", "Charged by the bank (=1)"]]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_text_cell_that_starts_like_a_formula_gets_a_quote_and_numbers_stay_numbers(start):
    assert books.cell(start + "SUM(A1)") == "'" + start + "SUM(A1)"
    assert books.cell("Ann" + start) == "Ann" + start
    assert books.cell(25) == 25 and books.cell(-25) == -25


# Files replayed in the server's own process, however large, where the test is of sizes: in a process
# of its own at a lower priority (test_a_large_file_is_replayed_in_a_process_of_its_own...), a
# replay can outlast these clients' 10 s timeout on a loaded machine.
IMPORTED_HERE = 16 * 1024 * 1024


def test_a_real_server_lets_a_game_file_past_a_megabyte_through_to_the_import_only(database, monkeypatch):
    """banker's waitress reads bodies up to IMPORT_MAX_BYTES (a 5,000-event archive is 1.3 MB); the
    app still refuses more than 64 KB anywhere else, and more than IMPORT_MAX_BYTES on its headers."""
    monkeypatch.setattr(imports, "APART", IMPORTED_HERE)
    app = make_app(database)
    server = Server(app).start()
    try:
        two_mb = b" " * (2 * 1024 * 1024) + b"[]"
        status, body = server.post("/api/games/import", two_mb)  # read whole by the app: not a game
        assert status == 400 and json.loads(body)["error"]["code"] == "not_an_archive"
        status, body = server.post("/api/games", two_mb)
        assert status == 413 and json.loads(body)["error"]["code"] == "too_large"
        status, _ = server.post("/api/games/import", b"[" * 1024, length=50 * 1024 * 1024)
        assert status == 413

        # The export, streamed by waitress as the log is read, imports again on the same server.
        status, body = server.post("/api/games", b"{}")
        made = json.loads(body)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/api/games/{made['code']}/export", headers=bearer(made["banker_token"]))
        response = connection.getresponse()
        archive = response.read()
        connection.close()
        assert response.status == 200 and json.loads(archive)["events"] == []
        status, body = server.post("/api/games/import", archive)
        assert status == 201 and json.loads(body)["code"] != made["code"]
    finally:
        server.stop()
        close(app)


def test_imports_take_turns_two_at_once_and_one_per_address_and_the_others_are_refused_at_once(app, archive,
                                                                                              monkeypatch):
    """Counted, not timed: two imports held in the middle of their replay; a third, or a second from
    one of their addresses, is a 503 with Retry-After (the API's `busy`, the page's message) and
    creates nothing; once they end, their turns are free again."""
    started, go_on, replay = threading.Semaphore(0), threading.Event(), Replay.event

    def held(self, seq, event):
        if seq == 1:
            started.release()
            assert go_on.wait(30)
        return replay(self, seq, event)

    monkeypatch.setattr(Replay, "event", held)
    body = json.dumps(archive)

    def sent(address: str):
        return app.test_client().post("/api/games/import", data=body, content_type="application/json",
                                      environ_base={"REMOTE_ADDR": address})

    def refused_at_once(response) -> bool:
        return response.status_code == 503 and response.headers["Retry-After"] == "5"

    before = games_count(app)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(sent, "10.0.0.1")
        assert started.acquire(timeout=30)
        same_address = sent("10.0.0.1")
        assert refused_at_once(same_address) and same_address.get_json()["error"] == {
            "code": "busy", "message": "Other game files are being imported right now; try again in a few seconds."}
        second = pool.submit(sent, "10.0.0.2")
        assert started.acquire(timeout=30)
        assert refused_at_once(sent("10.0.0.3"))
        browser = app.test_client()
        page = browser.post("/games/import", environ_base={"REMOTE_ADDR": "10.0.0.4"}, data={
            "csrf_token": csrf_token(browser, "/"), "archive": (io.BytesIO(body.encode()), "game.json")})
        assert refused_at_once(page)
        assert "Other game files are being imported right now" in page.get_data(as_text=True)
        assert games_count(app)[0] == before[0]
        go_on.set()
        assert first.result().status_code == 201 and second.result().status_code == 201
    assert sent("10.0.0.1").status_code == 201 and sent("10.0.0.3").status_code == 201
    assert games_count(app)[0] == before[0] + 4


def multipart(token: str, file: bytes) -> tuple[bytes, str]:
    """The home page's import form as a browser sends it: its CSRF token and the file."""
    parts = (b'--B\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n' + token.encode()
             + b'\r\n--B\r\nContent-Disposition: form-data; name="archive"; filename="game.json"\r\n'
             b"Content-Type: application/json\r\n\r\n" + file + b"\r\n--B--\r\n")
    return parts, "multipart/form-data; boundary=B"


def test_a_real_server_takes_a_game_file_of_exactly_the_limit_and_says_too_large_just_over_it(database,
                                                                                            monkeypatch):
    """IMPORT_MAX_BYTES (8 MiB) is the one limit: a file of exactly that imports, through the API and
    the page; one byte more is the API's JSON `too_large` and the page's message, from the app, not
    waitress's plain text."""
    monkeypatch.setattr(imports, "APART", IMPORTED_HERE)
    app = make_app(database)
    server = Server(app).start()
    limit = app.config["IMPORT_MAX_BYTES"]
    try:
        made = json.loads(server.post("/api/games", b"{}")[1])
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/api/games/{made['code']}/export", headers=bearer(made["banker_token"]))
        file = connection.getresponse().read().rstrip()
        exactly, over = file + b" " * (limit - len(file)), file + b" " * (limit + 1 - len(file))
        assert len(exactly) == 8 * 1024 * 1024

        status, body = server.post("/api/games/import", exactly)
        assert status == 201, body
        status, body = server.post("/api/games/import", over)
        assert status == 413 and json.loads(body) == {"error": {
            "code": "too_large", "message": "A game file is at most 8 MB; this one is larger."}}

        connection.request("GET", "/")
        home = connection.getresponse()
        cookie, token = home.getheader("Set-Cookie").split(";")[0], CSRF.search(home.read().decode())[1]
        for file, status, says in ((exactly, 303, ""), (over, 413, "A game file is at most 8 MB; this one is larger.")):
            form, kind = multipart(token, file)
            connection.request("POST", "/games/import", form, {"Content-Type": kind, "Cookie": cookie})
            answer = connection.getresponse()
            assert answer.status == status and says in answer.read().decode()
        connection.close()
    finally:
        server.stop()
        close(app)


def test_an_imported_evening_takes_at_most_twice_its_file_in_the_database(app, tmp_path):
    """A long evening as the benchmarks play it (an undo every hundred events or so), imported into a
    database of its own: what the database grew by, once its write-ahead log is checkpointed, is at
    most twice the file. The import stores what play stored: every event, and the same checkpoints."""
    rng = random.Random(7)
    with app.app_context():
        table = new_table(players=3)
        while (game := store.find_game(table.code)).version < 600:
            who, action = next_move(state_json(store.load_state(game), game.version), rng)
            if action["type"] == "undo" and game.version % 100 > 3:
                continue
            try:
                store.act(table.code, action, actor=BANKER if who == "banker" else Actor(player=who))
            except GameError:
                pass
    file = app.test_client().get(f"/api/games/{table.code}/export", headers=bearer(table.banker)).get_data()
    other = make_app(tmp_path / "other" / "banker.sqlite")
    empty = checkpointed_size(other)
    assert other.test_client().post("/api/games/import", data=file, content_type="application/json").status_code == 201
    grown = checkpointed_size(other) - empty
    close(other)
    assert len(file) > 100_000 and grown <= 2 * len(file), (grown, len(file))


def checkpointed_size(app) -> int:
    """The SQLite file's size with everything its write-ahead log holds moved into it."""
    with app.app_context():
        db.session.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        db.session.commit()
        return Path(db.engine.url.database).stat().st_size
