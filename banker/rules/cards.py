"""Chance and Community Chest: the table draws the real card, the player says which one, and the
app applies it in full. Get Out of Jail Free cards stay in a hand until used; every card is
always either in its deck or in exactly one hand.

The cards are those of the game's printing (the setting `cards`, board.PRINTINGS): each edition's
own decks, with their ids, printed words and effects, in rules/editions/<edition>_cards.json."""

import json
from functools import cache

from .effects import play as happened
from .auctions import require_no_auction
from .board import EDITIONS, PRINTINGS, Board
from .counting import holds
from .errors import N_, ActionError, RuleError
from .money import charge, owe, to_bank, transfer
from .jail import move_out, third_miss
from .moves import advance, land, send_to_jail
from .state import BANK, Debt, GameState, Player, Settings

DECKS = ("chance", "chest")
# A card the app does not know (an old printing, a house rule, a lost card): the player says what
# it does, and it is applied as a printed card with that effect would be.
CUSTOM = "custom"
# How "advance to the nearest ..." changes the rent there (moves.land's `card_rent`): twice a
# railroad's, and ten times a new roll at a utility.
CARD_RENT = {"railroad": "double", "utility": "ten_times"}
# The cards that take money from, or pay it to, every other player.
EACH_PLAYER = ("collect_from_each_player", "pay_each_player")


@cache
def _cards(file: str) -> dict:
    return json.loads((EDITIONS / f"{file}.json").read_text(encoding="utf-8"))


def printing(settings: Settings) -> str:
    """The printing a game's cards are (a key of PRINTINGS): "us" is the US Chance with the
    Community Chest of the setting `community_chest`."""
    return f"us_{settings.community_chest}" if settings.cards == "us" else settings.cards


def printing_decks(name: str) -> dict[str, list[dict]]:
    """A printing's two decks, {"chance": [...], "chest": [...]}, sixteen cards each."""
    file, chance, chest = PRINTINGS[name]
    return {"chance": _cards(file)[chance], "chest": _cards(file)[chest]}


def deck(state: GameState, name: str) -> list[dict]:
    """The sixteen cards of a deck ("chance" or "chest") in the printing the game plays with."""
    return printing_decks(printing(state.settings))[name]


def card(state: GameState, deck_name: str, card_id: str) -> dict:
    for c in deck(state, deck_name):
        if c["id"] == card_id:
            return c
    raise ActionError("no_such_card", N_("There is no card {card} in that deck."), card=card_id)


def holder(state: GameState, card_id: str) -> Player | None:
    """Who holds this Get Out of Jail Free card (None: it is in its deck)."""
    return next((p for p in state.players if card_id in p.jail_cards), None)


def deck_of(state: GameState, card_id: str) -> str | None:
    """Which deck a card belongs to in this game."""
    if card_id.startswith(f"{CUSTOM}-"):  # a kept custom card: "custom-<deck>-<n>"
        return card_id.split("-")[1]
    return next((name for name in DECKS if any(c["id"] == card_id for c in deck(state, name))), None)


def draw(state: GameState, player_id: int, deck_name: str, card_id: str, effects: list,
         effect: dict | None = None) -> None:
    """Apply the card the player drew at a Chance or Community Chest square: a card of the deck, or
    a CUSTOM one with the `effect` the player said it has."""
    pending = state.pending
    if not pending or pending["kind"] != "draw" or pending["player"] != player_id:
        raise RuleError("no_draw", N_("{player} has no card to draw now."), player=player_id)
    if pending["deck"] != deck_name:
        wanted = N_("Chance") if pending["deck"] == "chance" else N_("Community Chest")
        raise RuleError("wrong_deck", N_("{player} draws from {deck} here."), player=player_id, deck=wanted)
    if card_id == CUSTOM:
        drawn = {"effect": effect}
    else:
        drawn = card(state, deck_name, card_id)
        if holder(state, card_id):
            raise RuleError("card_in_hand", N_("That card is in {player}'s hand, not in the deck."),
                            player=holder(state, card_id).id)
    state.pending = None
    player = state.player(player_id)
    effects.append(happened.drew(player_id, deck_name, card_id, effect))
    kept = card_id
    if card_id == CUSTOM and effect["kind"] == "get_out_of_jail_free":
        kept = f"{CUSTOM}-{deck_name}-{state.next_id()}"  # its own card in the hand: no printed card has that id
    apply_effect(state, player, drawn["effect"], kept, effects)


def apply_effect(state: GameState, player: Player, effect: dict, card_id: str, effects: list) -> None:
    """What a card drawn does to its drawer (`card_id`: the card a Get Out of Jail Free goes into
    the hand as): the one place a card's effect is applied, by `draw` and by outcomes.card_outcome
    on a copy of the state."""
    kind = effect["kind"]
    board = state.board
    if kind == "move_to":
        advance(state, player, (effect["square"] - player.position) % len(board), effects)
        land(state, player, 0, effects)
    elif kind == "move_back":
        start = player.position
        player.position = (start - effect["spaces"]) % len(board)
        effects.append(happened.moved(player.id, start, player.position))
        land(state, player, 0, effects)
    elif kind == "go_back_to":
        # Backwards to the square: never past GO, so no salary (the UK, French and Portuguese
        # "Go back to Old Kent Road"), then an ordinary landing.
        start = player.position
        player.position = effect["square"]
        effects.append(happened.moved(player.id, start, player.position))
        land(state, player, _last_dice(state), effects)
    elif kind == "advance_to_nearest":
        advance(state, player, _to_nearest(state, player, effect["type"]), effects)
        land(state, player, 0, effects, card_rent=CARD_RENT[effect["type"]])
    elif kind == "move_to_nearest":
        # Forward to the nearest of a type, GO salary when passing, and the ordinary rent (the
        # French "Rendez-vous à la gare la plus proche" says nothing of doubling it).
        advance(state, player, _to_nearest(state, player, effect["type"]), effects)
        land(state, player, _last_dice(state), effects)
    elif kind == "pay_or_draw":
        # The drawer chooses: pay the fine, or draw from the other deck (card_choice).
        state.pending = {"kind": "card_choice", "player": player.id, "amount": effect["amount"],
                         "deck": effect["deck"]}
        effects.append(happened.card_choice_due(player.id, effect["amount"], effect["deck"]))
    elif kind == "collect":
        transfer(state, BANK, player.id, effect["amount"], effects, "card")
    elif kind == "pay":
        charge(state, player.id, to_bank(state), effect["amount"], effects, "card")
    elif kind == "collect_from_each_player":
        for other in others(state, player.id):
            charge(state, other.id, player.id, effect["amount"], effects, "card")
    elif kind == "pay_each_player":
        _pay_each(state, player, effect["amount"], effects)
    elif kind == "repairs":
        houses = sum(d.houses for d in state.deeds.values() if d.owner == player.id)
        hotels = sum(d.hotel for d in state.deeds.values() if d.owner == player.id)
        amount = houses * effect["per_house"] + hotels * effect["per_hotel"]
        if amount:
            charge(state, player.id, to_bank(state), amount, effects, "repairs", houses=houses, hotels=hotels,
                   per_house=effect["per_house"], per_hotel=effect["per_hotel"])
        else:
            effects.append(happened.no_repairs(player.id))
    elif kind == "get_out_of_jail_free":
        player.jail_cards.append(card_id)
        effects.append(happened.jail_card(player.id, card_id))
    elif kind == "go_to_jail":
        send_to_jail(state, player, effects, "card")


def nearest(board: Board, position: int, square_type: str) -> int:
    """The first square of a type ("railroad", "utility") ahead of `position`."""
    size = len(board)
    return min((s.index for s in board.of_type(square_type)), key=lambda i: (i - position) % size or size)


def _to_nearest(state: GameState, player: Player, square_type: str) -> int:
    """How many squares forward the nearest square of a type ahead is."""
    return (nearest(state.board, player.position, square_type) - player.position) % len(state.board)


def _last_dice(state: GameState) -> int:
    """The dice of the roll that brought the drawer here: what a utility reached by a card charges
    at its ordinary rent."""
    return sum(state.last_roll) if state.last_roll else 0


def choose(state: GameState, player_id: int, choice: str, effects: list) -> None:
    """Answer a "pay a fine or draw a card" card: "pay" pays the fine to the bank (a debt when the
    cash is short, as every card payment); "draw" makes the player draw from the other deck, and
    the card they draw there is said by the usual `draw`."""
    pending = state.pending
    if not pending or pending["kind"] != "card_choice" or pending["player"] != player_id:
        raise RuleError("no_card_choice", N_("{player} has no card choice to make now."), player=player_id)
    player = state.player(player_id)
    if choice == "pay":
        state.pending = None
        charge(state, player_id, to_bank(state), pending["amount"], effects, "card")
    else:
        state.pending = {"kind": "draw", "player": player_id, "deck": pending["deck"], "square": player.position}
        effects.append(happened.card_due(player_id, player.position, pending["deck"]))


def others(state: GameState, player_id: int) -> list[Player]:
    """The players a "from each player" or "to each player" card takes from or pays: all who are
    still in the game but the drawer."""
    return [p for p in state.players if p.id != player_id and not p.bankrupt]


def _pay_each(state: GameState, player: Player, amount: int, effects: list) -> None:
    """Pay every other player. When the cash does not cover it all, the drawer owes the total as
    one debt to the bank that pays the players once it is paid: if the drawer raises the cash,
    each player gets their share as usual; if not, it is a bankruptcy to the bank and nobody is
    paid (JMA rules, last section: 「他プレイヤーへの支払いは行わずに銀行破産として処理する」;
    paying them from the bank first would create money)."""
    payees = others(state, player.id)
    covered = player.cash >= amount * len(payees)
    if covered and not holds(state, player.id, "card"):
        for other in payees:
            transfer(state, player.id, other.id, amount, effects, "card")
        return
    # Covered but held: the drawer counts it themselves (counting.py), and pays it as one debt too.
    owe(state, Debt(id=state.next_id(), debtor=player.id, creditor=BANK, amount=amount * len(payees),
                    reason="card", payees=[o.id for o in payees]), effects,
        each=amount, **({"counted": True} if covered else {}))


def utility_roll(state: GameState, player_id: int, dice: tuple[int, int], effects: list) -> None:
    """The new roll after "advance to the nearest utility": ten times the dice to its owner."""
    pending = state.pending
    if not pending or pending["kind"] != "utility_roll" or pending["player"] != player_id:
        raise RuleError("no_utility_roll", N_("{player} has no utility roll to make."), player=player_id)
    state.pending = None
    square = pending["square"]
    total = sum(dice)
    effects.append(happened.rolled(player_id, dice))
    charge(state, player_id, state.deeds[square].owner, 10 * total, effects, "rent", square,
           dice=total)


def use_jail_card(state: GameState, player_id: int, card_id: str | None, effects: list) -> None:
    """Leave jail with a Get Out of Jail Free card, before rolling; the card goes back to its deck.
    After a third miss that waits (JMA), the card is used instead of the fine and the player moves
    by that roll."""
    player = state.player(player_id)
    dice = third_miss(state, player)
    if not player.in_jail:
        raise RuleError("not_in_jail", N_("{player} is not in jail."), player=player_id)
    if state.turn != player_id:
        raise RuleError("not_your_turn", N_("It is {player}'s turn."), player=state.turn)
    if state.rolled and not dice:
        raise RuleError("already_rolled", N_("A card is used before rolling."))
    require_no_auction(state)
    if not player.jail_cards:
        raise RuleError("no_jail_card", N_("{player} has no Get Out of Jail Free card."), player=player_id)
    used = card_id or player.jail_cards[0]
    if used not in player.jail_cards:
        raise RuleError("no_jail_card", N_("{player} does not hold that card."), player=player_id)
    player.jail_cards.remove(used)
    player.in_jail = False
    player.jail_rolls = 0
    effects.append(happened.left_jail(player_id, "card", used, deck_of(state, used)))
    if dice:
        state.pending = None
        move_out(state, player, dice, effects)

