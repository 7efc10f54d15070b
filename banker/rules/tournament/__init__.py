"""A tournament: an event of several tables over timed rounds, each table an ordinary game. Pure,
like the game's rules: the clock's `now` and the seating's seed come in as data."""

from .actions import EVENT_ACTIONS, EventAction, EventActor, check_event_undo, parse_event_action
from .event import apply_event, replay_event
from .state import (
    Clock, EventPlayer, EventSettings, EventState, Round, Table, is_last_turn, new_event, ranking, standings,
)
from .scoring import Result, Scoring, Standing, score, seat_results, ties
from .seating import meetings, seat_final, seat_round, table_sizes

__all__ = [
    "Clock", "EVENT_ACTIONS", "EventAction", "EventActor", "EventPlayer", "EventSettings", "EventState",
    "Result", "Round", "Scoring", "Standing", "Table", "apply_event", "check_event_undo", "is_last_turn",
    "meetings", "new_event", "parse_event_action", "ranking", "replay_event", "score", "seat_final",
    "seat_results", "seat_round", "standings", "table_sizes", "ties",
]
