"""The app's templates' environment (web/serving/templating.py) reads `obj.name` as Jinja's own does."""

import jinja2
import pytest
from flask import Flask

from banker.web.serving import templating

READS = ["{{ x.name }}", "{{ x.items is defined }}", "{{ x.items is callable }}", "{{ x.missing is defined }}",
         "{{ x.__class__.__name__ }}", "{{ x.name.upper() if x.name is string }}", "{{ x.get is defined }}"]
VALUES = [{"name": "Ann"}, {"items": "its own"}, {}, None, {"name": {"items": 3}}, [1], "text",
          type("Seat", (), {"name": "Bob"})()]


@pytest.mark.parametrize("value", VALUES, ids=repr)
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
