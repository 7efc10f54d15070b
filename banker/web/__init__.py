"""The web layer: thin blueprints over the store, CSRF, translations and error pages."""

import hashlib
import hmac
import logging
from dataclasses import dataclass

from flask import Flask, current_app, make_response, render_template
from flask_babel import Babel, force_locale
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy.exc import DBAPIError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from .pages import api, counting, home, join, player, table, tournament, tournament_api, tournament_live, tv
from .serving import assets, fragments, headers, limits, operations, templating
from .files import imports
from ..words import rulebook
from .. import metrics
from ..words import amounts, card_effects, languages
from ..rules.lobby import tied_with
from ..rules.mortgages import lift_cost, transfer_fee
from ..store import CODE_ALPHABET, CODE_LENGTH, database_url, disk_full, in_one_line, on_sqlite, outage
from ..words.names import square_choices, square_name, square_names
from ..words.labels import GROUP_NAMES, TOKEN_NAMES
from ..words.phrases import buildings, listed
from .answers.respond import error, for_api, from_htmx

csrf = CSRFProtect()
babel = Babel()
HTMX_CDN_HOST = "cdn.jsdelivr.net"
log = logging.getLogger(__name__)
# How soon a client may try again when the database is out of reach: a PostgreSQL restart takes a
# second or two.
RETRY_AFTER_SECONDS = 2


@dataclass(frozen=True)
class Script:
    """A pinned npm release served from the CDN with its SRI hash, or from static/vendor/ (the same
    bytes) when the CDN is out of reach; `loaded` is the expression that is true once it ran."""

    package: str
    version: str
    file: str
    sri: str
    loaded: str

    @property
    def cdn_url(self) -> str:
        return f"https://{HTMX_CDN_HOST}/npm/{self.package}@{self.version}/{self.file}"

    @property
    def vendored(self) -> str:
        return f"vendor/{self.package.removesuffix('.org')}-{self.version}.min.js"


SCRIPTS = (
    Script("htmx.org", "2.0.8", "dist/htmx.min.js",
           "sha384-/TgkGk7p307TH7EXJDuUlgG3Ce1UVolAOFopFekQkkXihi5u/6OCvVKyz1W+idaz", "window.htmx"),
    # The live connection (Server-Sent Events); its init defines htmx.createEventSource.
    Script("htmx-ext-sse", "2.2.4", "dist/sse.min.js",
           "sha384-A986SAtodyH8eg8x8irJnYUk7i9inVQqYigD6qZ9evobksGNIXfeFvDwLSHcp31N", "htmx.createEventSource"),
)


class GameCode(BaseConverter):
    """A game's code in a URL (`<code:code>`): CODE_LENGTH characters of CODE_ALPHABET, typed in either
    case, given to the view in upper case. Anything else (a NUL byte, junk, a code too long, an
    excluded letter such as I or O) matches no route: 404 before any view or query. The characters
    are spelled out rather than matched ignoring case, which would let Unicode look-alikes in (the
    Kelvin sign matches K)."""

    regex = f"[{CODE_ALPHABET}{CODE_ALPHABET.lower()}]{{{CODE_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value.upper()


class RejoinCode(BaseConverter):
    """A rejoin code in a URL (`<rejoin:rejoin>`): what secrets.token_urlsafe makes (store.new_claim),
    at most 64 characters; anything else is a 404 before it is hashed or its game looked up."""

    regex = "[A-Za-z0-9_-]{1,64}"


def trust_proxies(app: Flask) -> None:
    """Behind PROXY_FIX reverse proxies (0: none, the LAN mode), believe what the nearest ones say of
    the client: its address (X-Forwarded-For, which the rate limits count by), the scheme
    (X-Forwarded-Proto: https makes the session cookie Secure) and the address it asked for
    (X-Forwarded-Host and -Port: join links and QR codes). Without the setting these headers are
    ignored, so a client cannot pick its own address for the limits. The app is served at the root
    of its address (X-Forwarded-Prefix is not read)."""
    proxies = int(app.config.get("PROXY_FIX") or 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies)


def init_app(app: Flask) -> None:
    trust_proxies(app)
    operations.init_app(app)  # the access log wraps the proxies' fix: it logs the address the app sees
    # Before the blueprints, whose routes name them.
    app.url_map.converters.update(code=GameCode, rejoin=RejoinCode, key=RejoinCode)  # key: a TV's view key
    csrf.init_app(app)
    headers.init_app(app)
    assets.init_app(app)
    templating.init_app(app)
    app.jinja_env.add_extension("jinja2.ext.do")
    babel.init_app(app, locale_selector=lambda: languages.LOCALES[languages.chosen()],
                   timezone_selector=languages.zone)
    languages.init_app(app)
    app.extensions["banker.importing"] = imports.Importing()  # the game files parsed now
    fragments.init_app(app)
    tournament_live.init_app(app)
    for blueprint in (home.bp, table.bp, player.bp, join.bp, tv.bp, api.bp, operations.bp, tournament.bp,
                      tournament_api.bp):
        app.register_blueprint(blueprint)
    counting.init_app(app)
    csrf.exempt(api.bp)
    csrf.exempt(tournament_api.bp)
    csrf.exempt(home.bring_back)  # checked in the view, once the larger body it may read is allowed
    limits.init_app(app)
    app.jinja_env.filters["money"] = amounts.money
    app.jinja_env.filters["about"] = amounts.about
    app.jinja_env.filters["listed"] = listed  # names as the reader's language lists them: Ann、Bob
    app.jinja_env.globals.update(rules_in_words=rulebook.rules_in_words, square_name=square_name,
                                 square_names=square_names, square_choices=square_choices,
                                 another_card_fields=card_effects.another_card_fields)
    app.jinja_env.globals.update(scripts=SCRIPTS,
                                 shared_nonce=shared_nonce,
                                 language_tag=languages.tag, language_switch=languages.switch,
                                 lift_cost=lift_cost, fee=transfer_fee, tied_with=tied_with)
    app.jinja_env.globals.update(token_names=TOKEN_NAMES, group_names=GROUP_NAMES, buildings_text=buildings)

    @app.errorhandler(CSRFError)
    def expired_form(error):
        return _page_error(_("This form has expired or did not come from this game's pages; reload the page and try again."), 400)

    @app.errorhandler(404)
    def not_found(error):
        return _error("not_found", _("No such game or page."), _("No such game or page. Check the code."), 404)

    @app.errorhandler(405)
    def wrong_method(error):
        return _error("method_not_allowed", _("That method is not allowed here."),
                      _("That page cannot be used like this."), 405)

    @app.errorhandler(413)
    def too_large(error):
        limit = app.config["MAX_CONTENT_LENGTH"] // 1024
        return _error("too_large", _("The request is too large (at most %(kb)s KB).", kb=limit),
                      _("That was too much to send at once."), 413)

    @app.errorhandler(429)
    def too_many(error):
        response = make_response(_error("too_many_requests",
                                        _("Too many requests from this address; wait a minute and try again."),
                                        _("Too many tries from this device; wait a minute and try again."), 429))
        response.headers["Retry-After"] = str(limits.retry_after(error))
        return response

    @app.errorhandler(500)
    def server_error(error):
        return _error("server_error", _("Something went wrong; nothing was changed."),
                      _("Something went wrong; nothing was changed. Try again."), 500)

    @app.errorhandler(DBAPIError)
    def database_failed(error):
        """The database failing (docs/hosting.md, When the database fails). Its transaction was rolled
        back, so nothing was changed; the user is told what is wrong and whether to try again, and
        the log gets one line, not a traceback: it is not a bug."""
        if not outage(error):
            raise error  # a bug: 500, with its traceback in the log
        if disk_full(error):
            metrics.database_failed("disk_full")
            _say_disk_full(error)
            if on_sqlite():
                text = _("The laptop's disk is full: free some space, nothing was lost.")
            else:
                text = _("The server's disk is full; nothing was lost. Try again later.")
            return _error("disk_full", text, text, 507)
        metrics.database_failed("unavailable")
        log.warning("the database is out of reach (%s); answered 503", in_one_line(error))
        text = _("The bank is unreachable for a moment; nothing was changed.")
        response = make_response(_error("unavailable", text, text, 503))
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


def shared_nonce(*parts) -> str:
    """A nonce that every banker screen of a game gives the same form and nobody else can guess:
    derived from the app's key and what the form is about (`parts`)."""
    key = current_app.config["SECRET_KEY"].encode()
    message = ":".join(map(str, ("nonce", *parts))).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def _error(code: str, api_text: str, page_text: str, status: int):
    """An HTTP error as JSON for the API, as a page (or htmx fragment) for everything else."""
    if for_api():
        return error(code, api_text, status)
    return _page_error(page_text, status)


def _say_disk_full(error) -> None:
    """The terminal says it too, in one line, in the language `banker` prints in (cli.py): the host
    at the laptop is the one who can free some space."""
    with force_locale(languages.LOCALES[current_app.extensions.get("banker.terminal_language", "en")]):
        log.error(_("The disk of the database %(database)s is full (%(error)s): free some space on it. "
                    "Nothing was lost; the game goes on once there is room.",
                    database=database_url(), error=in_one_line(error)))


def _page_error(text: str, status: int):
    if from_htmx():
        return render_template("_message.html", message=text, category="error"), status
    return render_template("error.html", message=text), status
