"""News of a commit: the store hands each committed version to the memory and publishes it through
the notifier the app gave it at its creation (`init_app`).

The store knows the notifier only by the two calls it makes (`Notifier`): the live path's
(banker/live/notifier.py) is the one the app factory hands over, and it tells the open pages. So
the store imports nothing above it, and anything that keeps the two calls can stand in for it.
"""

from typing import Protocol

from flask import after_this_request, current_app, has_request_context

from .memory import Commit, Known, Memory


class Notifier(Protocol):
    """Who hears of a game's new versions: what the store asks of the notifier it is given."""

    def relay(self, session, code: str, version: int) -> None:
        """Inside the transaction that makes `version`: tell the other processes, once it commits."""

    def publish(self, code: str, version: int) -> None:
        """Game `code` is now at `version` (committed); or, the same version again, something
        else about it changed that its pages show (a seat went to another phone)."""


def init_app(app, notifier: Notifier) -> Memory:
    """Keep the notifier the store publishes its commits through, and make the app's memory of its
    games (given back: the live path renders from it)."""
    app.extensions["banker.notifier"] = notifier
    memory = app.extensions["banker.memory"] = Memory()
    return memory


def notifier() -> Notifier:
    """The notifier the app gave the store."""
    return current_app.extensions["banker.notifier"]


def _memory() -> Memory:
    return current_app.extensions["banker.memory"]


def known(game) -> Known:
    """The game at the version its row `game` (find_game's) was read at: from the memory when it
    has it, else read once."""
    return _memory().known(game)


def announce(code: str, version: int, commit: Commit | None = None) -> None:
    """Publish a committed version (made by `commit`, handed to the memory at once): at once, or,
    while answering a request, once its answer has been sent (the WSGI server closes the
    response). The player who acted hears back first: the screens woken by the publication render
    while the interpreter lock is theirs to share, and making and sending that answer does not
    wait behind them."""
    if commit is not None:
        _memory().committed(commit)
    changes = notifier()
    if not has_request_context():
        changes.publish(code, version)
        return

    @after_this_request
    def publish_once_sent(response):
        response.call_on_close(lambda: changes.publish(code, version))
        return response
