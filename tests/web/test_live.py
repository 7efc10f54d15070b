"""Live updates: each page's one live connection (Server-Sent Events) pushes the parts of its screen
that changed, once the change is committed, and catches a page up from the version it shows."""

import queue
import random
import threading
import time

import pytest
from flask import g, render_template
from jinja2 import StrictUndefined
from sqlalchemy import update

from banker import store
from banker.store import actions
from banker.models import Game as GameRow
from banker.models import db
from banker.screens import Kind, PhoneScreen, TableScreen, render_parts, squeeze

from ..apps import make_app
from ..evenings import next_move
from .games import SCENARIOS, bearer, new_game, read_events, ready, rejoin_address, take_seat

PARTS = {"t": ("turn", "players", "board", "history"), "p": ("turn", "wallet", "trades", "history")}


@pytest.fixture
def published(app):
    """Every version the app's notifier publishes, in order."""
    seen = []
    app.extensions["banker.notifier"].listeners.append(lambda code, version: code and seen.append((code, version)))
    return seen


class Listener:
    """A page's live connection read in the background, as a browser keeps it open."""

    def __init__(self, browser, seen: int):
        self.events: queue.Queue = queue.Queue()
        # Opened and read in one thread, as a server's worker does (the stream keeps the request's
        # context, which belongs to the thread that opened it).
        self._thread = threading.Thread(target=self._read, args=(browser, seen), daemon=True)
        self._thread.start()

    def _read(self, browser, seen):
        response = browser.client.get(f"{browser.home}/live?v={seen}", buffered=False)
        buffer = ""
        try:
            for chunk in response.response:
                buffer += chunk.decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    events = read_events([block + "\n\n"])
                    self.events.put(events[0] if events else block)
        finally:
            response.close()

    def next_event(self):
        """The next event with a name (comments skipped), within 10 s."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            item = self.events.get(timeout=10)
            if not isinstance(item, str):
                return item
        raise AssertionError("no event within 10 s")

    def idle(self):
        """Wait for a keep-alive comment: the connection has shown its screen and waits for a change."""
        while self.events.get(timeout=10) != ": ping":
            pass

    def close(self, app):
        """End the stream as a stopping server does."""
        app.extensions["banker.notifier"].close()
        self._thread.join(timeout=10)
        assert not self._thread.is_alive()


def test_every_page_connects_at_the_version_it_shows(game, host, phone):
    version = game.state()["version"]
    for browser in (host(game), phone(game, 1)):
        page = browser.page()
        assert f'sse-connect="{browser.home}/live?v={version}"' in page
        assert 'hx-ext="sse"' in page and 'sse-swap="update"' in page and 'hx-swap="none"' in page
        assert "hx-trigger" not in page  # nothing polls


@pytest.mark.parametrize("screen", ["t", "p"])
def test_a_page_behind_gets_every_part_at_once_as_out_of_band_swaps(game, host, phone, screen):
    browser = host(game) if screen == "t" else phone(game, 1)
    version = game.state()["version"]
    [event] = browser.live(seen=version - 1)
    assert event.name == "update" and event.id == str(version)
    for name in PARTS[screen]:
        assert f'id="{name}"' in event.data
    assert event.data.count('hx-swap-oob="true"') == len(PARTS[screen])
    assert "<html" not in event.data


@pytest.mark.parametrize("screen", ["t", "p"])
def test_a_page_up_to_date_gets_nothing_until_a_change(game, host, phone, screen):
    browser = host(game) if screen == "t" else phone(game, 1)
    version = game.state()["version"]
    assert browser.live(seen=version) == []
    # A reconnecting browser says where it was with Last-Event-ID, which wins over the page's ?v=.
    assert browser.live(seen=0, headers={"Last-Event-ID": str(version)}) == []
    assert [e.id for e in browser.live(seen=version, headers={"Last-Event-ID": "0"})] == [str(version)]


def test_a_change_pushes_only_the_parts_it_changed(app, game, phone):
    ann = phone(game, 1)
    listener = Listener(ann, game.state()["version"])
    try:
        listener.idle()
        game.ok("banker", type="bank_pay", player=2, amount=5)  # Bob's money: Ann sees only the news
        event = listener.next_event()
        assert event.id == str(game.state()["version"])
        # (Its white space as a browser reads it: the template's, squeezed as it was compiled.)
        assert " ".join(event.data.split()).startswith('<div id="news" hx-swap-oob="true"> <h2 class="mine">Your turn'
                                                       '</h2> <p class="latest">The bank paid Bob $5.</p> </div>')
        assert not any(f'id="{part}"' in event.data for part in ("turn", "wallet", "trades", "history"))

        game.ok("banker", type="bank_pay", player=1, amount=7)  # Ann's own money: her wallet too
        event = listener.next_event()
        assert 'id="wallet"' in event.data and 'data-cash="1507"' in event.data
        # Not her turn panel, which shows no cash while she is to roll: its news alone, once.
        assert 'id="turn"' not in event.data
        assert event.data.count('id="news"') == 1 and 'id="history"' not in event.data
        # The history gets its new row at the top of its list, not every row again.
        new_row = f'<template><ol hx-swap-oob="afterbegin:#history-rows"><li id="h-{event.id}"'
        assert new_row in event.data
    finally:
        listener.close(app)


@pytest.mark.storage  # what is committed, and so announced, is the database's to say
def test_each_commit_is_published_once_with_its_version(game, published):
    version = game.state()["version"]
    game.ok(1, type="pay", to=2, amount=5, nonce="n1")
    game.ok("banker", type="undo")
    assert published == [(game.code, version + 1), (game.code, version + 2)]


@pytest.mark.storage  # what is committed, and so announced, is the database's to say
def test_a_refused_action_and_a_repeated_nonce_notify_nobody(game, published):
    game.ok(1, type="pay", to=2, amount=5, nonce="n1")
    published.clear()
    assert game.act(1, type="pay", to=2, amount=5, nonce="n1").get_json()["repeated"] is True
    assert game.act(2, type="end_turn").status_code == 409  # not Bob's turn
    assert game.act(1, type="pay", to=1, amount=5).status_code == 409  # to herself
    assert game.act("banker", type="bank_pay", player=9, amount=5).status_code == 400
    assert published == []


@pytest.mark.storage  # what is committed, and so announced, is the database's to say
def test_an_action_that_lost_its_version_race_notifies_only_for_the_try_that_was_saved(app, game, published,
                                                                                          monkeypatch):
    """Another writer gets in first (the game's version moves between the read and the save): the
    losing try is rolled back and says nothing; the retry is saved and announced once."""
    save, lost = actions._save, []

    def racing(row, *args):
        if not lost:
            lost.append(row.version)
            db.session.execute(update(GameRow).where(GameRow.id == row.id).values(version=row.version + 1))
        return save(row, *args)

    monkeypatch.setattr(actions, "_save", racing)
    version = game.state()["version"]
    game.ok(1, type="pay", to=2, amount=5)
    assert lost == [version]
    assert published == [(game.code, version + 1)] and game.state()["version"] == version + 1


@pytest.mark.storage  # what is committed, and so announced, is the database's to say
def test_an_action_that_loses_every_race_is_busy_and_notifies_nobody(app, game, published, monkeypatch):
    monkeypatch.setattr(actions, "_save", lambda *args: None)
    before = game.state()
    response = game.act(1, type="pay", to=2, amount=5)
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "busy"
    assert response.headers["Retry-After"] == "1"
    assert published == [] and game.state() == before


def test_a_phone_whose_seat_moved_is_told_and_its_live_connection_ends(app, game, host, phone):
    old = phone(game, 1)
    take_seat(app.test_client(), rejoin_address(host(game), 1))
    [event] = old.live(seen=game.state()["version"])
    assert "This seat moved to another phone" in event.data
    assert '<main id="main" class="phone-main" hx-swap-oob="true">' in event.data
    assert '<div id="live" hidden hx-swap-oob="true"></div>' in event.data  # no sse-connect: it stays closed
    assert 'name="type"' not in event.data  # no action left to tap


def test_an_open_phone_hears_at_once_that_its_seat_moved(app, game, host, phone):
    """No other change needed: the new phone taking the seat tells the old phone's open page (and
    showing the rejoin code does not: until it is used, the old phone plays on)."""
    old = phone(game, 1)
    listener = Listener(old, game.state()["version"])
    try:
        listener.idle()
        address = rejoin_address(host(game), 1)
        take_seat(app.test_client(), address)
        event = listener.next_event()
        assert "This seat moved to another phone" in event.data and event.id == str(game.state()["version"])
    finally:
        listener.close(app)


def test_a_live_connection_of_an_unknown_game_ends_its_page_and_sets_no_cookie(client, game, phone):
    for path in ("/t/ZZZZZ/live", "/p/ZZZZZ/live"):
        answer = client.get(path)  # the event that stops the page (test_limits.py), at once
        assert answer.status_code == 200 and "sse-connect" not in answer.get_data(as_text=True)
        assert "Set-Cookie" not in answer.headers
    assert client.get("/p/%00/live").status_code == 404  # not a game's address at all
    response = phone(game, 1).client.get(f"/p/{game.code}/live?v=0", buffered=False)
    assert "Set-Cookie" not in response.headers
    response.close()


def test_when_every_live_slot_is_taken_a_new_connection_is_told_to_retry(tmp_path):
    # Its one slot, which a host screen without a badge may take.
    app = make_app(tmp_path / "banker.sqlite", LIVE_CONNECTIONS=1, LIVE_PUBLIC_SHARE=1)
    client = app.test_client()
    created = client.post("/api/games", json={}).get_json()
    client.get(f"/t/{created['code']}")  # the page, which gives the browser its cookie
    first = client.get(f"/t/{created['code']}/live", buffered=False)
    second = client.get(f"/t/{created['code']}/live", buffered=False)
    assert first.status_code == 200
    assert second.status_code == 503 and second.headers["Retry-After"]
    first.close()
    third = client.get(f"/t/{created['code']}/live", buffered=False)
    assert third.status_code == 200
    third.close()
    with app.app_context():
        db.engine.dispose()


def test_the_fragment_routes_are_gone(game, host):
    for path in (f"/t/{game.code}/part/turn", f"/p/{game.code}/part/wallet", f"/live/{game.code}/0"):
        assert host(game).client.get(path).status_code == 404


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_part_renders_from_its_own_pieces_alone(app, client, name):
    """A part rendered with only the pieces it names never meets an undefined variable, in every
    situation the actions make (the scenarios), on the host (banker or not) and on each phone."""
    game = ready(client, name)
    app.jinja_env.undefined = StrictUndefined
    try:
        with app.test_request_context():
            row = store.known(store.find_game(game.code))
            screens = [TableScreen(row, True), TableScreen(row, False), PhoneScreen(row, 1), PhoneScreen(row, 2)]
            for screen in screens:
                assert set(render_parts(screen)) == set(screen.PARTS)
    finally:
        app.jinja_env.undefined = type(app.jinja_env.undefined)


def test_a_part_builds_only_the_pieces_it_names(app, game):
    with app.test_request_context():
        row = store.known(store.find_game(game.code))
        phone = PhoneScreen(row, 1)
        assert phone.context(["history", "turn", "trades"])["history"] is not None
        assert "holdings" not in phone.built() and {"history", "me", "trades"} <= phone.built()
        host = TableScreen(row, True)
        assert host.context(["turn", "players", "history"])["turn_legal"]
        assert "cells" not in host.built() and {"tools", "history"} <= host.built()
        wallet = PhoneScreen(row, 1)
        wallet.context(["wallet"])
        assert "holdings" in wallet.built() and "history" not in wallet.built()


def test_each_entry_of_the_history_is_told_once_for_every_screen(app, game, host, phone):
    """Every screen shows history, but each entry is put into words once per language, and a change
    adds one entry's words, not a screen's worth."""
    caches = app.extensions["banker.history"]
    screens = [host(game), phone(game, 1), phone(game, 2)]
    told = caches.told
    for browser in screens:
        browser.pushed()
    first = caches.told - told
    assert first == len({e["seq"] for e in game.events()})  # each entry once, for three screens
    game.ok(1, type="pay", to=2, amount=5)
    for browser in screens:
        browser.pushed()
    assert caches.told - told == first + 1


@pytest.mark.storage  # PostgreSQL's read also locks the row, and its commit relays the change
def test_the_api_reads_the_game_the_seat_and_the_nonce_in_one_query(app, game, database):
    """An action costs one read (game, token and nonce together), the snapshot's update and the
    event's insert; on PostgreSQL the game's row is locked by a statement of its own before that
    read (tests/web/test_auctions.py says why), and a pg_notify tells the other processes."""
    statements = []

    def record(conn, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        from sqlalchemy import event
        event.listen(db.engine, "before_cursor_execute", record)
        try:
            response = game.client.post(f"/api/games/{game.code}/actions", headers=bearer(game.seats[1]),
                                        json={"type": "pay", "to": 2, "amount": 5, "nonce": "x1"})
        finally:
            event.remove(db.engine, "before_cursor_execute", record)
    assert response.status_code == 200
    lock, relay = (["lock"], ["pg_notify"]) if database.postgres else ([], [])
    kinds = ["pg_notify" if "pg_notify" in s else "lock" if "FOR UPDATE" in s and "games.version" not in s
             else s.split()[0] for s in statements]
    assert [k for k in kinds if k not in ("BEGIN", "COMMIT", "ROLLBACK")] == [*lock, "SELECT", "UPDATE", "INSERT",
                                                                             *relay]


@pytest.mark.parametrize("seed", range(3))
def test_a_part_is_skipped_only_when_its_html_would_be_the_same(app, client, seed):
    """A random evening (the undo tests' table): after every step, each part that names its
    dependencies is rendered anyway; whenever they are what they were, so is its HTML."""
    game = new_game(client, players=3)
    rng = random.Random(seed)
    shown, same, changed = {}, 0, 0
    with app.test_request_context():
        g.live_marks = True  # the nonces and the CSRF token marked, as the renderer renders
        for _ in range(70):
            who, action = next_move(game.state(), rng)
            game.act(who, **action)
            db.session.remove()
            row = store.known(store.find_game(game.code))
            for screen in (TableScreen(row, True), TableScreen(row, False), *(PhoneScreen(row, p) for p in (1, 2, 3))):
                for part in screen.PARTS:
                    depends = screen.depends(part)
                    html = squeeze(render_template(screen.PARTS[part].template, oob=True, **screen.context([part])))
                    html = _without_nested(screen, part, html)
                    seen = (screen.AREA, getattr(screen, "banker", None), getattr(screen, "player", None), part)
                    if seen in shown and depends is not None and shown[seen][0] == depends:
                        assert shown[seen][1] == html, (part, action)
                        same += 1
                    elif seen in shown:
                        changed += 1
                    shown[seen] = (depends, html)
    assert same > 100 and changed > 10


def _without_nested(screen, part: str, html: str) -> str:
    """A part's HTML without the parts shown inside it, which are tracked on their own."""
    for name, around in screen.NESTED.items():
        if around == part:
            inner = squeeze(render_template(screen.PARTS[name].template, oob=False, **screen.context([name])))
            assert inner in html
            html = html.replace(inner, "")
    return html


def _tracked_parts(game_code: str) -> dict:
    """Every part that names its dependencies, on every screen: {(screen, part): (dependencies, HTML)}."""
    db.session.remove()
    row = store.known(store.find_game(game_code))
    seats = [p.id for p in row.state.players]
    found = {}
    for screen in (TableScreen(row, True), TableScreen(row, False), *(PhoneScreen(row, p) for p in seats)):
        for part in screen.PARTS:
            html = squeeze(render_template(screen.PARTS[part].template, oob=True, **screen.context([part])))
            found[(screen.AREA, getattr(screen, "player", None), part)] = (screen.depends(part),
                                                                         _without_nested(screen, part, html))
    return found


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_action_changes_a_tracked_part_only_with_its_dependencies(app, client, name):
    """Each kind of action (the scenarios): a part whose dependencies it left alone looks the same."""
    game = ready(client, name)
    with app.test_request_context():
        g.live_marks = True
        before = _tracked_parts(game.code)
        game.ok("banker", **SCENARIOS[name].by_banker())
        after = _tracked_parts(game.code)
    for part, (depends, html) in after.items():
        if part in before and depends is not None and before[part][0] == depends:
            assert before[part][1] == html, part


def test_renders_never_wait_for_an_answer_that_is_over(app, game, phone, stranger):
    """Renders give way while a form or an action is answered; one refused early (CSRF), one that
    failed and one that went through all end their turn."""
    gate = app.extensions["banker.post_gate"]
    ann = phone(game, 1)
    assert ann.post({"type": "roll", "dice": [1, 2]}, htmx=True).status_code == 200
    assert ann.post({"type": "end_turn"}, csrf=False).status_code == 400
    assert stranger(game).post({"type": "undo"}, path=f"/t/{game.code}/act").status_code == 403
    assert game.act(1, type="pay", to=1, amount=5).status_code == 409
    assert gate.answering == 0


def test_a_page_joining_as_the_server_stops_is_let_go_at_once(app, game):
    """A page whose live connection joined its game's renderer just before Ctrl+C, and so was never
    rendered for, is closed and let go at once: its connection does not sit out its wait for a
    first screen (waitress, stopping, waits 5 s for such a thread and then warns that it is still
    running: the flaky Ctrl+C test of test_cli.py)."""
    from banker.live.renderer import Watcher
    from banker.live.stream import FIRST_RENDER_SECONDS

    app.extensions["banker.notifier"].close()  # Ctrl+C (cli._stop), before the renderer's first look
    watcher = Watcher(Kind(TableScreen, (True, None)), -1, "http://localhost/", "en")
    app.extensions["banker.renderers"].join(game.code, watcher)
    assert watcher.ready.wait(FIRST_RENDER_SECONDS) and watcher.closed
