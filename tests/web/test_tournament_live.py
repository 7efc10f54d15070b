"""The tournament's screens live (web/pages/tournament_live.py), their work counted, never timed: a
table's change costs the statements a game alone's does and is published once, as a game's (the
round clock's keeper and the notifier's other listeners hear nothing of it); it reaches the
organiser's screen without a read of the database when it changes a table's turn or leader,
rendered once and with no QR drawn, and writes nothing when it does not; the event TV and a phone
between rounds, whose parts depend on the tournament alone, hear nothing of a table's change; a
tournament change reaches every screen once."""

import re
import threading
import time

from flask import template_rendered

from banker import qr
from banker.live.notifier import LocalNotifier
from banker.web.pages import tournament_live

from .games import new_game
from .test_live import Listener
from .test_live_work import _elements, apply, comparable
from .test_tournament_pages import post

class Screen:
    """A tournament page as Listener opens its live connection: its client and its address."""

    def __init__(self, client, home: str):
        self.client, self.home = client, home



def test_a_tables_change_costs_a_games_and_reaches_the_organiser_alone_when_it_shows(
        app, statements, host, monkeypatch):
    alone = new_game(app.test_client(), players=4, rules={"preset": "official"})
    paid_alone = _payment(host(alone).client, alone.code, statements)
    organiser = app.test_client()
    made = post(organiser, "/events", "/events/new", name="Live night", rounds="2", round_minutes="60",
                table_size="4", scoring="net_worth", final="0", preset="official", edition="us")
    code = made.headers["Location"].rsplit("/", 1)[1]
    api = app.test_client()
    phone = app.test_client()
    assert post(phone, f"/e/{code}/register", f"/e/{code}/register", name="Ann").status_code == 303
    for name in ("Bob", "Cy", "Di"):
        assert api.post(f"/api/events/{code}/players", json={"name": name}).status_code == 201
    tv = organiser.post(f"/e/{code}/tv", data={"csrf_token": _token(organiser, f"/e/{code}")}).headers["Location"]
    for kind in ("seat_round", "start_round"):
        assert post(organiser, f"/e/{code}", f"/e/{code}", type=kind).status_code == 303
    state = api.get(f"/api/events/{code}").json
    page = organiser.get(f"/e/{code}").get_data(as_text=True)
    version, shown = _version(page), {"event": _part(page, "event")}
    game = state["rounds"][0]["tables"][0]["game"]
    screens = [Listener(Screen(organiser, f"/e/{code}"), version), Listener(Screen(organiser, tv), version)]
    published, rendered, drawn = [], [], []
    app.extensions["banker.notifier"].listeners.append(lambda code, version: published.append(code))
    svg = qr.svg
    monkeypatch.setattr(qr, "svg", lambda data: drawn.append(data) or svg(data))
    try:
        for screen in screens:
            screen.idle()
        readers = {screen._thread.name for screen in screens}
        with template_rendered.connected_to(lambda sender, template, **extra: rendered.append(template.name), app):
            # The organiser (each table's banker) pays the second seat: the table's leader changes.
            paid = _payment(organiser, game, statements)
            update = screens[0].next_event()
        # As a game alone's: the same statements, one publication (the round clock's keeper reads nothing).
        assert len(paid) == len(paid_alone), (paid, paid_alone)
        assert published == [game], published
        assert not [s for thread, s in statements if thread == "banker-round-clock"], statements
        # The organiser's screen reads nothing and is written the table's line alone, drawn once.
        assert not [s for thread, s in statements if thread in readers], statements
        assert update.name == "update" and update.id == str(version)
        assert 'id="glance-1"' in update.data and 'id="event"' not in update.data
        assert [name for name in rendered if name.startswith("tournament/")] == ["tournament/_glance.html"]
        assert not drawn  # no QR: registration is over
        apply(shown, update.data)
        drawn_now = _part(organiser.get(f"/e/{code}").get_data(as_text=True), "event")
        assert comparable(shown["event"]) == comparable(drawn_now)
        # Another payment to the leader changes neither whose turn it is nor who leads: nothing is written.
        assert _host_post(organiser, game, type="bank_pay", player="2", amount="5")
        added = api.post(f"/api/events/{code}/actions", json={"type": "add_player", "name": "Ed"},
                         headers={"Authorization": "Bearer nobody"})
        assert added.status_code == 401
        assert post(organiser, f"/e/{code}", f"/e/{code}", type="add_player", name="Ed").status_code == 303
        heard = [screen.next_event() for screen in screens]  # after the pings: the tournament's change
        assert [(e.name, e.id) for e in heard] == [("update", str(version + 1))] * 2
        assert "Withdraw Ed" in heard[0].data and 'id="event-tv"' in heard[1].data
        # A page drawn before that change connects: it is written the part at once.
        screens.append(Listener(Screen(organiser, tv), version))
        first = screens[-1].next_event()
        assert (first.name, first.id) == ("update", str(version + 1))
    finally:
        for screen in screens:
            screen.close(app)


def _token(client, url: str) -> str:
    return re.search(r'"X-CSRFToken": "([^"]+)"', client.get(url).get_data(as_text=True)).group(1)


def _version(page: str) -> int:
    return int(re.search(r'sse-connect="[^"?]*\?v=(\d+)"', page).group(1))


def _part(page: str, part: str) -> str:
    """The element of id `part` in a page's HTML."""
    return _elements(page[page.index(f'<div id="{part}"'):])[0]


def _payment(client, game: str, statements) -> list[str]:
    """The statements that the host screen's payment of 500 to the second seat sends from the
    thread answering it."""
    token = _token(client, f"/t/{game}")
    statements.clear()
    answer = client.post(f"/t/{game}/act",
                         data={"csrf_token": token, "type": "bank_pay", "player": "2", "amount": "500"})
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)
    return [s for thread, s in statements if thread == threading.current_thread().name]


def _host_post(client, game: str, **fields) -> bool:
    answer = client.post(f"/t/{game}/act", data={"csrf_token": _token(client, f"/t/{game}"), **fields})
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)
    return True


def test_a_tournament_screen_holds_a_live_slot_until_it_closes(app):
    """The event TV's live connections take the live slots a game's TV does (LIVE_PER_HOST of them):
    one more is told to retry later, and a closed one gives its slot back."""
    organiser = app.test_client()
    made = post(organiser, "/events", "/events/new", name="Slots night", rounds="1", round_minutes="60",
                table_size="4", scoring="net_worth", final="0", preset="official", edition="us")
    code = made.headers["Location"].rsplit("/", 1)[1]
    tv = organiser.post(f"/e/{code}/tv", data={"csrf_token": _token(organiser, f"/e/{code}")}).headers["Location"]
    screens = [app.test_client().get(f"{tv}/live", buffered=False) for _ in range(app.config["LIVE_PER_HOST"])]
    try:
        assert [s.status_code for s in screens] == [200] * app.config["LIVE_PER_HOST"]
        one_more = app.test_client().get(f"{tv}/live", buffered=False)
        assert (one_more.status_code, one_more.headers.get("Retry-After")) == (503, "5")
        one_more.close()
        screens.pop().close()
        screens.append(app.test_client().get(f"{tv}/live", buffered=False))
        assert screens[-1].status_code == 200
    finally:
        for screen in reversed(screens):  # as test_live_slots.py says: the newest stream first
            screen.close()


class CountedNotifier(LocalNotifier):
    """The one-process notifier, its nudges noted as they are made."""

    def __init__(self):
        super().__init__()
        self.nudged: list[str] = []

    def nudge(self, code: str) -> None:
        self.nudged.append(code)
        super().nudge(code)


def test_ten_tables_changes_within_a_second_nudge_their_tournaments_screens_twice(monkeypatch):
    """The first table's change at once, the nine that follow within TABLES_SETTLE together as it
    ends; each table's newest version is kept for the screens to read."""
    monkeypatch.setattr(tournament_live, "TABLES_SETTLE", 0.5)  # the eleven publications take microseconds
    changes = CountedNotifier()
    tables = tournament_live.Tables(changes)
    tables.watch("EVENT", [f"GAME{n}" for n in range(10)])
    for n in range(10):
        changes.publish(f"GAME{n}", 5 + n)
    changes.publish("OTHER", 3)  # a game of no tournament
    assert changes.nudged == ["event:EVENT"]
    deadline = time.monotonic() + 10
    while len(changes.nudged) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert changes.nudged == ["event:EVENT"] * 2
    assert tables.heard_at == {f"GAME{n}": 5 + n for n in range(10)}
