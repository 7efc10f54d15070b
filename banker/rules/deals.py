"""The tournament (JMA) rule `deals_between_turns`: trading, building, selling buildings and
mortgaging happen between turns, never in the middle of one ("This is one turn; after that, check
whether anyone negotiates or builds, then move to the next person"). Raising cash for an open debt,
placing a building won at auction and getting a Get Out of Jail Free card for the third miss in
jail are allowed at any time. The deals are the actions declared with `deal=True` (actions/)."""

from .buildings import level
from .errors import N_, RuleError
from .state import GameState


def between_turns(state: GameState) -> bool:
    """Before the current player's first roll, or once their roll is settled: no decision, no
    auction, no roll again owed."""
    return not state.auction and not state.pending and (state.rolled or not state.doubles)


def require_between_turns(state: GameState, player_id: int, action) -> None:
    """Refuse a deal in the middle of a turn under the rule, saying when it will be allowed."""
    if not state.settings.deals_between_turns or not action.deal or between_turns(state):
        return
    pending = state.pending or {}
    if action.type in ("build", "set_buildings") and pending.get("kind") == "place" and pending["player"] == player_id:
        return
    trade = _trade(state, player_id, action)
    if trade and pending.get("kind") == "jail_exit" and _gets_jail_card(trade, pending["player"]):
        return
    if _raises_cash(state, player_id, action, trade):
        return
    raise RuleError("between_turns", N_("Trading, building and mortgaging wait until {player}'s roll is settled (tournament rules); only raising cash for a debt is allowed now."),
                    player=state.turn)


def _trade(state: GameState, player_id: int, action):
    """The trade an offer or an acceptance is about, as (offerer, to, give, get); None otherwise."""
    if action.type == "offer_trade":
        nothing = {"cash": 0, "squares": [], "jail_cards": []}
        return player_id, action.to, action.give or nothing, action.get or nothing
    if action.type == "accept_trade":
        found = next((t for t in state.trades if t.id == action.trade), None)
        return (found.offerer, found.to, found.give, found.get) if found else None
    return None


def _gets_jail_card(trade, player_id: int) -> bool:
    offerer, to, give, get = trade
    return bool((get if player_id == offerer else give)["jail_cards"]) if player_id in (offerer, to) else False


def _raises_cash(state: GameState, player_id: int, action, trade) -> bool:
    """Whether the deal only raises cash for a player who owes money: mortgaging or selling
    buildings of their own, or trading deeds for cash."""
    if action.type in ("mortgage", "sell_building"):
        return bool(state.debts_of(player_id))
    if action.type == "set_buildings":  # selling only
        return bool(state.debts_of(player_id)) and all(
            square in state.deeds and new <= level(state.deeds[square]) for square, new in action.levels.items())
    if trade:
        offerer, to, give, get = trade
        sides = ((offerer, give, get), (to, get, give))  # (party, what they give, what they get)
        return any(state.debts_of(party) and not gives["cash"] and gets["cash"] for party, gives, gets in sides)
    return False
