"""Before the first roll: joining, the opening rolls that order the seats, the seats fixed (a
tournament's table: its seats and their order are the seating's), and the start."""

from .effects import play as happened
from .errors import ActionError, N_, RuleError
from .state import MAX_PLAYERS, GameState, Player


def require_lobby(state: GameState, message: str = N_("The game has already started.")) -> None:
    if state.status != "lobby":
        raise RuleError("game_started", message)


def join(state: GameState, name: str, token: str, effects: list) -> None:
    """Seat a new player; names (ignoring case) and tokens are unique within the game."""
    require_lobby(state, N_("The game has already started; joining is closed."))
    if state.seats_fixed:
        raise RuleError("seats_fixed", N_("This table's seats are set: nobody else can join."))
    if len(state.players) >= MAX_PLAYERS:
        raise RuleError("table_full", N_("The table is full: eight players at most."))
    if any(p.name.casefold() == name.casefold() for p in state.players):
        raise RuleError("name_taken", N_("{name} is already playing; pick another name."), name=name)
    if any(p.token == token for p in state.players):
        raise RuleError("token_taken", N_("The {token} is taken; pick another token."), token=token)
    player = Player(
        id=max((p.id for p in state.players), default=0) + 1,
        name=name, token=token, cash=state.settings.start_cash,
    )
    state.players.append(player)
    effects.append(happened.joined(player.id))


def fix_seats(state: GameState, effects: list) -> None:
    """Fix the seats as they are, in the order they were taken: nobody joins after, and nobody rolls
    for the order (a tournament's table, whose seating the tournament made: store/tournaments.py)."""
    require_lobby(state)
    if state.seats_fixed:
        raise RuleError("seats_fixed", N_("This table's seats are set already."))
    if len(state.players) < 2:
        raise RuleError("too_few_players", N_("At least two players are needed to start."))
    state.seats_fixed = True
    effects.append(happened.seats_fixed([p.id for p in state.players]))


def needs_opening_roll(state: GameState, player: Player) -> bool:
    """True until the player's opening rolls set them apart from every other player (never once the
    seats are fixed: their order is the seating's)."""
    return not state.seats_fixed and (not player.opening_rolls or bool(tied_with(state, player)))


def tied_with(state: GameState, player: Player) -> list[Player]:
    """The players this one is tied with for the seat order, who all roll again (none before a
    first roll): a player whose rolls so far are a prefix of another's rolls once more."""
    mine = player.opening_rolls
    if not mine:
        return []
    return [other for other in state.players
            if other.id != player.id and len(other.opening_rolls) >= len(mine)
            and other.opening_rolls[: len(mine)] == mine]


def opening_roll(state: GameState, player_id: int, dice: tuple[int, int], effects: list) -> None:
    """Record a player's opening roll; the highest total starts."""
    require_lobby(state)
    if state.seats_fixed:
        raise RuleError("order_fixed", N_("This table plays in the order of its seats: nobody rolls for it."))
    player = state.player(player_id)
    if not needs_opening_roll(state, player):
        raise RuleError("already_rolled", N_("{player} has already rolled {total}."),
                        player=player.id, total=player.opening_rolls[-1])
    player.opening_rolls.append(sum(dice))
    effects.append(happened.opening_roll(player.id, dice))


def rolled_order(state: GameState) -> list[int]:
    """The seat order from the opening rolls, highest first (call once nobody needs to roll)."""
    ranked = sorted(state.players, key=lambda p: p.opening_rolls, reverse=True)
    return [p.id for p in ranked]


def start(state: GameState, given: tuple[int, ...] | None, effects: list) -> None:
    """Fix the seat order (given; else that of the seats when they are fixed, or of the opening
    rolls) and give the first turn."""
    require_lobby(state)
    if len(state.players) < 2:
        raise RuleError("too_few_players", N_("At least two players are needed to start."))
    ids = [p.id for p in state.players]
    if given is not None:
        if sorted(given) != sorted(ids):
            raise ActionError("bad_order", N_("The order must name every player exactly once."))
        order = list(given)
    elif state.seats_fixed:
        order = ids
    else:
        waiting = [p for p in state.players if needs_opening_roll(state, p)]
        if waiting:
            raise RuleError("waiting_for_rolls", N_("{player} still has to roll for the order."),
                            player=waiting[0].id)
        order = rolled_order(state)
    state.order = order
    state.status = "playing"
    state.turn = order[0]
    state.player(order[0]).turns = 1
    effects.append(happened.started(order))
