"""The live connections' slots: how many open pages one process follows, and nobody more than a share.

Each open live connection holds one of the server's threads for as long as it is open (waitress's,
or a gunicorn worker's), so the slots are counted from the threads the server really has, less
SPARE_THREADS kept for page loads and actions (and never more than LIVE_CONNECTIONS): past them a
page is told to retry later (503), and the server keeps answering everything else. Worked out at the
first live connection, from the server that serves it (`server_threads`).

Slots are shared by what a browser holds in the game, not by its address: a club's ninety phones
behind one router each hold a seat (or the banker's tools, or a TV's view key), and each gets its
slot. In each game, each seat's phones hold LIVE_PER_SEAT at most, the banker's screens and the TV
screens LIVE_PER_HOST each, and all of them together LIVE_PER_GAME; one browser holds LIVE_PER_BROWSER
across every game it has a badge in. Screens that hold nothing in their game (a host screen opened
by anyone with the code: holder SCREENS) have a share of their own, LIVE_PUBLIC_SHARE of the
process's slots, LIVE_PER_HOST in each game and LIVE_PER_ADDRESS for each client address, so that
no number of addresses can crowd out the seated players and bankers.
"""

import sys
import threading
from collections import Counter
from collections.abc import Callable, Hashable

# Threads kept for page loads and actions: a table's taps take a few milliseconds each.
SPARE_THREADS = 16
BANKER, SCREENS = "banker", "screens"  # the holders of a game's host screens (with and without the badge)
TV = "tv"  # the holder of a game's TV screens (/tv/<code>/<key>): the view key's, not anyone's with the code

# Why a connection was turned away (the first share it found full, the narrowest first), in the
# words of the server's log.
REASONS = {
    "seat": "this seat's phones have their share of the game",
    "banker": "the banker's screens have their share of the game",
    "tv": "the game's TV screens have their share",
    "screens": "the screens without a badge have their share of the game",
    "browser": "this browser follows as many screens as one may, across its games",
    "address": "this address follows as many screens without a badge as one may",
    "game": "the game's own screens have the game's share",
    "public": "the screens without a badge have their share of the server",
    "server": "every slot of this process is taken",
}


class Full(Exception):
    """A live connection turned away: `reason` is the share it found full (a key of REASONS)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Slots:
    """The slots of one process (per app). `take` gives a connection its slot, or raises Full when it
    may not have one now; what it returns gives the slot back, once."""

    def __init__(self, config):
        self.wanted = config["LIVE_CONNECTIONS"]
        self.threads = config.get("SERVER_THREADS")  # None: found out from the server
        self.per_seat, self.per_host = config["LIVE_PER_SEAT"], config["LIVE_PER_HOST"]
        self.per_game, self.per_browser = config["LIVE_PER_GAME"], config["LIVE_PER_BROWSER"]
        self.per_address, self.public_share = config["LIVE_PER_ADDRESS"], config["LIVE_PUBLIC_SHARE"]
        self.limit: int | None = None  # worked out at the first connection
        self._lock = threading.Lock()
        self._held: Counter = Counter()  # each share's key -> the connections open in it

    def take(self, environ: dict, code: str, holder: Hashable, browser: str | None = None,
             address: str | None = None, seats: int | None = None) -> Callable[[], None]:
        """A slot for a connection to game `code`, counted against `holder` there (("seat", n),
        BANKER, TV, or SCREENS: a screen that holds nothing in the game), against the `browser` (its
        key's hash) that holds it, and for SCREENS against the client's `address`. `seats`, for
        what has more seats than a game (a tournament's registered players), widens its share to
        their phones' and its hosts'. Raises Full, with the first share it found full, when it may
        not have one now."""
        with self._lock:
            if self.limit is None:
                threads = self.threads or server_threads(environ)
                self.limit = self.wanted if threads is None else max(0, min(self.wanted, threads - SPARE_THREADS))
            shares = self._shares(code, holder, browser, address, seats)
            for key, most in shares:
                if self._held[key] >= most:
                    raise Full(key[0])
            self._held.update(key for key, _most in shares)
        given = []

        def give_back() -> None:
            with self._lock:
                if given:
                    return
                given.append(True)
                self._held.subtract(key for key, _most in shares)
                for key, _most in shares:
                    if not self._held[key]:
                        del self._held[key]

        return give_back

    def _shares(self, code: str, holder: Hashable, browser: str | None, address: str | None,
                seats: int | None = None) -> list[tuple]:
        """Each share the connection counts in, as (key, most it may hold), the narrowest first: a
        key's first part is the reason given when that share is full."""
        if holder == SCREENS:
            return [(("screens", code), self.per_host), (("address", address), self.per_address),
                    (("public",), int(self.limit * self.public_share)), (("server",), self.limit)]
        if holder in (BANKER, TV):
            shares = [((holder, code), self.per_host)]
        else:
            shares = [((*holder, code), self.per_seat)]  # ("seat", n, code)
        if browser is not None:
            shares.append((("browser", browser), self.per_browser))
        most = self.per_game if seats is None else seats * self.per_seat + 2 * self.per_host
        return shares + [(("game", code), most), (("server",), self.limit)]

    @property
    def open(self) -> int:
        """How many slots are held now."""
        return self._held[("server",)]


def server_threads(environ: dict) -> int | None:
    """The threads the server serving this request has for requests, in this process: waitress's
    `threads` (read from the channel its environ names), or a gunicorn worker's `--threads` (its
    `--worker-connections` for the worker classes that serve each connection without a thread of
    its own: gevent, eventlet); None for any other server (Werkzeug's, the tests' client), whose
    threads are not counted."""
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    if getattr(channel, "adj", None) is not None:
        return channel.adj.threads
    if str(environ.get("SERVER_SOFTWARE", "")).startswith("gunicorn/"):
        config = gunicorn_config()
        if config is not None:
            return config.threads if config.worker_class_str in ("sync", "gthread") else config.worker_connections
    return None


def gunicorn_config():
    """The configuration of the gunicorn worker serving this request (what its command line, its
    config file and GUNICORN_CMD_ARGS said), or None. gunicorn hands the app no handle on it, but the
    worker that called the app is on this thread's stack (its `handle`, as `self`): read once, at a
    process's first live connection."""
    from gunicorn.config import Config

    frame = sys._getframe(1)
    while frame is not None:
        config = getattr(frame.f_locals.get("self"), "cfg", None)
        if isinstance(config, Config):
            return config
        frame = frame.f_back
    return None
