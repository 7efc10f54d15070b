"""Points for a table's result, by the event's scoring kind, and the standings across rounds.

- `net_worth`: a player's points are their net worth at the end of the game.
- `placings`: points by place from a list such as 4, 2, 1, 0 (a place beyond the list scores 0);
  players tied for a place share the points of the places they fill, each the mean rounded down
  (two tied second of 4, 2, 1, 0 score (2 + 1) // 2 = 1 each; the third place is not given).
- `jma`: the Japan Monopoly Association's (its championship regulations; docs/rules.md, Tournaments):
  a player who bankrupted every other player at the table (a "monopoly win") scores a flat `sweep`;
  otherwise a player's share of the table's total net worth, in whole percent, scaled by the seats
  at the table over the event's table size (so a seat at a table of five weighs as one at a table
  of four), up to the round's cap.

Standings sum the points over the rounds; ties break on total net worth, then the best place in a
single round, then a roll-off the organiser records.
"""

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from ..errors import N_, ActionError
from ..networth import net_worths, places
from ..state import GameState

KINDS = ("net_worth", "placings", "jma")
MAX_POINTS = 1_000_000


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """How a table's result becomes points."""

    kind: str = "net_worth"
    placings: tuple[int, ...] = (4, 2, 1, 0)  # placings: the points of 1st, 2nd, ...
    sweep: int = 100  # jma: a player who bankrupted every other player at the table
    # jma: the most a player's share scores, by round (the last applies to every later round).
    caps: tuple[int, ...] = (100,)

    @classmethod
    def parse(cls, data) -> "Scoring":
        """Validate the scoring an organiser chose: {"kind", and the fields of that kind}."""
        if not isinstance(data, dict):
            raise ActionError("bad_scoring", N_("scoring must be an object with a kind."))
        kind = data.get("kind")
        if kind not in KINDS:
            raise ActionError("bad_setting", N_("{key} must be one of: {choices}."),
                              key="scoring.kind", choices=", ".join(KINDS))
        known = {"kind"} | {"placings": {"placings"}, "jma": {"sweep", "caps"}}.get(kind, set())
        for key in data:
            if key not in known:
                raise ActionError("unknown_setting", N_("Unknown setting: {key}."), key=f"scoring.{key}"[:30])
        values = {"kind": kind}
        if "placings" in data:
            values["placings"] = _points_list(data["placings"], "scoring.placings")
            if list(values["placings"]) != sorted(values["placings"], reverse=True):
                raise ActionError("bad_setting", N_("{key} must not rise from one place to the next."),
                                  key="scoring.placings")
        if "sweep" in data:
            values["sweep"] = _points(data["sweep"], "scoring.sweep")
        if "caps" in data:
            values["caps"] = _points_list(data["caps"], "scoring.caps")
        return cls(**values)

    def to_dict(self) -> dict:
        data = asdict(self)
        return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}

    @classmethod
    def from_dict(cls, data: dict) -> "Scoring":
        return cls(**{key: tuple(value) if isinstance(value, list) else value for key, value in data.items()})

    def cap(self, round_number: int) -> int:
        """The jma cap of round `round_number` (from 1)."""
        return self.caps[min(round_number, len(self.caps)) - 1]


def _points(value, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise ActionError("bad_setting", N_("{key} must be a whole number from {low} to {high}."),
                          key=key, low=0, high=MAX_POINTS)
    return value


def _points_list(value, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ActionError("bad_setting", N_("{key} must be a list of one to eight whole numbers."), key=key)
    return tuple(_points(item, key) for item in value)


@dataclass(kw_only=True)
class Result:
    """One seat's result in one round: the facts of its game's end, and the points they earned."""

    player: int
    net_worth: int
    place: int
    bankrupt: bool = False
    bankrupt_to: int | str | None = None  # whom they went bankrupt to: a player's id, or "bank"
    points: int = 0


def seat_results(game: GameState, players: Sequence[int] | None = None) -> list[Result]:
    """The facts of an ended game's result, seat by seat in its standings' order: net worth; place,
    players with equal net worth sharing one (1, 2, 2, 4), a bankrupt player in the place they went
    out in; and who went bankrupt to whom. `players` names the event's player for each of the
    game's players, in the order they joined (a table's seats, when its game was joined in seat
    order); without it, the game's own ids are kept. The table's `table_result` action takes them."""
    name = {p.id: players[at] if players else p.id for at, p in enumerate(game.players)}
    worth = net_worths(game)
    alive = sorted((p for p in game.players if not p.bankrupt), key=lambda p: -worth[p.id])
    shared = places([{"total": worth[p.id]} for p in alive])  # as the game's end screen shows them
    results = [Result(player=name[p.id], net_worth=worth[p.id], place=place) for p, place in zip(alive, shared)]
    out = sorted((p for p in game.players if p.bankrupt), key=lambda p: p.place or len(game.players))
    results += [Result(player=name[p.id], net_worth=worth[p.id], place=p.place or len(game.players), bankrupt=True,
                       bankrupt_to=name.get(p.bankrupt_to, p.bankrupt_to)) for p in out]
    return results


def score(scoring: Scoring, results: Sequence[Result], round_number: int, table_size: int = 4) -> dict[int, int]:
    """The points each player at one table earns in round `round_number` (from 1) of an event of
    tables of `table_size`."""
    if scoring.kind == "placings":
        return _placings(scoring.placings, results)
    if scoring.kind == "jma":
        swept = [r.player for r in results if not r.bankrupt] if len(results) > 1 else []
        if len(swept) == 1 and all(r.bankrupt for r in results if r.player != swept[0]):
            return {r.player: scoring.sweep if r.player == swept[0] else 0 for r in results}
        cap, total = scoring.cap(round_number), sum(r.net_worth for r in results)
        return {r.player: min(r.net_worth * 100 * len(results) // (total * table_size), cap) if total else 0
                for r in results}
    return {r.player: r.net_worth for r in results}


def _placings(points: Sequence[int], results: Sequence[Result]) -> dict[int, int]:
    """Points by place; players tied for a place share the points of the places they fill."""
    out = {}
    for r in results:
        tied = sum(o.place == r.place for o in results)
        filled = [points[i] if i < len(points) else 0 for i in range(r.place - 1, r.place - 1 + tied)]
        out[r.player] = sum(filled) // tied
    return out


@dataclass(frozen=True, kw_only=True)
class Standing:
    """A player's line in the standings: their total points, total net worth, best single-round
    place (None before they have played), and rank (players tied on everything share it)."""

    player: int
    points: int
    net_worth: int
    best_place: int | None
    rank: int


def standings(players: Sequence[int], results: Iterable[Result], roll_offs: Sequence[Sequence[int]] = ()) -> list[Standing]:
    """Every player's standing, best first: by points, then total net worth, then best single-round
    place, then the newest roll-off each took part in (`roll_offs`: groups of ids, winner first)."""
    points = dict.fromkeys(players, 0)
    worth = dict.fromkeys(players, 0)
    best: dict[int, int | None] = dict.fromkeys(players)
    for r in results:
        points[r.player] += r.points
        worth[r.player] += r.net_worth
        best[r.player] = r.place if best[r.player] is None else min(best[r.player], r.place)
    rolled = {player: at for group in roll_offs for at, player in enumerate(group)}

    def key(p: int) -> tuple:
        return (-points[p], -worth[p], best[p] or 1_000, rolled.get(p, 0))

    ordered = sorted(players, key=key)
    return [Standing(player=p, points=points[p], net_worth=worth[p], best_place=best[p],
                     rank=1 + sum(key(o) < key(p) for o in ordered)) for p in ordered]


def tied(standings: Sequence[Standing], players: Sequence[int]) -> bool:
    """Whether these players are level on points, net worth and best place (a roll-off's case)."""
    lines = [s for s in standings if s.player in players]
    return len(lines) == len(players) and len({(s.points, s.net_worth, s.best_place) for s in lines}) == 1


def ties(standings: Sequence[Standing]) -> list[list[int]]:
    """The groups of players who have played and are level on points, net worth and best place (no
    roll-off separated them yet): only a roll-off the organiser records orders each. Standing order."""
    groups: dict[int, list[int]] = {}
    for line in standings:
        if line.best_place is not None:
            groups.setdefault(line.rank, []).append(line.player)
    return [group for group in groups.values() if len(group) > 1]
