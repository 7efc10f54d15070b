"""The history's caches (banker/screens/history.py; the cache itself, banker/lru.py): bounded, least recently used out first, one value
per key even when two screens miss it at the same moment, and each game's rows as many as a screen
can show, however long the game."""

import threading

from banker import store
from banker.store import memory
from banker.screens import history
from banker.lru import LruCache

from .games import new_game


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


def test_a_games_rows_stay_as_many_as_a_screen_can_show_however_long_the_game(app, client, monkeypatch):
    """A long evening: the rows kept for a game are those of the newest entries the store's memory
    keeps (RECENT, here 10) and a few more, not one per entry of the log; reading the whole log
    through the API adds none."""
    monkeypatch.setattr(memory, "RECENT", 10)
    game = new_game(client)
    sizes = []
    for n in range(60):
        game.ok("banker", type="bank_pay", player=1 + n % 2, amount=n + 1)
        if n % 9 == 0:
            game.ok("banker", type="undo")
        with app.test_request_context():
            known = app.extensions["banker.memory"].known(store.find_game(game.code))
            host, ann = history.history_rows(known, known.state), history.history_rows(known, known.state, 1)
            rows = history._known(known)
            sizes.append(len(rows))
        assert host and ann and host[0]["seq"] == known.version
    assert max(sizes) <= 2 * 10 + 1 and sizes[-1] > 10, sizes
    assert len(game.events(limit=7)) == known.version > 60  # the whole log, through the API
    with app.test_request_context():
        assert len(history._known(known)) == sizes[-1]
