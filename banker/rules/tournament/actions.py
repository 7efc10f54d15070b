"""The event's action vocabulary: every change to an event is one of these, declared once (its type,
who may take it, its fields and how each is parsed, and the rule it runs), as a game's actions are
in rules/actions/. Parsing checks only the shape of the input; the rules decide if it is legal now.

Who acts: the organiser (who also stands for the store, which records what the tables did: the
games it created, a game's end); a player, for their own registration and withdrawal; a newcomer
(no player yet), to register; and anyone, for the last turn once the round's time is up.
"""

from dataclasses import dataclass
from typing import dataclass_transform

from ..declaration import Action, arg, parse
from ..errors import N_, ActionError, NotAllowed, RuleError
from ..inputs import MAX_AMOUNT, MAX_MEMO, name, player_id, text, whole
from . import registration, rounds
from .scoring import MAX_POINTS, Result

MAX_TABLES = 50


@dataclass(frozen=True)
class EventActor:
    """Who sent an event's action: the organiser, a registered player, or a newcomer (neither)."""

    player: int | None = None
    organiser: bool = False

    def __str__(self) -> str:
        if self.organiser:
            return "organiser"
        return str(self.player) if self.player is not None else "guest"

    @classmethod
    def parse(cls, text: str) -> "EventActor":
        if text == "organiser":
            return cls(organiser=True)
        return cls(player=int(text)) if text.isdigit() else cls()


ORGANISER, PLAYER, NEWCOMER, ANYONE = "organiser", "player", "newcomer", "anyone"


@dataclass(frozen=True, kw_only=True)
class EventAction:
    """Base of every event action; `who` may take it (set by @event_action)."""

    type = ""
    who = ORGANISER

    def run(self, state, actor: EventActor, now: int, effects: list) -> None:
        """Apply the action's rule to `state` at `now` (the store's clock, whole seconds), adding
        what happened to `effects`; raise RuleError when it is illegal now."""
        raise NotImplementedError(self.type)

    to_dict = Action.to_dict


EVENT_ACTIONS: dict[str, type[EventAction]] = {}


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(arg,))
def event_action(type_name: str, who: str = ORGANISER):
    """Declare an event action: a frozen, keyword-only dataclass registered under `type_name`."""

    def declare(cls):
        cls = dataclass(frozen=True, kw_only=True)(cls)
        cls.type, cls.who = type_name, who
        EVENT_ACTIONS[type_name] = cls
        return cls

    return declare


def parse_event_action(data) -> EventAction:
    """Turn a dict from the API into an EventAction, or raise ActionError saying what is wrong."""
    return parse(data, EVENT_ACTIONS)


def check_actor(action: EventAction, actor: EventActor) -> None:
    """Refuse an action its actor may not take (the rules check the rest)."""
    if action.who == ORGANISER and not actor.organiser:
        raise NotAllowed("organiser_only", N_("Only the organiser can do that."))
    if action.who == NEWCOMER and (actor.organiser or actor.player is not None):
        raise RuleError("already_registered", N_("You are already registered in this event."))


def check_event_undo(actor: EventActor, last: str | None, state, now: int) -> None:
    """Refuse the organiser's undo, at `now`, of the newest live entry of the event's log, of type
    `last` (None: there is none). The store undoes by replaying the log without it, as for a game.
    What the tables did (a game created, a game's end) and a player's own registration are facts,
    not the organiser's choices (NOT_UNDONE says what to do instead); and a last turn that the
    round's time called would be called again at once."""
    if not actor.organiser:
        raise NotAllowed("organiser_only", N_("Only the organiser can undo."))
    if last is None:
        raise RuleError("nothing_to_undo", N_("There is nothing to undo."))
    if last in NOT_UNDONE:
        raise RuleError("not_undoable", NOT_UNDONE[last])
    if last == "last_turn" and state.clock.ends_at is not None and now >= state.clock.ends_at:
        raise RuleError("time_is_up", N_("The round's time is up: its last turn stands."))


NOT_UNDONE = {
    "register": N_("A registration cannot be undone: withdraw the player instead."),
    "tables_created": N_("The round's games are made: its seating cannot be undone. "
                         "A late player is seated from the next round."),
    "table_result": N_("That cannot be undone: correct the result instead."),
}


# Field parsers


def seed(value, field_name="seed") -> int:
    return whole(value, field_name, 0, 2**31 - 1)


def table_number(value, field_name="table") -> int:
    return whole(value, field_name, 1, MAX_TABLES)


def round_number(value, field_name="round") -> int:
    return whole(value, field_name, 1, 100)


def game_codes(value, field_name="games") -> tuple[str, ...]:
    """The codes of the games created for a round's tables, in table order."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_TABLES:
        raise ActionError("bad_field", N_("{field} must be a list of game codes."), field=field_name)
    codes = tuple(text(16)(code, field_name) for code in value)
    if not all(codes) or len(set(codes)) != len(codes):
        raise ActionError("bad_field", N_("{field} must be a list of game codes."), field=field_name)
    return codes


def players(value, field_name="players") -> tuple[int, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= 100 or len(set(map(str, value))) != len(value):
        raise ActionError("bad_field", N_("{field} must list two or more different players."), field=field_name)
    return tuple(player_id(p, field_name) for p in value)


def results(value, field_name="results") -> tuple[Result, ...]:
    """Each seat's facts at its game's end: player, net_worth, place, and bankrupt / bankrupt_to."""
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ActionError("bad_field", N_("{field} must list each seat's result."), field=field_name)
    out = []
    for item in value:
        if not isinstance(item, dict) or not {"player", "net_worth", "place"} <= set(item) \
                or not set(item) <= {"player", "net_worth", "place", "bankrupt", "bankrupt_to"}:
            raise ActionError("bad_field", N_("{field} must list each seat's result."), field=field_name)
        to = item.get("bankrupt_to")
        out.append(Result(
            player=player_id(item["player"]), net_worth=whole(item["net_worth"], "net_worth", 0, 100 * MAX_AMOUNT),
            place=whole(item["place"], "place", 1, 8), bankrupt=item.get("bankrupt") is True,
            bankrupt_to=to if to == "bank" else None if to is None else player_id(to, "bankrupt_to")))
    return tuple(out)


def points(value, field_name="points") -> dict[int, int]:
    """Points by player id: {"3": 12000, ...}."""
    if not isinstance(value, dict) or not 1 <= len(value) <= 8:
        raise ActionError("bad_field", N_("{field} must give points by player."), field=field_name)
    return {player_id(key, field_name): whole(v, field_name, -MAX_POINTS, MAX_POINTS) for key, v in value.items()}


def memo(value, field_name="memo") -> str:
    memo = text(MAX_MEMO)(value, field_name)
    if not memo:
        raise ActionError("missing_field", N_("Say why, in the memo."), field=field_name)
    return memo


# Registration


@event_action("register", NEWCOMER)
class Register(EventAction):
    """Register oneself (by the event's QR code), until the first round is seated."""

    name: str = arg(name, missing=N_("Type a name."))

    def run(self, state, actor, now, effects):
        registration.register(state, self.name, effects, late=False)


@event_action("add_player")
class AddPlayer(EventAction):
    """The organiser adds a player, at any time before the event ends: seated from the next round."""

    name: str = arg(name, missing=N_("Type a name."))

    def run(self, state, actor, now, effects):
        registration.register(state, self.name, effects, late=True)


@event_action("withdraw", PLAYER)
class Withdraw(EventAction):
    """A player leaves the event: from the next seating on (a game they are in goes on)."""

    player: int = arg(player_id)

    def run(self, state, actor, now, effects):
        if not actor.organiser and actor.player != self.player:
            raise NotAllowed("not_your_registration", N_("You can only withdraw yourself."))
        registration.withdraw(state, self.player, effects)


@event_action("draw_seed")
class DrawSeed(EventAction):
    """Draw the seating's seed again (the store draws it), until the first round is seated."""

    seed: int = arg(seed)

    def run(self, state, actor, now, effects):
        registration.draw_seed(state, self.seed, effects)


# Rounds


@event_action("seat_round")
class SeatRound(EventAction):
    """Seat the next round (after the qualifying rounds, the final); the store then creates its games."""

    def run(self, state, actor, now, effects):
        rounds.seat(state, effects)


@event_action("tables_created")
class TablesCreated(EventAction):
    """The store created the newest round's games: their codes, in table order."""

    games: tuple[str, ...] = arg(game_codes)

    def run(self, state, actor, now, effects):
        rounds.tables_created(state, self.games, effects)


@event_action("start_round")
class StartRound(EventAction):
    """Start the seated round's clock: it ends `round_minutes` from now."""

    def run(self, state, actor, now, effects):
        rounds.start(state, now, effects)


@event_action("pause_clock")
class PauseClock(EventAction):
    """Stop the round's clock, keeping the time left."""

    def run(self, state, actor, now, effects):
        rounds.pause(state, now, effects)


@event_action("resume_clock")
class ResumeClock(EventAction):
    """Run the round's clock again for the time it had left."""

    def run(self, state, actor, now, effects):
        rounds.resume(state, now, effects)


@event_action("last_turn", ANYONE)
class LastTurn(EventAction):
    """Call the last turn: the organiser at any time in the round, anyone once its time is up."""

    def run(self, state, actor, now, effects):
        rounds.call_last_turn(state, actor.organiser, now, effects)


@event_action("table_result")
class TableResult(EventAction):
    """A table's game ended: each seat's facts, scored by the event's scoring."""

    table: int = arg(table_number)
    results: tuple[Result, ...] = arg(results)

    def run(self, state, actor, now, effects):
        rounds.table_result(state, self.table, self.results, effects)

    def to_dict(self) -> dict:
        return {"type": self.type, "table": self.table,
                "results": [{k: v for k, v in vars(r).items() if k != "points"} for r in self.results]}


@event_action("correct_result")
class CorrectResult(EventAction):
    """The organiser sets some players' points at a table that has its result, saying why."""

    table: int = arg(table_number)
    points: dict = arg(points)
    memo: str = arg(memo, missing=N_("Say why, in the memo."))
    round: int | None = arg(round_number, default=None)

    def run(self, state, actor, now, effects):
        rounds.correct(state, self.round, self.table, self.points, self.memo, effects)


@event_action("roll_off")
class RollOff(EventAction):
    """Record a roll-off between players tied in the standings: the winner first."""

    players: tuple[int, ...] = arg(players)

    def run(self, state, actor, now, effects):
        rounds.roll_off(state, self.players, effects)

