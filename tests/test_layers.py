"""One direction, enforced: rules ← store ← words, drawings ← screens ← web, with live (the notifier,
the renderers, the streams) beside web (docs/design.md, Layers). Every import in banker/ is read with `ast` (no
module is imported), and each package may import only what lies below it; the store's and live's
insides are reached only through their packages' names."""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "banker"

# What each part of banker/ may import of banker (itself included); a name not listed is free (the
# app factory, the command line and the tools that wire the parts together).
MAY_IMPORT = {
    "banker.rules": ("banker.rules",),
    "banker.game_file": ("banker.rules",),
    "banker.models": (),
    "banker.metrics": ("banker.rules",),
    "banker.store": ("banker.rules", "banker.game_file", "banker.models", "banker.metrics", "banker.store"),
    "banker.words": ("banker.rules", "banker.store", "banker.words"),
    "banker.drawings": ("banker.rules", "banker.store", "banker.words", "banker.drawings"),
    "banker.screens": ("banker.rules", "banker.store", "banker.words", "banker.drawings", "banker.screens",
                       "banker.lru", "banker.qr"),
    "banker.live": ("banker.store", "banker.metrics", "banker.screens", "banker.live"),
    "banker.web": ("banker.rules", "banker.game_file", "banker.store", "banker.words", "banker.drawings",
                   "banker.screens", "banker.live", "banker.metrics", "banker.web", "banker.lan", "banker.lru",
                   "banker.qr"),
}
# Packages whose modules are theirs alone: another part imports the package's names. The store's
# archive and tournaments are modules of its interface (a game written out and a game file written
# in: `archive.events`, `archive.save`; a tournament night: `tournaments.create_tournament`,
# `tournaments.act`). The screens' package names are the one interface live draws them through
# (banker/screens/__init__.py).
SEALED = {"banker.store": ("banker.store.archive", "banker.store.tournaments"), "banker.live": (),
          "banker.screens": ()}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


@cache
def bound(package: str) -> set[str]:
    """The names a package's __init__.py binds itself (`from .stream import stream` makes
    `from banker.live import stream` the function, not the module)."""
    init = PACKAGE.parent.joinpath(*package.split("."), "__init__.py")
    names = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body if init.is_file() else ():
        if isinstance(node, ast.ImportFrom | ast.Import):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def imported(source: str, module: str, package: bool) -> list[str]:
    """The banker modules that `source` (module `module`; `package`: an __init__.py) imports: for
    `from x import y`, x.y when y is a module that x does not bind a name over, else x."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:len(module.split(".")) - node.level + (1 if package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found += [f"{target}.{alias.name}"
                      if is_module(f"{target}.{alias.name}") and alias.name not in bound(target) else target
                      for alias in node.names]
    return [name for name in found if name == "banker" or name.startswith("banker.")]


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def against_the_direction(module: str, names: list[str]) -> list[str]:
    """The imports of `module` that go against the direction, as 'module -> name'."""
    wrong = []
    part = next((p for p in MAY_IMPORT if within(module, p)), None)
    for name in names:
        if part is not None and not any(within(name, allowed) for allowed in MAY_IMPORT[part]):
            wrong.append(f"{module} -> {name}")
        for sealed, public in SEALED.items():
            if within(name, sealed) and name != sealed and not within(module, sealed) and name not in public:
                wrong.append(f"{module} -> {name} (inside {sealed}: import its package's names)")
    return wrong


def every_import() -> dict[str, list[str]]:
    return {module_name(path): imported(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
            for path in sorted(PACKAGE.rglob("*.py"))}


def test_every_import_in_banker_follows_the_direction():
    modules = every_import()
    assert {"banker.rules.game", "banker.store.actions", "banker.screens.host", "banker.live.renderer",
            "banker.web.pages.api"} <= modules.keys()
    assert [wrong for module, names in modules.items() for wrong in against_the_direction(module, names)] == []


@pytest.mark.parametrize("module, source, package", [
    ("banker.store.actions", "from ..live.notifier import announce", False),  # the store calling up
    ("banker.store", "from ..web import respond", True),
    ("banker.rules.game", "from flask import g\nfrom ..models import db", False),
    ("banker.rules.game", "import banker.store", False),
    ("banker.live.stream", "from ..store.engine import release", False),  # inside the store
    ("banker.live.renderer", "from ..web.table import page", False),
    ("banker.screens.host", "from ..web import respond", False),  # screens below web
    ("banker.screens.parts", "from ..live import Gone", False),  # and below live
    ("banker.words.narrate", "from ..screens import history", False),  # words below screens
    ("banker.web.pages.tv", "from ...screens.tv import TvScreen", False),  # inside the screens' package
    ("banker.web.ledger", "from ..models import Event, db", False),
    ("banker.web.ledger", "from banker.store import memory", False),
    ("banker.web", "from ..live import slots", True),  # live's module, not its package's name
    ("banker.metrics", "from . import store", False),
])
def test_an_import_against_the_direction_is_caught(module, source, package):
    assert against_the_direction(module, imported(source, module, package))


@pytest.mark.parametrize("module, source, package", [
    ("banker.live.stream", "from ..store import in_one_line, release", False),
    ("banker.web.pages.api", "from ... import store\nfrom ...store import archive\nfrom ...live import Gone", False),
    ("banker.web.answers.seats", "from ...live import stream", False),  # the package's function, not its module
    ("banker.live.renderer", "from .. import screens", False),
    ("banker.web.pages.tv", "from ...screens import Kind, TvScreen\nfrom ...words.names import square_name", False),
    ("banker.screens.history", "from ..words.narrate import summary\nfrom ..lru import LruCache", False),
    ("banker.store.actions", "from .news import announce\nfrom ..rules import apply", False),
    ("banker", "from . import live, store, web\nfrom .models import db", True),
])
def test_an_import_along_the_direction_passes(module, source, package):
    assert against_the_direction(module, imported(source, module, package)) == []


# Issue 35, item 7: a module reads as one idea, which about 400 lines still holds. One past it is
# split along the game's own seams (rules/actions/ and rules/effects/ were: play at the table, and
# the Bank's business), not squeezed.
MOST_LINES = 400


def test_no_module_of_banker_is_over_about_400_lines():
    lines = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert len(lines) > 100 and max(lines.values()) > MOST_LINES * 3 // 4  # every module read
    assert {module: count for module, count in lines.items() if count > MOST_LINES} == {}
