"""Actions through the store, without HTTP: each way a sender is known (an API secret, a browser's
badge, a newcomer joining, an in-process actor), what is refused and what a refusal leaves alone,
and what an applied action leaves: the next version, its event, a snapshot the log replays to."""

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from banker import store
from banker.models import db
from banker.rules import Actor, GameError, GameState
from banker.rules.view import state_json

from ..evenings import next_move
from .tables import BANKER, assert_replay_gives_the_snapshot, cash, events, fresh, new_browser, new_table, who

pytestmark = pytest.mark.storage  # every action is a transaction under the database's locks


def test_an_api_secret_acts_as_its_seat_or_as_the_banker(app):
    table = new_table(2)
    paid = store.act(table.code, {"type": "pay", "to": 2, "amount": 25}, table.seats[1])
    charged = store.act(table.code, {"type": "bank_charge", "player": 2, "amount": 5}, table.banker)
    assert cash(paid.state) == {1: 1475, 2: 1525} and cash(charged.state) == {1: 1475, 2: 1520}
    assert paid.player is None and not paid.repeated
    assert [(e.actor, e.type) for e in events(table.code)][-2:] == [("1", "pay"), ("banker", "bank_charge")]
    assert store.visit(table.code, table.seats[2])[1] == Actor(player=2)
    assert store.visit(table.code, table.banker)[1] == BANKER


def test_a_browser_acts_by_its_badge(app):
    """The home page's browser holds the banker's badge, the join page's the seat's; the key itself
    opens nothing through the API, and asking in the other role holds nothing."""
    host, phone = new_browser("banker"), new_browser("seat")
    game, _ = store.create_game(browser=host)
    joined = store.act(game.code, {"type": "join", "name": "Ann", "token": "hat"}, browser=phone)
    store.act(game.code, {"type": "join", "name": "Bob", "token": "car"}, seat_token=store.new_token())
    store.act(game.code, {"type": "start", "order": [1, 2]}, browser=host)
    rolled = store.act(game.code, {"type": "roll", "dice": [3, 4]}, browser=phone)

    assert joined.player == 1 and rolled.state.player(1).position == 7
    assert [e.actor for e in events(game.code)] == ["guest", "guest", "banker", "1"]
    assert store.visit(game.code, browser=phone)[1] == Actor(player=1)
    assert store.visit(game.code, browser=host)[1] == BANKER
    pay = {"type": "bank_pay", "player": 1, "amount": 5}
    for stranger in (store.Browser(phone.key, "banker"), store.Browser(host.key, "seat"), new_browser("seat")):
        with pytest.raises(store.UnknownSecret):
            store.act(game.code, pay, browser=stranger)
    for key in (host.key, phone.key):
        with pytest.raises(store.UnknownSecret):
            store.act(game.code, pay, key)
    assert fresh(game.code).version == 4


def test_a_newcomer_joins_with_the_seat_token_given_or_a_badge(app):
    game, _ = store.create_game()
    secret, phone = store.new_token(), new_browser("seat")
    by_api = store.act(game.code, {"type": "join", "name": "Ann", "token": "hat"}, seat_token=secret)
    by_page = store.act(game.code, {"type": "join", "name": "Bob", "token": "car"}, browser=phone)
    unnamed = store.act(game.code, {"type": "join", "name": "Cy", "token": "dog"})  # a secret nobody knows

    assert (by_api.player, by_page.player, unnamed.player) == (1, 2, 3)
    assert [p.name for p in unnamed.state.players] == ["Ann", "Bob", "Cy"]
    assert store.visit(game.code, secret)[1] == Actor(player=1)
    assert store.visit(game.code, browser=phone)[1] == Actor(player=2)
    assert store.visit(game.code, phone.key)[1] is None
    with pytest.raises(GameError) as refused:  # a newcomer may only join
        store.act(game.code, {"type": "start", "order": [1, 2, 3]})
    assert refused.value.code == "banker_only"


def test_an_in_process_actor_acts_as_named(app):
    table = new_table(2)
    store.act(table.code, {"type": "pay", "to": "bank", "amount": 10}, actor=Actor(player=2))
    undone = store.act(table.code, {"type": "undo"}, actor=BANKER)
    assert cash(undone.state) == {1: 1500, 2: 1500}
    assert [(e.actor, e.type, e.undone) for e in events(table.code)][-2:] == [("2", "pay", True),
                                                                             ("banker", "undo", False)]


def test_an_unknown_game_is_game_not_found(app):
    new_table(2)
    for code in ("ZZZZZ", "zzzzz", "", "nope!", "ABCDEFGH", "ab cd"):
        with pytest.raises(store.GameNotFound) as missing:
            store.act(code, {"type": "undo"}, actor=BANKER)
        assert type(missing.value) is store.GameNotFound, code  # not UnknownSecret: no game at all


def test_a_secret_nobody_holds_in_the_game_is_an_unknown_secret(app):
    table, other = new_table(2), new_table(2)
    for secret in ("made-up", other.banker, other.seats[1], store.token_hash(table.banker)):
        with pytest.raises(store.UnknownSecret):
            store.act(table.code, {"type": "bank_pay", "player": 1, "amount": 5}, secret)
        assert store.visit(table.code, secret)[1] is None
    assert fresh(table.code).version == 3


def test_a_refused_action_changes_nothing_and_announces_nothing(app, announced):
    table = new_table(2)
    announced.clear()
    before = fresh(table.code)
    version, state, logged = before.version, before.state, len(events(table.code))
    refusals = [
        (table.seats[2], {"type": "roll", "dice": [3, 4]}, "not_your_turn"),
        (table.seats[1], {"type": "pay", "player": 2, "to": 1, "amount": 5}, "not_your_seat"),
        (table.seats[1], {"type": "pay", "to": 2, "amount": -5}, "bad_field"),
        (table.seats[1], {"type": "pay", "to": 2, "amount": 5, "nonce": 5}, "bad_nonce"),
        (table.seats[1], {"type": "undo"}, "banker_only"),
        (table.banker, {"type": "undo", "seq": 1}, "undo_moved_on"),       # the newest entry is the start
        (table.banker, {"type": "undo", "seq": "first"}, "bad_field"),
        (table.banker, {"type": "undo", "player": 1}, "unknown_field"),
        (table.seats[1], {"type": "take_back"}, "nothing_to_take_back"),    # the start is the banker's
        (table.banker, {"type": "fly"}, "unknown_action"),
        (None, {"type": "join", "name": "Cy", "token": "dog"}, "game_started"),
    ]
    for secret, body, code in refusals:
        with pytest.raises(GameError) as refused:
            store.act(table.code, body, secret)
        assert refused.value.code == code
        # The game as the action read it, to word the refusal from (a nonce is refused before the read).
        assert refused.value.state == (None if code == "bad_nonce" else GameState.from_dict(state)), code
    after = fresh(table.code)
    assert (after.version, after.state, len(events(table.code))) == (version, state, logged)
    assert announced == []


def test_each_event_takes_the_next_version_as_its_seq(app, announced):
    table = new_table(3)
    announced.clear()
    bodies = [{"type": "pay", "to": 2, "amount": 5}, {"type": "bank_pay", "player": 3, "amount": 7},
              {"type": "undo"}, {"type": "roll", "dice": [1, 2]}, {"type": "undo"}, {"type": "undo"}]
    outcomes = [store.act(table.code, body, table.banker if body["type"] != "pay" else table.seats[1])
                for body in bodies]
    last = fresh(table.code).version
    assert [o.version for o in outcomes] == list(range(5, 5 + len(bodies))) and last == 4 + len(bodies)
    assert [e.seq for e in events(table.code)] == list(range(1, last + 1))
    assert announced == [(table.code, o.version) for o in outcomes]
    assert cash(outcomes[-1].state) == {1: 1500, 2: 1500, 3: 1500}


def test_every_outcome_is_the_saved_snapshot_and_the_log_replays_to_it(app):
    """A random evening, undos included: each applied action's state is what was saved; the whole
    log, replayed from the start, gives the snapshot."""
    table, rng = new_table(3), random.Random(18)
    game = fresh(table.code)
    state, version, applied = store.load_state(game), game.version, 0
    for _ in range(100):
        name, action = next_move(state_json(state, version), rng)
        try:
            outcome = store.act(table.code, action, actor=who(name))
        except GameError:
            continue
        applied += 1
        saved = fresh(table.code)
        assert (saved.version, GameState.from_dict(saved.state)) == (outcome.version, outcome.state)
        state, version = outcome.state, outcome.version
    assert applied > 70
    assert_replay_gives_the_snapshot(table.code)


@contextmanager
def statements() -> Iterator[list[str]]:
    """The SQL statements the app sends its database meanwhile."""
    sent: list[str] = []

    def record(_connection, _cursor, statement, *_):
        sent.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


def test_an_action_sends_the_same_few_statements_however_long_the_game(app):
    """One read (the game, the sender and the nonce's first use), the snapshot, the event (and on
    PostgreSQL the row's lock and the notification): the same statements at the fourth event and at
    the sixty-fifth (neither a checkpoint's)."""
    table = new_table(2)

    def sent(nonce: str) -> list[str]:
        with statements() as sent:
            store.act(table.code, {"type": "bank_pay", "player": 1, "amount": 1, "nonce": nonce}, table.banker)
        return [statement.split()[0].upper() for statement in sent]

    early = sent("early")
    for _ in range(60):
        store.act(table.code, {"type": "bank_pay", "player": 2, "amount": 1}, actor=BANKER)
    late = sent("late")
    assert fresh(table.code).version == 65
    assert early == late
    assert early.count("UPDATE") == 1 and early.count("INSERT") == 1 and len(early) <= 5
