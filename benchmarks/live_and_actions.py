"""Benchmark, in process: whether an action, an undo and a screen's render slow as the game grows.

Eight players play by themselves (benchmarks/bot.py) to 10, 1,000 and 5,000 events; at each
length it times an action through the store, an undo, the host page, and one live update of the
host screen and of a phone (every part rendered, as the live connection does after a change).

Run: .venv/bin/python benchmarks/live_and_actions.py   (prints a table; asserts nothing)
"""

import random
import statistics
import tempfile
import time
from pathlib import Path

from bot import next_move
from flask import g

from banker import create_app, store
from banker.rules import Actor, GameError
from banker.rules.view import state_json
from banker.screens import PhoneScreen, TableScreen, render_parts

NAMES = (("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"), ("Di", "cat"), ("Ed", "ship"), ("Flo", "iron"),
         ("Gus", "thimble"), ("Hal", "wheelbarrow"))
BANKER = Actor(banker=True)


def median_us(fn, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def an_app(**config):
    """The app as the in-process benchmarks run it: on a SQLite file in a new temporary folder."""
    folder = Path(tempfile.mkdtemp())
    return create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}", "SECRET_KEY": "bench",
                       "HTMX_CDN": False, **config}, instance_path=folder)


def a_table(client=None) -> str:
    """A game of eight, started, banked by `client`'s browser if one is given (its session holds the
    browser key that created the game, as the host page's would): the game's code."""
    key = store.new_token()
    code = store.create_game(browser=store.Browser(key, "banker"))[0].code
    for name, token in NAMES:
        store.act(code, {"type": "join", "name": name, "token": token})
    store.act(code, {"type": "start", "order": list(range(1, 9))}, actor=BANKER)
    if client is not None:
        with client.session_transaction() as session:
            session["browser"] = key
    return code


def play(code: str, rng: random.Random, until: int, undos: float = 0.0) -> None:
    """The bot's moves through the store until the game has `until` events (refusals skipped); with
    `undos`, an undo by the banker instead of that share of the moves (never of the start)."""
    while (game := store.find_game(code)).version < until:
        who, action = next_move(state_json(store.load_state(game), game.version), rng)
        if undos and rng.random() < undos and store.last_live_event(game.id).type != "start":
            who, action = "banker", {"type": "undo"}
        try:
            store.act(code, action, actor=BANKER if who == "banker" else Actor(player=who))
        except GameError:
            pass


def main() -> None:
    app = an_app()
    client = app.test_client()
    rng = random.Random(8)
    rows = []
    with app.app_context():
        code = a_table(client)

        def pay():
            store.act(code, {"type": "bank_pay", "player": 1, "amount": 1}, actor=BANKER)


        for events in (10, 1000, 5000):
            play(code, rng, events)
            action = median_us(pay, 200)
            undo = statistics.median(_undo_times(code, pay, 50)) * 1e6
            page = median_us(lambda: client.get(f"/t/{code}"), 30)
            with app.test_request_context():
                g.live_marks = True  # as the renderer renders: the game from the memory, every part
                host = median_us(lambda: render_parts(TableScreen(store.known(store.find_game(code)), True)), 30)
                phone = median_us(lambda: render_parts(PhoneScreen(store.known(store.find_game(code)), 1)), 30)
            rows.append((events, action, undo, page, host, phone))
    print(f"{'events':>7} {'action µs':>10} {'undo µs':>9} {'host page µs':>13} "
          f"{'host update µs':>15} {'phone update µs':>16}")
    for events, action, undo, page, host, phone in rows:
        print(f"{events:>7,} {action:>10.0f} {undo:>9.0f} {page:>13.0f} {host:>15.0f} {phone:>16.0f}")


def _undo_times(code: str, pay, rounds: int) -> list[float]:
    """Each undo takes back a payment made just before it."""
    times = []
    for _ in range(rounds):
        pay()
        start = time.perf_counter()
        store.act(code, {"type": "undo"}, actor=BANKER)
        times.append(time.perf_counter() - start)
    return times


if __name__ == "__main__":
    main()
