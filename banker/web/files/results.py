"""A tournament's results as the API, the results page and its CSV give them: every round, table,
seat, net worth, place and points, and the standings. One place reads the state for all three."""

import csv
import io
from datetime import UTC, datetime

from flask import Response
from flask_babel import gettext as _

from ...rules.tournament import EventState, is_last_turn, standings


def clock(state: EventState, now: int) -> dict:
    """The round's clock: when it ends (ISO 8601, UTC; None while paused or before a round
    starts) and the time left then ("m:ss", for a page before its script counts), the seconds left
    while paused, and whether the last turn has begun."""
    ends = state.clock.ends_at
    left = max(0, ends - now) if ends is not None else 0
    return {"ends_at": _iso(ends), "left": f"{left // 60}:{left % 60:02d}", "paused_remaining": state.clock.paused_remaining,
            "last_turn": is_last_turn(state, now) if state.round and state.round.status == "playing" else False}


def _iso(moment: int | None) -> str | None:
    return datetime.fromtimestamp(moment, UTC).isoformat() if moment is not None else None


def as_json(state: EventState, code: str, now: int | None = None) -> dict:
    """The tournament as GET /api/events/<code> gives it (docs/api.md)."""
    now = int(datetime.now(UTC).timestamp()) if now is None else now
    lines = standings(state)
    points = {s.player: s.points for s in lines}
    return {
        "code": code, "name": state.settings.name, "status": state.status,
        "round": state.round.number if state.round else 0, "clock": {k: v for k, v in clock(state, now).items() if k != "left"},
        "players": [{"id": p.id, "name": p.name, "points": points.get(p.id, 0), "withdrawn": p.withdrawn}
                    for p in state.players],
        "rounds": [{"number": r.number, "final": r.final, "status": r.status,
                    "tables": [{"table": t.number, "game": t.game, "seats": list(t.seats), "status": t.status,
                                "memo": t.memo,
                                "results": [{"player": x.player, "net_worth": x.net_worth, "place": x.place,
                                             "points": x.points} for x in t.results or ()]}
                               for t in r.tables]}
                   for r in state.rounds],
        "standings": [{"player": s.player, "points": s.points, "net_worth": s.net_worth, "rank": s.rank}
                      for s in lines],
    }


def rows(state: EventState) -> list[dict]:
    """One row per seat of every table played: round, table, player, net worth, place, points."""
    names = {p.id: p.name for p in state.players}
    return [{"round": r.number, "final": r.final, "table": t.number, "seat": seat, "player": names[x.player],
             "net_worth": x.net_worth, "place": x.place, "points": x.points}
            for r in state.rounds for t in r.tables
            for x in t.results or () for seat in [t.seats.index(x.player) + 1]]


def as_csv(state: EventState, code: str) -> Response:
    """Every seat's result as CSV, its header in the reader's language."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_("Round"), _("Table"), _("Seat"), _("Player"), _("Net worth"), _("Place"), _("Points")])
    for row in rows(state):
        writer.writerow([_("Final") if row["final"] else row["round"], row["table"], row["seat"], row["player"],
                         row["net_worth"], row["place"], row["points"]])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{code}.csv"'})
