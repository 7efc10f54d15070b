"""A tournament's pages through the test client: "Run a tournament", the organiser's screen and its
buttons, registration by the event's QR and the phone that becomes the table's, the event TV by
its view key, and the results as a page, CSV and JSON. Refusals say why and change nothing."""

import re

from banker.store import tournaments


def csrf(page: str) -> str:
    return re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)


def post(client, url: str, page_url: str, **fields):
    token = csrf(client.get(page_url).get_data(as_text=True))
    return client.post(url, data={"csrf_token": token, **fields})


def test_an_evening_through_the_pages(app):
    organiser = app.test_client()
    home = organiser.get("/").get_data(as_text=True)
    assert 'href="/events/new"' in home
    refused = post(organiser, "/events", "/events/new", name="", rounds="2", round_minutes="60", table_size="4",
                   scoring="placings", final="0", preset="jma", edition="us")
    assert refused.status_code == 422 and "Name the event" in refused.get_data(as_text=True)
    made = post(organiser, "/events", "/events/new", name="Club night", rounds="1", round_minutes="60",
                table_size="4", scoring="placings", final="0", preset="jma", edition="us")
    assert made.status_code == 303
    event = made.headers["Location"]
    code = event.rsplit("/", 1)[1]
    screen = organiser.get(event).get_data(as_text=True)
    assert "Register: scan this code" in screen and "<svg" in screen

    phones = []
    for name in ("Ann", "Bob", "Cy", "Di", "Ed"):
        phone = app.test_client()
        answer = post(phone, f"/e/{code}/register", f"/e/{code}/register", name=name)
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/e/{code}/me")
        assert f"registered as {name}" in phone.get(f"/e/{code}/me").get_data(as_text=True)
        phones.append(phone)
    taken = post(app.test_client(), f"/e/{code}/register", f"/e/{code}/register", name="ann")
    assert taken.status_code == 422 and "already registered" in taken.get_data(as_text=True)
    # A stranger's browser is no organiser.
    assert app.test_client().get(event).status_code == 302
    assert post(phones[0], event, f"/e/{code}/me", type="seat_round").status_code == 403

    shown = post(organiser, f"/e/{code}/tv", event)
    assert shown.status_code == 303
    tv = organiser.get(shown.headers["Location"]).get_data(as_text=True)
    assert "Register: scan this code" in tv and "5 players registered" in tv
    assert app.test_client().get(f"/e/{code}/tv/ABCDEFGH").status_code == 404

    assert post(organiser, event, event, type="seat_round").status_code == 303
    seated = organiser.get(event).get_data(as_text=True)
    assert "Table 1" in seated and "Host screen of table 1" in seated
    assert "Table 1" in app.test_client().get(shown.headers["Location"]).get_data(as_text=True)
    # Each phone becomes its table's phone, with no second join.
    with app.app_context():
        state = tournaments.load(tournaments.find_tournament(code))
    game = state.round.tables[0].game
    first = state.round.tables[0].seats[0]
    moved = phones[first - 1].get(f"/e/{code}/me")
    assert moved.status_code == 302 and moved.headers["Location"].endswith(f"/p/{game}")
    assert phones[first - 1].get(f"/p/{game}").status_code == 200

    # A player withdraws from the next rounds on their phone (their game goes on).
    ed = phones[4]
    ed_game = next(t.game for t in state.round.tables if 5 in t.seats)
    withdrawn = post(ed, f"/e/{code}/me", f"/e/{code}/me?stay={ed_game}")
    assert withdrawn.status_code == 303 and withdrawn.headers["Location"].endswith(f"/me?stay={ed_game}")
    assert "You have withdrawn" in ed.get(f"/e/{code}/me?stay={ed_game}").get_data(as_text=True)
    assert "Ed · withdrawn" in organiser.get(event).get_data(as_text=True)

    refused = post(organiser, event, event, type="seat_round")
    assert refused.status_code == 303
    assert "is not over yet" in organiser.get(event).get_data(as_text=True)
    assert post(organiser, event, event, type="start_round").status_code == 303
    host = organiser.get(f"/t/{game}").get_data(as_text=True)
    assert "End the game" in host  # the organiser's browser is each table's banker
    assert "Time left:" in host and "data-deadline" in host  # the round's clock, on the host and the phones
    assert "data-deadline" in phones[first - 1].get(f"/p/{game}").get_data(as_text=True)
    # Paused by the organiser, the round's clock is paused at every table too: host screen and phones.
    assert post(organiser, event, event, type="pause_clock").status_code == 303
    for screen in (organiser.get(f"/t/{game}"), phones[first - 1].get(f"/p/{game}")):
        html = screen.get_data(as_text=True)
        assert re.search(r"Clock paused: (60:00|59:\d\d) left", html) and "data-deadline" not in html
    assert post(organiser, event, event, type="resume_clock").status_code == 303
    assert "data-deadline" in organiser.get(f"/t/{game}").get_data(as_text=True)
    # The way back to the event from a table: a phone to its player's page, the organiser's host
    # screen to the organiser's, a table's own laptop to the standings.
    assert f'href="/e/{code}/me?stay={game}"' in phones[first - 1].get(f"/p/{game}").get_data(as_text=True)
    assert f'href="/e/{code}"' in organiser.get(f"/t/{game}").get_data(as_text=True)
    assert f'href="/e/{code}/results"' in app.test_client().get(f"/t/{game}").get_data(as_text=True)
    for table in state.round.tables:
        assert post(organiser, f"/t/{table.game}/act", f"/t/{table.game}", type="end_game").status_code in (200, 303)
    over = organiser.get(event).get_data(as_text=True)
    assert "The tournament is over" in over and "Correct the result" in over
    # The organiser corrects a player's points with a memo; a correction without a number says why.
    before = app.test_client().get(f"/e/{code}/results.json").json
    assert post(organiser, event, event, type="correct_result", round="1", table="1", player=str(first),
                points="x", memo="slip").status_code == 303
    assert "must be a whole number" in organiser.get(event).get_data(as_text=True)
    assert app.test_client().get(f"/e/{code}/results.json").json == before
    assert post(organiser, event, event, type="correct_result", round="1", table="1", player=str(first),
                points="9", memo="Scorer's slip").status_code == 303
    corrected = app.test_client().get(f"/e/{code}/results.json").json
    assert next(r["points"] for r in corrected["rounds"][0]["tables"][0]["results"] if r["player"] == first) == 9

    page = app.test_client().get(f"/e/{code}/results").get_data(as_text=True)
    assert "Every table" in page and "Ann" in page
    csv = app.test_client().get(f"/e/{code}/results.csv").get_data(as_text=True).splitlines()
    assert csv[0] == "Round,Table,Seat,Player,Net worth,Place,Points" and len(csv) == 6
    french = app.test_client().get(f"/e/{code}/results.csv", headers={"Accept-Language": "fr"})
    assert french.get_data(as_text=True).splitlines()[0] != csv[0]
    assert len(app.test_client().get(f"/e/{code}/results.json").json["rounds"][0]["tables"]) == 1

    # The four players still level on points, net worth and best place: a roll-off, the winner first.
    tied = [p for p in state.round.tables[0].seats if p != first]
    over = organiser.get(event).get_data(as_text=True)
    assert over.count('name="players"') == 4 and "Record the roll-off" in over
    assert post(organiser, event, event, type="roll_off", players=[str(tied[0])] * 4).status_code == 303
    assert "different players" in organiser.get(event).get_data(as_text=True)
    assert post(organiser, event, event, type="roll_off", players=[str(p) for p in reversed(tied)]).status_code == 303
    ranks = {s["player"]: s["rank"] for s in app.test_client().get(f"/e/{code}/results.json").json["standings"]}
    assert [ranks[p] for p in reversed(tied)] == [2, 3, 4, 5]
    assert "Record the roll-off" not in organiser.get(event).get_data(as_text=True)


def test_between_rounds_a_phone_shows_its_points_and_goes_on_to_the_next_table_by_itself(app):
    """The play-test's phone: at its table's end it is shown the way to its tournament page first
    (and takes it a moment later, data-go-on); that page shows its points and place and, told live
    that the next round is seated, its table and seat with the link it goes on by. The way back
    from a table stays away from that table only."""
    from .test_live import Listener
    from .test_tournament_live import Screen, _version

    organiser = app.test_client()
    made = post(organiser, "/events", "/events/new", name="Two rounds", rounds="2", round_minutes="60",
                table_size="4", scoring="placings", final="0", preset="official", edition="us")
    event = made.headers["Location"]
    code = event.rsplit("/", 1)[1]
    ann = app.test_client()
    assert post(ann, f"/e/{code}/register", f"/e/{code}/register", name="Ann").status_code == 303
    for name in ("Bob", "Cy", "Di"):
        assert app.test_client().post(f"/api/events/{code}/players", json={"name": name}).status_code == 201
    for kind in ("seat_round", "start_round"):
        assert post(organiser, event, event, type=kind).status_code == 303
    first = app.test_client().get(f"/api/events/{code}").json["rounds"][0]["tables"][0]["game"]
    playing = ann.get(f"/p/{first}").get_data(as_text=True)
    assert "data-go-on" not in playing and f'href="/e/{code}/me?stay={first}"' in playing
    staying = ann.get(f"/e/{code}/me?stay={first}").get_data(as_text=True)  # the way back while it plays
    assert "Play at table 1" in staying and "In a moment" not in staying and " points, place " not in staying

    assert post(organiser, f"/t/{first}/act", f"/t/{first}", type="end_game").status_code in (200, 303)
    ended = ann.get(f"/p/{first}").get_data(as_text=True)
    way_on = ended.index(f'data-go-on="not-back" href="/e/{code}/me"')
    assert "My tournament: points and next seating" in ended[way_on:way_on + 200]
    assert way_on < ended.index('<div class="standings">')  # at the top of the end screen, before the standings
    assert 'class="button primary" data-go-on="not-back"' in ended
    # Four level at $1,500: the end screen ranks them as the tournament does, sharing first place.
    assert len(re.findall(r'<tr data-player="\d+">\s*<td>1</td>', ended)) == 4
    screen = organiser.get(event).get_data(as_text=True)
    assert "$1,500" in screen and "1500" not in screen  # net worth in the event's money
    assert "Record the roll-off" not in screen  # a round is still to come: the standings are not final
    between = ann.get(f"/e/{code}/me")  # no longer sent back to the ended table
    page = between.get_data(as_text=True)
    assert between.status_code == 200 and "data-go-on" not in page
    assert "Ann: 1 points, place 1." in page  # four level at the table: places 1 to 4 shared, (4+2+1+0)//4
    assert f'href="/p/{first}/story"' in page and ann.get(f"/p/{first}/story").status_code == 200

    listener = Listener(Screen(ann, f"/e/{code}/me"), _version(page))
    try:
        listener.idle()
        assert post(organiser, event, event, type="seat_round").status_code == 303
        told = listener.next_event()
        second = app.test_client().get(f"/api/events/{code}").json["rounds"][1]["tables"][0]["game"]
        assert "Table 1, seat " in told.data and f'data-go-on href="/p/{second}"' in told.data
        assert "In a moment this phone becomes your phone at the table." in told.data
        assert "Ann: 1 points, place 1." in told.data
    finally:
        listener.close(app)
    # The way back from the first table no longer holds the phone: the new table is gone on to.
    moved = ann.get(f"/e/{code}/me?stay={first}")
    assert moved.status_code == 302 and moved.headers["Location"].endswith(f"/p/{second}")


def test_the_tv_sorts_names_as_readers_do_and_the_last_turn_leaves_no_clock_to_pause(app):
    organiser = app.test_client()
    made = post(organiser, "/events", "/events/new", name="Accents", rounds="1", round_minutes="60",
                table_size="4", scoring="net_worth", final="0", preset="official", edition="fr")
    event = made.headers["Location"]
    code = event.rsplit("/", 1)[1]
    for name in ("Kim", "Élodie", "bob", "Zoé"):
        assert app.test_client().post(f"/api/events/{code}/players", json={"name": name}).status_code == 201
    tv = post(organiser, f"/e/{code}/tv", event).headers["Location"]
    for kind in ("seat_round", "start_round"):
        assert post(organiser, event, event, type=kind).status_code == 303
    shown = organiser.get(tv).get_data(as_text=True)
    assert re.findall(r"<li><span class=\"name\">([^<]+)</span>", shown) == ["bob", "Élodie", "Kim", "Zoé"]
    assert "Pause the clock" in organiser.get(event).get_data(as_text=True)
    assert post(organiser, event, event, type="last_turn").status_code == 303
    called = organiser.get(event).get_data(as_text=True)
    assert "Last turn" in called and "Pause the clock" not in called and "Resume the clock" not in called
    game = app.test_client().get(f"/api/events/{code}").json["rounds"][0]["tables"][0]["game"]
    assert post(organiser, f"/t/{game}/act", f"/t/{game}", type="end_game").status_code in (200, 303)
    over = organiser.get(event).get_data(as_text=True)
    assert "€1,500" in over  # the board's money, worded for the reader (English here)
    assert "Record the roll-off" in over  # the standings are final: four level, a roll-off orders them


def test_the_event_tvs_lists_take_as_many_columns_as_fit_for_up_to_a_hundred_players():
    """Every line shows (no scrolling), in columns no wider than the screen, with the type as large
    as the rows allow; 50 players' seating alone is in type at least 3% of the screen's height."""
    from banker.web.pages.tournament_tv import TV_ROWS, tv_columns

    for kind in ("seating", "standings"):
        for half in (False, True):
            for count in range(1, 101):
                columns, rows = tv_columns(list(range(count)), kind, half)
                assert rows in TV_ROWS and sum(columns, []) == list(range(count))
                assert all(len(column) <= rows for column in columns) and len(columns) <= 6
    assert tv_columns(list(range(50)), "seating")[1] <= 17  # .tv-rows-17: 3.16vh, 34 px at 1080p
    assert tv_columns(list(range(8)), "seating") == ([list(range(8))], 8)  # one column, in the largest type
