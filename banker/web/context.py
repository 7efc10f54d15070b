"""One helper per screen builds the whole context its page and every fragment of it need."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from flask import current_app, request, url_for

from .. import qr, store
from ..models import Game
from ..rules import legal_actions
from ..rules.bankruptcy import owed, raisable_cash
from ..rules.cards import deck, holder
from ..rules.holdings import holdings
from ..rules.lobby import needs_opening_roll
from ..rules.mortgages import lift_cost
from ..rules.state import BANK, TOKENS, GameState
from ..rules.trades import outlook, tradeable
from ..rules.view import state_json
from .chart import worth_chart
from .narrate import card_label, explain, involves, party, refusal, summary

HISTORY_ROWS = 40


def public_url(path: str) -> str:
    """A full URL phones can open: the LAN address when the host browses on localhost."""
    base = request.host_url
    public = current_app.config.get("PUBLIC_URL")
    if public and urlsplit(base).hostname in ("localhost", "127.0.0.1", "::1"):
        base = public
    return base.rstrip("/") + path


def history_rows(game: Game, state: GameState, player: int | None = None) -> list[dict]:
    """The newest entries as sentences; for a phone, only those that concern its player."""
    events = store.history(game, limit=HISTORY_ROWS * (3 if player else 1))
    told = {e.seq: summary(state, e.effects) for e in events}
    rows = []
    for e in events:
        if player is not None and e.actor != str(player) and not any(involves(x, player) for x in e.effects):
            continue
        text = told[e.seq]
        if e.type == "undo":
            undone = e.payload["seq"]
            text = ("↶ " + told[undone]) if undone in told else text
        rows.append({
            "seq": e.seq, "time": e.created_at.strftime("%H:%M"), "text": text,
            "actor": party(state, int(e.actor)) if e.actor.isdigit() else e.actor,
            "undone": e.undone, "undo": e.type == "undo",
        })
    return rows[:HISTORY_ROWS]


def latest_outcome(game: Game, state: GameState) -> str | None:
    """The newest entry as a sentence: what every screen shows as the outcome of the last action."""
    rows = store.history(game, limit=1)
    return summary(state, rows[0].effects) if rows else None


def board_cells(state: GameState) -> list[dict]:
    """The forty squares placed around an 11 x 11 grid, GO at the bottom right."""
    by_square: dict[int, list] = {}
    for p in state.players:
        if not p.bankrupt and state.status != "lobby":
            by_square.setdefault(p.position, []).append(p)
    cells = []
    for sq in state.board.squares:
        i = sq.index
        if i <= 10:
            row, col = 11, 11 - i
        elif i <= 20:
            row, col = 21 - i, 1
        elif i <= 30:
            row, col = 1, i - 19
        else:
            row, col = i - 29, 11
        cells.append({"square": sq, "row": row, "col": col, "deed": state.deeds.get(i),
                      "tokens": by_square.get(i, [])})
    return cells


def game_context(game: Game) -> dict:
    """What every screen of a game shows."""
    state = store.load_state(game)
    return {
        "game": game, "code": game.code, "version": game.version, "state": state,
        "view": state_json(state, game.version), "board": state.board,
        "currency": state.board.currency, "players": {p.id: p for p in state.players},
        "tokens": TOKENS, "BANK": BANK, "jail_fine": state.board.constants["jail_fine"],
        "latest": latest_outcome(game, state),
        "trades": [_outlook(state, t) for t in state.trades],
        "chart": worth_chart(game, state.players) if state.status == "ended" else None,
        "deck_cards": _deck_cards(state),
        "auction_key": _auction_key(game, state),
    }


def _deck_cards(state: GameState) -> list[dict]:
    """The cards of the deck a player is drawing from, each with its effect in a few words."""
    pending = state.pending
    if not pending or pending["kind"] != "draw":
        return []
    return [{"id": c["id"], "label": card_label(state, c), "text": c["text"], "holder": holder(state, c["id"])}
            for c in deck(state, pending["deck"])]


def _auction_key(game: Game, state: GameState) -> str | None:
    """The open auction's key for the banker's countdown and close nonce: its id and high bid, and
    after any undo the undo count (an undone close brings the auction back with the same id and
    high bid; its nonce must not be the undone close's, nor its countdown the spent one)."""
    if not state.auction:
        return None
    key = f"{state.auction.id}-{state.auction.high_bid}"
    undos = store.undo_count(game)
    return f"{key}-u{undos}" if undos else key


def _outlook(state: GameState, trade) -> dict:
    """A trade with its problem (if it could not execute now) in words."""
    seen = outlook(state, trade)
    seen["problem"] = refusal(seen["problem"], state) if seen["problem"] else None
    return seen


def table_context(game: Game, banker: bool) -> dict:
    """The host screen: everything public, plus the banker's tools when this browser is the banker."""
    context = game_context(game)
    state = context["state"]
    context.update(
        banker=banker, cells=board_cells(state), history=history_rows(game, state),
        join_url=public_url(url_for("join.page", code=game.code)),
        turn_legal=legal_actions(state, state.turn) if state.turn else set(),
        decider_legal=_decider_legal(state),
        undoable=_undoable(game, state) if banker else None,
    )
    if state.status == "lobby":
        context.update(join_qr=qr.svg(context["join_url"]), **_seat_places(state))
    context.update(_time_limit(game, state))
    return context


def _seat_places(state: GameState) -> dict:
    """The lobby's suggested seat order: by opening rolls so far (highest first), then the rest
    in joining order; and whether the rolls alone now decide the whole order."""
    ranked = sorted(state.players, key=lambda p: (not p.opening_rolls, [-r for r in p.opening_rolls]))
    waiting = [p for p in state.players if needs_opening_roll(state, p)]
    return {"seat_places": {p.id: n for n, p in enumerate(ranked, 1)},
            "rolls_done": len(state.players) >= 2 and not waiting}


def _time_limit(game: Game, state: GameState) -> dict:
    """The optional time limit: its deadline (ISO time, for the page's clock) and what is left."""
    minutes = state.settings.time_limit_minutes
    started = store.started_at(game) if minutes and state.status == "playing" else None
    if started is None:
        return {"time_left": None, "deadline": None}
    deadline = started.replace(tzinfo=UTC) + timedelta(minutes=minutes)
    left = max(0, int((deadline - datetime.now(UTC)).total_seconds()))
    return {"deadline": deadline.isoformat(), "time_left": f"{left // 60}:{left % 60:02d}"}


def _decider_legal(state: GameState) -> set[str]:
    """What the seat owing a decision out of turn (a creditor settling deeds received) may do,
    so the banker can answer for a player without a phone."""
    pending = state.pending
    if not pending or pending.get("player") in (None, state.turn):
        return set()
    return legal_actions(state, pending["player"])


def _undoable(game: Game, state: GameState) -> str | None:
    """What Undo would take back, in words (None when nothing can be undone)."""
    last = store.last_live_event(game)
    if last is None or last.type == "join":
        return None
    return summary(state, last.effects)


def phone_context(game: Game, player: int) -> dict:
    """A phone: its own player's money, turn, deeds, debts and history."""
    context = game_context(game)
    state = context["state"]
    me = state.player(player)
    context.update(
        me=me, legal=legal_actions(state, player), history=history_rows(game, state, player),
        holdings=explain(state, holdings(state, player)),
        my_debts=state.debts_of(player),
        others=[p for p in state.players if p.id != player and not p.bankrupt],
    )
    context.update(raisable=raisable_cash(state, player), owed_total=owed(state, player))
    context["incoming"] = [t for t in context["trades"] if t["trade"].to == player]
    context["outgoing"] = [t for t in context["trades"] if t["trade"].offerer == player]
    return context


def composer_context(game: Game, player: int, partner: int) -> dict:
    """The trade composer: what each of the two players could put on the table."""
    context = phone_context(game, player)
    state = context["state"]
    theirs = tradeable(state, partner)
    context.update(partner=state.player(partner), mine=tradeable(state, player), theirs=theirs,
                   lift_costs={sq: lift_cost(state.board[sq].mortgage) for sq in theirs})
    return context
