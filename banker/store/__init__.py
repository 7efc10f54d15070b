"""Persistence: load a game, apply an action through the rules, append the event and save the
snapshot in one transaction guarded by an optimistic version check.

The modules, in the order a request meets them:

- `engine`: the database under it all: SQLite's BEGIN IMMEDIATE (`sqlite_setup`), the write
  transaction (`writing`), the retries of a write that lost the race (`attempts`, `Busy`), the
  database failing (`outage`, `disk_full`, `in_one_line` for the log, and `reconnecting`: an
  action's one more try), a session let go (`release`: what a thread that waits holds none of), and
  which database it is (`on_sqlite`, `database_url`).
- `identity`: who sends a request: token hashing, the `Browser`, the `Sender` (made once per
  request: the nonce's key, the seat or badge read with the game, the actor), badges.
- `games`: a game by its code: `create_game`, `find_game` (`GameNotFound` when an action names
  none), `load_state`, and `visit` (the game and who is asking, for the pages and the API); `answering`, the health check's one cheap question.
- `actions`: `act`, the hot path: one read, the rules, `_save` (snapshot, event, checkpoint).
- `memory`: each game's newest version in this process (`Known`, with its newest log `Entry`s), made
  from this process's commits (`Commit`) or read from the database; the screens read games from it;
  and one event read back as an Entry (`log_entry`).
- `news`: a commit handed to the memory and published (`announce`) through the notifier the app gave
  the store (`init_app(app, notifier)`, which makes the memory; `Notifier` is what the store asks
  of it), and a game as the memory knows it (`known`).
- `undo`: undo and take back, and when a checkpoint is kept (`CHECKPOINT_EVERY`).
- `log`: the event log read back: `live_log`, `live_effects`, `log_page` (the API's pages), `replay_game`.
- `claims`: rejoin codes: `new_claim` (`SeatNotFound`), `claim`, `claim_state`, `take_seat`, and `moved_seat` (what the
  old phone of a seat taken over is told).
- `archive`: a game taken away and brought back: its archive read out (`archive.events`), and a game
  file replayed (banker/game_file.py, whose refusals `BadArchive` and `BadEvent` are re-exported
  here) written as a new game (`archive.save`).
- `timeline`: the game as it was at any version (`state_at`), from the checkpoints.
- `tv`: the TV screen's view key: `new_view_key`, `tv_game`, `has_view_key`.

Everything other code uses is re-exported here: `from banker import store` then `store.act(...)`.
A test that changes a module's setting or helper (`_save`, `CHECKPOINT_EVERY`, `BACKOFF`, `_now`,
`replay`, `announce`) patches the module that owns it, not this package: the package's name is
only a copy of it.
"""

from ..game_file import BadArchive, BadEvent  # an import's refusals, told by the web layer
from ..models import Game  # the type of a game's row, as find_game and visit give it
from ..rules import Actor  # the type of act's `actor`, for its in-process callers
from .actions import Outcome, act
from .claims import CLAIM_SECONDS, SeatNotFound, claim, claim_state, moved_seat, new_claim, take_seat
from .engine import TRIES, Busy, database_url, disk_full, in_one_line, on_sqlite, outage, release, sqlite_setup, writing
from .games import CODE_ALPHABET, CODE_LENGTH, GameNotFound, answering, create_game, find_game, game_code, load_state, visit
from .identity import Browser, UnknownSecret, new_token, token_hash
from .log import last_live_event, live_effects, live_log, log_page, replay_game
from .memory import Commit, Entry, Known, Memory, log_entry
from .news import Notifier, init_app, known, notifier
from .timeline import state_at
from .tv import has_view_key, new_view_key, tv_game
from .undo import CHECKPOINT_EVERY

__all__ = [
    "Actor", "BadArchive", "BadEvent", "Browser", "Busy", "CHECKPOINT_EVERY", "CLAIM_SECONDS", "CODE_ALPHABET",
    "CODE_LENGTH", "Commit", "Entry", "Game", "GameNotFound", "Known", "Memory", "Notifier", "Outcome", "SeatNotFound", "TRIES", "UnknownSecret", "act",
    "answering", "claim", "claim_state", "create_game", "database_url", "disk_full", "find_game", "game_code", "has_view_key",
    "in_one_line", "init_app", "known", "last_live_event", "live_effects", "live_log", "load_state", "log_entry", "log_page",
    "moved_seat", "new_claim", "new_token", "new_view_key", "notifier", "on_sqlite", "outage", "release", "replay_game",
    "sqlite_setup", "state_at", "take_seat", "token_hash", "tv_game", "visit", "writing",
]
