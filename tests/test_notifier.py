"""The in-process notifier: a live connection waits for a newer version, or for news of the game; and
the relay's listening connection, made again when lost (tests/web/test_live_work.py loses a real one)."""

import threading

import psycopg

from banker.live.notifier import RETRY_MOST, LocalNotifier, PostgresNotifier


def waiting(notifier, code, seen, timeout=5):
    """Start a waiter in a thread; returns (thread, result list)."""
    result = []
    thread = threading.Thread(target=lambda: result.append(notifier.wait(code, seen, timeout)))
    thread.start()
    return thread, result


def test_a_waiter_wakes_for_a_newer_version_of_its_game_only():
    notifier = LocalNotifier()
    thread, result = waiting(notifier, "AAAAA", 3)
    notifier.publish("BBBBB", 9)  # another game
    thread.join(0.2)
    assert thread.is_alive()
    notifier.publish("AAAAA", 4)
    thread.join(5)
    assert result == [4]


def test_a_version_published_before_the_wait_is_not_missed():
    notifier = LocalNotifier()
    notifier.publish("AAAAA", 7)
    assert notifier.wait("AAAAA", 5, timeout=5) == 7
    assert notifier.wait("AAAAA", 7, timeout=0.05) is None


def test_the_same_version_again_wakes_the_waiters_with_it():
    """Something the pages show changed that is not a new version (a seat went to another phone)."""
    notifier = LocalNotifier()
    notifier.publish("AAAAA", 7)
    thread, result = waiting(notifier, "AAAAA", 7)
    thread.join(0.1)
    notifier.publish("AAAAA", 7)
    thread.join(5)
    assert result == [7]


def test_closing_wakes_every_waiter_for_good():
    notifier = LocalNotifier()
    threads = [waiting(notifier, code, 0, timeout=30) for code in ("AAAAA", "AAAAA", "BBBBB")]
    notifier.close()
    for thread, result in threads:
        thread.join(5)
        assert result == [None]
    assert notifier.wait("AAAAA", 0, timeout=30) is None


def test_a_game_nobody_waits_for_keeps_no_condition():
    notifier = LocalNotifier()
    assert notifier.wait("AAAAA", 0, timeout=0.01) is None
    notifier.publish("AAAAA", 1)
    assert notifier._waiting == {}


def test_listening_again_backs_off_while_the_database_stays_away_and_starts_over_once_back(monkeypatch):
    """The first try comes at once, then each waits longer, up to a ceiling; a connection made (and
    lost again) starts over at once."""
    notifier = PostgresNotifier("postgresql://nowhere")
    rests, tries = [], []

    class Lost:
        """A connection that listens, then is lost."""
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def execute(self, sql):
            pass

        def notifies(self, timeout):
            raise psycopg.OperationalError("terminated")

    def connect(*args, **kwargs):
        tries.append(len(rests))
        if len(tries) == 12:
            notifier.close()
        if len(tries) == 10:
            return Lost()
        raise psycopg.OperationalError("the database is away")

    monkeypatch.setattr(psycopg, "connect", connect)
    monkeypatch.setattr(notifier, "_rest", rests.append)
    notifier._listen()
    assert len(rests) == 11 and rests[0] == 0 < rests[1] and rests[:9] == sorted(rests[:9])
    assert rests[7] == rests[8] == RETRY_MOST  # the ceiling
    assert rests[9:] == rests[:2]  # lost after a connection: at once again, then the same backoff
