"""Jinja's templates, with attribute reads and imports that cost what they do.

`obj.name` in a template is Jinja's `Environment.getattr`: the object's attribute, else its item.
Most of what the screens hand their templates is dicts (a history row, a deed's buttons, a card), so
most reads tried the attribute first, and paid for the AttributeError raised before the item was
looked up: about 700 exceptions for one change of a table's nine screens. `Environment` answers a
dict or None at once, with what Jinja would have answered.

Each `{% from "_forms.html" import … %}` asks the imported template for its module, and Jinja 3.1
first works out which of the importing render's global names the imported template lacks
(`ctx.globals_keys - self.globals.keys()`, a set against a ChainMap's keys: one lookup per name in
every map). Every template here shares the app's globals, so the answer is always "none"; but a
live change makes about thirty imports per screen, and that lookup was a tenth of a render.

Jinja has no public hook for a template's import, so this overrides a private one of Jinja 3.1:
pyproject.toml keeps Jinja2 below 4, and tests/test_private_seams.py fails once a version changes it.
"""

import jinja2
from flask import templating

# What a dict, or None, has as attributes: any other name is not one of theirs (neither has a
# __dict__ of its own to hold more).
_DICT_ATTRIBUTES, _NONE_ATTRIBUTES = frozenset(dir(dict)), frozenset(dir(None))


class Environment(templating.Environment):
    """Flask's environment, whose `obj.name` reads a dict's item or None's absence without raising
    (and catching) an AttributeError first: the same answer as Jinja's, at a third of the cost."""

    def getattr(self, obj, attribute: str):
        kind = type(obj)
        if kind is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        if obj is None and attribute not in _NONE_ATTRIBUTES:
            return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class Template(jinja2.Template):
    """A template that remembers the names of its globals (while the app's globals keep their
    number), so an import whose render has no other globals takes the cached module at once."""

    _names: tuple[int, frozenset] | None = None

    def _get_default_module(self, ctx=None):
        if ctx is not None:
            size = len(self.environment.globals)
            if self._names is None or self._names[0] != size:
                self._names = (size, frozenset(self.globals))
            if ctx.globals_keys <= self._names[1]:
                ctx = None  # nothing the imported template lacks: its module, made once, serves
        return super()._get_default_module(ctx)


def init_app(app) -> None:
    """Before anything asks for the app's environment (Flask makes it on first use, from these)."""
    assert "jinja_env" not in vars(app), "the templates' environment is made already"
    app.jinja_environment = Environment
    # Every template kept once compiled: Jinja's default keeps the newest 400 in a list it searches
    # and reorders at every use (70 times per change of a table's screens); the app has about 80.
    app.jinja_options = {**app.jinja_options, "cache_size": -1}
    app.jinja_env.template_class = Template
