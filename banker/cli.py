"""The `banker` command: serve the app on the local network and show how phones reach it.
`banker purge --older-than 30d` deletes the ended games nobody has played for that long; `banker backup
PATH` copies the database while it is served."""

import argparse
import logging
from contextlib import closing
import os
import signal
import socket
import sqlite3
import sys
from pathlib import Path

from babel.core import default_locale
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.engine import make_url
from waitress.server import create_server

from . import configured, create_app, door, purge, qr
from .lan import local_only, server_url
from .models import db
from .rules.errors import N_
from .web import HTMX_CDN_HOST, babel
from .web.serving import operations
from .web.pages.tournament_live import keep_time
from .words.languages import LANGUAGES, LOCALES


def cdn_reachable(timeout: float = 1.5) -> bool:
    """Whether phones could load htmx from the CDN; a game night without internet serves it locally."""
    try:
        socket.create_connection((HTMX_CDN_HOST, 443), timeout=timeout).close()
        return True
    except OSError:
        return False


def body_limit(app) -> int:
    """The largest body waitress reads, twice the largest the app takes (a game file of IMPORT_MAX_BYTES
    in the home page's form, whose other fields MAX_CONTENT_LENGTH bounds): waitress reads a whole body
    (past 512 KB into a temporary file) before the app sees it, and refuses a larger one at once, in
    plain text, so that nobody makes it take in 300 MB. Up to this, the app answers a body over its
    own limits itself: the API's JSON `too_large`, the page's message."""
    return 2 * (app.config["IMPORT_MAX_BYTES"] + app.config["MAX_CONTENT_LENGTH"])


# `banker`'s access log, in the instance folder (web/serving/operations.py): the terminal keeps its banner.
ACCESS_LOG_FILE = "access.log"

# What waitress keeps of one connection's answer before it starts a new buffer and lets the sent
# one go. A live connection's answer never ends, and waitress's buffer keeps what it has already
# sent up to this much (16 MB by default): over an evening, every open page grew the server by
# about 1 KB per change (benchmarks/soak.py). An app thread also waits past this much unsent.
OUTBUF_LIMIT = 256 * 1024


def server_options(app) -> dict:
    """waitress sized for live pages: each open page holds one connection and one thread for as
    long as it is open (LIVE_CONNECTIONS of them), with threads to spare for actions and pages
    (the live connections fit the threads waitress has, whatever they are: live/slots.py), and
    room for each phone's second connection (its actions). poll() instead of select(), which
    cannot watch more than 1,024 sockets. It reads on from a connection while its request is served
    (`channel_request_lookahead`), so that a live page's hanging up is seen at once (live/stream.py).
    Bodies are capped at body_limit (twice a game file brought back).
    waitress drops the X-Forwarded-* headers unless PROXY_FIX says a proxy sets them (the app reads
    them: web/__init__.py). Each connection's output buffer is let go every OUTBUF_LIMIT bytes."""
    live = app.config["LIVE_CONNECTIONS"]
    return {"threads": live + 32, "connection_limit": 4 * live + 100, "asyncore_use_poll": True,
            "channel_request_lookahead": 1, "ident": "tabletop-banker",
            "max_request_body_size": body_limit(app),
            "outbuf_high_watermark": OUTBUF_LIMIT, "clear_untrusted_proxy_headers": not app.config.get("PROXY_FIX")}


def make_server(app, host: str, port: int, **options):
    """waitress as `banker` runs it: sized by server_options (or `options`), behind its door
    (door.py): a client address holds CONNECTIONS_PER_ADDRESS connections at most (unless a proxy is
    in front, whose address they would all share), and a request arrives whole within REQUEST_SECONDS."""
    server = create_server(app, host=host, port=port, **{**server_options(app), **options})
    per_address = None if app.config.get("PROXY_FIX") else app.config["CONNECTIONS_PER_ADDRESS"]
    return door.guard(server, per_address, app.config["REQUEST_SECONDS"])


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["purge"]:
        return purge_games(argv[1:])
    if argv[:1] == ["backup"]:
        return backup_database(argv[1:])
    parser = argparse.ArgumentParser(prog="banker", description=__doc__)
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--offline", action="store_true",
                        help="never load htmx from the CDN (it is served by the app itself)")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the language of these lines (default: the terminal's, from LANG)")
    args = parser.parse_args(argv)

    app = create_app()
    keep_time(app)  # the tournaments' round clocks, kept by this server (a round's time may be up already)
    operations.log_to_file(Path(app.instance_path) / ACCESS_LOG_FILE)
    url = server_url(args.host, args.port)
    # The join QR codes show this address too when the host browses on localhost (screens/links.py),
    # unless instance/config.py gives the public address (behind a proxy that forwards to 127.0.0.1).
    app.config["PUBLIC_URL"] = app.config["PUBLIC_URL"] or url
    app.config["HTMX_CDN"] = not args.offline and cdn_reachable()
    language = app.extensions["banker.terminal_language"] = args.lang or terminal_language()  # its log lines too
    print(qr.terminal(url))
    print(banner(app, url, args.host, language), flush=True)
    # Ctrl+C first ends the open live connections, so that waitress's threads stop at once.
    signal.signal(signal.SIGINT, lambda *_: _stop(app))
    server = make_server(app, args.host, args.port)
    logging.basicConfig()  # waitress's warnings, as its serve() shows them
    server.print_listen("Serving on http://{}:{}")
    server.run()


# A game's status as `banker purge --dry-run` lists it.
STATUSES = {"lobby": N_("not started"), "playing": N_("being played"), "ended": N_("ended")}


def purge_games(argv: list[str]) -> None:
    """`banker purge --older-than AGE [--unfinished] [--dry-run]`: delete the old games (see purge.py)
    of the database `banker` serves, or only list them, and say how many."""
    parser = argparse.ArgumentParser(
        prog="banker purge", description="Delete the ended games nobody has touched for a while, with their "
        "history, seats and rejoin codes (and the games not ended too, if asked).")
    parser.add_argument("--older-than", required=True, type=_age, metavar="AGE",
                        help="how long without a move: 30d (days), 12h (hours) or 90min (minutes)")
    parser.add_argument("--unfinished", action="store_true",
                        help="also delete the games not ended (abandoned, or never started) as old")
    parser.add_argument("--dry-run", action="store_true",
                        help="list the games it would delete (code, status, last activity) and delete nothing")
    args = parser.parse_args(argv)
    age = purge.parse_age(args.older_than)
    app = create_app()
    with app.app_context(), force_locale(LOCALES[terminal_language()]):
        if args.dry_run:
            going = purge.would_go(age, args.unfinished)
            for game in going:
                print(f"{game.code}  {_(STATUSES.get(game.status, game.status))}  {game.last:%Y-%m-%d %H:%M} UTC")
        kept = 0 if args.unfinished else purge.unfinished_kept(age)
        count = len(going) if args.dry_run else purge.purge(age, args.unfinished)
        db.session.remove()  # the dry run's reads hold a connection, which dispose() would leave open
        app.extensions["banker.notifier"].close()
        db.engine.dispose()
        print(_purged(count, args.older_than, args.unfinished, args.dry_run))
        if kept:
            print(ngettext("%(num)s game not ended is as old and stays: add --unfinished to delete it too.",
                           "%(num)s games not ended are as old and stay: add --unfinished to delete them too.", kept))


def _purged(count: int, age: str, unfinished: bool, dry_run: bool) -> str:
    """What `banker purge` did, or would do (a dry run), in one sentence."""
    if dry_run and unfinished:
        return ngettext("Would delete %(num)s game not played for %(age)s or more, ended or not (a dry run: "
                        "nothing was deleted).", "Would delete %(num)s games not played for %(age)s or more, ended "
                        "or not (a dry run: nothing was deleted).", count, age=age)
    if dry_run:
        return ngettext("Would delete %(num)s ended game not played for %(age)s or more (a dry run: nothing was "
                        "deleted).", "Would delete %(num)s ended games not played for %(age)s or more (a dry run: "
                        "nothing was deleted).", count, age=age)
    if unfinished:
        return ngettext("Deleted %(num)s game not played for %(age)s or more, ended or not.",
                        "Deleted %(num)s games not played for %(age)s or more, ended or not.", count, age=age)
    return ngettext("Deleted %(num)s ended game not played for %(age)s or more.",
                    "Deleted %(num)s ended games not played for %(age)s or more.", count, age=age)


def backup_database(argv: list[str]) -> None:
    """`banker backup PATH`: a consistent copy of the SQLite database `banker` serves, made while it
    serves (SQLite's online backup API: one read transaction, which no writer waits for in WAL
    mode), written whole to PATH or not at all. The database is read as it is, never upgraded, so
    a copy taken before an upgrade is the database before it. On PostgreSQL: pg_dump, and exit 1."""
    parser = argparse.ArgumentParser(
        prog="banker backup", description="Copy the SQLite database that `banker` serves, while it serves it.")
    parser.add_argument("path", type=Path, metavar="PATH", help="the file to write the copy to (replaced if it exists)")
    args = parser.parse_args(argv)
    app = configured()
    babel.init_app(app)  # its sentences, without the rest of the app
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    with app.app_context(), force_locale(LOCALES[terminal_language()]):
        if url.get_backend_name() != "sqlite":
            sys.exit(_("This database is not a SQLite file: back up PostgreSQL with pg_dump "
                       "(docs/hosting.md, Backup and restore)."))
        source = Path(url.database or "")
        if not source.is_file():
            sys.exit(_("There is no database at %(path)s to back up.", path=source))
        draft = args.path.with_name(f".{args.path.name}.{os.getpid()}")
        try:
            with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as served, \
                    closing(sqlite3.connect(draft)) as copy:
                served.backup(copy)
                games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
            draft.replace(args.path)
        except (OSError, sqlite3.Error) as error:
            draft.unlink(missing_ok=True)
            sys.exit(_("The backup failed, nothing was written to %(path)s: %(error)s", path=args.path, error=error))
        print(ngettext("Copied %(database)s to %(path)s: %(num)s game.",
                       "Copied %(database)s to %(path)s: %(num)s games.", games, database=source, path=args.path))


def _age(text: str) -> str:
    try:
        purge.parse_age(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def terminal_language() -> str:
    """The terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES or LANG) if the app speaks it."""
    found = (default_locale("LC_MESSAGES") or "en").split("_")[0]
    return found if found in LANGUAGES else "en"


def banner(app, url: str, host: str, language: str) -> str:
    """What the terminal says once the server is up: where to go, who can reach it, the database."""
    with app.app_context(), force_locale(LOCALES[language]):
        reach = (_("Only this computer can open it: for phones, start it with --host 0.0.0.0 (not %(host)s).",
                   host=host) if local_only(host)
                 else _("Phones on the same Wi-Fi join by scanning the code the game shows."))
        lines = [_("Tabletop Banker is running. Open %(url)s on this laptop to create a game.", url=url), reach]
        if app.config["ACCESS_LOG"]:
            lines.append(_("Each request is logged in %(path)s.", path=Path(app.instance_path) / ACCESS_LOG_FILE))
        lines.append(_("Database: %(database)s  (Ctrl+C to stop)", database=app.config["SQLALCHEMY_DATABASE_URI"]))
        return "\n".join(lines)


def _stop(app) -> None:
    app.extensions["banker.notifier"].close()
    raise KeyboardInterrupt
