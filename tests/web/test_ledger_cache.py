"""The history's caches (banker/web/ledger.py): bounded, least recently used out first, and one value
per key even when two screens miss it at the same moment."""

import threading

from banker.web.ledger import LruCache


def test_two_readers_missing_a_key_at_once_share_the_value_kept_first():
    cache = LruCache(4)
    both_missed = threading.Barrier(2)
    got = []

    def read():
        def make():
            both_missed.wait(timeout=5)  # neither keeps its value before the other has made one
            return {}
        got.append(cache.get("game", make))

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(timeout=5)
    assert len(got) == 2 and got[0] is got[1]
    assert cache.get("game", dict) is got[0]


def test_the_least_recently_used_value_goes_when_the_cache_is_full():
    cache = LruCache(2)
    cache.get("a", lambda: 1)
    cache.get("b", lambda: 2)
    assert cache.get("a", lambda: "made again") == 1  # "a" used again: "b" is now the oldest
    cache.get("c", lambda: 3)
    assert cache.get("a", lambda: "made again") == 1
    assert cache.get("b", lambda: "made again") == "made again"
