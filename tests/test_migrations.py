"""The schema ships as migrations (banker/migrations/): every start of a server brings the database to
the newest revision, on a SQLite file and on a PostgreSQL database of its own. A database made before
migrations (by `db.create_all()`) is taken as the first revision and keeps its games; an empty one
gets exactly the models' schema; a database already there costs one query. The `flask db` commands
that look leave the database as it is."""

import os
import re
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import Engine, create_engine, event, inspect, text

from banker import ROOT, create_app, migrations, store
from banker.models import db
from banker.rules import GameState

from .web.games import new_game, play

HEAD = migrations.head()
BEHIND = migrations.scripts().get_revision(HEAD).down_revision


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """Makes empty databases of one kind: SQLite files in tmp_path, or databases of their own on the
    PostgreSQL server (dropped after the test)."""
    made: list[str] = []

    def new() -> str:
        name = f"migrations_{uuid.uuid4().hex[:12]}"
        if request.param == "sqlite":
            return f"sqlite:///{tmp_path / name}.sqlite"
        with _admin(request.getfixturevalue("postgres")) as admin:
            admin.execute(text(f"CREATE DATABASE {name}"))
        made.append(name)
        return f"{request.getfixturevalue('postgres')}/{name}"

    yield new
    for name in made:
        with _admin(request.getfixturevalue("postgres")) as admin:
            admin.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))


@contextmanager
def _admin(server: str):
    engine = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


@contextmanager
def running(uri: str, folder):
    """An app started on the database (as `banker` or a hosted server starts it), closed after."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "test", "TESTING": True, "HTMX_CDN": False,
                      "RATELIMIT_ENABLED": False}, instance_path=str(folder / "instance"))
    try:
        yield app
    finally:
        with app.app_context():
            db.engine.dispose()


@contextmanager
def connected(uri: str):
    engine = create_engine(uri)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


def versions(uri: str) -> list[str] | None:
    """The revisions the database records (None: no version table)."""
    with connected(uri) as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def schema(uri: str) -> dict:
    """Everything the inspector reads of the app's tables: columns (name, type, nullability, default),
    primary keys, foreign keys, indexes, unique and check constraints."""
    with connected(uri) as connection:
        inspector = inspect(connection)
        return {
            table: {
                "columns": [{**column, "type": str(column["type"])} for column in inspector.get_columns(table)],
                "primary_key": inspector.get_pk_constraint(table),
                "foreign_keys": sorted(inspector.get_foreign_keys(table), key=repr),
                "indexes": sorted(inspector.get_indexes(table), key=repr),
                "unique": sorted(inspector.get_unique_constraints(table), key=repr),
                "checks": sorted(inspector.get_check_constraints(table), key=repr),
            }
            for table in sorted(set(inspector.get_table_names()) - {"alembic_version"})
        }


def first_schema(engine) -> None:
    """The tables as db.create_all() made them before migrations: revision 0001's script, run
    without recording a revision."""
    with engine.begin() as connection:
        with Operations.context(MigrationContext.configure(connection, opts=migrations.OPTIONS)):
            migrations.scripts().get_revision(migrations.FIRST).module.upgrade()


def replays_to_its_snapshot(app, code: str) -> bool:
    with app.app_context():
        saved = store.find_game(code)
        return store.replay_game(saved) == GameState.from_dict(saved.state)


def test_a_database_made_before_migrations_is_taken_as_the_first_revision_and_its_games_play_on(
        database, tmp_path, monkeypatch):
    uri = database()
    with monkeypatch.context() as before_migrations:
        # create_app as it was: the tables db.create_all() made then (revision 0001's schema, which
        # the models have grown past since), no migrations.
        before_migrations.setattr(migrations, "init_app", lambda app, db: first_schema(db.engine))
        with running(uri, tmp_path) as app:
            game = play(new_game(app.test_client(), players=3),
                        (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}),
                        (2, {"type": "roll", "dice": [2, 3]}), (2, {"type": "buy"}), (2, {"type": "end_turn"}),
                        ("banker", {"type": "bank_pay", "player": 3, "amount": 50, "memo": "found"}))
            state, events = game.state(), game.events()
    assert versions(uri) is None and "games" in schema(uri)

    with running(uri, tmp_path) as app:
        assert versions(uri) == [HEAD]
        game.client = app.test_client()
        assert game.state() == state and game.events() == events
        play(game, (3, {"type": "roll", "dice": [2, 4]}), (3, {"type": "buy"}), (3, {"type": "end_turn"}),
             (1, {"type": "roll", "dice": [1, 2]}))
        game.ok("banker", type="undo")
        after = game.state()
        assert after["version"] == state["version"] + 5 and after["turn"] == 1 and not after["rolled"]
        assert {d["square"]: d["owner"] for d in after["deeds"] if d["owner"]} == {3: 1, 5: 2, 6: 3}
        assert replays_to_its_snapshot(app, game.code)

    with running(uri, tmp_path) as app:  # and again: nothing more to do
        game.client = app.test_client()
        assert game.state() == after and versions(uri) == [HEAD]


def test_an_empty_database_gets_the_schema_create_all_made(database, tmp_path):
    uri, made_by_create_all = database(), database()
    with running(uri, tmp_path):
        pass
    engine = create_engine(made_by_create_all)
    db.metadata.create_all(engine)
    engine.dispose()
    assert schema(uri) == schema(made_by_create_all)
    assert set(schema(uri)) == set(db.metadata.tables)
    assert versions(uri) == [HEAD]


def test_the_migrations_make_the_models_schema(database, tmp_path):
    """Fails when models.py changes without a migration: write one (banker/migrations/__init__.py)."""
    uri = database()
    with running(uri, tmp_path):
        pass
    with connected(uri) as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True,
                                                               "compare_server_default": True})
        assert compare_metadata(context, db.metadata) == []


def test_starting_on_an_up_to_date_database_reads_one_row_and_changes_nothing(database, tmp_path):
    uri = database()
    with running(uri, tmp_path) as app:
        game = new_game(app.test_client())
    before = schema(uri)
    statements = []

    def seen(_connection, _cursor, statement, *_):
        if statement not in ("BEGIN", "BEGIN IMMEDIATE"):
            statements.append(statement)

    event.listen(Engine, "before_cursor_execute", seen)
    try:
        with running(uri, tmp_path) as app:
            pass
    finally:
        event.remove(Engine, "before_cursor_execute", seen)
    assert statements == ["SELECT version_num FROM alembic_version"]
    assert schema(uri) == before and versions(uri) == [HEAD]
    with running(uri, tmp_path) as app:
        game.client = app.test_client()
        game.ok(1, type="roll", dice=[1, 2])


# One server process: says it is ready once everything is read, waits for the word, starts the app,
# plays a game's first roll.
SERVER = """
import sys
from pathlib import Path
from banker import create_app, migrations, web
from tests.web.games import new_game
migrations.head()  # everything read before the word: then the starts really overlap
uri, folder = sys.argv[1], Path(sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()
app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "test", "TESTING": True,
                  "RATELIMIT_ENABLED": False}, instance_path=str(folder / "instance"))
print(new_game(app.test_client()).ok(1, type="roll", dice=[1, 2])["version"])
"""


def test_servers_starting_at_once_upgrade_the_database_once(database, tmp_path):
    uri = database()
    servers = [subprocess.Popen([sys.executable, "-c", SERVER, uri, str(tmp_path / str(i))], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for i in range(4)]
    # The word once all four have imported the app (a fixed moment waited longer than the imports on
    # a quiet machine and less on a busy one, where the starts did not overlap).
    assert [server.stdout.readline() for server in servers] == ["ready\n"] * 4
    for server in servers:
        server.stdin.write("go\n")
        server.stdin.flush()
    results = [server.communicate(timeout=60) for server in servers]
    assert [(server.returncode, out.strip()) for server, (out, _) in zip(servers, results)] == [(0, "4")] * 4, results
    assert versions(uri) == [HEAD]


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_an_upgrade_on_postgresql_waits_for_the_lock_another_holds(database, tmp_path):
    uri = database()
    started = []
    with connected(uri) as holder:
        holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": migrations.LOCK})
        holder.commit()
        thread = threading.Thread(target=lambda: started.append(running(uri, tmp_path).__enter__()))
        thread.start()
        time.sleep(0.5)
        assert thread.is_alive() and versions(uri) is None
        holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": migrations.LOCK})
        holder.commit()
        thread.join(30)
    with started[0].app_context():
        db.engine.dispose()
    assert versions(uri) == [HEAD]


def test_the_flask_db_commands_downgrade_and_upgrade_by_hand(database, tmp_path):
    """`flask --app banker db upgrade` (docs/hosting.md, Upgrades) runs the same scripts through Flask-Migrate."""
    uri = database()
    with running(uri, tmp_path) as app:
        full = schema(uri)
        cli = app.test_cli_runner()
        result = cli.invoke(args=["db", "downgrade", "base"])
        assert result.exit_code == 0, result.output
        assert schema(uri) == {} and versions(uri) == []
        result = cli.invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, result.output
        assert schema(uri) == full and versions(uri) == [HEAD]


def test_the_first_revision_is_the_one_a_database_without_a_version_is_at():
    assert migrations.scripts().get_base() == migrations.FIRST
    assert migrations.scripts().get_heads() == [HEAD]


def flask_db(uri: str, folder, *commands: list[str]) -> list[str]:
    """`flask --app banker db <command>` as typed in a terminal, on the database `uri`, for each of
    `commands` at once (each a process of its own): what each printed."""
    env = {**os.environ, "DATABASE_URL": uri, "BANKER_INSTANCE": str(folder / "instance")}
    running = [subprocess.Popen([sys.executable, "-m", "flask", "--app", "banker", "db", *words], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for words in commands]
    said = [process.communicate(timeout=60) for process in running]
    assert [process.returncode for process in running] == [0] * len(commands), said
    return [out for out, _ in said]


def behind(uri: str, folder) -> None:
    """The database one revision behind the head, as a server of the previous version left it."""
    with running(uri, folder) as app:
        result = app.test_cli_runner().invoke(args=["db", "downgrade", BEHIND])
        assert result.exit_code == 0, result.output
    assert versions(uri) == [BEHIND]


def test_the_commands_that_look_leave_a_database_behind_where_it_is_and_upgrade_and_serving_bring_it_up(tmp_path):
    """Only serving and `db upgrade` migrate: `db current` shows a database that is behind, and it
    stays there after `db current` and `db history`."""
    uri, served = f"sqlite:///{tmp_path / 'by_hand.sqlite'}", f"sqlite:///{tmp_path / 'served.sqlite'}"
    behind(uri, tmp_path)
    current, history = flask_db(uri, tmp_path, ["current"], ["history"])
    assert current.split() == [BEHIND] and f"{BEHIND} -> {HEAD} (head)" in history
    assert versions(uri) == [BEHIND]
    flask_db(uri, tmp_path, ["upgrade"])
    assert versions(uri) == [HEAD]

    behind(served, tmp_path)
    with running(served, tmp_path):  # create_app as `banker`, gunicorn or any WSGI server calls it
        assert versions(served) == [HEAD]


def test_the_examples_of_a_new_revision_name_the_next_free_one():
    """`db migrate --rev-id` in docs/hosting.md and banker/migrations/__init__.py names a revision that
    does not exist yet: the one after the head."""
    free = f"{int(HEAD) + 1:04d}"
    assert free not in {script.revision for script in migrations.scripts().walk_revisions()}
    for path in (ROOT / "docs" / "hosting.md", migrations.DIRECTORY / "__init__.py"):
        named = re.findall(r"--rev-id\s+(\S+)", path.read_text(encoding="utf-8"))
        assert named and set(named) == {free}, path
