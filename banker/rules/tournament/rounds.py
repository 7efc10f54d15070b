"""A round, from seating to the last result: seat it, record its games, run its clock (pause,
resume, the last turn), take each table's result and score it; the organiser's corrections and
roll-offs. The store creates the games and reports their ends, as actions, so this state stays the
truth of the event."""

from collections.abc import Mapping, Sequence

from ..errors import N_, RuleError
from . import happened
from .scoring import Result, score, tied
from .seating import seat_final, seat_round
from .state import Clock, EventState, Round, Table, is_last_turn, standings


def seat(state: EventState, effects: list) -> None:
    """Seat the next round: a qualifying round (random, then fewest rematches), or the final."""
    if state.status in ("seated", "playing"):
        raise RuleError("round_not_over", N_("Round {round} is not over yet."), round=state.round.number)
    if state.status == "ended":
        raise RuleError("event_over", N_("The event is over."))
    active = [p.id for p in state.players if not p.withdrawn]
    if len(active) < 2:
        raise RuleError("too_few_players", N_("At least two players are needed to seat a round."))
    number = len(state.rounds) + 1
    settings = state.settings
    final = number > settings.rounds
    if final:
        tables = seat_final([s.player for s in standings(state) if s.player in active], settings.final)
    else:
        played = [tuple(tuple(t.seats) for t in r.tables) for r in state.rounds]
        tables = seat_round(active, played, state.seed + number - 1, settings.table_size)
    state.rounds.append(Round(number=number, final=final,
                              tables=[Table(number=i, seats=list(t)) for i, t in enumerate(tables, 1)]))
    effects.append(happened.round_seated(number, [list(t) for t in tables], final))


def tables_created(state: EventState, games: Sequence[str], effects: list) -> None:
    """Record the games the store created for the newest round's tables."""
    current = state.round
    if current is None or any(t.game for t in current.tables):
        raise RuleError("no_tables_waiting", N_("No round is waiting for its games."))
    if len(games) != len(current.tables):
        raise RuleError("wrong_table_count", N_("Round {round} has {count} tables."),
                        round=current.number, count=len(current.tables))
    for table, code in zip(current.tables, games):
        table.game = code
    effects.append(happened.tables_created(current.number, list(games)))


def start(state: EventState, now: int, effects: list) -> None:
    """Start the seated round's clock, once its games exist."""
    current = _current(state)
    if current.started:
        raise RuleError("round_started", N_("Round {round} has started."), round=current.number)
    if any(t.game is None for t in current.tables):
        raise RuleError("games_not_ready", N_("Round {round}'s games are not ready yet."), round=current.number)
    current.started = True
    state.clock.ends_at = now + state.settings.round_minutes * 60
    effects.append(happened.round_started(current.number, state.clock.ends_at))


def pause(state: EventState, now: int, effects: list) -> None:
    """Stop the running clock, keeping the time it had left."""
    clock = state.clock
    if not _current(state).started or clock.ends_at is None:
        raise RuleError("clock_not_running", N_("The clock is not running."))
    clock.paused_remaining, clock.ends_at = max(clock.ends_at - now, 0), None
    effects.append(happened.clock_paused(state.round.number, clock.paused_remaining))


def resume(state: EventState, now: int, effects: list) -> None:
    """Run the paused clock again for the time it had left."""
    clock = state.clock
    if clock.paused_remaining is None:
        raise RuleError("clock_not_paused", N_("The clock is not paused."))
    clock.ends_at, clock.paused_remaining = now + clock.paused_remaining, None
    effects.append(happened.clock_resumed(state.round.number, clock.ends_at))


def call_last_turn(state: EventState, by_organiser: bool, now: int, effects: list) -> None:
    """Call the last turn of the round in play: the organiser at any time, anyone once time is up.
    The store then calls it in each game still playing."""
    current = _current(state)
    if not current.started:
        raise RuleError("round_not_started", N_("Round {round} has not started."), round=current.number)
    if state.clock.last_turn:
        raise RuleError("last_turn_called", N_("The last turn has been called."))
    if not by_organiser and not is_last_turn(state, now):
        raise RuleError("not_time_yet", N_("The round's time is not up yet."))
    state.clock.last_turn = True
    effects.append(happened.last_turn(current.number, [t.game for t in current.tables if t.results is None]))


def table_result(state: EventState, number: int, results: Sequence[Result], effects: list) -> None:
    """A table's game ended: score its seats; the round ends with its last table, the event with
    its last round."""
    current = _current(state)
    table = state.table(number)
    if table.game is None:
        raise RuleError("games_not_ready", N_("Round {round}'s games are not ready yet."), round=current.number)
    if table.results is not None:
        raise RuleError("table_has_result", N_("Table {table} already has its result."), table=number)
    if sorted(r.player for r in results) != sorted(table.seats):
        raise RuleError("wrong_players", N_("The result must name each player at table {table} once."), table=number)
    if any(r.place > len(results) for r in results):
        raise RuleError("bad_place", N_("A place must be from 1 to {count}."), count=len(results))
    points = score(state.settings.scoring, results, current.number, state.settings.table_size)
    table.results = [Result(**{**vars(r), "points": points[r.player]}) for r in results]
    effects.append(happened.table_ended(current.number, number, {str(p): v for p, v in points.items()}))
    if current.status == "ended":
        state.clock = Clock()
        effects.append(happened.round_ended(current.number))
        if state.status == "ended":
            effects.append(happened.event_ended())


def correct(state: EventState, round_number: int | None, number: int, points: Mapping[int, int], memo: str,
            effects: list) -> None:
    """Set some players' points at a table that has its result; the memo says why."""
    table = state.table(number, round_number)
    if table.results is None:
        raise RuleError("no_result", N_("Table {table} has no result yet."), table=number)
    by_player = {r.player: r for r in table.results}
    for player in points:
        if player not in by_player:
            raise RuleError("not_at_table", N_("{player} did not play at table {table}."), player=player, table=number)
    for player, value in points.items():
        by_player[player].points = value
    table.memo = memo
    round_number = round_number or state.round.number
    effects.append(happened.result_corrected(round_number, number, {str(p): v for p, v in points.items()}, memo))


def roll_off(state: EventState, players: Sequence[int], effects: list) -> None:
    """Record the order of a roll-off between players level on points, net worth and best place."""
    for player in players:
        state.player(player)
    if not tied(standings(state), players):
        raise RuleError("not_tied", N_("Those players are not tied in the standings."))
    state.roll_offs.append(list(players))
    effects.append(happened.rolled_off(list(players)))


def _current(state: EventState) -> Round:
    """The round in play (seated, not yet ended)."""
    if state.status not in ("seated", "playing"):
        raise RuleError("no_round", N_("No round is in play."))
    return state.round
