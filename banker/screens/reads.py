"""What a part's template reads of its variables, found in the template itself: a part's HTML is
made from those values alone, so a part whose values are those of the HTML a page shows is not
drawn again. Nobody keeps a list of a part's dependencies, and none can be forgotten.

Each template is read once (its syntax tree, with the templates it includes, and those it imports
with their context), into a small program of what it reads:

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
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from jinja2 import Environment, Undefined, nodes

_MISSING = object()  # a variable the part does not give (a global, or one its template sets)
_BROKEN = object()  # a path that cannot be followed to its end


class In(NamedTuple):
    """`constant in <path>`: only whether the value holds the constant is read."""

    constant: Any
    path: tuple


class Derived(NamedTuple):
    """A value the program evaluates, and a path into it: a key computed (`players[state.turn]`), or
    a name the template sets once (`{% set a = state.auction %}`). What is read is the value, not
    all it is made from; if it cannot be evaluated, all it is made from (`reads`)."""

    evaluate: Callable[[dict, Environment], Any]
    steps: tuple
    reads: tuple


class Branch(NamedTuple):
    """An `{% if %}`: its test's reads, how to evaluate it, and the reads of each branch."""

    reads: tuple
    test: Callable[[dict, Environment], Any]
    then: tuple
    otherwise: tuple


class Unknown(Exception):
    """A test the program cannot evaluate on its own: both branches are read."""


# (template, apart) -> its program, the program compiled and the sources it was read from, made once
# per process (every app of a test run shares them); each app checks them against its templates once.
_programs: dict[tuple, tuple[tuple, Callable, dict]] = {}
_checked: WeakKeyDictionary = WeakKeyDictionary()  # environment -> {(template, apart): (program, compiled)}
_trees: dict[str, nodes.Template] = {}  # a template's source -> its syntax tree, parsed once per process


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
    if kept is None or any(_source(environment, read) != source for read, source in kept[2].items()):
        reader = _Reader(environment, apart)
        made = reader.read(name)
        kept = _programs[(name, apart)] = (made, _compiled(made), reader.sources)
    if not environment.auto_reload:
        checked[(name, apart)] = kept[:2]
    return kept[:2]


def _source(environment: Environment, name: str) -> str:
    return environment.loader.get_source(environment, name)[0]


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
    the order `_run` would: a change asks a few dozen parts for theirs, each reading dozens."""
    constants: list = []

    def constant(value) -> str:
        constants.append(value)
        return f"K[{len(constants) - 1}]"

    def value(read) -> str:
        if isinstance(read, Derived):
            return f"D({constant(read)}, c, e, add)"
        if len(read) == 1:
            return f"c.get({read[0]!r}, M)"
        return f"S(c.get({read[0]!r}, M), {constant(read[1:])}, e)"

    def emit(items: tuple, depth: int) -> None:
        pad = "    " * depth
        if not items:
            lines.append(pad + "pass")
        for item in items:
            if isinstance(item, Branch):
                if item.reads:
                    emit(item.reads, depth)
                taken = f"t{len(constants)}"  # each test its own name: a branch within may test too
                lines.append(f"{pad}{taken} = T({constant(item.test)}, c, e)")
                lines.append(f"{pad}if {taken} is U or {taken}:")
                emit(item.then, depth + 1)
                lines.append(f"{pad}if {taken} is U or not {taken}:")
                emit(item.otherwise, depth + 1)
            elif isinstance(item, In):
                lines.append(f"{pad}add(H({constant(item.constant)}, {value(item.path)}))")
            else:
                lines.append(f"{pad}add({value(item)})")

    lines = ["def run(c, e, add):"]
    emit(items, 1)
    scope = {"K": constants, "M": _MISSING, "U": _UNKNOWN, "T": _taken, "H": _holds, "D": _read,
             "S": lambda found, steps, environment: found if found is _MISSING else _steps(found, steps, environment)}
    exec(compile("\n".join(lines), "<the values a template reads>", "exec"), scope)
    return scope["run"]


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
        return _follow(read, context, environment)
    try:
        found = read.evaluate(context, environment)
    except Exception:
        _run(read.reads, context, environment, add)
        return _BROKEN
    return _steps(found, read.steps, environment)


def _follow(path: tuple, context: dict, environment: Environment):
    """A path's value, as the template would read it: _MISSING for a variable the part does not give,
    _BROKEN past an undefined step (the template reads it only where something it read says it may:
    `state.standings[0].player` once the game has ended)."""
    value = context.get(path[0], _MISSING)
    return _MISSING if value is _MISSING else _steps(value, path[1:], environment)


def _steps(value, steps: tuple, environment: Environment):
    try:
        for step, key in steps:
            value = environment.getattr(value, key) if step == "." else environment.getitem(value, key)
    except Exception:
        return _BROKEN
    return value


class _Reader:
    """Reads templates into programs (see the module's docstring). `local`, through the reading, is
    the names assigned where a node stands: any `set`, loop or `with` variable of its template (and
    of those including it), and the parameters of the macro it is in."""

    def __init__(self, environment: Environment, apart: frozenset):
        self.environment, self.apart = environment, apart
        self.macros: dict[str, tuple[nodes.Macro, frozenset]] = {}  # name -> definition, its template's names
        self.aliases: dict[str, Derived] = {}  # the names set once at the top of the template read, once set
        self.once: set[int] = set()  # those `set`s
        self.reading: list = []  # the templates and macros being read, each within the one before
        self.sources: dict[str, str] = {}  # every template read, as read

    def tree(self, name: str) -> nodes.Template:
        if name not in self.sources:
            source = self.sources[name] = _source(self.environment, name)
            if source not in _trees:
                _trees[source] = self.environment.parse(source)
        return _trees[self.sources[name]]

    def read(self, name: str, local: frozenset = frozenset()) -> tuple:
        """The program of template `name` and of the templates it brings in with their context."""
        if name in self.reading:  # a template within itself: its reads are there already
            return ()
        self.reading.append(name)
        aliases, once = self.aliases, self.once
        try:
            tree = self.tree(name)
            assigned = _assigned(tree)
            local = local | assigned
            for macro in tree.find_all(nodes.Macro):
                self.macros[macro.name] = (macro, local)
            stored = [node.name for node in tree.find_all(nodes.Name) if node.ctx == "store"]
            self.aliases = {alias: value for alias, value in aliases.items() if alias not in assigned}
            self.once = {id(node) for node in tree.body if isinstance(node, nodes.Assign)
                         and isinstance(node.target, nodes.Name) and stored.count(node.target.name) == 1}
            return _unique(self.statements(tree.body, local))
        finally:
            self.reading.pop()
            self.aliases, self.once = aliases, once

    def statements(self, body: list, local: frozenset) -> tuple:
        return tuple(item for node in body for item in self.node(node, local))

    def node(self, node: nodes.Node, local: frozenset) -> tuple:
        if isinstance(node, nodes.If):
            otherwise = self.statements(node.else_, local)
            for elif_ in reversed(node.elif_):
                otherwise = self.branch(elif_.test, elif_.body, otherwise, local)
            return self.branch(node.test, node.body, otherwise, local)
        if isinstance(node, nodes.Macro):
            return ()  # read where it is called
        if isinstance(node, nodes.Assign) and id(node) in self.once:
            reads = self.node(node.node, local)
            try:
                evaluate = _named(node.target.name, self.test(node.node, local))
            except Unknown:
                return reads
            self.aliases[node.target.name] = Derived(evaluate, (), _unique(reads + ((node.target.name,),)))
            return ()  # read where it is used
        if isinstance(node, nodes.Include):
            if not isinstance(node.template, nodes.Const):
                raise Unknown(f"a template named at run time, in {self.reading[-1]}")
            name = node.template.value
            return self.read(name, local) if node.with_context and name not in self.apart else ()
        if isinstance(node, nodes.Import | nodes.FromImport):
            return self.imported(node)
        if isinstance(node, nodes.Name):
            return self.path(node, local) if node.ctx == "load" else ()
        if isinstance(node, nodes.Getattr | nodes.Getitem) and _chain(node) is not None:
            return self.path(node, local)
        if isinstance(node, nodes.Call):
            arguments = tuple(item for child in (*node.args, *node.kwargs, node.dyn_args, node.dyn_kwargs)
                              if child is not None for item in self.node(child, local))
            if isinstance(node.node, nodes.Name) and node.node.name in self.macros:
                return arguments + self.called(node.node.name)
            if isinstance(node.node, nodes.Getattr) and _chain(node.node) is not None:
                # A method called on a path reads the path (`state.debts_of(pid)`: the state).
                return self.path(node.node.node, local) + arguments
        if isinstance(node, nodes.Compare) and len(node.ops) == 1 and node.ops[0].op in ("in", "notin") \
                and isinstance(node.expr, nodes.Const) and _chain(node.ops[0].expr) is not None:
            (path, *keys) = self.path(node.ops[0].expr, local)
            # Past a key computed (`"x" in legal[pid]`), the path read is the whole of what holds it.
            whole = keys or not isinstance(path, Derived) and path[0] in local
            return (path if whole else In(node.expr.value, path), *keys)
        if isinstance(node, nodes.For) and not node.recursive:
            # A loop's body reads only when what it goes through is not empty.
            inner = local | _assigned(node, within=True)
            body = tuple(item for child in (*node.body, *([node.test] if node.test else ())) for item in self.node(child, inner))
            reads, otherwise = self.node(node.iter, local), self.statements(node.else_, local)
            try:
                evaluate = self.test(node.iter, local)
            except Unknown:
                return reads + body + otherwise
            return (Branch(_unique(reads), evaluate, _unique(body), _unique(otherwise)),)
        scoped = local
        if isinstance(node, nodes.For | nodes.With | nodes.CallBlock | nodes.FilterBlock | nodes.Scope):
            scoped = local | _assigned(node, within=True)
        return tuple(item for child in node.iter_child_nodes() for item in self.node(child, scoped))

    def called(self, name: str) -> tuple:
        """What a macro of the context reads when called: its body, where its parameters and its
        template's names are its own."""
        macro, local = self.macros[name]
        if macro in self.reading:  # calling itself
            return ()
        self.reading.append(macro)
        aliases, self.aliases = self.aliases, {}  # its names are its template's, not the caller's
        try:
            local = local | {arg.name for arg in macro.args} | _assigned(macro, within=True)
            defaults = tuple(item for default in macro.defaults for item in self.node(default, local))
            return defaults + self.statements(macro.body, local)
        finally:
            self.reading.pop()
            self.aliases = aliases

    def imported(self, node: nodes.Import | nodes.FromImport) -> tuple:
        """Macros imported with their context are read where called; a template imported whole
        with its context, all it reads; without context, an imported template reads none of it."""
        if not node.with_context:
            if isinstance(node, nodes.FromImport):  # names bound to macros that do not see the context
                for name in node.names:
                    self.macros.pop(name if isinstance(name, str) else name[1], None)
            return ()
        if not isinstance(node.template, nodes.Const):
            raise Unknown(f"a template named at run time, in {self.reading[-1]}")
        tree = self.tree(node.template.value)
        if isinstance(node, nodes.Import):  # its macros called through its name: all of them, here
            return self.read(node.template.value) + tuple(
                item for macro in tree.find_all(nodes.Macro) for item in self.called(macro.name))
        local = _assigned(tree)
        defined = {macro.name: macro for macro in tree.body if isinstance(macro, nodes.Macro)}
        for name in node.names:
            name, alias = (name, name) if isinstance(name, str) else name
            if name in defined:
                self.macros[alias] = (defined[name], local)
        return ()

    def path(self, node: nodes.Node, local: frozenset) -> tuple:
        """The read of a variable or a path into it (a Name, Getattr or Getitem chain), then what
        a key computed within it reads."""
        steps, keys = [], ()
        while not isinstance(node, nodes.Name):
            if isinstance(node, nodes.Getattr):
                steps.append((".", node.attr))
            elif isinstance(node.arg, nodes.Const):
                steps.append(("[]", node.arg.value))
            else:  # a key computed: the value it finds, or the path up to it and what the key reads
                reads = _unique(self.path(node.node, local) + self.node(node.arg, local))
                try:
                    return (Derived(self.test(node, local), tuple(reversed(steps)), reads),)
                except Unknown:
                    return reads
            node = node.node
        if node.name in self.aliases:
            alias = self.aliases[node.name]
            return (alias._replace(steps=tuple(reversed(steps))), *keys)
        if node.name in local:
            return ((node.name,), *keys)  # whole, whatever it stands for where it is read
        return ((node.name, *reversed(steps)), *keys)

    def branch(self, test: nodes.Node, body: list, otherwise: tuple, local: frozenset) -> tuple:
        reads, then = self.node(test, local), self.statements(body, local)
        try:
            evaluate = self.test(test, local)
        except Unknown:
            return reads + then + otherwise
        return (Branch(_unique(reads), evaluate, _unique(then), _unique(otherwise)),)

    def test(self, node: nodes.Node, local: frozenset) -> Callable[[dict, Environment], Any]:
        """`node` as a function of the context, for the tests the program evaluates itself."""
        if isinstance(node, nodes.Const):
            value = node.value
            return lambda context, environment: value
        if isinstance(node, nodes.Getitem) and not isinstance(node.arg, nodes.Const):
            holder, key = self.test(node.node, local), self.test(node.arg, local)
            return lambda context, environment: environment.getitem(holder(context, environment), key(context, environment))
        if isinstance(node, nodes.Name | nodes.Getattr | nodes.Getitem) and _chain(node) is not None:
            (path, *keys) = self.path(node, local)
            if isinstance(path, Derived):
                return lambda context, environment: _steps(path.evaluate(context, environment), path.steps, environment)
            if keys or path[0] in local:
                raise Unknown(path[0])
            return lambda context, environment: _value(path, context, environment)
        if isinstance(node, nodes.Not):
            inner = self.test(node.node, local)
            return lambda context, environment: not inner(context, environment)
        if isinstance(node, nodes.And):
            left, right = self.test(node.left, local), self.test(node.right, local)
            return lambda context, environment: left(context, environment) and right(context, environment)
        if isinstance(node, nodes.Or):
            left, right = self.test(node.left, local), self.test(node.right, local)
            return lambda context, environment: left(context, environment) or right(context, environment)
        if isinstance(node, nodes.Compare) and len(node.ops) == 1 and node.ops[0].op in _COMPARE:
            left, right = self.test(node.expr, local), self.test(node.ops[0].expr, local)
            compare = _COMPARE[node.ops[0].op]
            return lambda context, environment: compare(left(context, environment), right(context, environment))
        if isinstance(node, nodes.CondExpr):
            test, then = self.test(node.test, local), self.test(node.expr1, local)
            otherwise = self.test(node.expr2, local) if node.expr2 is not None else None
            if otherwise is None:
                raise Unknown("an if without an else")
            return lambda context, environment: (then(context, environment) if test(context, environment)
                                                 else otherwise(context, environment))
        if isinstance(node, nodes.Filter) and node.name == "default" and node.node is not None and not node.kwargs \
                and len(node.args) <= 1 and all(isinstance(arg, nodes.Const) for arg in node.args):
            default = node.args[0].value if node.args else ""
            inner = self.test(node.node, local) if not isinstance(node.node, nodes.Name) or node.node.name in local \
                else (lambda context, environment, name=node.node.name: context.get(name, _MISSING))
            return lambda context, environment: _defaulted(inner(context, environment), default)
        if isinstance(node, nodes.Test) and node.name in _TESTS and not node.args and not node.kwargs:
            inner, check = self.test(node.node, local), _TESTS[node.name]
            return lambda context, environment: check(inner(context, environment))
        raise Unknown(type(node).__name__)


def _assigned(node: nodes.Node, within: bool = False) -> frozenset:
    """The names a template assigns (`set`, a loop's or a `with`'s variables, imports), anywhere in
    it; `within`: those a loop, macro or block assigns inside itself, with its own variables."""
    names = {name.name for name in node.find_all(nodes.Name) if name.ctx == "store"}
    names |= {n if isinstance(n, str) else n[1] for i in node.find_all(nodes.FromImport) for n in i.names}
    names |= {i.target for i in node.find_all(nodes.Import)}
    if within and isinstance(node, nodes.CallBlock):
        names |= {arg.name for arg in node.args}
    return frozenset(names)


def _value(path: tuple, context: dict, environment: Environment):
    """A path's value as the template sees it: a variable the part does not give is undefined."""
    value = _follow(path, context, environment)
    if value is _MISSING:
        raise Unknown(path[0])  # a global: both branches
    return value


def _named(name: str, evaluate: Callable) -> Callable:
    """A name's value where the template set it once. Where the `set` did not run (in a branch not
    taken, after a loop it ran in) the part's variable of that name would be read, if it has one:
    then it is not evaluated, and all the value is made from is read, with that variable."""
    def value(context: dict, environment: Environment):
        if name in context:
            raise Unknown(name)
        return evaluate(context, environment)
    return value


def _defaulted(value, default):
    return default if value is _MISSING or isinstance(value, Undefined) else value


_COMPARE = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b, "lteq": lambda a, b: a <= b,
    "gt": lambda a, b: a > b, "gteq": lambda a, b: a >= b, "in": lambda a, b: a in b, "notin": lambda a, b: a not in b,
}
_TESTS = {"none": lambda value: value is None, "defined": lambda value: not isinstance(value, Undefined),
          "undefined": lambda value: isinstance(value, Undefined)}


def _chain(node: nodes.Node) -> str | None:
    """The variable a chain of attributes and constant keys starts from (None: not such a chain)."""
    while isinstance(node, nodes.Getattr | nodes.Getitem):
        node = node.node
    return node.name if isinstance(node, nodes.Name) else None


def _unique(items: tuple) -> tuple:
    """The reads without repeats (a template reads `currency` a dozen times: once is enough)."""
    seen, kept = set(), []
    for item in items:
        key = item if not isinstance(item, Branch) else id(item)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return tuple(kept)
