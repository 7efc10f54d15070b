"""A connection PostgreSQL drops in the middle of an action (a restart, a failover, a proxy's idle
timeout): the action is tried once more on a new connection, and applied once. Cut before its
commit, nothing of it was kept, so it is tried again with or without a nonce; cut at its commit,
it may have been kept, so only an action with a nonce is tried again (and finds itself applied)."""

import psycopg
import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import OperationalError

from banker import store
from banker.models import db

from .tables import cash, events, fresh, new_table

pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


@pytest.fixture
def cut_at_update(app, database):
    """Ends the server process of the connection that runs the next UPDATE of a game's snapshot
    (the next `armed` ones), just before the update is sent (PostgreSQL's pg_terminate_backend,
    waiting until it is gone): the update fails as if the server had restarted. Counts the cuts
    and the updates."""
    admin = create_engine(database.uri, isolation_level="AUTOCOMMIT", pool_size=1)
    seen = {"cuts": 0, "updates": 0, "armed": 0}

    def before(connection, cursor, statement, *_):
        if not statement.startswith("UPDATE games"):
            return
        seen["updates"] += 1
        if seen["armed"]:
            seen["armed"], seen["cuts"] = seen["armed"] - 1, seen["cuts"] + 1
            pid = connection.connection.dbapi_connection.info.backend_pid
            with admin.connect() as other:
                assert other.execute(text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid}).scalar()

    event.listen(db.engine, "before_cursor_execute", before)
    yield seen
    event.remove(db.engine, "before_cursor_execute", before)
    admin.dispose()


@pytest.mark.parametrize("nonce", [None, "tap-1"])
def test_an_action_whose_connection_is_cut_before_its_commit_is_tried_once_more(app, cut_at_update, nonce):
    table = new_table(2)
    before = fresh(table.code).version
    cut_at_update.update(armed=1, updates=0)
    outcome = store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": nonce}, table.seats[1])
    assert (cut_at_update["cuts"], cut_at_update["updates"]) == (1, 2)  # cut once, tried once more
    assert outcome.version == fresh(table.code).version == before + 1 and not outcome.repeated
    assert [e.type for e in events(table.code)].count("pay") == 1
    assert cash(store.load_state(fresh(table.code))) == {1: 1425, 2: 1575}


def test_a_second_cut_is_the_callers_to_answer(app, cut_at_update):
    """Tried once more, not again and again: a database still away is answered 503 by the web layer."""
    table = new_table(2)
    before = fresh(table.code).version
    cut_at_update["armed"] = 2
    with pytest.raises(OperationalError) as raised:
        store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap-1"}, table.seats[1])
    assert raised.value.connection_invalidated and cut_at_update["cuts"] == 2
    assert fresh(table.code).version == before  # nothing was changed


@pytest.fixture
def cut_at_commit(app, monkeypatch):
    """The next commit reaches the database, and then its connection drops before the answer comes
    back: the action was kept, but its sender cannot know it."""
    dialect, seen = db.engine.dialect, {"armed": False, "cuts": 0}
    real = dialect.do_commit

    def commit(dbapi_connection):
        real(dbapi_connection)
        if seen["armed"]:
            seen["armed"], seen["cuts"] = False, seen["cuts"] + 1
            dbapi_connection.dbapi_connection.close()  # the driver's own connection, as the network drops it
            raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(dialect, "do_commit", commit)
    return seen


def test_an_action_with_a_nonce_cut_at_its_commit_finds_itself_applied(app, cut_at_commit):
    table = new_table(2)
    before = fresh(table.code).version
    cut_at_commit["armed"] = True
    outcome = store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap-1"}, table.seats[1])
    assert cut_at_commit["cuts"] == 1
    # Its own first try's event, answered as a first answer (the sender never got one).
    assert outcome.version == fresh(table.code).version == before + 1 and not outcome.repeated
    assert [e.type for e in events(table.code)].count("pay") == 1


def test_an_action_without_a_nonce_cut_at_its_commit_is_not_tried_again(app, cut_at_commit):
    """It may have been kept (here it was): trying it again could apply it twice."""
    table = new_table(2)
    cut_at_commit["armed"] = True
    with pytest.raises(OperationalError):
        store.act(table.code, {"type": "pay", "to": 2, "amount": 75}, table.seats[1])
    assert [e.type for e in events(table.code)].count("pay") == 1


def test_a_join_with_a_nonce_cut_at_its_commit_keeps_the_seat_it_made(app, cut_at_commit):
    """The API's join (a new seat token per request): the second try finds the seat the first made,
    with this request's token, so its answer (201 with the token) is true."""
    game, _ = store.create_game()
    secret = store.new_token()
    cut_at_commit["armed"] = True
    joined = store.act(game.code, {"type": "join", "name": "Ann", "token": "hat", "nonce": "j1"}, seat_token=secret)
    assert cut_at_commit["cuts"] == 1 and joined.player == 1 and not joined.repeated
    assert store.visit(game.code, secret)[1] is not None  # the token answered opens the seat
    assert [e.type for e in events(game.code)] == ["join"]
