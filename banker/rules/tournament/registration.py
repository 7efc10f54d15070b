"""Who takes part: players register once (names unique in the event, whatever their case), the
organiser adds a late one, a player withdraws from the next rounds; and the seating's seed."""

from ..errors import N_, RuleError
from . import happened
from .state import MAX_EVENT_PLAYERS, EventPlayer, EventState


def register(state: EventState, name: str, effects: list, late: bool) -> None:
    """A new player, seated from the next round. Registering oneself closes when the first round is
    seated; the organiser adds a `late` player until the event ends."""
    if state.status == "ended":
        raise RuleError("event_over", N_("The event is over."))
    if state.rounds and not late:
        raise RuleError("registration_closed", N_("Registration is closed: ask the organiser."))
    if any(p.name.casefold() == name.casefold() for p in state.players):
        raise RuleError("name_taken", N_("{name} is already registered in this event."), name=name)
    if len(state.players) >= MAX_EVENT_PLAYERS:
        raise RuleError("event_full", N_("The event is full ({count} players)."), count=MAX_EVENT_PLAYERS)
    player = EventPlayer(id=1 + max((p.id for p in state.players), default=0), name=name)
    state.players.append(player)
    effects.append(happened.registered(player.id, name))


def withdraw(state: EventState, player_id: int, effects: list) -> None:
    """The player is seated no more; a game they sit in goes on, and their points stay."""
    player = state.player(player_id)
    if player.withdrawn:
        raise RuleError("already_withdrawn", N_("{name} has already withdrawn."), name=player.name)
    player.withdrawn = True
    effects.append(happened.withdrew(player_id))


def draw_seed(state: EventState, seed: int, effects: list) -> None:
    """A new seed for the seating, until the first round is seated."""
    if state.rounds:
        raise RuleError("already_seated", N_("The first round is seated: its seed is drawn."))
    state.seed = seed
    effects.append(happened.seed_drawn(seed))
