"""Jail: three ways out (doubles, the fine, a card) and the third failed roll."""

from .effects import play as happened
from .auctions import require_no_auction
from .errors import N_, RuleError
from .money import charge, require_cash, require_no_debt, to_bank, transfer
from .moves import advance, land
from .state import GameState, Player


def fine(state: GameState) -> int:
    return state.board.constants["jail_fine"]


def roll_in_jail(state: GameState, player: Player, dice: tuple[int, int], effects: list) -> None:
    """Doubles free the player and move them (no extra roll); the third miss pays the fine and moves.
    Under `jail_card_on_third_miss` (JMA) the third miss waits instead for the player to pay the
    fine or use a Get Out of Jail Free card, when they hold one or another player could sell one."""
    state.rolled = True
    if dice[0] == dice[1]:
        release(player, effects, "doubles")
    else:
        player.jail_rolls += 1
        if player.jail_rolls < 3:
            effects.append(happened.stayed_in_jail(player.id, player.jail_rolls))
            return
        if state.settings.jail_card_on_third_miss and any(p.jail_cards for p in state.players if not p.bankrupt):
            state.pending = {"kind": "jail_exit", "player": player.id, "dice": list(dice)}
            effects.append(happened.third_miss(player.id))
            return
        fine_then_move(state, player, dice, effects)
        return
    move_out(state, player, dice, effects)


def fine_then_move(state: GameState, player: Player, dice, effects: list) -> None:
    """The third miss: the fine, then the move by that roll. Under `jail_fee_bankruptcy_claim`
    (JMA) the fine is settled before the square landed on: short of cash, the player stays until
    the fine is paid (then moves) or goes bankrupt over it (see bankruptcy.fine_claimant)."""
    short = state.player(player.id).cash < fine(state)
    charge(state, player.id, to_bank(state), fine(state), effects, "jail_fine")
    release(player, effects, "third_roll")
    if short and state.settings.jail_fee_bankruptcy_claim:
        state.pending = {"kind": "jail_move", "player": player.id, "dice": list(dice)}
        effects.append(happened.fine_first(player.id))
        return
    move_out(state, player, dice, effects)


def after_debt_paid(state: GameState, player_id: int, effects: list) -> None:
    """A player who paid the jail fine they owed before moving (JMA) now moves by that roll."""
    pending = state.pending
    if pending and pending["kind"] == "jail_move" and pending["player"] == player_id \
            and not any(d.reason == "jail_fine" for d in state.debts_of(player_id)):
        state.pending = None
        move_out(state, state.player(player_id), pending["dice"], effects)


def move_out(state: GameState, player: Player, dice, effects: list) -> None:
    advance(state, player, sum(dice), effects)
    land(state, player, sum(dice), effects)


def third_miss(state: GameState, player: Player) -> list[int] | None:
    """The dice of the player's third miss when it waits for the fine or a card (JMA), else None."""
    pending = state.pending
    if pending and pending["kind"] == "jail_exit" and pending["player"] == player.id:
        return pending["dice"]
    return None


def release(player: Player, effects: list, how: str) -> None:
    player.in_jail = False
    player.jail_rolls = 0
    effects.append(happened.left_jail(player.id, how))


def pay_fine(state: GameState, player: Player, effects: list) -> None:
    """Pay the fine on your turn before rolling, with no debt open; the player then rolls as usual.
    After a third miss that waits (JMA), the fine is charged as the third miss charges it (a debt
    if the cash is short) and the player moves by that roll."""
    dice = third_miss(state, player)
    if dice:
        state.pending = None
        fine_then_move(state, player, dice, effects)
        return
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
