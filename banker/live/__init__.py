"""The live path: how one committed change reaches every open screen of its game.

    action (store.act) ── commit ──► store's memory.committed(Commit)   the next Known, in memory
          │                                   │
          └─ once its answer is sent ─► notifier.publish(code, version)   (the notifier the app
                                              │                            gave the store)
                                              │  (PostgreSQL: relayed to the other processes,
                                              │   whose memory reads the version from the database)
                                              ▼
                                 renderer: the game's Renderer (one thread per watched game)
                                   takes the Known, has the drawer (a process of its own)
                                   draw each kind of screen once
                                   (host, each phone; per language: screens.draw), reusing the
                                   parts whose dependencies did not change
                                              │
                     ┌────────────────────────┼────────────────────────┐
                     ▼                        ▼                        ▼
               Watcher (host)          Watcher (phone 1)   ...   Watcher (phone n)
               stream: writes the parts its page does not show yet (frame.swaps), with
               its own CSRF token and nonces (screens.unmark), as one Server-Sent Event

The memory (`Known`, a game at one version, and `Memory`, the newest Known of each game) is the
store's (store/memory.py); live reads it through the store's package, never its modules.

- notifier.py: who hears of a new version (this process, and the others on PostgreSQL).
- renderer.py: the renderer of each watched game and its watchers.
- drawer.py: where the screens are drawn: in a process of its own beside the serving process, or in
  the renderer's thread.
- slots.py: how many live connections one process keeps open, and the share of each game, holder,
  browser, and of the screens that hold nothing.
- stream.py: a page's live connection.
"""

from .. import store

from .notifier import Notifier, for_database
from .renderer import Gone, Renderers
from .slots import BANKER, SCREENS, TV, Full, Slots
from .stream import Told, ended, stream, turned_away

__all__ = ["BANKER", "SCREENS", "TV", "Full", "Gone", "ended", "for_database", "init_app", "stream", "turned_away"]


def init_app(app, notifier: Notifier, memory: store.Memory) -> None:
    """The renderers, over the store's `memory` and told by the `notifier` (both made with the
    database: banker.create_app), and the live connections' slots (slots.py: each open connection
    holds one of the server's threads, so they fit the server's threads, and nobody takes more than
    a share)."""
    renderers = app.extensions["banker.renderers"] = Renderers(app, memory, notifier)
    app.extensions["banker.post_gate"] = renderers.gate
    app.extensions["banker.live"] = Slots(app.config)
    app.extensions["banker.turned_away"] = Told()  # what the log said of refused screens lately
    app.before_request(renderers.gate.request_started)
    app.teardown_request(renderers.gate.request_ended)
