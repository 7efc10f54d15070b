"""The web layer: thin blueprints over the store, CSRF, translations and error pages."""

import secrets

from flask import Flask, render_template, request
from flask_babel import Babel, get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect

from . import api, home, join, live, player, table
from ..rules.mortgages import lift_cost, transfer_fee
from .narrate import buildings, group_names, token_names
from .respond import from_htmx

csrf = CSRFProtect()
babel = Babel()
LANGUAGES = ["en"]
HTMX_VERSION = "2.0.8"
HTMX_CDN_HOST = "cdn.jsdelivr.net"
HTMX_SRI = "sha384-/TgkGk7p307TH7EXJDuUlgG3Ce1UVolAOFopFekQkkXihi5u/6OCvVKyz1W+idaz"


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    app.jinja_env.add_extension("jinja2.ext.do")
    babel.init_app(app, locale_selector=lambda: request.accept_languages.best_match(LANGUAGES) or "en")
    for blueprint in (home.bp, table.bp, player.bp, join.bp, live.bp, api.bp):
        app.register_blueprint(blueprint)
    csrf.exempt(api.bp)
    app.jinja_env.filters["money"] = lambda amount, currency="$": f"{currency}{amount:,}"
    app.jinja_env.globals.update(htmx_version=HTMX_VERSION, htmx_sri=HTMX_SRI, htmx_cdn_host=HTMX_CDN_HOST,
                                 nonce=lambda: secrets.token_urlsafe(16), get_locale=get_locale,
                                 lift_cost=lift_cost, fee=transfer_fee)
    app.context_processor(lambda: {"token_names": token_names(), "group_names": group_names(),
                                   "buildings_text": buildings})

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

    @app.errorhandler(500)
    def server_error(error):
        return _error("server_error", _("Something went wrong; nothing was changed."),
                      _("Something went wrong; nothing was changed. Try again."), 500)


def _error(code: str, api_text: str, page_text: str, status: int):
    """An HTTP error as JSON for the API, as a page (or htmx fragment) for everything else."""
    if request.path.startswith("/api/"):
        return api.error(code, api_text, status)
    return _page_error(page_text, status)


def _page_error(text: str, status: int):
    if from_htmx():
        return render_template("_message.html", message=text, category="error"), status
    return render_template("error.html", message=text), status
