"""A template read into the program of what it reads of its variables (reads.py says what the
program is for and what it reads): its syntax tree walked once, with the templates it includes and
the macros it calls with their context, each `{% if %}` and loop kept as a branch its run may take
alone when the program can evaluate its test, everything else read whole.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

from jinja2 import Environment, Undefined, nodes


MISSING = object()  # a variable the part does not give (a global, or one its template sets)
BROKEN = object()  # a path that cannot be followed to its end

TREES: dict[str, nodes.Template] = {}  # a template's source -> its syntax tree, parsed once per process


def source_of(environment: Environment, name: str) -> str:
    return environment.loader.get_source(environment, name)[0]


class In(NamedTuple):
    """`constant in <path>`: only whether the value holds the constant is read."""

    constant: Any
    path: tuple


class Derived(NamedTuple):
    """A value the program evaluates (`source`, an expression of the context: see `Reader.test`),
    and a path into it: a key computed (`players[state.turn]`), or a name the template sets once
    (`{% set a = state.auction %}`). What is read is the value, not all it is made from; if it
    cannot be evaluated, all it is made from (`reads`)."""

    source: str
    steps: tuple
    reads: tuple

    def evaluate(self, context: dict, environment: Environment):
        return evaluator(self.source)(context, environment)


class Branch(NamedTuple):
    """An `{% if %}`: its test's reads, its test (`source`, an expression of the context), and the
    reads of each branch."""

    reads: tuple
    source: str
    then: tuple
    otherwise: tuple

    def test(self, context: dict, environment: Environment):
        return evaluator(self.source)(context, environment)


class Unknown(Exception):
    """A test the program cannot evaluate on its own: both branches are read."""


def follow(path: tuple, context: dict, environment: Environment):
    """A path's value, as the template would read it: MISSING for a variable the part does not give,
    BROKEN past an undefined step (the template reads it only where something it read says it may:
    `state.standings[0].player` once the game has ended)."""
    value = context.get(path[0], MISSING)
    return MISSING if value is MISSING else steps(value, path[1:], environment)


def steps(value, path: tuple, environment: Environment):
    """`value` followed along `path` ((".", attribute) or ("[]", key) steps), as a template would."""
    try:
        for step, key in path:
            value = environment.getattr(value, key) if step == "." else environment.getitem(value, key)
    except Exception:
        return BROKEN
    return value


class Reader:
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
            source = self.sources[name] = source_of(self.environment, name)
            if source not in TREES:
                TREES[source] = self.environment.parse(source)
        return TREES[self.sources[name]]

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
                source = self.test(node.node, local)
            except Unknown:
                return reads
            # Where the `set` did not run (in a branch not taken, after a loop it ran in) the part's
            # variable of that name would be read, if it has one: then it is not evaluated (X raises),
            # and all the value is made from is read, with that variable.
            name = repr(node.target.name)
            source = f"(X({name}) if {name} in c else {source})"
            self.aliases[node.target.name] = Derived(source, (), _unique(reads + ((node.target.name,),)))
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
            body = tuple(item for child in (*node.body, *([node.test] if node.test else ()))
                         for item in self.node(child, inner))
            reads, otherwise = self.node(node.iter, local), self.statements(node.else_, local)
            try:
                source = self.test(node.iter, local)
            except Unknown:
                return reads + body + otherwise
            return (Branch(_unique(reads), source, _unique(body), _unique(otherwise)),)
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
            source = self.test(test, local)
        except Unknown:
            return reads + then + otherwise
        return (Branch(_unique(reads), source, _unique(then), _unique(otherwise)),)

    def test(self, node: nodes.Node, local: frozenset) -> str:
        """`node` as a Python expression of the context `c` and the environment `e` (in SCOPE's
        names), for the tests the program evaluates itself: compiled into the program's function
        (reads.py), a test costs no call of its own. It raises where the template would have been
        undefined or raised (a variable the part does not give: KeyError, or X's Unknown)."""
        if isinstance(node, nodes.Const):
            return _literal(node.value)
        if isinstance(node, nodes.Getitem) and not isinstance(node.arg, nodes.Const):
            return f"e.getitem({self.test(node.node, local)}, {self.test(node.arg, local)})"
        if isinstance(node, nodes.Name | nodes.Getattr | nodes.Getitem) and _chain(node) is not None:
            (path, *keys) = self.path(node, local)
            if isinstance(path, Derived):
                return f"ST({path.source}, {_literal(path.steps)}, e)" if path.steps else path.source
            if keys or path[0] in local:
                raise Unknown(path[0])
            if all(step == "." for step, _ in path[1:]):  # attributes only: read without the general path
                source = f"c[{path[0]!r}]"  # a global, which the part does not give: both branches
                for _, name in path[1:]:
                    source = f"e.getattr({source}, {name!r})"
                return source
            return f"V({_literal(path)}, c, e)"
        if isinstance(node, nodes.Not):
            return f"(not {self.test(node.node, local)})"
        if isinstance(node, nodes.And | nodes.Or):
            operator = "and" if isinstance(node, nodes.And) else "or"
            return f"({self.test(node.left, local)} {operator} {self.test(node.right, local)})"
        if isinstance(node, nodes.Compare) and len(node.ops) == 1 and node.ops[0].op in _COMPARE:
            return f"({self.test(node.expr, local)} {_COMPARE[node.ops[0].op]} {self.test(node.ops[0].expr, local)})"
        if isinstance(node, nodes.CondExpr):
            if node.expr2 is None:
                raise Unknown("an if without an else")
            return (f"({self.test(node.expr1, local)} if {self.test(node.test, local)} "
                    f"else {self.test(node.expr2, local)})")
        if isinstance(node, nodes.Filter) and node.name == "default" and node.node is not None and not node.kwargs \
                and len(node.args) <= 1 and all(isinstance(arg, nodes.Const) for arg in node.args):
            default = _literal(node.args[0].value if node.args else "")
            inner = self.test(node.node, local) if not isinstance(node.node, nodes.Name) or node.node.name in local \
                else f"c.get({node.node.name!r}, M)"
            return f"DF({inner}, {default})"
        if isinstance(node, nodes.Test) and node.name in _TESTS and not node.args and not node.kwargs:
            return _TESTS[node.name].format(self.test(node.node, local))
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
    value = follow(path, context, environment)
    if value is MISSING:
        raise Unknown(path[0])  # a global: both branches
    return value


def _unknown(name: str):
    raise Unknown(name)


def _defaulted(value, default):
    return default if value is MISSING or isinstance(value, Undefined) else value


def _literal(value) -> str:
    """A constant of a template (a number, a string, a path's steps) as Python source."""
    if type(value) is tuple:
        return "(" + "".join(_literal(item) + ", " for item in value) + ")"
    if type(value) not in (str, int, bool, type(None)):
        raise Unknown(repr(value))
    return repr(value)


# The names the tests' expressions use, besides the context `c` and the environment `e`.
SCOPE = {"M": MISSING, "X": _unknown, "ST": steps, "V": _value, "DF": _defaulted, "UND": Undefined}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "lteq": "<=", "gt": ">", "gteq": ">=", "in": "in", "notin": "not in"}
_TESTS = {"none": "({} is None)", "defined": "(not isinstance({}, UND))", "undefined": "isinstance({}, UND)"}
_EVALUATORS: dict[str, Callable[[dict, Environment], Any]] = {}


def evaluator(source: str) -> Callable[[dict, Environment], Any]:
    """A test's expression (`Reader.test`) as a function of (context, environment), compiled once."""
    found = _EVALUATORS.get(source)
    if found is None:
        found = _EVALUATORS[source] = eval(compile(f"lambda c, e: {source}", "<a template's test>", "eval"),
                                           dict(SCOPE))
    return found


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
