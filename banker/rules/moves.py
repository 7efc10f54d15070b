"""Moving a token around the board: GO salary on the way, then what the square asks for."""

from .effects import play as happened
from .errors import N_, RuleError
from .money import charge, to_bank, transfer
from .rent import rent_detail, rent_due
from .state import BANK, POT, GameState, Player


def advance(state: GameState, player: Player, steps: int, effects: list) -> None:
    """Move forward; passing or landing on GO pays the salary (double on GO under the house rule)."""
    start = player.position
    player.position = (start + steps) % len(state.board)
    effects.append(happened.moved(player.id, start, player.position))
    if start + steps >= len(state.board):
        salary = state.settings.go_salary
        if player.position == 0 and state.settings.go_exact_bonus:
            salary *= 2
        transfer(state, BANK, player.id, salary, effects, "salary")


def send_to_jail(state: GameState, player: Player, effects: list, why: str) -> None:
    """Straight to jail: no GO salary, and the turn's rolling is over."""
    player.position = state.board.jail
    player.in_jail = True
    player.jail_rolls = 0
    if state.turn == player.id:
        state.doubles = 0
        state.rolled = True
    effects.append(happened.jailed(player.id, why))


def land(state: GameState, player: Player, dice_total: int, effects: list,
         card_rent: str | None = None) -> None:
    """Resolve the square the token stopped on: offer, rent, tax, card, jail or jackpot.

    `card_rent` is how a "nearest railroad" ("double") or "nearest utility" ("ten_times") card
    changes the rent of an owned square.
    """
    square = state.board[player.position]
    if square.ownable:
        deed = state.deeds[square.index]
        if deed.owner is None:
            state.pending = {"kind": "buy", "player": player.id, "square": square.index}
            effects.append(happened.offer(player.id, square.index))
        elif deed.owner != player.id:
            rent = rent_due(state, square.index, dice_total)
            if rent and card_rent == "ten_times":
                state.pending = {"kind": "utility_roll", "player": player.id, "square": square.index}
                effects.append(happened.utility_roll_due(player.id, square.index))
            elif rent:
                factor = 2 if card_rent == "double" else 1
                charge(state, player.id, deed.owner, rent * factor, effects, "rent", square.index,
                       **rent_detail(state, square.index, dice_total), **({"doubled_by_card": True} if factor == 2 else {}))
            else:
                effects.append(happened.no_rent(player.id, square.index))
    elif square.type == "tax" and square.tax == "income" and state.settings.income_tax == "choice":
        state.pending = {"kind": "income_tax", "player": player.id, "square": square.index}
        effects.append(happened.tax_choice(player.id, square.index))
    elif square.type == "tax":
        amount = state.settings.luxury_tax if square.tax == "luxury" else square.amount
        charge(state, player.id, to_bank(state), amount, effects, "tax", square.index)
    elif square.type == "go_to_jail":
        send_to_jail(state, player, effects, "square")
    elif square.type == "free_parking" and state.settings.free_parking_jackpot and state.free_parking:
        transfer(state, POT, player.id, state.free_parking, effects, "jackpot", square.index)
    elif square.type in ("chance", "community_chest"):
        deck = "chance" if square.type == "chance" else "chest"
        state.pending = {"kind": "draw", "player": player.id, "deck": deck, "square": square.index}
        effects.append(happened.card_due(player.id, square.index, deck))


def pay_income_tax(state: GameState, player_id: int, choice: str, effects: list) -> None:
    """The pre-2008 Income Tax: 200, or 10% of total worth, chosen before the worth is counted.
    Total worth counts cash, buildings at cost and every deed at its full printed price, mortgaged
    or not (US rules); under `income_tax_worth` "half_mortgaged" (JMA) a mortgaged deed counts at
    half its price. Get Out of Jail Free cards count nothing either way."""
    pending = state.pending
    if not pending or pending["kind"] != "income_tax" or pending["player"] != player_id:
        raise RuleError("no_tax_choice", N_("{player} has no Income Tax to choose now."), player=player_id)
    state.pending = None
    square = state.board[pending["square"]]
    if choice == "flat":
        amount = square.amount
    else:
        halved = state.settings.income_tax_worth == "half_mortgaged"
        worth = state.player(player_id).cash + sum(
            state.board[d.square].price // (2 if halved and d.mortgaged else 1)
            + state.board[d.square].house_cost * (5 if d.hotel else d.houses)
            for d in state.deeds.values() if d.owner == player_id
        )
        amount = (worth + 5) // 10
    charge(state, player_id, to_bank(state), amount, effects, "tax", square.index, choice=choice,
           **({"worth": worth} if choice == "percent" else {}))


def correct_position(state: GameState, player_id: int, square: int, effects: list) -> None:
    """The banker puts a token where it really is on the table; nothing is paid or resolved."""
    player = state.player(player_id)
    if player.in_jail and square != state.board.jail:
        raise RuleError("in_jail", N_("{player} is in jail; a token in jail stays on the Jail square."),
                        player=player.id)
    effects.append(happened.moved(player.id, player.position, square, correction=True))
    player.position = square
