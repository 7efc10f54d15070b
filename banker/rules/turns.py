"""A turn: roll the dice the table rolled, settle the square, maybe roll again, end the turn."""

from .effects import play as happened
from .errors import N_, RuleError
from .auctions import require_no_auction
from .ending import finish, turns_even
from .jail import roll_in_jail
from .money import require_no_debt
from .moves import advance, land, send_to_jail
from .state import GameState


def require_turn(state: GameState, player_id: int) -> None:
    if state.turn != player_id:
        raise RuleError("not_your_turn", N_("It is {player}'s turn."), player=state.turn)


WAITING_FOR = {
    "buy": N_("{player} must first buy or decline {square}."),
    "place": N_("{player} must first place the {building} won at auction."),
    "draw": N_("{player} must first say which card they drew."),
    "card_choice": N_("{player} must first choose: pay the fine or draw a card."),
    "utility_roll": N_("{player} must first roll the dice for the utility's rent."),
    "income_tax": N_("{player} must first choose how to pay the Income Tax."),
    "inherit": N_("{player} must first settle the mortgaged deeds received."),
    "jail_exit": N_("{player} must first pay the jail fine or use a Get Out of Jail Free card."),
    "jail_move": N_("{player} must first pay the jail fine, then moves."),
    "claim": N_("{player} must first choose: take the bankrupt player's deeds for the fine, or let the bank auction them."),
}


def require_no_pending(state: GameState) -> None:
    """Refuse while the game waits for a decision or an auction."""
    require_no_auction(state)
    require_no_decision(state)


def require_no_decision(state: GameState, but: int | None = None) -> None:
    """Refuse while the game waits for a decision (other than one of player `but`'s)."""
    pending = state.pending
    if pending and pending["player"] != but:
        details = {k: v for k, v in pending.items() if k != "kind"}
        raise RuleError("decision_pending", WAITING_FOR[pending["kind"]], **details)


def roll(state: GameState, player_id: int, dice: tuple[int, int], effects: list) -> None:
    """Move by the dice; doubles roll again, and the third double in a row goes to jail unmoved."""
    require_turn(state, player_id)
    require_no_pending(state)
    if state.rolled:
        raise RuleError("already_rolled", N_("{player} has rolled; end the turn."), player=player_id)
    require_no_debt(state, player_id)
    player = state.player(player_id)
    state.last_roll = list(dice)
    effects.append(happened.rolled(player_id, dice))
    if player.in_jail:
        roll_in_jail(state, player, dice, effects)
        return
    if dice[0] == dice[1]:
        state.doubles += 1
        if state.doubles == 3:
            send_to_jail(state, player, effects, "three_doubles")
            return
    else:
        state.rolled = True
    advance(state, player, sum(dice), effects)
    land(state, player, sum(dice), effects)


def end_turn(state: GameState, player_id: int, effects: list) -> None:
    """Pass the turn to the next player still in the game, once the roll is done and settled."""
    require_turn(state, player_id)
    require_no_pending(state)
    if not state.rolled:
        if state.doubles:
            raise RuleError("roll_again", N_("{player} rolled doubles and must roll again."), player=player_id)
        raise RuleError("not_rolled", N_("{player} has not rolled yet."), player=player_id)
    require_no_debt(state, player_id)
    pass_turn(state, player_id, effects)


def pass_turn(state: GameState, player_id: int, effects: list) -> None:
    """The turn goes to the next seat still in; after the last turn's call, the game ends instead
    once every seat still in has had as many turns as the first."""
    if state.last_turn and turns_even(state):
        if state.player(player_id).bankrupt:  # the turn is never left with a bankrupt, even at the end
            state.turn = next_player(state, player_id)
        finish(state, effects)
        return
    state.turn = next_player(state, player_id)
    state.rolled, state.doubles, state.last_roll = False, 0, None
    state.player(state.turn).turns += 1
    effects.append(happened.turn(state.turn))


def next_player(state: GameState, player_id: int) -> int:
    """The next seat in order that is not bankrupt."""
    order = state.order
    at = order.index(player_id)
    for step in range(1, len(order) + 1):
        candidate = order[(at + step) % len(order)]
        if not state.player(candidate).bankrupt:
            return candidate
    return player_id
