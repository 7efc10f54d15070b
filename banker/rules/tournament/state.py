"""The state of one event: its settings, players, rounds and their tables, the round's clock, and
the seed the seating is drawn from. Plain dataclasses that round-trip through JSON (to_dict /
from_dict), as a game's state does; never changed except by apply_event."""

from dataclasses import dataclass, field

from ..board import EDITION_NAMES, load_board
from ..errors import N_, ActionError
from ..inputs import text, whole
from ..state import MAX_PLAYERS, Settings, _plain
from .scoring import Result, Scoring, Standing, standings as standings_of

MAX_ROUNDS = 10
MAX_EVENT_PLAYERS = 100


@dataclass(kw_only=True)
class EventSettings:
    """The event as the organiser created it. `rules` are the games' settings as given (a preset
    and what it overrides), checked as a game's are; `rounds` are the qualifying rounds, and
    `final` (0: none) the number of top players who then play one final table."""

    name: str
    edition: str = "us"
    rules: dict = field(default_factory=dict)
    rounds: int = 3
    round_minutes: int = 60
    table_size: int = 4
    scoring: Scoring = field(default_factory=Scoring)
    final: int = 0

    @classmethod
    def parse(cls, data) -> "EventSettings":
        """Validate what an organiser sent; a malformed or unknown field is an ActionError."""
        if not isinstance(data, dict):
            raise ActionError("bad_event", N_("An event must be a JSON object."))
        known = {"name", "edition", "rules", "rounds", "round_minutes", "table_size", "scoring", "final"}
        for key in data:
            if key not in known:
                raise ActionError("unknown_setting", N_("Unknown setting: {key}."), key=str(key)[:30])
        name = text(60)(data.get("name", ""), "name")
        if not name:
            raise ActionError("missing_field", N_("Name the event."), field="name")
        edition = data.get("edition", "us")
        if edition not in EDITION_NAMES:
            raise ActionError("bad_setting", N_("{key} must be one of: {choices}."),
                              key="edition", choices=", ".join(EDITION_NAMES))
        rules = data.get("rules") or {}
        Settings.parse(rules, load_board(edition).settings)  # refuses what a game would refuse
        return cls(
            name=name, edition=edition, rules=dict(rules),
            rounds=whole(data.get("rounds", 3), "rounds", 1, MAX_ROUNDS),
            round_minutes=whole(data.get("round_minutes", 60), "round_minutes", 5, 240),
            table_size=whole(data.get("table_size", 4), "table_size", 4, 5),
            scoring=Scoring.parse(data.get("scoring", {"kind": "net_worth"})),
            final=_final(data.get("final", 0)),
        )

    def to_dict(self) -> dict:
        """JSON-ready (the store keeps it beside the event's log); from_dict gives it back."""
        return {**_plain(self), "scoring": self.scoring.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> "EventSettings":
        return cls(**{**data, "scoring": Scoring.from_dict(data["scoring"])})

    def game_settings(self) -> Settings:
        """The settings every table's game is created with."""
        return Settings.parse(self.rules, load_board(self.edition).settings)


def _final(value) -> int:
    final = whole(value, "final", 0, MAX_PLAYERS)
    if final == 1:
        raise ActionError("bad_field", N_("A final needs at least two players (0: no final)."), field="final")
    return final


@dataclass(kw_only=True)
class EventPlayer:
    """A registered player: seated from the next round on, unless withdrawn."""

    id: int
    name: str
    withdrawn: bool = False


@dataclass(kw_only=True)
class Table:
    """One table of a round: the players in seat order, the code of the game it plays (None until
    the store has created it), and, once the game ended, each seat's result (with a correction's
    memo, if the organiser corrected it)."""

    number: int
    seats: list[int]
    game: str | None = None
    results: list[Result] | None = None
    memo: str = ""

    @property
    def status(self) -> str:
        """waiting (no game yet), playing, or ended."""
        if self.results is not None:
            return "ended"
        return "playing" if self.game else "waiting"


@dataclass(kw_only=True)
class Round:
    """A round: its number (from 1; the final is numbered after the qualifying rounds), its tables,
    and whether it has started."""

    number: int
    tables: list[Table]
    final: bool = False
    started: bool = False

    @property
    def status(self) -> str:
        """seated, playing, or ended (every table has its result)."""
        if all(t.results is not None for t in self.tables):
            return "ended"
        return "playing" if self.started else "seated"


@dataclass(kw_only=True)
class Clock:
    """The round's clock, in whole seconds of the store's clock: running (`ends_at`), paused
    (`paused_remaining`), or neither; and whether the last turn has been called."""

    ends_at: int | None = None
    paused_remaining: int | None = None
    last_turn: bool = False


@dataclass(kw_only=True)
class EventState:
    """Everything the rules know about one event."""

    settings: EventSettings
    seed: int
    players: list[EventPlayer] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    clock: Clock = field(default_factory=Clock)
    roll_offs: list[list[int]] = field(default_factory=list)  # groups of tied players, winner first

    @property
    def status(self) -> str:
        """registering (no round seated yet), seated, playing, between (rounds), or ended."""
        if not self.rounds:
            return "registering"
        current = self.rounds[-1]
        if current.status != "ended":
            return current.status
        return "ended" if current.final or len(self.rounds) == self.settings.rounds + bool(self.settings.final) \
            else "between"

    @property
    def round(self) -> Round | None:
        """The newest round seated, if any."""
        return self.rounds[-1] if self.rounds else None

    def player(self, player_id: int) -> EventPlayer:
        """The player with this id; an ActionError if there is none."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise ActionError("no_such_player", N_("There is no player {id} in this event."), id=player_id)

    def table(self, number: int, round_number: int | None = None) -> Table:
        """Table `number` of round `round_number` (default: the newest); an ActionError if none."""
        rounds = [r for r in self.rounds if round_number is None or r.number == round_number]
        if not rounds:
            raise ActionError("no_such_round", N_("There is no round {round}."), round=round_number or 1)
        for table in rounds[-1].tables:
            if table.number == number:
                return table
        raise ActionError("no_such_table", N_("There is no table {table} in round {round}."),
                          table=number, round=rounds[-1].number)

    def to_dict(self) -> dict:
        """JSON-ready; from_dict(to_dict()) gives an equal state."""
        return {**_plain(self), "settings": self.settings.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> "EventState":
        rounds = [Round(**{**r, "tables": [Table(**{**t, "results": None if t["results"] is None else
                                                    [Result(**x) for x in t["results"]]})
                                           for t in r["tables"]]}) for r in data["rounds"]]
        return cls(settings=EventSettings.from_dict(data["settings"]), seed=data["seed"],
                   players=[EventPlayer(**p) for p in data["players"]], rounds=rounds,
                   clock=Clock(**data["clock"]), roll_offs=[list(g) for g in data["roll_offs"]])

    def copy(self) -> "EventState":
        return EventState.from_dict(self.to_dict())


def new_event(settings: EventSettings, seed: int) -> EventState:
    """An event open for registration, seating from `seed` (the store draws it)."""
    return EventState(settings=settings, seed=seed)


def standings(state: EventState) -> list[Standing]:
    """The standings of the qualifying rounds (the final is ranked on its own: see `ranking`)."""
    results = [r for rnd in state.rounds if not rnd.final for t in rnd.tables for r in t.results or ()]
    return standings_of([p.id for p in state.players], results, state.roll_offs)


def ranking(state: EventState) -> list[int]:
    """The event's order of finish: the finalists by their place in the final (ties by standings),
    then everyone else by standings."""
    order = [s.player for s in standings(state)]
    final = next((r for r in state.rounds if r.final and r.status == "ended"), None)
    if final is None:
        return order
    place = {x.player: x.place for x in final.tables[0].results}
    return sorted(place, key=lambda p: (place[p], order.index(p))) + [p for p in order if p not in place]


def is_last_turn(state: EventState, now: int) -> bool:
    """Whether the round in play is in its last turn: called by the organiser, or its time is up."""
    clock = state.clock
    return clock.last_turn or (clock.ends_at is not None and now >= clock.ends_at)

