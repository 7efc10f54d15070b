"""A screen's parts drawn as HTML, and what a page lacks of them.

A page's live connection is sent out-of-band swaps (htmx applies each to the element of its id): a
`Frame` is a screen drawn at one version, each part with the values its HTML was made from, and
`Frame.swaps` the HTML that takes a page showing some earlier parts to it: nothing for a part it
shows already, the rows added or changed for a list whose frame stayed the same, else the part.

`draw` draws a screen for the live path, within `drawing`: outside any request, at the address its
pages were opened at (links and QR codes name it), in their language, with the marks of what
differs between two browsers (marks.py) in place of the CSRF token and the nonces.
"""

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple

from flask import before_render_template, current_app, g, template_rendered
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from ..store import Known
from ..words.languages import speaking
from .screen import Kind, Screen


class Drawn(NamedTuple):
    """A part drawn: the values its template read, its HTML, and the values read by the parts shown
    inside it (its HTML holds them as they were drawn with it)."""

    values: tuple
    html: str
    inside: tuple


class Frame(NamedTuple):
    """A screen drawn at one version: its parts {name: Drawn},
    the names of those drawn at this version (the others kept the HTML of the version before), and
    the screen (the next version's may take pieces from it)."""

    parts: dict[str, Drawn]
    renewed: frozenset[str]
    screen: Screen

    def swaps(self, sent: dict[str, Drawn]) -> str:
        """The out-of-band swaps that take a page showing the parts `sent` (another frame's) to this
        one: "" when it shows them all. A part shown inside another (`NESTED`) comes after the part
        around it, which may hold an older drawing of it, and not at all when the part around it is
        sent whole, drawn at this version with it inside."""
        return _swaps(self.parts, self.renewed, self.screen.NESTED, sent)

    def picture(self, copies: dict, before: "Frame | None") -> "Picture":
        """The frame as another process is handed it (live/drawer.py): each part's HTML without the
        values it was drawn from (None for a part kept from `before`, the frame whose picture that
        process holds), which parts are shown inside which, and the swaps that take a page showing
        `before` to it (most pages: that process then makes none). `copies` keeps a part drawn once
        for several screens one object in them all (and once in their pickle)."""
        parts = {}
        for name, part in self.parts.items():
            if before is not None and before.parts.get(name) is part:
                parts[name] = None
                continue
            if id(part) not in copies:
                copies[id(part)] = Drawn((), part.html, ())
            parts[name] = copies[id(part)]
        return Picture(parts, self.renewed, self.screen.NESTED, None if before is None else self.swaps(before.parts))


class Picture(NamedTuple):
    """A frame drawn in another process (Frame.picture): what its pages are sent, as a Frame's."""

    parts: dict[str, Drawn]
    renewed: frozenset[str]
    nested: dict[str, str]
    step: str | None = None  # the swaps from the picture before (`since`) to this one
    since: dict[str, Drawn] | None = None  # the parts of the picture before, once `filled`

    def filled(self, before: "Picture | None") -> "Picture":
        """This picture with the parts it keeps (None) taken from `before`'s, the picture before
        (KeyError or AttributeError when it lacks one: the two processes disagree)."""
        parts = self.parts
        if None in parts.values():
            parts = {name: before.parts[name] if part is None else part for name, part in parts.items()}
        return self._replace(parts=parts, since=None if before is None else before.parts)

    def swaps(self, sent: dict[str, Drawn]) -> str:
        if sent is self.since and self.step is not None:  # a page shown the picture before: made already
            return self.step
        return _swaps(self.parts, self.renewed, self.nested, sent)


def _swaps(parts: dict[str, Drawn], renewed: frozenset[str], nested: dict[str, str], sent: dict[str, Drawn]) -> str:
    html = {name: changes(sent[name].html if name in sent else None, part.html) for name, part in parts.items()}
    for name, around in nested.items():
        if around in renewed and html[around] == parts[around].html:
            html[name] = ""
    return "".join(html[name] for name in html if name not in nested) + "".join(html[name] for name in nested)


@contextmanager
def drawing(locale: str, address: str) -> Iterator[None]:
    """Where the live path draws screens (`draw`), outside any request: at the address their pages
    were opened at (links and QR codes name it), in their language, with the marks of what differs
    between two browsers (marks.py) in place of the CSRF token and the nonces. One serves every
    screen of a version drawn in that language at that address: each costs about 80 µs to make."""
    with current_app.test_request_context(base_url=address), speaking(locale):
        g.live_marks = True
        yield


def draw(kind: Kind, known: Known, before: Frame | None, shared: dict, give_way: Callable[[], None]) -> Frame:
    """The screen of `kind` at `known`, drawn (within `drawing`) for the pages that show it.
    `before`: the same screen's frame at the version before (its parts whose values did not change
    are kept, and its pieces may be taken); `shared`: the parts the screens drawn in the same language
    at the same address share at this version, filled in as they are drawn; `give_way` is called
    before each part (the live path's: the answers to taps go first)."""
    screen = kind.made(known)
    if before is not None:
        screen.previous, before.screen.previous = before.screen, None  # one version back, no further
    parts = render_parts(screen, before.parts if before else None, shared, give_way)
    renewed = frozenset(name for name, part in parts.items() if before is None or before.parts.get(name) is not part)
    return Frame(parts, renewed, screen)


def render_parts(screen: Screen, shown: dict | None = None, shared: dict | None = None,
                 give_way: Callable[[], None] | None = None) -> dict[str, Drawn]:
    """The parts of a screen as out-of-band swaps, each rendered from the pieces it needs:
    {part: Drawn}. A part whose values are those of the HTML in `shown` is not rendered again: it
    keeps that HTML. Nor is a part another screen drew at this version from the same values
    (`shared`: {template: [Drawn, ...]}, one per language and address): every phone's news is drawn
    once. `give_way`, when given, is called before each part (the renderer's: the answers in
    progress go first)."""
    parts, depends = {}, {name: screen.depends(name) for name in screen.PARTS}
    for name, part in screen.PARTS.items():
        if give_way is not None:
            give_way()
        if shown and name in shown and shown[name].values == depends[name]:
            parts[name] = shown[name]  # the parts shown inside it are sent on their own when they changed
            continue
        # Drawn by another screen, its HTML holds the parts shown inside it as that screen draws them.
        inside = tuple(depends[nested] for nested, around in screen.NESTED.items() if around == name)
        drawn = shared.setdefault(part.template, []) if shared is not None else []
        same = next((other for other in drawn if other.values == depends[name] and other.inside == inside), None)
        if same is None:
            same = Drawn(depends[name], squeeze(_rendered(part.template, {**screen.part_context(name), "oob": True})),
                         inside)
            drawn.append(same)
        parts[name] = same
    return parts


def _rendered(template: str, context: dict) -> str:
    """A part's template rendered as Flask's render_template renders it (its signals sent), but for
    the context processors: what they add (`g`, `request`, `session`, the CSRF token) every template
    has as the environment's globals already (the token marked: marks.py), and they ran again for
    each of the dozen parts a change draws."""
    app = current_app._get_current_object()
    drawn = app.jinja_env.get_template(template)
    before_render_template.send(app, _async_wrapper=app.ensure_sync, template=drawn, context=context)
    html = drawn.render(context)
    template_rendered.send(app, _async_wrapper=app.ensure_sync, template=drawn, context=context)
    return html


_LINES = re.compile(r"\s*\n\s*")


def squeeze(html: str) -> str:
    """The HTML on one line: each run of white space with a line break becomes one space, which a
    browser shows the same; and every line of an event costs its `data: ` prefix. The templates'
    own text is squeezed once, when they are compiled (`OneLine`): what is left is a value drawn into
    them that holds a line break (a picture drawn as SVG), which this looks for before it squeezes."""
    return (_LINES.sub(" ", html) if "\n" in html else html).strip()


# Where a line break is the element's content, not the template's layout: its text is kept as
# written, from its start tag to its end tag.
_KEPT = re.compile(r"<(/?)(?:pre|textarea|script)\b", re.IGNORECASE)


class OneLine(Extension):
    """The templates' own text squeezed as `squeeze` squeezes HTML, once, as Jinja compiles them: a
    part's HTML comes out on one line, without a pass over it at every render (about 0.6 ms of a
    change's 8 on a table's nine screens). Every page is squeezed alike: the same HTML as a browser
    shows it, in fewer bytes. The text of a <pre>, <textarea> or <script> is kept as it is."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        kept = False
        for token in stream:
            if token.type == "data":
                pieces, at = [], 0
                for tag in _KEPT.finditer(token.value):
                    piece = token.value[at:tag.start()]
                    pieces.append(piece if kept else _LINES.sub(" ", piece))
                    kept, at = not tag.group(1), tag.start()
                pieces.append(token.value[at:] if kept else _LINES.sub(" ", token.value[at:]))
                token = Token(token.lineno, token.type, "".join(pieces))
            yield token


# A row of a list: <!--row TAG#ID KEEP--> the row's element, with an id <!--/row-->. TAG#ID is its
# list (the element rows are added to), KEEP how many rows the page keeps (static/app.js drops the
# rest). A part shown inside another: <!--nested--> its HTML <!--/nested--> (sent alone when it changes).
ROW, END_ROW, NESTED, END_NESTED = "<!--row ", "<!--/row-->", "<!--nested-->", "<!--/nested-->"
_SECTION = re.compile(f"{ROW}|{NESTED}")
_ROW_ID = re.compile(r'^<[a-z0-9]+[^>]*? id="([^"]+)"')
_FIRST_TAG = re.compile(r"^<[a-z0-9]+")


def changes(old: str | None, new: str) -> str:
    """The out-of-band swaps that take a page showing part HTML `old` to `new`: nothing when they
    are the same; when only rows of its list changed, those rows, and the rows added at its top;
    else the whole part."""
    if old == new:
        return ""
    if old is None or ROW not in new or ROW not in old:
        return new
    (old_frame, before), (new_frame, after) = _listed(old), _listed(new)
    if old_frame != new_frame or {r[:3] for r in before} != {r[:3] for r in after}:
        return new  # the rest of the part changed, or the list is another
    tag, list_id, keep = after[0][:3]
    old_rows = {_row_id(html): html for *_, html in before}
    new_ids = [_row_id(html) for *_, html in after]
    added = next((n for n, row in enumerate(new_ids) if row in old_rows), len(new_ids))
    kept = new_ids[added:]
    if (any(row in old_rows for row in new_ids[:added]) or kept != list(old_rows)[:len(kept)]
            or min(len(old_rows) + added, int(keep)) != len(new_ids)):
        return new  # rows removed, moved or cut otherwise than the page would
    html = [f'<{tag} hx-swap-oob="afterbegin:#{list_id}">' + "".join(r[3] for r in after[:added]) + f"</{tag}>"] if added else []
    html += [_FIRST_TAG.sub(lambda m: m.group(0) + ' hx-swap-oob="true"', r[3], count=1)
             for r, row in zip(after[added:], kept) if old_rows[row] != r[3]]
    # In a <template>, which htmx looks into: a table's row parses only there, not beside a <p>.
    return "".join(f"<template>{swap}</template>" for swap in html)


@lru_cache(maxsize=32)
def _listed(html: str) -> tuple[str, list[tuple[str, str, str, str]]]:
    """A part's HTML with rows: its frame (but its rows and the parts inside it, each with the white
    space around it), and its rows (TAG, ID, KEEP, the row's element), those of the parts inside it
    too. Found once for each HTML drawn: a part's HTML is the new one at one version and the old one
    at the next, and each page showing it asks. A few dozen kept, those of the last changes (the nine
    screens of a table have nine lists): 512 kept cost more CPU in live_parts.py than they saved.
    Found with `str.find`, which skips to each mark: regular expressions that tried every character
    took 70 µs for a history of 3 KB (5 µs now), half the swaps' CPU for nine screens."""
    rows, at = [], 0
    while (start := html.find(ROW, at)) != -1:
        head = html.index("-->", start)
        end = html.index(END_ROW, head)
        where, keep = html[start + len(ROW):head].split(" ")
        tag, list_id = where.split("#")
        rows.append((tag, list_id, keep, html[head + 3:end].strip()))
        at = end + len(END_ROW)
    frame, at = [], 0
    while (start := _SECTION.search(html, at)) is not None:
        close = END_ROW if start.group() == ROW else END_NESTED
        frame.append(html[at:start.start()].rstrip() if at == 0 else html[at:start.start()].strip())
        at = html.index(close, start.end()) + len(close)
    frame.append(html[at:].lstrip() if at else html)
    return "".join(frame), rows


def _row_id(html: str) -> str:
    found = _ROW_ID.match(html)
    if found is None:
        raise ValueError(f"a row without an id: {html[:60]}")
    return found.group(1)
