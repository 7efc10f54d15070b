"""Every action through the JSON API and through the pages' forms, as htmx sends them and as plain forms."""

from html import unescape

import pytest
from sqlalchemy import event

from banker import store
from banker.models import db
from banker.web.answers import respond

from .games import SCENARIOS, messages, ready, seat

PHONE_OR_HOST = [
    pytest.param(name, screen, id=f"{name}-{screen}")
    for name, scenario in SCENARIOS.items()
    for screen in ("phone", "host")
    if screen == "host" or not scenario.banker_only
]
# A plain form (no JavaScript: the page is posted and redirected back) takes the same path as htmx's
# from the form's fields on: a few actions of each screen show it, htmx's run of every action the rest.
PLAIN_FORMS = ["roll-phone", "buy-phone", "bid-phone", "accept_trade-phone", "build-host", "end_game-host"]
FORMS = [pytest.param(*param.values, True, id=f"{param.id}-htmx") for param in PHONE_OR_HOST] + [
    pytest.param(*param.values, False, id=f"{param.id}-form") for param in PHONE_OR_HOST if param.id in PLAIN_FORMS]


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_action_applies_through_the_api(client, name):
    scenario = SCENARIOS[name]
    game = ready(client, name)
    version = game.state()["version"]
    if scenario.banker_only:
        body = game.ok("banker", state=True, **scenario.by_banker())
    else:
        body = game.ok(1, state=True, **scenario.action)
    assert body["version"] == version + 1
    assert body["repeated"] is False
    assert body["events"]
    assert scenario.done(body["state"])
    assert scenario.done(game.state())
    assert scenario.says in game.events()[-1]["text"]


def test_an_actions_answer_carries_the_state_only_when_asked(game):
    """The answer is small: its version, effects and whether it repeated; the state after it only
    with ?state=1."""
    body = game.ok(1, type="pay", to=2, amount=5)
    assert set(body) == {"version", "events", "repeated"} and body["events"][0]["kind"] == "transfer"
    body = game.ok(1, type="pay", to=2, amount=5, state=True)
    assert body["state"]["version"] == body["version"] and body["state"]["players"][0]["cash"] == 1490


@pytest.mark.parametrize("name, screen, htmx", FORMS)
def test_every_action_applies_through_the_forms(client, host, phone, name, screen, htmx):
    scenario = SCENARIOS[name]
    game = ready(client, name)
    browser = host(game) if screen == "host" else phone(game, 1)
    version = game.state()["version"]
    response = browser.post(scenario.by_banker() if screen == "host" else scenario.action, htmx=htmx)
    if htmx:
        assert response.status_code == 200
        body = response.get_data(as_text=True)
        assert scenario.says in unescape(body)
        # The message alone: the screen itself changes through its live connection, like the others.
        assert body.strip().startswith('<p class="message ok"') and body.count("<p") == 1
    else:
        assert response.status_code == 303
        assert response.headers["Location"] == browser.home
        page = browser.page()
        assert 'class="message ok"' in page
        assert scenario.says in messages(page)
        assert scenario.says not in messages(browser.page())  # flashed once
    assert scenario.done(game.state())
    assert game.state()["version"] == version + 1


def test_a_payment_form_to_the_bank_and_to_a_player_moves_the_cash(game, phone):
    ann = phone(game, 1)
    ann.post({"type": "pay", "to": "bank", "amount": "40", "memo": "Chance: speeding fine"})
    ann.post({"type": "pay", "to": "2", "amount": "60"})
    assert game.cash() == {1: 1400, 2: 1560}


REFUSALS = [
    pytest.param("phone", 2, {"type": "roll", "dice": [3, 4]}, "It is Ann's turn.", id="not-your-turn"),
    pytest.param("phone", 1, {"type": "buy"}, "Ann has no property to buy right now.", id="nothing-to-buy"),
    pytest.param("phone", 1, {"type": "pay", "to": 2, "amount": "abc"}, "The amount must be a whole number.",
                 id="amount-not-a-number"),
    pytest.param("phone", 1, {"type": "pay", "to": 1, "amount": 5}, "You cannot pay yourself.", id="pay-self"),
    pytest.param("phone", 1, {"type": "roll", "die1": 3}, "Tap the number on each die.", id="one-die"),
    pytest.param("host", None, {"type": "end_turn"}, "Ann has not rolled yet.", id="end-before-rolling"),
    pytest.param("host", None, {"type": "bank_pay", "player": 1, "amount": 0}, "The amount must be from $1 to $1,000,000.",
                 id="bank-pays-nothing"),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("screen, pid, action, says", REFUSALS)
def test_a_refused_form_says_why_and_changes_nothing(game, host, phone, screen, pid, action, says, htmx):
    browser = host(game) if screen == "host" else phone(game, pid)
    before = game.state()
    response = browser.post(action, htmx=htmx)
    if htmx:
        assert response.status_code == 422
        assert "HX-Trigger" not in response.headers
        body = response.get_data(as_text=True)
        assert 'class="message error"' in body
        assert says in unescape(body)
    else:
        assert response.status_code == 303
        assert response.headers["Location"] == browser.home
        page = browser.page()
        assert 'class="message error"' in page
        assert says in messages(page)
    assert game.state() == before


def test_a_refusal_is_worded_from_the_game_the_action_read(app, game, host):
    """A refused action is worded from the game its one read found (its players' names, its
    money), through the API and through a form: the games table is read no more for the words."""
    reads, banker = [], host(game)
    with app.app_context():
        engine = db.engine

    def listener(_connection, _cursor, statement, *_):
        reads.append(statement)

    event.listen(engine, "before_cursor_execute", listener)
    try:
        answer = game.act(2, type="roll", dice=[3, 4])  # Bob's roll on Ann's turn
        by_api, reads[:] = [s for s in reads if "FROM games" in s], []
        page = banker.post({"type": "bank_pay", "player": 1, "amount": 0}, htmx=True)
        by_form = [s for s in reads if "FROM games" in s]
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert answer.status_code == 409 and "Ann" in answer.get_json()["error"]["message"]
    assert len(by_api) == 1  # the action's own read
    assert page.status_code == 422 and "The amount must be from $1 to $1,000,000." in unescape(page.get_data(as_text=True))
    assert len(by_form) == 2  # the page's visit, and the action's own read


def test_a_key_error_from_a_bug_stays_a_bug_not_a_404(app):
    """No such game is an error of its own, not Python's LookupError: a KeyError that a bug lets out
    of an action is none of the failures the pages and the API answer (a 500, with its traceback)."""
    assert not any(issubclass(KeyError, kind) for kind in respond.FAILURES)
    with app.test_request_context("/api/games/ABCDE/actions", method="POST"):
        assert respond.failed(store.GameNotFound("ABCDE"), "ABCDE")[1] == 404
        with pytest.raises(KeyError):
            respond.failed(KeyError("seat"), "ABCDE")


def test_a_phone_without_a_seat_is_sent_to_the_join_page(game, stranger):
    browser = stranger(game)
    response = browser.post({"type": "pay", "to": 2, "amount": 5}, path=f"/p/{game.code}/act")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/j/{game.code}"
    assert seat(game.state(), 1)["cash"] == 1500


def test_the_phone_shows_my_cash_and_my_deeds(game, phone):
    game.ok(1, type="roll", dice=[1, 2])
    game.ok(1, type="buy")
    page = unescape(phone(game, 1).page())
    assert 'data-cash="1440"' in page
    assert "Baltic Avenue" in page
    assert "Ann" in page


@pytest.mark.parametrize("order, says", [
    ({"pos-1": "1", "pos-2": "1"}, "Give every player a different place."),
    ({"pos-1": "1", "pos-2": "first"}, "Give every player a place in the order."),
    ({}, "Ann still has to roll for the order."),
])
def test_a_bad_start_form_is_refused_with_a_message(lobby, host, order, says):
    banker = host(lobby)
    response = banker.post({"type": "start", **order}, htmx=True)
    assert response.status_code == 422
    assert says in response.get_data(as_text=True)
    assert lobby.state()["status"] == "lobby"
