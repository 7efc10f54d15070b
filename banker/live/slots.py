"""The live connections' slots: how many open pages one process follows, and nobody more than a share.

Each open live connection holds one of the server's threads for as long as it is open (waitress's,
or a gunicorn worker's), so the slots are counted from the threads the server really has, less
SPARE_THREADS kept for page loads and actions (and never more than LIVE_CONNECTIONS): past them a
page is told to retry later (503), and the server keeps answering everything else. Worked out at the
first live connection, from the server that serves it (`server_threads`).

Nobody takes more than a share of them: at most LIVE_PER_ADDRESS for one client address (a family's
phones behind one router share one), and in each game LIVE_PER_SEAT for each seat's phones,
LIVE_PER_HOST for the banker's screens, as many for the screens of anyone else with the code
(TVs showing the host screen), and as many for the TV screens opened with the game's view key, so
that nobody with the code alone can crowd out the game's own screens.
"""

import sys
import threading
from collections import Counter
from collections.abc import Callable, Hashable

# Threads kept for page loads and actions: a table's taps take a few milliseconds each.
SPARE_THREADS = 16
BANKER, SCREENS = "banker", "screens"  # the holders of a game's host screens (with and without the badge)
TV = "tv"  # the holder of a game's TV screens (/tv/<code>/<key>): the view key's, not anyone's with the code


class Slots:
    """The slots of one process (per app). `take` gives a connection its slot, or None when it
    may not have one now; what it returns gives the slot back, once."""

    def __init__(self, config):
        self.wanted = config["LIVE_CONNECTIONS"]
        self.threads = config.get("SERVER_THREADS")  # None: found out from the server
        self.per_address = config["LIVE_PER_ADDRESS"]
        self.per_seat, self.per_host = config["LIVE_PER_SEAT"], config["LIVE_PER_HOST"]
        self.limit: int | None = None  # worked out at the first connection
        self._lock = threading.Lock()
        self._open = 0
        self._by_address: Counter = Counter()
        self._by_holder: Counter = Counter()  # (game code, holder) -> open connections

    def take(self, environ: dict, address: str | None, code: str, holder: Hashable) -> Callable[[], None] | None:
        """A slot for a connection from `address` to game `code`, counted against `holder` there
        (("seat", n), BANKER, SCREENS or TV); None when every slot, or this client's or holder's share,
        is taken."""
        share = self.per_host if holder in (BANKER, SCREENS, TV) else self.per_seat
        with self._lock:
            if self.limit is None:
                threads = self.threads or server_threads(environ)
                self.limit = self.wanted if threads is None else max(0, min(self.wanted, threads - SPARE_THREADS))
            if (self._open >= self.limit or self._by_address[address] >= self.per_address
                    or self._by_holder[code, holder] >= share):
                return None
            self._open += 1
            self._by_address[address] += 1
            self._by_holder[code, holder] += 1
        given = []

        def give_back() -> None:
            with self._lock:
                if given:
                    return
                given.append(True)
                self._open -= 1
                for counter, key in ((self._by_address, address), (self._by_holder, (code, holder))):
                    counter[key] -= 1
                    if not counter[key]:
                        del counter[key]

        return give_back

    @property
    def open(self) -> int:
        """How many slots are held now."""
        return self._open


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
