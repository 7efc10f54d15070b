"""The in-process notifier: a live connection waits for a newer version, or for news of the game."""

import threading

from banker.live.notifier import LocalNotifier


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
