"""apply_event(state, action, actor, now) -> (new_state, effects): the one way an event changes, as
rules.apply is for a game; replay_event folds an event's log."""

from collections.abc import Iterable

from .actions import EventAction, EventActor, check_actor, parse_event_action
from .state import EventSettings, EventState, new_event


def apply_event(state: EventState, action: EventAction, actor: EventActor, now: int,
                copy: bool = True) -> tuple[EventState, list[dict]]:
    """Apply one action for an actor at `now` (whole seconds of the store's clock); the given state
    is left untouched unless `copy` is False (for a caller that throws it away either way).
    Raises ActionError, RuleError or NotAllowed, and then changes nothing."""
    check_actor(action, actor)
    new = state.copy() if copy else state
    effects: list[dict] = []
    action.run(new, actor, now, effects)
    return new, effects


def replay_event(settings: EventSettings, seed: int, log: Iterable[tuple[EventActor, dict, int]]) -> EventState:
    """Fold an event's log of (actor, action dict, now) from its creation: gives its current state."""
    state = new_event(settings, seed)
    for actor, data, now in log:
        state, _ = apply_event(state, parse_event_action(data), actor, now, copy=False)
    return state
