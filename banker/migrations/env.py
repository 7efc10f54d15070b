"""Alembic's environment for Flask-Migrate's `flask --app banker db ...` commands: the app's engine
and models, the same options and the same lock as the upgrade at start (see __init__.py)."""

import logging

from alembic import context
from flask import current_app

from banker.migrations import adopt, locked, upgrading

log = logging.getLogger("alembic.env")
alembic_log = logging.getLogger("alembic")
if not logging.root.handlers and all(isinstance(h, logging.NullHandler) for h in alembic_log.handlers):
    # What the commands do ("Running upgrade  -> 0001, ..."), on stderr, as Alembic's own alembic.ini
    # would say it; an app that configured logging keeps its own.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-5.5s [%(name)s] %(message)s"))
    alembic_log.addHandler(handler)
    alembic_log.setLevel(logging.INFO)
migrate = current_app.extensions["migrate"]
db = migrate.db


def skip_empty_revision(_context, _revision, directives):
    """`flask db migrate` with no change in the models writes no script."""
    if getattr(context.config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        log.info("No changes in schema detected.")


options = {"process_revision_directives": skip_empty_revision, **migrate.configure_args}

if context.is_offline_mode():
    context.configure(url=db.engine.url.render_as_string(hide_password=False), target_metadata=db.metadata,
                      literal_binds=True, **options)
    with context.begin_transaction():
        context.run_migrations()
else:
    with db.engine.connect() as connection, locked(connection), connection.begin():
        context.configure(connection=connection, target_metadata=db.metadata, **options)
        if upgrading():  # `db upgrade` on a database made before migrations goes on from 0001
            adopt(context.get_context(), context.script)
        with context.begin_transaction():
            context.run_migrations()
