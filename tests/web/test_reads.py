"""What a part's template reads (banker/screens/reads.py): two contexts whose values read are the
same draw the same HTML, for every construct the templates use, on every small context; the
compiled program reads what the program does; and a branch not taken reads nothing."""

import itertools
from typing import NamedTuple

import pytest
from jinja2 import DictLoader, Environment

from banker.screens import PhoneScreen, TableScreen, TvScreen
from banker.screens import reads


class Seat(NamedTuple):
    id: int
    name: str
    cash: int


SEATS = {1: Seat(1, "Ann", 5), 2: Seat(2, "Bob", 7)}

TEMPLATES = {
    "branches": """{% if turn == 1 and "roll" in legal %}{{ seats[turn].name }} rolls{% elif turn == 2 %}{{ seats[2].cash }}
        {% else %}{{ note }}{% endif %}{% if note is none %}-{% endif %}""",
    "alias": """{% set mine = pending if pending and pending.player == me else none %}{% set who = seats[turn] %}
        {% if mine %}{{ mine.kind }} for {{ who.name }}{% endif %}{{ who.cash if turn == me else "" }}""",
    "loops": """{% for s in seats.values() if s.id != me %}{{ s.name }}{% if s.cash > 6 %}!{% endif %}{% else %}none{% endfor %}
        {% for d in debts %}{{ d }}{% set turn = 2 %}{{ turn }}{% endfor %}{{ turn }}""",
    "shadow": """{% for me in [turn] %}{% include "inner" %}{% endfor %}{% with legal=["roll"] %}{% include "inner" %}{% endwith %}
        {% include "inner" %}""",
    "inner": """{% if me == 1 %}{{ seats[me].cash }}{% endif %}{% if "roll" in legal %}R{% endif %}""",
    "macros": """{% from "lib" import line with context %}{% from "plain" import bare %}{{ line(turn) }}{{ bare(me) }}""",
    "lib": """{% macro line(who) %}{% if note %}{{ note }}:{% endif %}{{ seats[who].name }}{{ debts|length }}{% endmacro %}""",
    "plain": """{% macro bare(x) %}[{{ x }}]{% endmacro %}""",
    "outer": """<b>{% include "inner" %}</b>{{ note|default("none") }}""",
    "fallback": """{% if note and note.startswith("h") %}{{ note }}{% else %}{{ turn }}{% endif %}{{ seats[absent] }}
        {{ seats[turn if me == 1 else 2].cash }}
        {% if (note|default("x")) == "hi" or pending.kind is undefined %}{{ me }}{% endif %}""",
    "late": """{% macro own() %}{{ note }}{{ who }}{% endmacro %}{% if turn == 1 %}{% set who = seats[me] %}{{ own() }}{% endif %}
        {{ who.name if who else "?" }}{% if who is defined and who %}{{ who.cash }}{% endif %}""",
}
DOMAIN = {"turn": (1, 2), "me": (1, 2), "legal": ({"roll"}, set()), "note": (None, "hi"),
          "pending": (None, {"player": 1, "kind": "buy"}, {"player": 2, "kind": "draw"}),
          "debts": ((), (3,)), "seats": (SEATS, {**SEATS, 2: Seat(2, "Bob", 9)}), "who": (None, Seat(3, "Cy", 1))}


@pytest.fixture(scope="module")
def environment():
    return Environment(loader=DictLoader(TEMPLATES))


@pytest.mark.parametrize("template", ["branches", "alias", "loops", "shadow", "macros", "outer", "fallback", "late"])
def test_the_same_values_read_draw_the_same_html(environment, template):
    drawn: list[tuple[tuple, str]] = []  # (values, HTML): values may hold what cannot be hashed
    names = list(DOMAIN)
    for chosen in itertools.product(*DOMAIN.values()):
        context = dict(zip(names, chosen))
        html = environment.get_template(template).render(context)
        values = reads.values(template, environment, context)
        found = []
        reads._run(reads.program(environment, template), context, environment, found.append)
        assert tuple(found) == values  # the compiled program reads what the program does
        same = next((other for seen, other in drawn if seen == values), None)
        assert same in (None, html), (template, context)
        if same is None:
            drawn.append((values, html))
    assert len(drawn) > 2  # not one value for everything: the reads tell contexts apart


def test_a_branch_not_taken_reads_nothing_and_a_path_reads_only_its_end(environment):
    read = {"turn": 2, "me": 1, "legal": set(), "note": None, "pending": None, "debts": (), "seats": SEATS}
    values = reads.values("branches", environment, read)
    assert reads.values("branches", environment, {**read, "seats": {**SEATS, 1: Seat(1, "Ann", 99)}}) == values
    assert reads.values("branches", environment, {**read, "seats": {**SEATS, 2: Seat(2, "Bo", 7)}}) == values
    assert reads.values("branches", environment, {**read, "seats": {**SEATS, 2: Seat(2, "Bob", 8)}}) != values


def test_a_template_shown_apart_is_not_read(environment):
    context = {"me": 1, "seats": SEATS, "legal": {"roll"}, "note": "x"}
    apart = frozenset({"inner"})
    assert reads.values("outer", environment, context, apart) == reads.values(
        "outer", environment, {**context, "me": 2, "legal": set()}, apart)
    assert reads.values("outer", environment, context) != reads.values("outer", environment, {**context, "me": 2})


def test_every_part_of_every_screen_has_a_program(app):
    """Each part's template (and what it includes and calls) is read into a program; none reads a
    template named at run time, which the program could not follow."""
    with app.app_context():
        for screen in (TableScreen, PhoneScreen, TvScreen):
            for name, part in screen.PARTS.items():
                inside = frozenset(screen.PARTS[n].template for n, around in screen.NESTED.items() if around == name)
                assert reads.program(app.jinja_env, part.template, inside), part.template
