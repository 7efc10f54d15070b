"""Why an action cannot be applied: malformed input, an illegal move now, or the wrong person."""


def N_(message: str) -> str:
    """Mark a message for translation without translating it: the rules stay free of Flask-Babel."""
    return message


class GameError(ValueError):
    """Base of every refusal. `message` is an English template; `params` fill it in.

    Params named `square` (a board index) and `player` (a player id) are rendered by the web
    layer as the localized square name and the player's name, so the rules never hold display text.
    """

    status = 409

    def __init__(self, code: str, message: str, **params):
        super().__init__(message.format(**params))
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self):
        # Pickled as made, not from the sentence Exception keeps: a refusal comes back to the server
        # from the process that replayed a game file (web/imports.py).
        return _made, (type(self), self.code, self.message, self.params)


def _made(kind: type, code: str, message: str, params: dict) -> GameError:
    return kind(code, message, **params)


class ActionError(GameError):
    """The action itself is malformed: unknown type, missing field, a value out of range."""

    status = 400


class RuleError(GameError):
    """The action is well formed but illegal in the game's current state."""

    status = 409


class NotAllowed(GameError):
    """The actor may not take this action (another seat's, or banker-only)."""

    status = 403


def attempt(check, *args):
    """Run a raising check as a query: (its result, None) when allowed, (None, the RuleError) if not.

    Screens use it to offer a button with its price, or to show why it is not offered.
    """
    try:
        return check(*args), None
    except RuleError as error:
        return None, error
