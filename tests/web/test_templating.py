"""The app's templates' environment (web/serving/templating.py) reads `obj.name` as Jinja's own does."""

import jinja2
import pytest
from flask import Flask

from banker.screens import OneLine, squeeze
from banker.web.serving import templating

READS = ["{{ x.name }}", "{{ x.items is defined }}", "{{ x.items is callable }}", "{{ x.missing is defined }}",
         "{{ x.__class__.__name__ }}", "{{ x.name.upper() if x.name is string }}", "{{ x.get is defined }}"]
VALUES = {"a dict": {"name": "Ann"}, "a dict with a key named as its method": {"items": "its own"}, "an empty dict": {},
          "None": None, "a dict in a dict": {"name": {"items": 3}}, "a list": [1], "a string": "text",
          "an object": type("Seat", (), {"name": "Bob"})()}


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_an_attribute_read_answers_what_jinjas_own_environment_answers(value):
    """A dict's item, a dict's own method of that name, None's absence, any other object: the same."""
    app = Flask(__name__)
    templating.init_app(app)
    ours = app.jinja_env
    theirs = jinja2.Environment(autoescape=ours.autoescape)
    assert isinstance(ours, templating.Environment)
    for read in READS:
        assert ours.from_string(read).render(x=value) == theirs.from_string(read).render(x=value), read
    strict = jinja2.Environment(autoescape=ours.autoescape, undefined=jinja2.StrictUndefined)
    ours.undefined = jinja2.StrictUndefined
    for read in ("{{ x.missing }}", "{{ x.name }}"):
        try:
            expected = strict.from_string(read).render(x=value)
        except jinja2.UndefinedError as error:
            with pytest.raises(jinja2.UndefinedError, match=str(error)):
                ours.from_string(read).render(x=value)
        else:
            assert ours.from_string(read).render(x=value) == expected


def test_a_templates_own_text_is_put_on_one_line_as_it_is_compiled_but_where_it_keeps_its_line_breaks():
    """screens.OneLine: each run of white space with a line break in a template's text is one space,
    as a browser reads it (two where a tag of the template's stood between), but in a <pre>, a
    <textarea> or a <script>; a value drawn in keeps its own, which parts.squeeze squeezes."""
    environment = jinja2.Environment(extensions=[OneLine])
    part = environment.from_string('<div id="news">\n  {% if shown %}\n    <h2>{{ name }}</h2>\n'
                                   '  {% endif %}\n</div>\n')
    assert part.render(shown=True, name="Ann") == '<div id="news">  <h2>Ann</h2>  </div>'
    assert squeeze(part.render(shown=True, name="Ann\n Bob")) == '<div id="news">  <h2>Ann Bob</h2>  </div>'
    page = environment.from_string('<PRE>a\n  b</pre>\n<p>\n<textarea name="memo">\n{{ memo }}</textarea>\n'
                                   '<script nonce="{{ nonce }}">// a line\nrun()</script>\n\t<p>c</p>')
    assert page.render(memo="x\ny", nonce="n") == ('<PRE>a\n  b</pre> <p> <textarea name="memo">\nx\ny</textarea> '
                                                  '<script nonce="n">// a line\nrun()</script> <p>c</p>')
