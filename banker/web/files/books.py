"""The game's books taken away: the whole game as a JSON archive (store/archive.py), the money that
moved as a CSV ledger.

Both answers are streamed as the log is read, a page of events at a time: a long evening's archive
is a few megabytes, and none of it is held whole. Every text cell of a CSV goes through `cell`: a
player may be named `=1+1`, and a spreadsheet would run it."""

import csv
import io
import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Response, stream_with_context

from ...rules import GameState
from ...rules.errors import N_
from ...store import Game, archive
from ...words.languages import gettext as _, zone
from ...words.labels import GROUP_NAMES
from ...words.phrases import party, square

# Each transfer's reason (rules/effects/bank.py, transfer) as the ledger's column says it.
REASONS = {"salary": N_("GO salary"), "rent": N_("Rent"), "tax": N_("Tax"), "purchase": N_("Purchase"),
           "payment": N_("Payment"), "bank_payment": N_("Paid by the bank"), "bank_charge": N_("Charged by the bank"),
           "jail_fine": N_("Jail fine"), "jackpot": N_("Free Parking jackpot"), "building": N_("Buildings"),
           "building_sale": N_("Buildings sold"), "mortgage": N_("Mortgage"), "unmortgage": N_("Mortgage repaid"),
           "mortgage_fee": N_("Mortgage fee"), "auction": N_("Auction"), "trade": N_("Trade"), "card": N_("Card"),
           "repairs": N_("Repairs (card)"), "bankruptcy": N_("Bankruptcy"), "seed": N_("Into the Free Parking pot"),
           "claim": N_("Jail fine for a bankrupt's deeds")}
# What a spreadsheet takes for the start of a formula (OWASP, CSV injection): a cell of text that
# begins so is written after a ' , which the spreadsheet shows as text and hides.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _file_name(game: Game, ending: str) -> str:
    return f"banker-{game.code}-{datetime.now(UTC):%Y%m%d-%H%M}.{ending}"


def _download(chunks, mimetype: str, name: str) -> Response:
    """A streamed answer saved as a file (never compressed: assets.py leaves streams alone)."""
    response = Response(stream_with_context(chunks), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def export(game: Game) -> Response:
    """The game as its archive: the head (format, board, settings), then its events one per line."""

    def chunks():
        yield json.dumps(archive.head(game), ensure_ascii=False)[:-1] + ', "events": [\n'
        gap = ""
        for event in archive.events(game):
            yield gap + json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            gap = ",\n"
        yield "\n]}\n"

    return _download(chunks(), "application/json", _file_name(game, "json"))


def ledger(game: Game, state: GameState) -> Response:
    """Every sum that moved and stayed moved (an undone entry's moved back), oldest first: when (in
    the table's time zone, to the second), from whom, to whom, how much (a whole number in the
    board's money) and why, in the reader's language. `state` names the players."""

    def chunks():
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(map(cell, [_("Time"), _("From"), _("To"), _("Amount"), _("Reason")]))
        table = zone()
        table = ZoneInfo(table) if isinstance(table, str) else table
        for event in archive.events(game):
            if event["undone"]:
                continue
            time = None
            for effect in event["effects"]:
                if effect["kind"] != "transfer" or not effect["amount"]:
                    continue
                time = time or datetime.fromisoformat(event["time"]).astimezone(table).isoformat(timespec="seconds")
                payer, payee, amount = effect["from"], effect["to"], effect["amount"]
                if amount < 0:  # a group's buildings changed for money back: the bank paid
                    payer, payee, amount = payee, payer, -amount
                writer.writerow(map(cell, [time, party(state, payer), party(state, payee), amount,
                                           reason(state, effect)]))
            yield out.getvalue()
            out.seek(0)
            out.truncate()

    # A byte order mark first, so that a spreadsheet opens the names and reasons as UTF-8.
    return _download(_with_mark(chunks()), "text/csv", _file_name(game, "csv"))


def cell(value):
    """A CSV cell as the books write it: text that a spreadsheet would read as a formula (a name
    such as `=1+1` or `@SUM(1)`) begins with a ' ; a number (an amount, never negative) stays a number."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def _with_mark(chunks):
    yield "\ufeff"
    yield from chunks


def reason(state: GameState, effect: dict) -> str:
    """Why a sum moved: "Rent: Boardwalk", "Buildings: the Orange group", "Payment (snacks)"."""
    text = _(REASONS[effect["reason"]]) if effect["reason"] in REASONS else effect["reason"]
    if effect.get("square") is not None:  # "Rent: Boardwalk", « Loyer : Rue de la Paix » (French spaces its colon)
        text = _("%(reason)s: %(what)s", reason=text, what=square(state, effect["square"]))
    elif effect.get("group") in GROUP_NAMES:
        text = _("%(reason)s: %(what)s", reason=text, what=_("the %(group)s group", group=GROUP_NAMES[effect["group"]]))
    return f"{text} ({effect['memo']})" if effect.get("memo") else text
