"""The end of a game: by the banker, by the last player standing (bankruptcy.py), or after the last
turn, which a tournament calls at the round's time: from then on the game ends by itself as soon as
every seat still in has had as many turns as the first seat, and ranks everyone by net worth. The
round's clock that leads to it is the tournament's, told to each of its tables (`set_round_clock`)
whenever it starts, pauses or runs again, or an undo moves it, so that the table's own screens show it."""

from .effects import play as happened
from .errors import N_, ActionError, RuleError
from .networth import standings
from .state import GameState


def finish(state: GameState, effects: list) -> None:
    """End the game: standings by net worth, each part shown; no action changes it afterwards."""
    state.status = "ended"
    state.auction, state.auction_queue, state.pending = None, [], None
    state.standings = standings(state)
    effects.append(happened.ended(state.standings[0]["player"]))


def call_last_turn(state: GameState, effects: list) -> None:
    """The banker calls the last turn; the turn in play, and the round of turns it belongs to, go on."""
    if state.last_turn:
        raise RuleError("last_turn_called", N_("The last turn has been called."))
    state.last_turn = True
    effects.append(happened.last_turn())


def set_round_clock(state: GameState, ends_at: int | None, paused_left: int | None, last_turn: bool | None,
                    effects: list) -> None:
    """The tournament's round clock, as the game's screens show it: running until `ends_at` (Unix
    seconds), paused with `paused_left` seconds left, or neither (the round has not started: its
    start was undone), never the game's own time limit again; and, when `last_turn` is told,
    whether the last turn is called (false: the tournament's undo took its call back)."""
    if ends_at is not None and paused_left is not None:
        raise ActionError("bad_clock", N_("The round's clock either runs until ends_at or is paused with paused_left."))
    if state.status == "ended":
        raise RuleError("game_over", N_("The game is over."))
    state.round_ends_at, state.round_paused_left, state.timed_by_round = ends_at, paused_left, True
    effects.append(happened.round_clock(ends_at, paused_left))
    if last_turn is not None and last_turn != state.last_turn:
        state.last_turn = last_turn
        effects.append(happened.last_turn() if last_turn else happened.last_turn_withdrawn())


def turns_even(state: GameState) -> bool:
    """Whether every seat still in has had as many turns as the first: the round of turns is whole.
    (Seats take turns in order, so this holds exactly when the turn would pass back to the first
    seat still in.)"""
    return len({p.turns for p in state.players if not p.bankrupt}) == 1
