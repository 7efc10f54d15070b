"""The two private seams the app leans on, for speed, where the libraries offer no public one. Each
is pinned: pyproject.toml holds the library below its next major version, and these tests fail as
soon as a version moves what the seam reads (then drop the seam, or follow it)."""

import inspect
from importlib.metadata import version

import jinja2
from flask import Flask, g
from flask_babel import Babel, force_locale, get_locale

from banker.web.serving import templating
from banker.words import languages


def major(distribution: str) -> int:
    return int(version(distribution).split(".")[0])


def test_jinja_still_works_out_an_imports_missing_globals_where_the_app_skips_it():
    """templating.Template overrides Jinja 3.1's private `_get_default_module(ctx)`, to skip the
    set of the importing render's global names the imported template lacks (none, here): there is
    no public hook for a template's import."""
    assert major("jinja2") == 3
    hook = jinja2.Template._get_default_module
    assert list(inspect.signature(hook).parameters) == ["self", "ctx"]
    assert "ctx.globals_keys - self.globals.keys()" in inspect.getsource(hook)
    assert templating.Template._get_default_module is not hook


def test_flask_babel_keeps_the_requests_locale_where_the_app_reads_it():
    """languages.locale reads Flask-Babel 4's own store of the chosen (or forced) locale,
    `g._flask_babel.babel_locale`, instead of get_locale()'s detours: the public call returns the
    same, slower. A version keeping it elsewhere would leave locale() on its slow path unseen."""
    assert major("flask-babel") == 4
    app = Flask(__name__)
    Babel(app, locale_selector=lambda: "fr")
    with app.test_request_context("/"):
        chosen = get_locale()
        assert str(chosen) == "fr" and g._flask_babel.babel_locale is chosen
        assert languages.locale() is chosen
        with force_locale("ja"):
            assert str(g._flask_babel.babel_locale) == "ja" and languages.locale() == get_locale()
