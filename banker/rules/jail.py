"""Jail: three ways out (doubles, the fine, a card) and the third failed roll."""

from .auctions import require_no_auction
from .errors import N_, RuleError
from .money import charge, require_cash, require_no_debt, to_bank, transfer
from .moves import advance, land
from .state import GameState, Player


def fine(state: GameState) -> int:
    return state.board.constants["jail_fine"]


def roll_in_jail(state: GameState, player: Player, dice: tuple[int, int], effects: list) -> None:
    """Doubles free the player and move them (no extra roll); the third miss pays the fine and moves."""
    state.rolled = True
    if dice[0] == dice[1]:
        release(player, effects, "doubles")
    else:
        player.jail_rolls += 1
        if player.jail_rolls < 3:
            effects.append({"kind": "stayed_in_jail", "player": player.id, "tries": player.jail_rolls})
            return
        charge(state, player.id, to_bank(state), fine(state), effects, "jail_fine")
        release(player, effects, "third_roll")
    advance(state, player, sum(dice), effects)
    land(state, player, sum(dice), effects)


def release(player: Player, effects: list, how: str) -> None:
    player.in_jail = False
    player.jail_rolls = 0
    effects.append({"kind": "left_jail", "player": player.id, "how": how})


def pay_fine(state: GameState, player: Player, effects: list) -> None:
    """Pay the fine on your turn before rolling, with no debt open; the player then rolls as usual."""
    if not player.in_jail:
        raise RuleError("not_in_jail", N_("{player} is not in jail."), player=player.id)
    if state.turn != player.id:
        raise RuleError("not_your_turn", N_("It is {player}'s turn."), player=state.turn)
    require_no_auction(state)
    require_no_debt(state, player.id)
    if state.rolled:
        raise RuleError("already_rolled", N_("The fine is paid before rolling."))
    require_cash(state, player.id, fine(state), N_("The fine is {amount}; {player} has only {cash}."),
                 amount=fine(state))
    transfer(state, player.id, to_bank(state), fine(state), effects, "jail_fine")
    release(player, effects, "fine")
