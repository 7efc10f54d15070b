"""The game's rules, pure Python: no Flask, no SQLAlchemy, no clock, no randomness."""

from .declaration import ACTIONS, Action, parse
from .errors import ActionError, GameError, NotAllowed, RuleError
from .game import Actor, apply, legal_actions, replay
from .state import GameState, Settings, new_game

__all__ = [
    "ACTIONS", "Action", "ActionError", "Actor", "GameError", "GameState", "NotAllowed",
    "RuleError", "Settings", "apply", "legal_actions", "new_game", "parse", "replay",
]
