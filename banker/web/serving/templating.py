"""Jinja's templates, with imports that cost what they do.

Each `{% from "_forms.html" import … %}` asks the imported template for its module, and Jinja 3.1
first works out which of the importing render's global names the imported template lacks
(`ctx.globals_keys - self.globals.keys()`, a set against a ChainMap's keys: one lookup per name in
every map). Every template here shares the app's globals, so the answer is always "none"; but a
live change makes about thirty imports per screen, and that lookup was a tenth of a render.

Jinja has no public hook for a template's import, so this overrides a private one of Jinja 3.1:
pyproject.toml keeps Jinja2 below 4, and tests/test_private_seams.py fails once a version changes it.
"""

import jinja2


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
    app.jinja_env.template_class = Template
