"""The auction's countdown, the same on every screen: it ends `auction_countdown_seconds` after the
newest change to the open auction's high bid, as the server recorded it. The host's page closes the
auction when it ends (static/app.js), sending the high bid it saw, so a bid in the last second is
never lost; the phones show it.

Not a rule: the rules know no time. The log does: the newest bid, or an undo (which may have taken
a bid or the close back, and then the auction deserves its full countdown again)."""

import math
from datetime import UTC, datetime, timedelta

from ..rules.state import GameState
from ..store import Known


def closes_at(game: Known, state: GameState) -> datetime | None:
    """When the open auction closes by itself; None while nobody has bid, when the banker closes it
    by hand (a countdown of 0), or if the bid is older than the newest entries the history reads."""
    auction, seconds = state.auction, state.settings.auction_countdown_seconds
    if auction is None or auction.high_bidder is None or not seconds:
        return None
    for entry in game.entries:
        if entry.type == "undo" or entry.type == "bid" and not entry.undone:
            moment = entry.created_at if entry.created_at.tzinfo else entry.created_at.replace(tzinfo=UTC)
            return moment + timedelta(seconds=seconds)
    return None


def clock(game: Known, state: GameState) -> dict:
    """The countdown as a page shows it: its end and the server's time now (ISO 8601, UTC: a phone
    whose own clock is off counts from the server's), and the whole seconds left."""
    end = closes_at(game, state)
    if end is None:
        return {"closes_at": None}
    now = datetime.now(UTC)
    left = max(0, math.ceil((end - now).total_seconds()))
    return {"closes_at": iso(end), "clock_now": iso(now), "seconds_left": left}


def iso(moment: datetime | None) -> str | None:
    """A moment as the pages and the API give it: ISO 8601 in UTC, to the millisecond."""
    return moment.isoformat(timespec="milliseconds") if moment else None
