"""What an event's action did: one constructor per kind of effect, each a plain dict {"kind": <the
constructor's name>, <its fields>}, as a game's effects are (rules/effects/). The store acts on
some: `round_seated` (create the tables' games), `last_turn` (call it in each game still playing)."""

from collections.abc import Callable

from ..effects import kinds_in

KINDS: dict[str, Callable[..., dict]] = {}
kind = kinds_in(KINDS)


@kind
def registered(player: int, name: str) -> dict:
    """Player `player` registered as `name`."""
    return {"player": player, "name": name}


@kind
def withdrew(player: int) -> dict:
    """Player `player` withdrew from the next rounds."""
    return {"player": player}


@kind
def seed_drawn(seed: int) -> dict:
    """The seating's seed was drawn again."""
    return {"seed": seed}


@kind
def round_seated(round: int, tables: list[list[int]], final: bool) -> dict:
    """Round `round` was seated: the players of each table, in seat order; the store creates the games."""
    return {"round": round, "tables": tables, "final": final}


@kind
def tables_created(round: int, games: list[str]) -> dict:
    """The games of round `round`'s tables, in table order."""
    return {"round": round, "games": games}


@kind
def round_started(round: int, ends_at: int) -> dict:
    """Round `round`'s clock started; it ends at `ends_at`."""
    return {"round": round, "ends_at": ends_at}


@kind
def clock_paused(round: int, remaining: int) -> dict:
    """The clock stopped with `remaining` seconds left."""
    return {"round": round, "remaining": remaining}


@kind
def clock_resumed(round: int, ends_at: int) -> dict:
    """The clock runs again, to `ends_at`."""
    return {"round": round, "ends_at": ends_at}


@kind
def last_turn(round: int, games: list[str]) -> dict:
    """The last turn was called: the store calls it in each of these games, still playing."""
    return {"round": round, "games": games}


@kind
def table_ended(round: int, table: int, points: dict[str, int]) -> dict:
    """A table's game ended: the points each of its players earned (by player id)."""
    return {"round": round, "table": table, "points": points}


@kind
def round_ended(round: int) -> dict:
    """Every table of round `round` has its result."""
    return {"round": round}


@kind
def event_ended() -> dict:
    """The last round (or the final) ended: the event is over."""
    return {}


@kind
def result_corrected(round: int, table: int, points: dict[str, int], memo: str) -> dict:
    """The organiser set these players' points at a table, with a memo."""
    return {"round": round, "table": table, "points": points, "memo": memo}


@kind
def rolled_off(players: list[int]) -> dict:
    """A roll-off between tied players was recorded, the winner first."""
    return {"players": players}
