"""The notifier: tells the open pages of a game that it changed, once the change is committed.

One small interface: the store publishes a game's new version after each commit through the
notifier the app gave it (store/news.py: `publish`, and `relay` inside the transaction), and
whoever listens (the game's renderer, live/renderer.py) hears of it. `LocalNotifier` serves one process
(SQLite is one process's database). `PostgresNotifier` also relays the versions between the
processes that share a PostgreSQL database, through LISTEN/NOTIFY.
"""

import logging
import threading
import uuid
from collections.abc import Callable
from typing import Protocol

from sqlalchemy import text

from .. import store

log = logging.getLogger(__name__)


Listener = Callable[[str | None, int], None]


class Notifier(store.Notifier, Protocol):
    """The store's notifier (`publish`, `relay`), and what the live pages ask of it."""

    closed: bool
    listeners: list[Listener]

    def wait(self, code: str, seen: int, timeout: float) -> int | None:
        """Block until game `code` is past version `seen`, or something about it was published
        meanwhile: the newest version; None after `timeout` seconds (or once the notifier is
        closed)."""

    def close(self) -> None:
        """Wake every waiter for good, and tell every listener (code None): the server is stopping."""

    def listen(self) -> None:
        """Hear the other processes' versions from now on (a page follows a game)."""

    def nudge(self, code: str) -> None:
        """Wake whoever waits on `code` now to look again, telling no listener: no new version of
        it, but something its pages show, kept elsewhere, may have changed (a tournament's table)."""


class LocalNotifier:
    """Versions published in this process, how many times each game was published, and one
    condition per game that someone waits on; each publication is also told to the `listeners`
    (`listener(code, version)`; code None: look at every game again)."""

    def __init__(self):
        self.closed = False
        self.listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._published: dict[str, int] = {}
        self._waiting: dict[str, tuple[threading.Condition, int]] = {}  # code -> (condition, waiters)

    def publish(self, code: str, version: int) -> None:
        with self._lock:
            self._versions[code] = max(version, self._versions.get(code, -1))
            self._published[code] = self._published.get(code, 0) + 1
            if code in self._waiting:
                self._waiting[code][0].notify_all()
        self._tell(code, version)

    def _tell(self, code: str | None, version: int) -> None:
        for listener in self.listeners:
            listener(code, version)

    def wait(self, code: str, seen: int, timeout: float) -> int | None:
        with self._lock:
            condition, waiters = self._waiting.get(code) or (threading.Condition(self._lock), 0)
            self._waiting[code] = (condition, waiters + 1)
            published = self._published.get(code, 0)
            try:
                woke = condition.wait_for(lambda: self.closed or self._versions.get(code, seen) > seen
                                          or self._published.get(code, 0) != published, timeout)
            finally:
                condition, waiters = self._waiting[code]
                if waiters == 1:
                    del self._waiting[code]
                else:
                    self._waiting[code] = (condition, waiters - 1)
            return max(seen, self._versions.get(code, seen)) if woke and not self.closed else None

    def nudge(self, code: str) -> None:
        with self._lock:
            if code in self._waiting:
                self._published[code] = self._published.get(code, 0) + 1
                self._waiting[code][0].notify_all()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            for condition, _ in self._waiting.values():
                condition.notify_all()
        self._tell(None, -1)

    def relay(self, session, code: str, version: int) -> None:
        """One process: nobody else to tell."""

    def listen(self) -> None:
        """One process: nobody else to listen to."""

    def wake_all(self) -> None:
        """Wake every waiter to look again, and tell every listener to look at every game in the
        database (code None): something may have changed unheard."""
        with self._lock:
            for code, (condition, _) in self._waiting.items():
                self._published[code] = self._published.get(code, 0) + 1
                condition.notify_all()
        self._tell(None, -1)


# After a lost listening connection: the first try at once, then waits from RETRY_FIRST doubling up
# to RETRY_MOST seconds while the database stays away.
RETRY_FIRST = 0.05
RETRY_MOST = 2.0


def backoff(failures: int) -> float:
    """Seconds to wait before trying to listen again after `failures` failures in a row: none after
    the first (a connection killed or recycled is made again at once), then twice as long each
    time (a database that is away is not asked too often)."""
    return 0.0 if failures <= 1 else min(RETRY_FIRST * 2 ** (failures - 2), RETRY_MOST)


class PostgresNotifier(LocalNotifier):
    """LocalNotifier for one of several processes on one PostgreSQL database. The transaction that
    makes a version also sends it on CHANNEL (pg_notify: delivered when, and only if, it commits);
    each process listens on one connection of its own, from the first page that waits, and
    publishes locally what the other processes made. A lost listening connection is made again at
    once (then with backoff while the database stays away); once it listens again, every watched
    game is read from the database (the listeners are told code None), since a change may have
    gone by unheard meanwhile."""

    CHANNEL = "banker_versions"

    def __init__(self, url: str):
        super().__init__()
        self.url = url  # libpq's form (postgresql://...), for psycopg itself
        self.origin = uuid.uuid4().hex[:12]  # what tells this process's own notifications apart
        self.listening = threading.Event()
        self._listener: threading.Thread | None = None
        self._stopped = threading.Event()  # set by close: a backoff ends at once

    def close(self) -> None:
        super().close()
        self._stopped.set()

    def _rest(self, seconds: float) -> None:
        """The backoff's wait (cut short by close)."""
        if seconds:
            self._stopped.wait(seconds)

    def relay(self, session, code: str, version: int) -> None:
        session.execute(text("SELECT pg_notify(:channel, :payload)"),
                        {"channel": self.CHANNEL, "payload": f"{self.origin} {version} {code}"})

    def wait(self, code: str, seen: int, timeout: float) -> int | None:
        self.listen()
        return super().wait(code, seen, timeout)

    def listen(self) -> None:
        """Start listening to the other processes, from the first page that follows a game."""
        if self._listener is None:
            with self._lock:
                if self._listener is None and not self.closed:
                    self._listener = threading.Thread(target=self._listen, name="banker-listen", daemon=True)
                    self._listener.start()

    def _listen(self) -> None:
        import psycopg  # only hosted mode needs it (the postgres extra)

        failures = 0
        while not self.closed:
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.CHANNEL}")
                    self.listening.set()
                    failures = 0
                    # Listening from now on: what was committed before is in the database, where
                    # every watched game is read again.
                    self.wake_all()
                    while not self.closed:
                        for note in connection.notifies(timeout=0.5):
                            origin, version, code = note.payload.split(" ", 2)
                            if origin != self.origin:
                                LocalNotifier.publish(self, code, int(version))
            except psycopg.Error as error:
                self.listening.clear()
                failures += 1
                if not self.closed:
                    wait = backoff(failures)
                    log.warning("lost the PostgreSQL listening connection (%s); reconnecting in %.2f s",
                                error, wait)
                    self._rest(wait)


def for_database(uri: str) -> Notifier:
    """The notifier the app's database calls for: relayed between processes on PostgreSQL."""
    if uri.startswith("postgresql"):
        from sqlalchemy.engine import make_url

        return PostgresNotifier(make_url(uri).set(drivername="postgresql").render_as_string(hide_password=False))
    return LocalNotifier()
