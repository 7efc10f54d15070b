"""apply(state, action, actor) -> (new_state, effects): the one way a game changes. It checks who
may take the action and when, as the action's declaration says (actions/), then runs it."""

from dataclasses import dataclass

from . import bankruptcy, deals, jail, lobby
from . import actions  # every action declared, for parse
from .declaration import Action, Counted, Who, parse
from .errors import N_, NotAllowed, RuleError
from .state import GameState, new_game


@dataclass(frozen=True)
class Actor:
    """Who sent an action: a seat, the banker, or (for join) a newcomer."""

    player: int | None = None
    banker: bool = False

    def __str__(self) -> str:
        if self.banker:
            return "banker"
        return str(self.player) if self.player is not None else "guest"

    @classmethod
    def parse(cls, text: str) -> "Actor":
        if text == "banker":
            return cls(banker=True)
        return cls(player=int(text)) if text.isdigit() else cls()


def subject(state: GameState, action: Action, actor: Actor) -> int | None:
    """The seat an action is for: the actor's own, or the one the banker names (default: whose turn)."""
    if action.who.seatless:
        return None
    if action.player is not None:
        if not actor.banker and action.player != actor.player:
            raise NotAllowed("not_your_seat", N_("You can only act for your own seat."))
        return state.player(action.player).id
    if actor.player is not None:
        return actor.player
    if actor.banker and state.turn is not None:
        return state.turn
    raise RuleError("which_player", N_("Say which player this is for."))


def apply(state: GameState, action: Action, actor: Actor, copy: bool = True) -> tuple[GameState, list[dict]]:
    """Apply one action for an actor; the given state is left untouched.

    Raises ActionError (malformed), RuleError (illegal now) or NotAllowed (not this actor's to take).
    With `copy=False` the action changes the given state itself, and a refused one may leave it
    half-changed: for a caller that throws the state away either way (a replay, the store's freshly
    loaded snapshot), which saves copying it.
    """
    if action.who.banker_only and not actor.banker:
        raise NotAllowed("banker_only", N_("Only the banker can do that."))
    if action.who is Who.NEWCOMER and actor.player is not None:
        raise RuleError("already_seated", N_("You already have a seat in this game."))
    if not action.in_lobby:
        require_playing(state)
    new = state.copy() if copy else state
    player = subject(new, action, actor)
    if player is not None and new.player(player).bankrupt:
        raise RuleError("bankrupt", N_("{player} is bankrupt and out of the game."), player=player)
    deals.require_between_turns(new, player, action)
    effects: list[dict] = []
    new.counting = player if isinstance(action, Counted) and action.count else None
    try:
        action.run(new, player, effects)
    finally:
        new.counting = None
    return new, effects


def require_playing(state: GameState) -> None:
    """Refuse before the start and after the end."""
    if state.status == "lobby":
        raise RuleError("not_started", N_("The game has not started yet."))
    if state.status == "ended":
        raise RuleError("game_over", N_("The game is over."))


def replay(edition: str, settings, log, start: GameState | None = None) -> GameState:
    """Fold a game's log of (actor, action dict) pairs from a new game, or from `start` (a state the
    log continues, which is changed in place): gives its current state."""
    state = start or new_game(edition, settings)
    for actor, data in log:
        state, _ = apply(state, parse(data), actor, copy=False)
    return state


def legal_actions(state: GameState, player_id: int) -> set[str]:
    """The actions a seat could take now (for screens to offer only what is possible)."""
    found: set[str] = set()
    me = state.player(player_id)
    if state.status == "lobby":
        if lobby.needs_opening_roll(state, me):
            found.add("opening_roll")
        return found
    if state.status != "playing" or me.bankrupt:
        return found
    found.add("pay")
    owed = state.debts_of(player_id)
    if owed and me.cash >= owed[0].amount:
        found.add("pay_debt")
    auction = state.auction
    if auction and player_id in auction.bidders and player_id not in auction.passed:
        lowest = max(auction.high_bid + 1, auction.floors.get(str(player_id), 1))
        if me.cash >= lowest and not owed and auction.high_bidder != player_id:
            found.add("bid")
        if auction.high_bidder != player_id:
            found.add("pass")
    pending = state.pending
    if (owed and me.cash + bankruptcy.raisable_cash(state, player_id) < bankruptcy.owed(state, player_id)
            and not (pending and pending["player"] != player_id)):
        found.add("bankrupt")
    if pending and pending.get("player") == player_id:
        if pending["kind"] == "jail_exit":
            found.add("pay_jail_fine")
            if me.jail_cards:
                found.add("use_jail_card")
        elif pending["kind"] == "jail_move":
            pass  # paying the fine owed (pay_debt) moves the player on
        elif pending["kind"] == "buy":
            found.add("decline")
            if me.cash >= state.board[pending["square"]].price and not owed:
                found.add("buy")
        else:
            found.add(PENDING_ACTIONS.get(pending["kind"], "build"))
    if state.turn != player_id or auction:
        return found
    if not state.rolled and me.in_jail:  # leaving jail waits for an auction, not for a decision
        if not owed and me.cash >= jail.fine(state):
            found.add("pay_jail_fine")
        if me.jail_cards:
            found.add("use_jail_card")
    if pending:
        return found
    if not state.rolled and not owed:
        found.add("roll")
    if state.rolled and not owed:
        found.add("end_turn")
    return found


# The action that answers each kind of pending decision ("place" is answered by `build`).
PENDING_ACTIONS = {"draw": "draw", "card_choice": "card_choice", "utility_roll": "utility_roll", "income_tax": "income_tax",
                   "inherit": "receive_deeds", "place": "build", "claim": "claim_deeds"}
