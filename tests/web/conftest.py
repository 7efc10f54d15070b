"""Fixtures for the web tests: a real app on a real SQLite file in tmp_path and again on a fresh
database of a real PostgreSQL server, its test client, games made through the JSON API, and
browsers for the host's laptop and the players' phones."""

import secrets
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from jinja2 import BytecodeCache
from sqlalchemy import create_engine, event, select, text

from banker import create_app, models
from banker.models import db
from banker.store import token_hash

from .games import Browser, Game, new_game


class BufferedClient(FlaskClient):
    """A test client that reads each answer whole and then closes it, as a WSGI server does (a
    game's screens hear of a change when the answer to the action is closed). A test reading a
    live connection asks for `buffered=False`."""

    def open(self, *args, buffered: bool = True, **kwargs):
        return super().open(*args, buffered=buffered, **kwargs)


class CompiledTemplates(BytecodeCache):
    """Templates compiled once for the whole session: every test builds a new app, and compiling
    the templates again for each would be most of the suite's time."""

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledTemplates()


@dataclass(frozen=True)
class Database:
    """Where a test's app keeps its games (`uri`), and its folder (the instance folder goes there)."""

    uri: str
    folder: Path

    @property
    def postgres(self) -> bool:
        return self.uri.startswith("postgresql")


def make_app(database: "Database | Path", **config):
    """The app as a host runs it, on the given database (a path: that SQLite file), with the
    vendored htmx and CSRF on."""
    if isinstance(database, Path):
        database = Database(f"sqlite:///{database}", database.parent)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": database.uri,
            "SECRET_KEY": "test",
            "HTMX_CDN": False,
            "TESTING": True,
            # An idle live connection says so within 50 ms: what a test reads of it ends there.
            "LIVE_HEARTBEAT_SECONDS": 0.05,
            # Every test client is 127.0.0.1; test_limits turns the limits on.
            "RATELIMIT_ENABLED": False,
            **config,
        },
        instance_path=database.folder / "instance",
    )
    app.jinja_env.bytecode_cache = TEMPLATES
    app.test_client_class = BufferedClient
    app.after_request(_no_traceback)
    if not database.postgres:  # the PostgreSQL server itself runs without fsync (tests/postgres.py)
        with app.app_context():
            event.listen(db.engine, "connect", _without_fsync)
            db.engine.dispose()  # the connection create_all opened predates the listener
    return app


def _no_traceback(response):
    """No answer ever shows a traceback (docs/design.md, Errors): checked on every response of every test
    (but a live connection's stream, which the test reads itself)."""
    if not response.direct_passthrough and not response.is_streamed:
        assert b"Traceback (most recent call last)" not in response.get_data(), response.get_data(as_text=True)
    return response


def _without_fsync(dbapi_connection, _record):
    """Commits without waiting for the disk: the tests never pull the plug, and waiting for fsync
    on every commit would be a third of the suite's time. Locking and transactions are unchanged."""
    dbapi_connection.execute("PRAGMA synchronous=OFF")


def close(app) -> None:
    """Close the pooled connections (and the notifier's listening one) so that no file handle or
    server connection outlives the test."""
    app.extensions["banker.notifier"].close()
    with app.app_context():
        db.engine.dispose()


@cache
def _engine(url: str):
    """One small connection pool per database, for the fixture's own statements."""
    return create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1)


# Databases of the PostgreSQL server that a test used and left empty, for the next test: emptying
# one takes a few ms, making one and its tables a tenth of a second.
_emptied: list[str] = []


def sqlite_database(tmp_path) -> Database:
    """A SQLite file in tmp_path: for a module whose tests are about words and pages, not storage,
    which overrides `database` with it rather than run twice."""
    return Database(f"sqlite:///{tmp_path / 'banker.sqlite'}", tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """Each web test runs twice: on a SQLite file in tmp_path, and on a database of its own on the
    PostgreSQL server, empty when the test starts."""
    if request.param == "sqlite":
        yield sqlite_database(tmp_path)
        return
    server = request.getfixturevalue("postgres")
    if _emptied:
        name = _emptied.pop()
    else:
        name = f"test_{uuid.uuid4().hex[:16]}"
        with _engine(f"{server}/postgres").connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
    yield Database(f"{server}/{name}", tmp_path)
    try:
        with _engine(f"{server}/{name}").connect() as connection:
            connection.execute(text("SET lock_timeout = '2s'"))
            # Alembic's record of the schema stays: the next app finds it at the newest in one query.
            tables = connection.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                             "AND tablename <> 'alembic_version'")).scalars()
            if tables := ", ".join(tables):
                connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        _emptied.append(name)
    except Exception:  # a connection the test left open holds a lock: drop that database instead
        _engine(f"{server}/{name}").dispose()
        with _engine(f"{server}/postgres").connect() as connection:
            connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))


@pytest.fixture
def app(database):
    app = make_app(database)
    yield app
    close(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def lobby(client) -> Game:
    """Ann (1) and Bob (2) seated, the game not started."""
    return new_game(client, start=False)


@pytest.fixture
def game(client) -> Game:
    """Ann (1) and Bob (2), started in that order: Ann's turn, both on GO with 1500."""
    return new_game(client)


@pytest.fixture
def game3(client) -> Game:
    """Ann (1), Bob (2) and Cy (3), started in that order."""
    return new_game(client, players=3)


def badged(app, game: Game, role: str, player: int | None = None):
    """A browser (test client) holding the banker's or a seat's badge for a game made through the
    API, as creating the game on the home page or joining from the join page leaves it: its cookie
    keeps its key, the game keeps the badge. (Not through a rejoin code: taking a seat retires the
    seat's API token, which the game's API calls still use; test_join covers rejoining.)"""
    client = app.test_client()
    key = secrets.token_urlsafe(32)
    with app.app_context():
        game_id = db.session.scalar(select(models.Game.id).where(models.Game.code == game.code))
        db.session.add(models.Badge(browser_hash=token_hash(key), game_id=game_id, role=role, player_id=player))
        db.session.commit()
    with client.session_transaction() as session:
        session["browser"] = key
    return client


@pytest.fixture
def host(app):
    """Opens the banker's laptop for a game: a browser holding the banker's badge."""

    def open_host(game: Game) -> Browser:
        return Browser(badged(app, game, "banker"), game.code, f"/t/{game.code}").load()

    return open_host


@pytest.fixture
def phone(app):
    """Opens a player's phone: a browser holding the seat's badge."""

    def open_phone(game: Game, pid: int) -> Browser:
        return Browser(badged(app, game, "seat", pid), game.code, f"/p/{game.code}").load()

    return open_phone


@pytest.fixture
def stranger(app):
    """Opens the host screen in a browser with no seat and no banker secret."""

    def open_stranger(game: Game) -> Browser:
        return Browser(app.test_client(), game.code, f"/t/{game.code}").load()

    return open_stranger
