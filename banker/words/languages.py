"""Each device reads the game in its own language: a `?lang=` link, else the language this
device picked before (a cookie), else its browser's Accept-Language. The API uses the same
choice, so a client gets its messages by sending Accept-Language."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple
from urllib.parse import urlencode, urlsplit

from datetime import datetime

from babel import Locale
from babel.support import NullTranslations
from flask import Flask, current_app, g, request
from flask_babel import force_locale, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup

# The languages of the switch, each named in its own words.
LANGUAGES = {"en": "English", "fr": "Français", "pt": "Português", "ja": "日本語"}
# The Babel locale of each: Portuguese is Portugal's (the Lisbon and Porto board, "1500 €").
LOCALES = {"en": "en", "fr": "fr", "pt": "pt_PT", "ja": "ja"}
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600


class Spoken(NamedTuple):
    """A locale as `speaking` keeps it at hand: Babel's, its name (pt_PT), its catalog, and whether
    it is French (which elides)."""

    locale: Locale
    name: str
    catalog: NullTranslations
    french: bool


_SPOKEN: ContextVar[Spoken | None] = ContextVar("banker.spoken", default=None)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Everything within in locale `code` (Flask-Babel's force_locale), with that locale, its name
    and its catalog at hand: the live path draws screens in it, which ask for them about 300 times
    per change of a table, each time through two of Werkzeug's context lookups otherwise. Nothing
    within forces another locale."""
    with force_locale(code):
        here = get_locale()
        token = _SPOKEN.set(Spoken(here, str(here), _catalog(here), here.language == "fr"))
        try:
            yield
        finally:
            _SPOKEN.reset(token)


def locale() -> Locale:
    """This request's locale, as get_locale() keeps it once chosen (or forced), read without its
    detours: a screen asks for it at every amount and sentence, and get_locale() took 4 µs. Where
    Flask-Babel 4 keeps it is private: tests/test_private_seams.py fails once a version moves it."""
    spoken = _SPOKEN.get()
    if spoken is not None:
        return spoken.locale
    found = getattr(g.get("_flask_babel"), "babel_locale", None)
    return found if found is not None else get_locale()


def locale_name() -> str:
    """This request's locale as Babel names it (en, pt_PT): what is kept per language is kept by it."""
    spoken = _SPOKEN.get()
    return spoken.name if spoken is not None else str(locale())


# The catalog of each locale, loaded once: Flask-Babel looks its cache up through five context
# lookups at every sentence (14 µs; 25 µs in a template, where a screen has a hundred).
_CATALOGS: dict[Locale, NullTranslations] = {}


def catalog() -> NullTranslations:
    """This request's translations."""
    spoken = _SPOKEN.get()
    return spoken.catalog if spoken is not None else _catalog(locale())


def _catalog(here: Locale) -> NullTranslations:
    found = _CATALOGS.get(here)
    if found is None:
        found = _CATALOGS[here] = get_translations()
    return found


# French « de » and « que » before a value filled in: elided before a vowel or a mute h, as the
# language wants (« Carte d'Hugo », « Ce qu'Ann devait »), which a translation cannot write itself,
# not knowing the name. A y before a vowel is a consonant (« de Yann », « d'Yves »).
_ELIDABLE = re.compile(r"(?<![\w'’])([Dd]e|[Qq]ue) (?=%\((\w+)\)[sd]|\{(\w+)\})")
_TAGS = re.compile(r"^(?:<[^>]*>)+")
_VOWEL_SOUND = re.compile(r"[aeiouhàâäéèêëîïôöùûüœæ]|y[^aeiouyàâéèêîôû]", re.IGNORECASE)


def elide(text: str, values: dict) -> str:
    """A French sentence to be filled with `values`, its « de » and « que » elided before those of
    them that start with a vowel sound: « Carte de %(name)s » for Hugo is « Carte d'%(name)s »."""
    def one(found: re.Match) -> str:
        value = _TAGS.sub("", str(values.get(found.group(2) or found.group(3), "")))  # a name in <strong>
        return found.group(1)[:-1] + "'" if _VOWEL_SOUND.match(value) else found.group(0)

    return _ELIDABLE.sub(one, text)


class _French(str):
    """A French sentence that narrate.py and the refusals fill with str.format: filled, it elides."""

    def format(self, *args, **values) -> str:
        return str.format(elide(self, values), *args, **values)


def _french() -> bool:
    spoken = _SPOKEN.get()
    return spoken.french if spoken is not None else getattr(locale(), "language", None) == "fr"


def gettext(string: str, **variables) -> str:
    """flask_babel.gettext, through the catalog kept here (French elides where it is filled)."""
    text = catalog().ugettext(string)
    if _french():
        return elide(text, variables) % variables if variables else _French(text)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """flask_babel.ngettext, through the catalog kept here."""
    variables.setdefault("num", num)
    text = catalog().ungettext(singular, plural, num)
    return (elide(text, variables) if _french() else text) % variables


def _filled(context, text: str, variables: dict) -> str:
    """A template's sentence as Jinja's new-style gettext makes it: markup when the template
    escapes, then its %(name)s filled (which also turns %% into %), French elided."""
    if variables and _french():
        text = elide(text, variables)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % variables if "%" in text else text


@pass_context
def template_gettext(context, string: str, **variables) -> str:
    return _filled(context, catalog().ugettext(string), variables)


@pass_context
def template_ngettext(context, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    return _filled(context, catalog().ungettext(singular, plural, num), variables)


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
    return locale_name().replace("_", "-")


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
    # After Flask-Babel's, in place of its callables (the same sentences, faster: see catalog).
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)

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
