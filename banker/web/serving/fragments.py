"""Rows rendered once: a row of a list (a square of the board) is the same HTML whenever what it
shows is the same, so it is rendered once per language and kept.

A change moves a pawn or a deed or two, and every screen showing the board would otherwise render
all forty squares again. A list's template asks for each row with `fragment(template, key, **vars)`,
where `key` holds every value the row's HTML is made from (with the template's name and the
reader's language): a row already made for that key is taken as it is, in microseconds.
"""

from collections.abc import Hashable

from flask import current_app
from markupsafe import Markup

from ...words.languages import locale_name
from ...lru import LruCache

# Rows kept per process: the squares of a few hundred game versions in each language, a few
# hundred bytes each.
ROWS = 20_000


def fragment(template: str, key: Hashable, **variables) -> Markup:
    """The HTML of `template` with these variables, made once per key and language. Only for
    templates whose HTML `key` decides in full (no form: a form's token and nonce are per page)."""
    def render() -> Markup:
        return Markup(current_app.jinja_env.get_template(template).render(variables))

    return current_app.extensions["banker.fragments"].get((template, locale_name(), key), render)


def init_app(app) -> None:
    app.extensions["banker.fragments"] = LruCache(ROWS)
    app.jinja_env.globals["fragment"] = fragment
