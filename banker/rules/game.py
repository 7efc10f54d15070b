"""apply(state, action, actor) -> (new_state, effects): the one way a game changes (dispatch only)."""

from dataclasses import dataclass

from . import (auctions, bankruptcy, buildings, buying, cards, deals, jail, lobby, money, mortgages,
               moves, trades, turns)
from .actions import Action, parse
from .errors import N_, NotAllowed, RuleError
from .money import charge, require_bid_covered, transfer
from .state import BANK, POT, GameState, new_game

BANKER_ONLY = {"start", "bank_pay", "bank_charge", "move", "close_auction", "auction_building",
               "end_game", "seed_jackpot"}
LOBBY = {"join", "opening_roll", "start"}
SEATLESS = {"join", "start", "close_auction", "auction_building", "end_game", "seed_jackpot"}


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
    if action.type in SEATLESS:
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
    if action.type in BANKER_ONLY and not actor.banker:
        raise NotAllowed("banker_only", N_("Only the banker can do that."))
    if action.type == "join" and (actor.player is not None):
        raise RuleError("already_seated", N_("You already have a seat in this game."))
    if action.type not in LOBBY:
        require_playing(state)
    new = state.copy() if copy else state
    player = subject(new, action, actor)
    if player is not None and new.player(player).bankrupt:
        raise RuleError("bankrupt", N_("{player} is bankrupt and out of the game."), player=player)
    deals.require_between_turns(new, player, action)
    effects: list[dict] = []
    HANDLERS[action.type](new, player, action, effects)
    return new, effects


def require_playing(state: GameState) -> None:
    if state.status == "lobby":
        raise RuleError("not_started", N_("The game has not started yet."))
    if state.status == "ended":
        raise RuleError("game_over", N_("The game is over."))


def _pay(state: GameState, player: int, action, effects: list) -> None:
    """A free-form payment to another player, the bank or the Free Parking pot."""
    if action.to == player:
        raise RuleError("pay_self", N_("You cannot pay yourself."))
    if action.to == POT and not state.settings.free_parking_jackpot:
        raise RuleError("no_jackpot", N_("This game has no Free Parking jackpot."))
    if action.to not in (BANK, POT) and state.player(action.to).bankrupt:
        raise RuleError("bankrupt", N_("{player} is bankrupt and out of the game."), player=action.to)
    require_bid_covered(state, player, action.amount)
    charge(state, player, action.to, action.amount, effects, "payment", memo=action.memo)


def _pay_debt(state: GameState, player: int, debt: int | None, effects: list) -> None:
    """Settle a debt; a jail fine owed before moving (JMA) then lets the player move."""
    money.pay_debt(state, player, debt, effects)
    jail.after_debt_paid(state, player, effects)


HANDLERS = {
    "join": lambda s, p, a, e: lobby.join(s, a, e),
    "opening_roll": lambda s, p, a, e: lobby.opening_roll(s, p, a, e),
    "start": lambda s, p, a, e: lobby.start(s, a, e),
    "roll": lambda s, p, a, e: turns.roll(s, p, a.dice, e),
    "buy": lambda s, p, a, e: buying.buy(s, p, e),
    "decline": lambda s, p, a, e: buying.decline(s, p, e),
    "pay_jail_fine": lambda s, p, a, e: jail.pay_fine(s, s.player(p), e),
    "end_turn": lambda s, p, a, e: turns.end_turn(s, p, e),
    "pay": _pay,
    "bank_pay": lambda s, p, a, e: transfer(s, BANK, p, a.amount, e, "bank_payment", memo=a.memo),
    "bank_charge": lambda s, p, a, e: charge(s, p, BANK, a.amount, e, "bank_charge", memo=a.memo),
    "pay_debt": lambda s, p, a, e: _pay_debt(s, p, a.debt, e),
    "move": lambda s, p, a, e: moves.correct_position(s, p, a.square, e),
    "build": lambda s, p, a, e: buildings.build(s, p, a.square, e),
    "sell_building": lambda s, p, a, e: buildings.sell(s, p, a.square, e),
    "set_buildings": lambda s, p, a, e: buildings.set_levels(s, p, a.levels, e),
    "mortgage": lambda s, p, a, e: mortgages.mortgage(s, p, a.square, e),
    "unmortgage": lambda s, p, a, e: mortgages.unmortgage(s, p, a.square, e),
    "bid": lambda s, p, a, e: auctions.bid(s, p, a.amount, e),
    "pass": lambda s, p, a, e: auctions.pass_(s, p, e),
    "close_auction": lambda s, p, a, e: auctions.close(s, a.high_bid, e),
    "auction_building": lambda s, p, a, e: auctions.open_building_auction(s, a.building, e),
    "offer_trade": lambda s, p, a, e: trades.offer(
        s, p, a.to, a.give or trades.nothing(), a.get or trades.nothing(), a.lift or [], e),
    "accept_trade": lambda s, p, a, e: trades.accept(s, p, a.trade, a.lift or [], e),
    "reject_trade": lambda s, p, a, e: trades.reject(s, p, a.trade, e),
    "withdraw_trade": lambda s, p, a, e: trades.withdraw(s, p, a.trade, e),
    "draw": lambda s, p, a, e: cards.draw(s, p, a.deck, a.card, e),
    "utility_roll": lambda s, p, a, e: cards.utility_roll(s, p, a.dice, e),
    "use_jail_card": lambda s, p, a, e: cards.use_jail_card(s, p, a.card, e),
    "income_tax": lambda s, p, a, e: moves.pay_income_tax(s, p, a.choice, e),
    "bankrupt": lambda s, p, a, e: bankruptcy.declare(s, p, e),
    "receive_deeds": lambda s, p, a, e: bankruptcy.receive_deeds(s, p, a.lift or [], e),
    "claim_deeds": lambda s, p, a, e: bankruptcy.claim_deeds(s, p, a.choice, e),
    "end_game": lambda s, p, a, e: bankruptcy.end_game(s, e),
    "seed_jackpot": lambda s, p, a, e: _seed(s, a.amount, e),
}


def _seed(state: GameState, amount: int, effects: list) -> None:
    """The banker puts money from the bank into the Free Parking pot."""
    if not state.settings.free_parking_jackpot:
        raise RuleError("no_jackpot", N_("This game has no Free Parking jackpot."))
    transfer(state, BANK, POT, amount, effects, "seed")


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
PENDING_ACTIONS = {"draw": "draw", "utility_roll": "utility_roll", "income_tax": "income_tax",
                   "inherit": "receive_deeds", "place": "build", "claim": "claim_deeds"}
