"""The notifier: tells the open pages of a game that it changed, once the change is committed.

One small interface: the store publishes a game's new version after each commit, and each live
connection waits for a version newer than the one its page shows. `LocalNotifier` serves one
process; several processes (the hosted mode on PostgreSQL) need one that also relays the
versions between processes (LISTEN/NOTIFY) behind the same three methods.
"""

import threading
from typing import Protocol

from flask import after_this_request, current_app, has_request_context


class Notifier(Protocol):
    closed: bool

    def publish(self, code: str, version: int) -> None:
        """Game `code` is now at `version` (committed); or, the same version again, something
        else about it changed that its pages show (a seat went to another phone)."""

    def wait(self, code: str, seen: int, timeout: float) -> int | None:
        """Block until game `code` is past version `seen`, or something about it was published
        meanwhile: the newest version; None after `timeout` seconds (or once the notifier is
        closed)."""

    def close(self) -> None:
        """Wake every waiter for good: the server is stopping."""


class LocalNotifier:
    """Versions published in this process, how many times each game was published, and one
    condition per game that someone waits on."""

    def __init__(self):
        self.closed = False
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

    def close(self) -> None:
        with self._lock:
            self.closed = True
            for condition, _ in self._waiting.values():
                condition.notify_all()


def notifier() -> Notifier:
    """The app's notifier (made by create_app)."""
    return current_app.extensions["banker.notifier"]


def announce(code: str, version: int) -> None:
    """Publish a committed version: at once, or, while answering a request, once its answer has
    been sent (the WSGI server closes the response). The player who acted hears back first: the
    screens woken by the publication render while the interpreter lock is theirs to share, and
    making and sending that answer does not wait behind them."""
    changes = notifier()
    if not has_request_context():
        changes.publish(code, version)
        return

    @after_this_request
    def publish_once_sent(response):
        response.call_on_close(lambda: changes.publish(code, version))
        return response
