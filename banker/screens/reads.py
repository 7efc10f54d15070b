"""What a part's template reads of its variables, found in the template itself: a part's HTML is
made from those values alone, so a part whose values are those of the HTML a page shows is not
drawn again. Nobody keeps a list of a part's dependencies, and none can be forgotten.

Each template is read once (reading.py: its syntax tree, with the templates it includes and the
macros it calls with their context), into a small program of what it reads:

- a variable, or a path into it: `me.cash` reads the player's cash, not the whole player; a method
  called on a path reads what it is called on (`state.debts_of(pid)` reads `state`);
- `"roll" in legal` reads only whether `legal` holds "roll";
- an `{% if %}` whose test is made of such reads, constants, `not`, `and`, `or`, comparisons and
  `is none` / `is defined` reads its test, then only the branch the test takes: the turn panel of a
  phone whose player is not bidding reads nothing of the auction;
- anything else (a loop's body, a macro's, a test made of calls or filters) reads all it names.

A name the template assigns itself anywhere (a loop's variable, a `set`, a macro's parameter) is
read whole wherever it is used, and no test reading it takes one branch only: the program never
reads less than the template could. The template's globals (`_`, `money`, `url_for`, the marks) are
not variables of the part: their output follows their arguments, the language and the address,
which the live path keys every drawing by.
"""

from collections.abc import Callable
from weakref import WeakKeyDictionary

from jinja2 import Environment

from .reading import BROKEN, MISSING, SCOPE, Branch, Derived, In, Reader, follow, source_of, steps

# (template, apart) -> its program, the program compiled and the sources it was read from, made once
# per process (every app of a test run shares them); each app checks them against its templates once.
_programs: dict[tuple, tuple[tuple, Callable, dict]] = {}
_checked: WeakKeyDictionary = WeakKeyDictionary()  # environment -> {(template, apart): (program, compiled)}


def program(environment: Environment, name: str, apart: frozenset = frozenset()) -> tuple:
    """What template `name` reads but the templates `apart` it includes (parts of their own, shown
    inside it)."""
    return _made(environment, name, apart)[0]


def values(template: str, environment: Environment, context: dict, apart: frozenset = frozenset()) -> tuple:
    """The values template `template` reads of `context` (but what the templates `apart` read), in
    the order of its program: two contexts with the same values draw the same HTML, in the same
    language at the same address."""
    found: list = []
    _made(environment, template, apart)[1](context, environment, found.append)
    return tuple(found)


def _made(environment: Environment, name: str, apart: frozenset) -> tuple[tuple, Callable]:
    """A template's program and the program compiled: read once per process, checked once per app
    against the templates it reads (and at every use where templates reload when changed: debug)."""
    checked = _checked.setdefault(environment, {})
    found = checked.get((name, apart))
    if found is not None:
        return found
    kept = _programs.get((name, apart))
    if kept is None or any(source_of(environment, read) != source for read, source in kept[2].items()):
        reader = Reader(environment, apart)
        made = reader.read(name)
        kept = _programs[(name, apart)] = (made, _compiled(made), reader.sources)
    if not environment.auto_reload:
        checked[(name, apart)] = kept[:2]
    return kept[:2]


def _run(items: tuple, context: dict, environment: Environment, add: Callable) -> None:
    """A program run as it is (what `_compiled` makes of it does the same, faster)."""
    for item in items:
        if isinstance(item, Branch):
            _run(item.reads, context, environment, add)
            taken = _taken(item.test, context, environment)
            _run(item.then + item.otherwise if taken is _UNKNOWN else item.then if taken else item.otherwise,
                 context, environment, add)
        elif isinstance(item, In):
            add(_holds(item.constant, _read(item.path, context, environment, add)))
        else:
            add(_read(item, context, environment, add))


def _compiled(items: tuple) -> Callable[[dict, Environment, Callable], None]:
    """A program as a Python function of (context, environment, add), which adds the values read in
    the order `_run` would: a change asks a few dozen parts for theirs, each reading dozens. Each
    test's expression, and each value derived, is written into it (reading.Reader.test), so that a
    part's values cost one call, not one for each test and for each step of it."""
    constants: list = []
    names = iter(range(1 << 30))  # each value derived and each test its own name: one may be within another

    def constant(value) -> str:
        constants.append(value)
        return f"K[{len(constants) - 1}]"

    def value(read, depth: int) -> str:
        """An expression of the value of `read`, after the lines it needs."""
        if isinstance(read, Derived):
            pad, found = "    " * depth, f"v{next(names)}"
            lines.extend([f"{pad}try:", f"{pad}    {found} = {read.source}", f"{pad}except Exception:"])
            emit(read.reads, depth + 1)  # what it is made from, since it cannot be evaluated
            lines.append(f"{pad}    {found} = B")
            if read.steps:
                lines.extend([f"{pad}else:", f"{pad}    {found} = ST({found}, {constant(read.steps)}, e)"])
            return found
        if len(read) == 1:
            return f"c.get({read[0]!r}, M)"
        if len(read) == 2 and read[1][0] == ".":  # one attribute: most paths (me.cash)
            return f"A(c.get({read[0]!r}, M), {read[1][1]!r}, e)"
        return f"S(c.get({read[0]!r}, M), {constant(read[1:])}, e)"

    def emit(items: tuple, depth: int) -> None:
        pad = "    " * depth
        if not items:
            lines.append(pad + "pass")
        for item in items:
            if isinstance(item, Branch):
                if item.reads:
                    emit(item.reads, depth)
                taken = f"t{next(names)}"
                lines.extend([f"{pad}try:", f"{pad}    {taken} = True if {item.source} else False",
                              f"{pad}except Exception:", f"{pad}    {taken} = U"])  # both branches
                lines.append(f"{pad}if {taken} is U or {taken}:")
                emit(item.then, depth + 1)
                lines.append(f"{pad}if {taken} is U or not {taken}:")
                emit(item.otherwise, depth + 1)
            elif isinstance(item, In):
                lines.append(f"{pad}add(H({constant(item.constant)}, {value(item.path, depth)}))")
            else:
                lines.append(f"{pad}add({value(item, depth)})")

    lines = ["def run(c, e, add):"]
    emit(items, 1)
    scope = {**SCOPE, "K": constants, "M": MISSING, "B": BROKEN, "U": _UNKNOWN, "H": _holds, "A": _attribute,
             "S": lambda found, path, environment: found if found is MISSING else steps(found, path, environment)}
    exec(compile("\n".join(lines), "<the values a template reads>", "exec"), scope)
    return scope["run"]


def _attribute(found, name: str, environment: Environment):
    """`steps(found, ((".", name),), environment)`, in one call."""
    if found is MISSING:
        return found
    try:
        return environment.getattr(found, name)
    except Exception:
        return BROKEN


_UNKNOWN = object()  # a test that could not be evaluated: both branches are read


def _taken(test: Callable, context: dict, environment: Environment):
    """Whether a branch's test holds, or _UNKNOWN (what the template would have raised on, or shown
    either way)."""
    try:
        return bool(test(context, environment))
    except Exception:
        return _UNKNOWN


def _holds(constant, value):
    """`constant in value`, or, where that cannot be asked, the value itself."""
    try:
        return constant in value
    except TypeError:
        return value


def _read(read: tuple | Derived, context: dict, environment: Environment, add: Callable):
    if not isinstance(read, Derived):
        return follow(read, context, environment)
    try:
        found = read.evaluate(context, environment)
    except Exception:
        _run(read.reads, context, environment, add)
        return BROKEN
    return steps(found, read.steps, environment)
