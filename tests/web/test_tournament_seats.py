"""A tournament table's seats are the tournament's (a play-test's finding): once a round is seated
nobody else joins its tables, by the API, the join page or a QR the lobby no longer shows; nobody
rolls for the order; the round starts every table, again after its start is undone; and a table left
out of the round is not silent: the organiser's screen says why, and the log warns."""

import logging
import re

from banker import store
from banker.rules import Actor, apply, new_game, parse
from banker.rules.tournament import Table
from banker.store import tournaments

from .test_no_english import english_on, read


def csrf(page: str) -> str:
    return re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)


def post(client, url: str, page_url: str, **fields):
    return client.post(url, data={"csrf_token": csrf(client.get(page_url).get_data(as_text=True)), **fields})


def test_nobody_joins_a_seated_table_and_the_round_starts_every_table(app, caplog):
    organiser = app.test_client()
    made = post(organiser, "/events", "/events/new", name="Club night", rounds="2", round_minutes="60",
                table_size="4", scoring="placings", final="0", preset="jma", edition="us")
    event = made.headers["Location"]
    code = event.rsplit("/", 1)[1]
    ann = app.test_client()  # registers by the event's QR: her browser becomes her table's phone
    assert post(ann, f"/e/{code}/register", f"/e/{code}/register", name="Ann").status_code == 303
    for name in ("Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"):
        assert app.test_client().post(f"/api/events/{code}/players", json={"name": name}).status_code == 201
    assert post(organiser, event, event, type="seat_round").status_code == 303
    with app.app_context():
        tables = tournaments.load(tournaments.find_tournament(code)).round.tables
    games = [t.game for t in tables]
    first = games[0]

    def game(code: str):
        """A table's game as last committed: its version and state."""
        with app.app_context():
            found = store.find_game(code)
            return found.version, store.load_state(found)

    # A stranger's join is refused with a code and a message, and changes nothing.
    version, before = game(first)
    stranger = app.test_client()
    answer = stranger.post(f"/api/games/{first}/players", json={"name": "Stranger", "token": "ship"})
    assert answer.status_code == 409
    assert answer.json["error"] == {"code": "seats_fixed", "message": "This table's seats are set: nobody else can join."}
    # The join page says why and offers no form; a form sent anyway takes no seat.
    page = stranger.get(f"/j/{first}").get_data(as_text=True)
    assert "ask the organiser to seat you in the next round" in page and "join-form" not in page
    sent = stranger.post(f"/j/{first}", data={"csrf_token": csrf(page), "name": "Stranger", "token": "ship"})
    assert sent.status_code == 422 and "join-form" not in sent.get_data(as_text=True)
    assert game(first) == (version, before) and len(before.players) == 4
    # No lobby offers joining: no join QR on the host screen (anyone's, or the organiser's, who may
    # only start it in the seats' order), and no opening roll on a phone.
    for host in (stranger.get(f"/t/{first}"), organiser.get(f"/t/{first}")):
        html = host.get_data(as_text=True)
        assert 'data-qr="join"' not in html and "Scan to join" not in html and "The seats are set" in html
    banker = organiser.get(f"/t/{first}").get_data(as_text=True)
    assert "Start in this order" in banker and 'name="pos-' not in banker and "without a phone" not in banker
    key = post(organiser, f"/t/{first}/tv", f"/t/{first}").headers["Location"].rsplit("/", 1)[1]
    tv = stranger.get(f"/tv/{first}/{key}").get_data(as_text=True)
    assert 'id="tv-lobby"' in tv and 'data-qr="join"' not in tv
    phone = ann.get(ann.get(f"/e/{code}/me").headers["Location"]).get_data(as_text=True)
    assert "Send my roll" not in phone and "Waiting for the banker to start" in phone

    # The round starts every table; undone, every table is back in its lobby; started again, every table.
    for step, expected in (("start_round", "playing"), ("undo", "lobby"), ("start_round", "playing")):
        assert post(organiser, event, event, type=step).status_code == 303
        assert [game(code)[1].status for code in games] == [expected] * len(games), step

    # A table's banker undoes its start: it is out of the round, and the organiser's screen says so;
    # the last turn it then refuses is a warning in the log.
    with app.app_context():
        store.act(first, {"type": "undo"}, actor=Actor(banker=True))
    assert "Did not start:</strong> Start it from its host screen." in organiser.get(event).get_data(as_text=True)
    for browser, path in ((organiser, event), (organiser, f"/t/{first}"), (stranger, f"/j/{first}")):
        assert english_on(read(browser, path, "fr"), "fr") == [], path
    organiser.set_cookie("lang", "en")
    with caplog.at_level(logging.INFO, logger="banker.store.tables"):
        assert post(organiser, event, event, type="last_turn").status_code == 303
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warned == [f"table 1 of {first} did not take {{'type': 'last_turn'}}: not_started"]


def test_the_organisers_screen_is_told_why_a_table_would_refuse_the_start():
    """A table that let a stranger in before its seats could be fixed (a game made before they
    were): the start in the seating's order names too few players. A query: the game is unchanged."""
    lobby = new_game()
    for name, token in (("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"), ("Stranger", "ship")):
        lobby, _ = apply(lobby, parse({"type": "join", "name": name, "token": token}), Actor())
    refused = tournaments.start_refusal(Table(number=1, seats=[4, 2, 7]), lobby)
    assert refused.code == "bad_order" and lobby.status == "lobby"
    assert tournaments.start_refusal(Table(number=1, seats=[4, 2, 7, 9]), lobby) is None
