"""Tabletop Banker: the Bank and the deed box for a property-trading board game at a real table.

Importing the package imports nothing of Flask's: the rules and the game file (game_file.py) load
without it, as in the process that replays a large import (web/files/imports.py)."""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def shipped(folder: str) -> Path:
    """templates/ or static/: inside the package where a wheel put them (setup.py maps them there),
    else at the top of the checkout, where they are kept (a checkout, or an editable install)."""
    inside = PACKAGE / folder
    return inside if inside.is_dir() else ROOT / folder


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> "Flask":
    """Build the app: its settings (`configured`), then the database, its upgrade and the parts."""
    app = configured(test_config, instance_path)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    from . import live, metrics, migrations, screens, store, web
    from .models import db

    # The store publishes each commit through the live path's notifier (it imports nothing above it).
    notifier = live.for_database(app.config["SQLALCHEMY_DATABASE_URI"])
    memory = store.init_app(app, notifier)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A pooled connection is checked before each use (one round trip): after the server restarted,
        # no page or action meets a connection it dropped. SQLite's file has no connection to lose.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True,
                                                   **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})}
    db.init_app(app)
    # Before Flask-SQLAlchemy's own teardown (teardowns run last registered first): a session whose
    # connection the database dropped is let go without turning the answer into a 500.
    app.teardown_appcontext(lambda _error: store.release())
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            store.sqlite_setup(db.engine)
        # The schema comes from the migrations (banker/migrations/): brought to the newest at
        # every start, at the cost of one query when it is there already.
        migrations.init_app(app, db)
    web.init_app(app)
    screens.init_app(app)  # after web's: its csrf_token, marked while the live path draws, wins
    live.init_app(app, notifier, memory)
    metrics.init_app(app)
    return app


def configured(test_config: dict | None = None, instance_path: str | None = None) -> "Flask":
    """The app with its settings alone: defaults, then instance/config.py and DATABASE_URL (or the
    test mapping), the database neither opened nor upgraded (`banker backup` copies it as it is).

    The instance folder (database, secret key, config.py) is `instance_path`, or the BANKER_INSTANCE
    environment variable, or else Flask's own choice: `instance/` at the top of the checkout, and
    for an installed wheel `<prefix>/var/banker-instance` (never inside site-packages)."""
    from flask import Flask

    instance_path = instance_path or os.environ.get("BANKER_INSTANCE")
    app = Flask(
        __name__,
        instance_path=str(instance_path) if instance_path else None,
        instance_relative_config=True,
        template_folder=str(shipped("templates")),
        static_folder=str(shipped("static")),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "banker.sqlite"),
        HTMX_CDN=True,
        PUBLIC_URL=None,
        # Open live connections one process keeps at most: each holds a server thread, so fewer when
        # the server has fewer threads to spare (live/slots.py; cli.py sizes waitress from this).
        LIVE_CONNECTIONS=200,
        SERVER_THREADS=None,  # the server's threads per process: None, found out (waitress, gunicorn)
        # Nobody takes more than a share of them, counted by what a browser holds in the game (a
        # club's phones behind one router each hold a seat): each seat's phones, the banker's
        # screens, the TV screens, a game's own screens in all, one browser across its games...
        LIVE_PER_SEAT=4,
        LIVE_PER_HOST=8,
        LIVE_PER_GAME=24,
        LIVE_PER_BROWSER=16,
        # ...and the screens that hold nothing in their game (anyone's host screen): a fifth of the
        # slots, LIVE_PER_HOST in each game, and LIVE_PER_ADDRESS from one client address.
        LIVE_PUBLIC_SHARE=0.2,
        LIVE_PER_ADDRESS=8,
        # `banker`'s waitress: connections one client address holds open at once (with no proxy in
        # front), and the seconds a request may take to arrive whole, however its bytes trickle.
        CONNECTIONS_PER_ADDRESS=32,
        REQUEST_SECONDS=15,
        LIVE_RENDERS=1,  # renderers rendering at once (see live/renderer.py)
        # Where the screens are drawn: "process", one of its own beside each serving process, so that
        # a render does not share the interpreter with the answers to taps; or "thread", in the
        # renderer's (live/drawer.py). On Windows, whose pipes `select` cannot wait on, the thread.
        LIVE_DRAWER="process" if os.name == "posix" else "thread",
        # A comment this often on an idle live connection keeps proxies from closing it and lets
        # the server notice a connection the browser closed.
        LIVE_HEARTBEAT_SECONDS=15,
        # A game's largest real body (a trade, a seat order) is a few KB; anything far bigger is
        # refused before it is read (413).
        MAX_CONTENT_LENGTH=64 * 1024,
        # Except a game file brought back (POST /api/games/import, the home page's "Import a game"):
        # a long evening's archive is a few megabytes (docs/benchmarks.md, archive.py).
        IMPORT_MAX_BYTES=8 * 1024 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        # Pages ask often (actions, live reconnections): no need to rewrite the cookie each time.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        BABEL_DEFAULT_LOCALE="en",
        METRICS=False,  # /metrics (banker/metrics.py): off, and when on only for this machine
        ACCESS_LOG=True,  # a line per request on the `banker.access` logger (web/serving/operations.py)
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)
    return app


def _secret_key(instance: Path) -> str:
    """Read instance/secret_key, writing a new random one on first run (never committed). Made
    whole or not at all: hosted processes starting together on one instance folder must all read
    the same key (the first one's), never a half-written file or a key of their own."""
    path = instance / "secret_key"
    if not path.exists():
        draft = instance / f"secret_key.{os.getpid()}"
        draft.write_text(secrets.token_hex(32), encoding="utf-8")
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # fails if another process got there first: then theirs is the key
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text(encoding="utf-8").strip()
