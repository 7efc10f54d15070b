"""A small bounded cache, shared by the parts of the app that keep what they made once."""

import threading
from collections import OrderedDict


class LruCache:
    """A thread-safe least-recently-used cache of at most `size` values: get(key, make) returns the
    value kept for `key` (which becomes the most recently used), or keeps what make() returns,
    dropping the least recently used value when full. The app's caches (the history told,
    the board's squares, the stories), bounded.

    make() runs outside the lock (it may read the database); two threads missing the same key at
    once both make a value, and both get the one kept first: every reader shares one value (a
    game's rows, which readers fill in)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            value = self._items.setdefault(key, value)
            self._items.move_to_end(key)
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return value
