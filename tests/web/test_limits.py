"""Rate limits: one address cannot create games, take seats or try codes without end; another
address is not held back by it, nor is the address itself in the games it holds something in; and
every refusal says when to try again (Retry-After)."""

import re

import pytest
from sqlalchemy import event

from banker.models import db

from ..apps import close, make_app
from .conftest import badged
from .games import bearer, csrf_token, new_game
from .test_archive import exported, imported
from .test_tv import tv_link

ELSEWHERE = {"REMOTE_ADDR": "10.0.0.9"}


@pytest.fixture
def limited(database):
    app = make_app(database, RATELIMIT_ENABLED=True)
    yield app
    close(app)


def told_when(answer, most: int = 60) -> bool:
    """Refused for now, saying in how many seconds to try again (within the limit's window)."""
    return answer.status_code == 429 and 0 < int(answer.headers["Retry-After"]) <= most


def told(answer) -> str:
    """What a page says, but for what differs from one request to another: its script nonces, its
    CSRF token (signed with the time), and its own address (in the language links)."""
    html = re.sub(r'nonce="[^"]+"|"X-CSRFToken": "[^"]+"', "", answer.get_data(as_text=True))
    return html.replace(answer.request.path, "")


def over_the_unknown_code_limit(client) -> None:
    """Thirty unknown codes from this address: its minute's allowance."""
    tried = [client.get(f"/j/ZZZZ{n % 8 + 2}") for n in range(30)]
    assert {answer.status_code for answer in tried} == {404}


def test_creating_games_is_limited_per_address(limited):
    client = limited.test_client()
    answers = [client.post("/api/games", json={}) for _ in range(11)]
    assert [a.status_code for a in answers] == [201] * 10 + [429]
    assert answers[-1].get_json() == {"error": {"code": "too_many_requests",
                                                "message": "Too many requests from this address; wait a minute and try again."}}
    assert told_when(answers[-1])
    assert client.post("/api/games", json={}, environ_base=ELSEWHERE).status_code == 201


def test_the_home_form_is_limited_with_a_message_on_the_page(limited):
    client = limited.test_client()
    csrf = csrf_token(client, "/")
    answers = [client.post("/games", data={"csrf_token": csrf}) for _ in range(11)]
    assert [a.status_code for a in answers] == [303] * 10 + [429]
    assert "Too many tries from this device; wait a minute and try again." in answers[-1].get_data(as_text=True)
    assert told_when(answers[-1])


def test_the_api_and_the_home_page_share_one_limit_on_creating_and_importing_games(limited):
    client = limited.test_client()
    archive = exported(new_game(client, players=0, start=False))
    csrf = csrf_token(client, "/")
    answers = [client.post("/games", data={"csrf_token": csrf}) for _ in range(4)]
    answers += [imported(client, archive) for _ in range(3)]
    answers += [client.post("/api/games", json={}) for _ in range(2)]
    assert [a.status_code for a in answers] == [303] * 4 + [201] * 5  # ten games with the first
    assert told_when(client.post("/games", data={"csrf_token": csrf}))
    assert told_when(imported(client, archive))
    assert told_when(client.post("/api/games", json={}))


def test_joining_is_limited_per_address_across_the_join_page_and_the_api(limited):
    client = limited.test_client()
    code = client.post("/api/games", json={}).get_json()["code"]
    answers = [client.post(f"/api/games/{code}/players", json={"name": f"P{n}", "token": "hat"}) for n in range(120)]
    assert answers[0].status_code == 201 and answers[119].status_code == 409  # the hat is taken
    form = {"csrf_token": csrf_token(client, f"/j/{code}"), "name": "Late", "token": "car"}
    assert told_when(client.post(f"/j/{code}", data=form))  # the page's count is the API's
    assert told_when(client.post(f"/api/games/{code}/players", json={"name": "Later", "token": "dog"}))


def test_trying_unknown_codes_is_limited_and_then_no_code_answers(limited):
    client = limited.test_client()
    code = client.post("/api/games", json={}).get_json()["code"]
    assert client.get(f"/j/{code}").status_code == 200  # a known code costs nothing
    tried = [client.get(path) for path in ["/j/ZZZZ2", "/t/ZZZZ3", "/join?code=ZZZZ4", "/api/games/ZZZZ5",
                                           f"/j/{code}/r/not-a-code", f"/tv/{code}/not-a-view-key"] * 5]
    assert {a.status_code for a in tried} == {404}
    assert told_when(client.get(f"/j/{code}"))  # 30 misses: no more tries this minute
    assert told_when(client.get("/j/ZZZZ6"))
    assert client.get(f"/j/{code}", environ_base=ELSEWHERE).status_code == 200


def test_an_address_over_the_unknown_code_limit_still_reaches_its_own_games_and_no_other(limited):
    client = limited.test_client()
    game, other = new_game(client), new_game(client)
    tv = tv_link(game)
    banker, ann = badged(limited, game, "banker"), badged(limited, game, "seat", 1)
    over_the_unknown_code_limit(client)
    # What it holds: the banker's tools, Ann's seat (its page and live connection), a token, the TV key.
    assert banker.get(f"/t/{game.code}").status_code == 200
    assert banker.get(f"/t/{game.code}/seats/2").status_code == 200
    assert ann.get(f"/p/{game.code}").status_code == 200
    follow = ann.get(f"/p/{game.code}/live", buffered=False)
    assert follow.status_code == 200
    follow.close()
    assert client.get(f"/api/games/{game.code}", headers=bearer(game.seats[2])).status_code == 200
    assert limited.test_client().get(tv).status_code == 200
    # Anything else, real or not, alike: another game, this one without a badge, a wrong token or key.
    for answer in (banker.get(f"/t/{other.code}"), ann.get(f"/p/{other.code}"), banker.get("/j/ZZZZ2"),
                   limited.test_client().get(f"/t/{game.code}"), limited.test_client().get(f"/j/{game.code}"),
                   client.get(f"/api/games/{game.code}", headers=bearer("made-up")),
                   client.get(f"/api/games/{other.code}", headers=bearer(game.banker)),
                   client.get(f"/tv/{game.code}/WRONGKEY"), client.get(f"/tv/{other.code}/{tv.rsplit('/', 1)[1]}")):
        assert told_when(answer), answer.request.path


def test_holding_a_badge_is_looked_up_only_for_an_address_over_the_unknown_code_limit(limited):
    client = limited.test_client()
    game = new_game(client)
    banker = badged(limited, game, "banker")
    with limited.app_context():
        engine = db.engine
    queries = []

    def count(*_statement):
        queries.append(1)

    event.listen(engine, "before_cursor_execute", count)

    def asked() -> int:
        queries.clear()
        assert banker.get(f"/t/{game.code}").status_code == 200
        return len(queries)

    try:
        asked()
        under = asked()
        over_the_unknown_code_limit(client)
        assert asked() == under + 1  # the banker's badge, found at once
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_a_wrong_tv_key_on_the_live_route_ends_the_tv_page_and_counts_as_an_unknown_code(limited):
    """The TV's live connection with a wrong key, or for a game not here, is answered with the event
    that tells the TV its link no longer works and drops its live connection: a 404 would have it
    try again for as long as it is open. The same answer for a real game's wrong key as for a code
    that is not one, and each counts as an unknown code, as the page's 404 does."""
    client = limited.test_client()
    game = new_game(client)
    right = tv_link(game)
    wrong = [client.get(f"/tv/{game.code}/WRONGKEY/live") for _ in range(14)]
    wrong += [client.get(f"/tv/ZZZZ{n % 8 + 2}/WRONGKEY/live") for n in range(14)]
    assert {answer.status_code for answer in wrong} == {200}
    assert {answer.mimetype for answer in wrong} == {"text/event-stream"}
    assert len({answer.get_data(as_text=True) for answer in wrong}) == 1
    ended = wrong[0].get_data(as_text=True)
    assert "event: update" in ended and "This TV link no longer works" in ended
    assert '<div id="live" hidden hx-swap-oob="true"></div>' in ended  # no sse-connect: the page stops
    page = client.get("/tv/ZZZZ2/WRONGKEY")
    assert page.status_code == 404 and "This TV link does not work" in page.get_data(as_text=True)
    follow = client.get(f"{right}/live", buffered=False)
    assert follow.status_code == 200  # the right key: not a miss
    follow.close()
    assert client.get(f"/tv/{game.code}/WRONGKEY/live").status_code == 200  # the thirtieth miss
    assert told_when(client.get(f"/tv/{game.code}/WRONGKEY/live"))


@pytest.mark.parametrize("screen", ["t", "p"])
def test_a_page_of_a_game_no_longer_here_is_told_so_once_and_stops_following(limited, screen):
    """A host or phone page left open on a game the server no longer has (deleted, or the server
    started afresh) is answered, on its live connection, with an event that says so in the banner at
    its foot and drops the connection (#live without sse-connect), not a 404 its browser would try
    again once a minute all evening, each try against its address's limit on unknown codes (a club
    shares one address). Each such answer still counts as an unknown code: a guess learns nothing."""
    client = limited.test_client()
    answers = [client.get(f"/{screen}/ZZZZ{n % 8 + 2}/live") for n in range(30)]
    assert {answer.status_code for answer in answers} == {200}
    ended = answers[0].get_data(as_text=True)
    assert ended.startswith("retry: ") and "event: update" in ended
    assert "This game is no longer on the banker’s laptop" in ended and 'id="reconnecting"' in ended
    assert '<div id="live" hidden hx-swap-oob="true"></div>' in ended and "sse-connect" not in ended
    assert told_when(client.get(f"/{screen}/ZZZZ2/live"))  # thirty: the address's allowance this minute
