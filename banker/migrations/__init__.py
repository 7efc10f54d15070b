"""The database's schema as Alembic migrations, run through Flask-Migrate (`flask --app banker db
upgrade`), and the upgrade every start of a server makes (create_app).

A change to models.py ships as a new script in versions/ (`flask --app banker db migrate --rev-id
0004 -m "what changed"`: the next free number, then read and fix what it wrote); tests/test_migrations.py
fails while the scripts and the models disagree. Revision 0001 is the schema `db.create_all()` made
before migrations existed: a database with the tables and no recorded revision is at it.

At start (`upgrade_at_start`) one query reads the recorded revision; at the head, that is all.
Otherwise, under a lock (PostgreSQL: an advisory lock, so that processes starting together on one
database take turns; SQLite: BEGIN IMMEDIATE), the revision is read again, a database made before
migrations is stamped at 0001, and the scripts bring it to the head in one transaction.

The `flask db` commands load the app too, and they do what they say and nothing more: under them the
start upgrades nothing (`db current` shows a database that is behind as it is, `db upgrade 0002` stops
there), but `db upgrade` first stamps a database made before migrations at 0001.
"""

import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from sqlalchemy import exc, inspect, text

DIRECTORY = Path(__file__).resolve().parent
FIRST = "0001"
# pg_advisory_lock's key while upgrading (any constant of the app's own: "BANK").
LOCK = 0x42414E4B
# What every run of the scripts is configured with (the CLI's through Flask-Migrate's Migrate).
OPTIONS = {"render_as_batch": True, "compare_type": True}
# Alembic's `context` and `op` are one per process: apps made in several threads upgrade in turn.
_one_thread = threading.Lock()


@cache
def scripts():
    """The revision scripts, read once per process."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(DIRECTORY))


@cache
def head() -> str:
    return scripts().get_current_head()


def init_app(app, db) -> None:
    """Register Flask-Migrate (the `flask db` commands) and, when the app is started to serve, bring
    the database to the head."""
    from flask_migrate import Migrate

    Migrate(app, db, directory=str(DIRECTORY), **OPTIONS)
    if serving():
        upgrade_at_start(db.engine, db.metadata)


def serving() -> bool:
    """Whether the app is loaded to serve, read from click's context: by `banker`, gunicorn or any
    WSGI server (no click command), or by `flask run`; not by another `flask` command, which loads it
    to look (`db current`, `db history`, `routes`) or to migrate as it is told (`db upgrade 0002`)."""
    import click
    from flask.cli import FlaskGroup, run_command

    context = click.get_current_context(silent=True)
    if context is None or not isinstance(context.find_root().command, FlaskGroup):
        return True
    return context.command is run_command


def upgrading() -> bool:
    """Whether this process runs `flask db upgrade`."""
    import click
    from flask_migrate.cli import upgrade

    context = click.get_current_context(silent=True)
    return context is not None and context.command is upgrade


def current(engine) -> set[str] | None:
    """The revisions recorded in the database, or None without a version table (one query)."""
    with engine.connect() as connection:
        try:
            return set(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
        except (exc.OperationalError, exc.ProgrammingError):  # no such table
            return None


def upgrade_at_start(engine, metadata) -> None:
    """Bring the database to the head revision: nothing but one query when it is there already."""
    if current(engine) == {head()}:
        return
    from alembic.config import Config
    from alembic.runtime.environment import EnvironmentContext

    config = Config()
    config.set_main_option("script_location", str(DIRECTORY))
    script = scripts()
    with _one_thread, engine.connect() as connection, locked(connection), connection.begin():
        def upgrade(revisions, _context):
            return script._upgrade_revs("head", revisions)

        with EnvironmentContext(config, script, fn=upgrade, destination_rev="head") as environment:
            environment.configure(connection=connection, target_metadata=metadata, **OPTIONS)
            adopt(environment.get_context(), script)
            environment.run_migrations()


def adopt(context, script) -> None:
    """A database made by create_all before migrations (the tables, no recorded revision) is at 0001:
    recorded so, in the migration context's transaction, for the scripts to go on from there."""
    if not context.get_current_heads() and inspect(context.connection).has_table("games"):
        context.stamp(script, FIRST)


@contextmanager
def locked(connection):
    """One process at a time changes the schema. PostgreSQL: a session advisory lock, held until the
    end of the block (the server drops it if the connection dies). SQLite: the block's transaction
    begins IMMEDIATE (store.sqlite_setup), which waits for any other writer and holds them off."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK})
        connection.commit()
        try:
            yield
        finally:
            if connection.in_transaction():
                connection.rollback()
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK})
            connection.commit()
    elif connection.dialect.name == "sqlite":
        from ..store import writing

        with writing():
            yield
    else:
        yield
