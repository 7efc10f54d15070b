"""A game code in an address is checked before anything else: a code that could not be a game's (a
NUL byte, junk, too long, a letter the codes leave out) is a 404 on every route that names a game,
for any method, and no query is ever sent for it."""

import pytest
from sqlalchemy import event

from banker import store
from banker.models import db
from banker.web import GameCode

from .games import csrf_token

# Each as it appears in the address (percent-encoded where a browser would).
MALFORMED = [
    "%00", "AB%00C", "ABCD%00", "ABCDE%00", "%00ABCDE",  # a NUL byte anywhere
    "ABCDEF", "ABCDEFGHJK" * 10, "ABCD", "A",  # too long, too short
    "ABCDI", "ABCDO", "ABCD0", "ABCD1", "abcdi", "oooo2",  # letters and digits the codes leave out
    "AB-CD", "AB%20CD", "%27%3B--", "AB%0ACD", "ABC%2FD",  # punctuation, space, newline, a slash
    "%E2%84%AABCDE",  # the Kelvin sign, which matches K when case is ignored
    "%C5%BFABCD",  # the long s, which matches S when case is ignored
    "%EF%BC%A1BCDE",  # a full-width A
]
PLACEHOLDER = "QQQQQ"  # a well-formed code, replaced by each malformed one


def code_routes(app):
    """Every route whose address names a game, with an address for it built around PLACEHOLDER."""
    routes = []
    for rule in app.url_map.iter_rules():
        if "code" not in rule.arguments:
            continue
        values = {name: 1 if name in ("player", "partner") else "abcdefghijklmnopqrstuv"
                  for name in rule.arguments}
        path = rule.build({**values, "code": PLACEHOLDER}, append_unknown=False)[1]
        routes.append((rule, path))
    return routes


@pytest.fixture
def queries(app):
    """The SQL statements the app sends while the test runs."""
    sent = []
    with app.app_context():
        engine = db.engine

    def listener(_connection, _cursor, statement, *_):
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", listener)
    yield sent
    event.remove(engine, "before_cursor_execute", listener)


def test_every_route_naming_a_game_reads_its_code_with_the_code_converter(app):
    routes = code_routes(app)
    assert len(routes) >= 20  # the host, phone, join and API routes of today, and any added since
    for rule, _ in routes:
        assert isinstance(rule._converters["code"], GameCode), rule.rule


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_malformed_code_is_a_404_on_every_route_before_any_query(app, client, queries, method):
    answers = {}
    for rule, path in code_routes(app):
        for bad in MALFORMED:
            answers[(rule.rule, bad)] = client.open(path.replace(PLACEHOLDER, bad), method=method).status_code
    assert {where: status for where, status in answers.items() if status != 404} == {}
    assert queries == []


def test_the_api_says_no_such_game_in_its_json_shape(client, game):
    for path in ["/api/games/%00", f"/api/games/{game.code}%00/events", "/api/games/ABCDI/actions"]:
        for method in ("GET", "POST"):
            response = client.open(path, method=method, json={"type": "roll", "dice": [1, 2]},
                                   headers={"Authorization": f"Bearer {game.banker}"})
            assert response.status_code == 404
            assert response.get_json() == {"error": {"code": "not_found", "message": "No such game or page."}}


def test_a_malformed_code_on_a_page_gets_the_404_page(client):
    for path in ["/t/%00", "/p/%00/live", "/j/ABCDEF"]:
        response = client.get(path)
        assert response.status_code == 404
        assert "No such game or page. Check the code." in response.get_data(as_text=True)


def test_a_code_typed_in_lower_case_still_opens_its_game(client, game, host):
    lower = game.code.lower()
    assert client.get(f"/j/{lower}").status_code == 200
    assert client.get(f"/api/games/{lower}", headers={"Authorization": f"Bearer {game.banker}"}).status_code == 200
    page = host(game).client.get(f"/t/{lower}")
    assert page.status_code == 200 and game.code in page.get_data(as_text=True)


def test_the_join_box_says_there_is_no_such_game_for_junk(client, game):
    for typed in ["%00", "ABC%00D", "abcdi", "ABCDEF", "%E2%84%AABCDE", "  "]:
        response = client.get(f"/join?code={typed}")
        assert response.status_code == 404, typed
        assert "Check it on the host screen." in response.get_data(as_text=True)
    response = client.get(f"/join?code={game.code.lower()}")
    assert response.status_code == 302 and response.headers["Location"] == f"/j/{game.code}"


def test_find_game_answers_none_for_a_code_that_could_not_be_a_games(app, game, queries):
    with app.app_context():
        for code in ["\x00", "AB\x00CD", "", "ABCDEF", "ABCDI", "\u212aBCDE", "ABC\nD"]:
            assert store.find_game(code) is None
        assert queries == []
        assert store.find_game(game.code.lower()).code == game.code


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_junk_rejoin_code_is_a_404(app, client, game, method):
    for rejoin in ["%00", "abc%00def", "x" * 65, "abc.def", "%E2%84%AA", "abc%20def"]:
        response = client.open(f"/j/{game.code}/r/{rejoin}", method=method)
        assert response.status_code == 404, rejoin
    # A well-formed rejoin code that was never given keeps its own message (a tap with it is
    # redirected to the code's page, which says so).
    form = {"csrf_token": csrf_token(client, f"/j/{game.code}")} if method == "POST" else None
    response = client.open(f"/j/{game.code}/r/never-given-0123456789", method=method, data=form,
                           follow_redirects=True)
    assert response.status_code == 404 and response.request.method == "GET"
    assert "This rejoin code is no longer valid" in response.get_data(as_text=True)
