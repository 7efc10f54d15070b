"""What each screen of a game shows, and its HTML: the screens' package.

    Kind (which screen a page shows) ── made(known) ──► Screen (host.py, phone.py, tv.py)
                                                          │  pieces: small cached properties
                                                          │  (board.py, bids.py, history.py, ...)
                                                          ▼
                         parts.draw ──► Frame: each Part's template rendered with its pieces
                                          │
                                          └─ Frame.swaps(what a page shows) ─► out-of-band swaps
                                             marks.unmark(html, csrf) ─► one browser's bytes

This is the whole of what the live path (banker/live/) uses: a page's live connection names its
`Kind`; the game's renderer `draw`s each kind once per version, language and address (`drawing`
in that language at that address), and hands each page `frame.swaps(...)` of what it shows, which
the connection `unmark`s. The web's pages
render a screen's `context()` into its page template.

Below the web and beside live: it imports the rules, the store, words and drawings, never web or
live.
"""

from . import countdown, history, marks
from .board import board_cells
from .composer import composer_context
from .host import TableScreen
from .links import public_url
from .marks import unmark
from .parts import Drawn, Frame, OneLine, changes, draw, drawing, render_parts, squeeze
from .phone import PhoneScreen
from .screen import Kind, Part, Screen
from .story import story_page
from .timeline import past, version_asked
from .tv import TvScreen

__all__ = ["Drawn", "Frame", "Kind", "OneLine", "Part", "PhoneScreen", "Screen", "TableScreen", "TvScreen",
           "board_cells", "changes", "composer_context", "countdown", "draw", "drawing", "history", "init_app", "past",
           "public_url", "render_parts", "squeeze", "story_page", "unmark", "version_asked"]


def init_app(app) -> None:
    """The templates' marks, and the caches of the history told."""
    marks.init_app(app)
    history.init_app(app)
