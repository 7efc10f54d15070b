"""What a piece of a screen read of the game's state, recorded as it read it: a piece made from the
state alone is then taken from the screen of the version before when the state reads the same now
(`Screen.kept`), and nobody lists what a piece is made from.

A piece reads the state through a `Recording`: each field it reads (the deeds, the status, the
board), and each method it calls with its arguments (`state.player(2)`: that player, not every
player's cash), is recorded with what it gave. A piece is a function of what it read: given the same
answers it takes the same branches and reads the same things again, so it comes out the same.
"""

from typing import Any


class Recording:
    """A game state as a piece reads it (only reads it), with what was read: {field: value,
    (method, arguments): answer}."""

    def __init__(self, state):
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "read", {})

    def __getattr__(self, name: str) -> Any:
        state, read = self._state, self.read
        if callable(getattr(type(state), name, None)):  # a method: each call's answer is what is read
            method = getattr(state, name)

            def answer(*args):
                key = (name, args)
                if key not in read:
                    read[key] = method(*args)
                return read[key]

            found = answer
        else:  # a field, or a property (the board)
            found = read[name] = getattr(state, name)
        object.__setattr__(self, name, found)  # read again at once, without coming here
        return found

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a piece of a screen only reads the game's state ({name})")


def reads_the_same(read: dict, state) -> bool:
    """Whether `state` gives what a recording of another state read (`Recording.read`)."""
    for key, value in read.items():
        if type(key) is tuple:
            name, args = key
            try:
                now = getattr(state, name)(*args)
            except Exception:  # it answered then, and not now: not the same
                return False
        else:
            now = getattr(state, key)
        if not now == value:
            return False
    return True
