"""Games made and played through the store itself, for the store tests (the app's context is the
test's: tests/store/conftest.py)."""

import random
from dataclasses import dataclass, field

from banker import store
from banker.models import Badge, Event, Game, db
from banker.rules import Actor, GameError, GameState
from banker.rules.view import state_json

from ..evenings import next_move
from ..web.games import PLAYERS

BANKER = Actor(banker=True)


def who(name) -> Actor:
    """The actor for "banker" or a seat id, as next_move names them."""
    return BANKER if name == "banker" else Actor(player=name)


@dataclass
class Table:
    """A game made through the store: its code, the banker's API secret and each seat's."""

    code: str
    banker: str
    seats: dict[int, str] = field(default_factory=dict)


def new_table(players: int = 3, start: bool = True) -> Table:
    """A game with the first `players` of Ann, Bob and Cy seated, each with an API secret, started
    in that order by the banker (an in-process actor) unless asked not to."""
    game, banker = store.create_game()
    table = Table(game.code, banker)
    for name, token in PLAYERS[:players]:
        secret = store.new_token()
        joined = store.act(game.code, {"type": "join", "name": name, "token": token}, seat_token=secret)
        table.seats[joined.player] = secret
    if start:
        store.act(game.code, {"type": "start", "order": list(table.seats)}, actor=BANKER)
    return table


def new_browser(role: str = "seat") -> store.Browser:
    """A browser the game has never seen: a fresh key, asking as the banker or as a seat."""
    return store.Browser(store.new_token(), role)


def give_badge(code: str, browser: store.Browser, player: int | None = None) -> None:
    """The browser holds the banker's badge (no player) or the seat's, as creating the game on the
    home page or joining from the join page leaves it."""
    db.session.add(Badge(browser_hash=browser.digest, game_id=fresh(code).id, role=browser.role, player_id=player))
    db.session.commit()


def fresh(code: str) -> Game:
    """The game as last committed: the test's session may still read an older snapshot (a SQLite
    read transaction begun before other threads wrote) or hold the row from an earlier read."""
    db.session.rollback()
    return store.find_game(code)


def events(code: str) -> list[Event]:
    """The game's events, oldest first (undone ones included), page after page as the API reads them."""
    game, found = fresh(code), []
    while page := store.log_page(game, found[-1].seq if found else 0, 500):
        found += page
    return found


def cash(state: GameState) -> dict[int, int]:
    return {p.id: p.cash for p in state.players}


def assert_replay_gives_the_snapshot(code: str) -> None:
    game = fresh(code)
    assert store.replay_game(game) == GameState.from_dict(game.state)


def play_randomly(code: str, rng: random.Random, steps: int, undo: bool = True) -> None:
    """What a table might do (tests/evenings.py), refusals included. Each move is chosen from the
    state the previous action's outcome gave: one round trip a step, the action's own."""
    game = store.find_game(code)
    state, version = store.load_state(game), game.version
    for _ in range(steps):
        name, action = next_move(state_json(state, version), rng)
        if action["type"] == "undo" and not undo:
            continue
        try:
            outcome = store.act(code, action, actor=who(name))
        except GameError:
            continue
        state, version = outcome.state, outcome.version


def counting_replays(monkeypatch, module) -> list[int]:
    """The number of logged actions each replay of the store's `module` (undo, timeline) goes
    through: the rows it read after its checkpoint. The tests' own replays go through the rules'
    replay directly, and are not counted."""
    counts, replay = [], module.replay

    def counted(edition, settings, log, start=None):
        counts.append(len(log))
        return replay(edition, settings, log, start)

    monkeypatch.setattr(module, "replay", counted)
    return counts
