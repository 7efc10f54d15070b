"""The app as the store and web tests build it: on a real SQLite file in the test's tmp_path, or on
a database of its own on a real PostgreSQL server, with templates compiled once per process."""

import atexit
import shutil
import tempfile
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from flask.testing import FlaskClient
from jinja2 import BytecodeCache
from sqlalchemy import create_engine, event, text
from werkzeug.routing import Rule

from banker import create_app
from banker.models import db


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


def _builders_compiled_once():
    """Werkzeug compiles a Python function to build each route's URL, anew for every app: the tests
    make an app about 1,400 times a run, and those compilations were most of making one. The
    function depends on the rule's parsed parts and defaults alone (it reads the rule's converters
    from the rule it is bound to), so it is compiled once per rule and shared."""
    compile_builder, compiled = getattr(Rule, "_compile_builder", None), {}
    if compile_builder is None:  # a Werkzeug that builds URLs some other way: nothing to share
        return

    def once(rule: Rule, append_unknown: bool = True):
        key = (rule.rule, tuple(getattr(rule, "_trace", ())), repr(rule.defaults), append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = once


_builders_compiled_once()


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
            # The screens drawn in the renderer's thread: a drawing process would take a second to
            # start for each of the suite's apps. tests/web/test_drawer.py, the e2e server and the
            # servers the tests start as a host does draw them in a process of their own.
            "LIVE_DRAWER": "thread",
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
    """No answer ever shows a traceback (docs/design.md, Errors): checked on every response of every
    test (but a live connection's stream, which the test reads itself)."""
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
def _migrated_sqlite() -> Path:
    """A SQLite file the migrations have brought to the newest schema, made once per process (and
    removed at its exit): each test starts from a copy of it rather than running them again."""
    folder = Path(tempfile.mkdtemp(prefix="banker-schema-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    close(make_app(folder / "banker.sqlite"))
    return folder / "banker.sqlite"


def sqlite_database(folder: Path) -> Database:
    """A SQLite file in `folder`, already at the newest schema: an app started on it finds the
    migrations done in one query, as a host's laptop does on every start but the first."""
    shutil.copyfile(_migrated_sqlite(), folder / "banker.sqlite")
    return Database(f"sqlite:///{folder / 'banker.sqlite'}", folder)


@cache
def _engine(url: str):
    """One small connection pool per database, for the fixtures' own statements."""
    return create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1)


# Databases of the PostgreSQL server that a test used and left empty, for the next test of this
# process: emptying one takes a few ms, making one and its tables a tenth of a second.
_emptied: list[str] = []


def postgres_database(server: str, folder: Path) -> Database:
    """A database of its own on the PostgreSQL server at `server`, empty (give it back with
    `give_back`)."""
    if _emptied:
        name = _emptied.pop()
    else:
        name = f"test_{uuid.uuid4().hex[:16]}"
        with _engine(f"{server}/postgres").connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
    return Database(f"{server}/{name}", folder)


def give_back(server: str, database: Database) -> None:
    """Empty a test's PostgreSQL database for the next test, or drop it if something still holds it."""
    name = database.uri.rsplit("/", 1)[1]
    try:
        with _engine(database.uri).connect() as connection:
            connection.execute(text("SET lock_timeout = '2s'"))
            # Alembic's record of the schema stays: the next app finds it at the newest in one query.
            tables = connection.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                             "AND tablename <> 'alembic_version'")).scalars()
            if tables := ", ".join(tables):
                connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        _emptied.append(name)
    except Exception:  # a connection the test left open holds a lock: drop that database instead
        _engine(database.uri).dispose()
        with _engine(f"{server}/postgres").connect() as connection:
            connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
