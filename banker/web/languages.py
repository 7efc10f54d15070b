"""Each device reads the game in its own language: a `?lang=` link, else the language this
device picked before (a cookie), else its browser's Accept-Language. The API uses the same
choice, so a client gets its messages by sending Accept-Language."""

from urllib.parse import urlencode, urlsplit

from datetime import datetime

from flask import Flask, current_app, request
from flask_babel import get_locale

# The languages of the switch, each named in its own words.
LANGUAGES = {"en": "English", "fr": "Français", "pt": "Português", "ja": "日本語"}
# The Babel locale of each: Portuguese is Portugal's (the Lisbon and Porto board, "1500 €").
LOCALES = {"en": "en", "fr": "fr", "pt": "pt_PT", "ja": "ja"}
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600


def chosen() -> str:
    """This request's language code: en, fr, pt or ja."""
    for asked in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return asked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def zone():
    """The time zone the history tells times in: TIMEZONE (an IANA name such as "Europe/Paris",
    for a hosted server) or else this machine's own, which is the table's on a laptop. Times are
    kept in UTC (models.UTCDateTime), so neither choice changes what is stored."""
    return current_app.config.get("TIMEZONE") or datetime.now().astimezone().tzinfo


def tag() -> str:
    """The page's language as HTML wants it: en, fr, pt-PT, ja."""
    return str(get_locale()).replace("_", "-")


def switch() -> list[dict]:
    """The language switch: this page in each language (a GET link that also remembers it). A
    page answering a form (a refused new game, a rejoin code) links to the page the form was on,
    since its own address only takes forms."""
    current = chosen()
    path, args = request.path, {key: value for key, value in request.args.items() if key != "lang"}
    if request.method != "GET":
        came_from = urlsplit(request.referrer or "")
        path = came_from.path if came_from.netloc == request.host and came_from.path else "/"
        args = {}
    return [{"code": code, "name": name, "current": code == current,
             "url": f"{path}?{urlencode({**args, 'lang': code})}"}
            for code, name in LANGUAGES.items()]


def init_app(app: Flask) -> None:
    @app.after_request
    def remember(response):
        """A `?lang=` link chooses for this device from then on, not only for this page."""
        asked = request.args.get("lang")
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True,
                                secure=request.is_secure)
        if request.endpoint != "static":  # static files are the same in every language
            response.vary.update(("Cookie", "Accept-Language"))
        return response
