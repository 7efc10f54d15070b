"""What an action did: one constructor per kind of effect. `apply` returns the effects of an action
in order; the store keeps them with the event, the API sends them and the screens tell each one
(banker/words/narrate.py has a sentence, or an explicit silence, for every kind made here).

An effect is a plain dict, JSON as it stands: {"kind": <the constructor's name>, <its fields>}.
`player`, `from`, `to`, `debtor` and `creditor` are seat ids ("bank" and "free_parking" where money
goes there); `square` is a board index; `id` is the number of the auction, debt or trade.

The rule modules import this module as `happened`: `effects` is the list each action fills.
"""

from collections.abc import Callable, Sequence
from functools import wraps

def kinds_in(registry: dict[str, Callable[..., dict]]) -> Callable:
    """A decorator declaring effect kinds into `registry`: a kind's name is its constructor's, which
    returns the effect's fields. (An event's effects have their own: tournament/happened.py.)"""

    def kind(fields: Callable[..., dict]) -> Callable[..., dict]:
        name = fields.__name__

        @wraps(fields)
        def make(*args, **kwargs) -> dict:
            return {"kind": name, **fields(*args, **kwargs)}

        registry[name] = make
        return make

    return kind


KINDS: dict[str, Callable[..., dict]] = {}
kind = kinds_in(KINDS)


# The lobby and the turn


@kind
def joined(player: int) -> dict:
    """A newcomer took seat `player`."""
    return {"player": player}


@kind
def opening_roll(player: int, dice: Sequence[int]) -> dict:
    """`player` rolled `dice` (two numbers) for the seat order."""
    return {"player": player, "dice": list(dice)}


@kind
def started(order: list[int]) -> dict:
    """The game started; `order` is the seats in turn order, the first to roll first."""
    return {"order": order}


@kind
def rolled(player: int, dice: Sequence[int]) -> dict:
    """`player` rolled `dice` (two numbers): to move, in jail, or for a utility's rent."""
    return {"player": player, "dice": list(dice)}


@kind
def turn(player: int) -> dict:
    """It is `player`'s turn now."""
    return {"player": player}


@kind
def turn_ended(player: int) -> dict:
    """`player` ended their turn: made by the history (screens/history.py) to tell an end of turn, never
    by the rules nor stored (the action's own effect is `turn`)."""
    return {"player": player}


@kind
def undone(seq: int, action_type: str, player: int | None = None) -> dict:
    """The banker undid event `seq`, an action of `action_type`, or `player` took it back: made by
    the store (store/undo.py), which undoes by replaying the log without that event."""
    if player is not None:
        return {"seq": seq, "type": action_type, "player": player}
    return {"seq": seq, "type": action_type}


# Moving and landing


@kind
def moved(player: int, from_square: int, square: int, correction: bool = False) -> dict:
    """`player`'s token went from `from_square` to `square`: by the dice or a card, or put there by
    the banker (`correction`, present only then: nothing is paid or resolved)."""
    effect = {"player": player, "from_square": from_square, "square": square}
    if correction:
        effect["correction"] = True
    return effect


@kind
def offer(player: int, square: int) -> dict:
    """`player` landed on the unowned deed of `square` and may buy it."""
    return {"player": player, "square": square}


@kind
def no_rent(player: int, square: int) -> dict:
    """`player` landed on `square`, owned by another but mortgaged: no rent."""
    return {"player": player, "square": square}


@kind
def utility_roll_due(player: int, square: int) -> dict:
    """A card sent `player` to the utility on `square`: a new roll decides its rent (ten times)."""
    return {"player": player, "square": square}


@kind
def tax_choice(player: int, square: int) -> dict:
    """`player` landed on the Income Tax (`square`) and chooses: the flat sum or 10% of worth."""
    return {"player": player, "square": square}


@kind
def card_due(player: int, square: int, deck: str) -> dict:
    """`player` landed on `square` and draws from `deck` ("chance" or "chest")."""
    return {"player": player, "square": square, "deck": deck}


@kind
def drew(player: int, deck: str, card: str, effect: dict | None = None) -> dict:
    """`player` drew the card `card` (its id) from `deck`, or a card the app does not know ("custom")
    with the `effect` the player said it has; its own effects follow."""
    if effect is not None:
        return {"player": player, "deck": deck, "card": card, "effect": effect}
    return {"player": player, "deck": deck, "card": card}


@kind
def card_choice_due(player: int, amount: int, deck: str) -> dict:
    """`player` drew a card that asks: pay `amount` to the bank, or draw from `deck` instead."""
    return {"player": player, "amount": amount, "deck": deck}


@kind
def no_repairs(player: int) -> dict:
    """A repairs card found no building of `player`'s: nothing to pay."""
    return {"player": player}


@kind
def jail_card(player: int, card: str) -> dict:
    """`player` keeps the Get Out of Jail Free card `card` (its id)."""
    return {"player": player, "card": card}


# Jail


@kind
def jailed(player: int, why: str) -> dict:
    """`player` went to jail; `why`: "square" (Go to Jail), "three_doubles" or "card"."""
    return {"player": player, "why": why}


@kind
def stayed_in_jail(player: int, tries: int) -> dict:
    """`player` rolled no doubles in jail: this was try `tries` of three."""
    return {"player": player, "tries": tries}


@kind
def third_miss(player: int) -> dict:
    """`player` missed a third time, and pays the fine or uses a card before moving (tournament rules)."""
    return {"player": player}


@kind
def fine_first(player: int) -> dict:
    """`player` owes the fine of a third miss and moves only once it is paid (tournament rules)."""
    return {"player": player}


@kind
def left_jail(player: int, how: str, card: str | None = None, deck: str | None = None) -> dict:
    """`player` left jail; `how`: "doubles", "fine", "third_roll" (the fine after a third miss) or
    "card", which adds the `card` used and the `deck` it goes back to."""
    if how == "card":
        return {"player": player, "how": how, "card": card, "deck": deck}
    return {"player": player, "how": how}


# Money


@kind
def transfer(payer: int | str, payee: int | str, amount: int, reason: str, square: int | None = None, memo: str = "",
             **detail) -> dict:
    """`amount` went from `payer` (as `from`) to `payee` (as `to`), for `reason`: "salary", "rent",
    "tax", "purchase", "payment", "bank_payment", "bank_charge", "jail_fine", "jackpot", "building",
    "building_sale", "mortgage", "unmortgage", "mortgage_fee", "auction", "trade", "card",
    "repairs", "bankruptcy", "seed" or "claim". `square` is the square it was for, `memo` the
    payer's note (each present only when given); `detail` says why the amount is what it is: a
    rent's `level` and `doubled`, `held` and `dice`, or `doubled_by_card`; a building's `level` or a
    group's `group`; the tax `choice`; the repairs' `houses` and `hotels`."""
    effect = {"from": payer, "to": payee, "amount": amount, "reason": reason}
    if square is not None:
        effect["square"] = square
    if memo:
        effect["memo"] = memo
    return effect | detail


@kind
def debt(debt_id: int, debtor: int, creditor: int | str, amount: int, reason: str, square: int | None,
         payees: list[int], memo: str = "", **detail) -> dict:
    """`debtor` could not pay `amount` to `creditor` at once and owes it: a transfer's `reason`,
    `square` (None when none), `memo` (present only when given) and `detail`; `payees`, present only
    for a "pay each player" card, are the players the bank pays once the debt is paid."""
    effect = {"id": debt_id, "debtor": debtor, "creditor": creditor, "amount": amount, "reason": reason,
              "square": square, **detail}
    if payees:
        effect["payees"] = list(payees)
    if memo:
        effect["memo"] = memo
    return effect


@kind
def debt_paid(debt_id: int, debtor: int) -> dict:
    """`debtor` paid debt `debt_id` in full (the transfers before it tell the money)."""
    return {"id": debt_id, "debtor": debtor}


# Deeds, buildings and mortgages


@kind
def bought(player: int, square: int) -> dict:
    """`player` bought the deed of `square` at its printed price."""
    return {"player": player, "square": square}


@kind
def declined(player: int, square: int) -> dict:
    """`player` declined the deed of `square` (an auction of it usually follows)."""
    return {"player": player, "square": square}


@kind
def built(player: int, square: int, level: int) -> dict:
    """`player` put a building on `square`, now at `level` (1-4 houses, 5 a hotel)."""
    return {"player": player, "square": square, "level": level}


@kind
def sold(player: int, square: int, level: int) -> dict:
    """`player` sold a building of `square` back to the bank, now at `level`."""
    return {"player": player, "square": square, "level": level}


@kind
def levels_set(player: int, square: int, levels: dict[int, int]) -> dict:
    """`player` set the buildings of the group of `square` in one step: `levels` by lot, the squares
    as strings (JSON keys), in board order."""
    return {"player": player, "square": square, "levels": {str(s): levels[s] for s in sorted(levels)}}


@kind
def mortgaged(player: int, square: int) -> dict:
    """`player` mortgaged the deed of `square`."""
    return {"player": player, "square": square}


@kind
def unmortgaged(player: int, square: int) -> dict:
    """`player` repaid the mortgage on the deed of `square`."""
    return {"player": player, "square": square}


# Auctions


@kind
def auction_opened(auction_id: int, square: int | None = None, building: str | None = None) -> dict:
    """Auction `auction_id` opened: of the deed of `square`, or of one `building` ("house" or
    "hotel") from the bank's stock."""
    if building is None:
        return {"id": auction_id, "square": square}
    return {"id": auction_id, "building": building}


@kind
def bid(player: int, amount: int) -> dict:
    """`player` holds the high bid, `amount`."""
    return {"player": player, "amount": amount}


@kind
def passed(player: int) -> dict:
    """`player` left the auction."""
    return {"player": player}


@kind
def auction_won(player: int, amount: int, square: int | None = None, building: str | None = None) -> dict:
    """`player` won the auction for `amount`: the deed of `square`, or a `building` to place now."""
    if building is None:
        return {"player": player, "square": square, "amount": amount}
    return {"player": player, "building": building, "amount": amount}


@kind
def auction_unsold(square: int | None, building: str | None) -> dict:
    """The auction closed without a sale: the deed of `square` or the `building` (the other None)
    stays with the bank."""
    return {"square": square, "building": building}


# Trades


@kind
def trade_offered(trade_id: int, player: int, to: int) -> dict:
    """`player` offered `to` a trade, `trade_id`, which waits for their answer."""
    return {"id": trade_id, "player": player, "to": to}


@kind
def trade_done(trade_id: int, player: int, to: int, give: dict, get: dict) -> dict:
    """`to` accepted trade `trade_id` from `player`: `player` gave `give` and got `get`, each side
    {"cash", "squares", "jail_cards"}."""
    return {"id": trade_id, "player": player, "to": to, "give": give, "get": get}


@kind
def trade_rejected(trade_id: int, player: int, offerer: int) -> dict:
    """`player`, to whom trade `trade_id` was offered, rejected `offerer`'s offer."""
    return {"id": trade_id, "player": player, "offerer": offerer}


@kind
def trade_withdrawn(trade_id: int, player: int, to: int) -> dict:
    """`player` withdrew their offer to `to`, trade `trade_id`."""
    return {"id": trade_id, "player": player, "to": to}


@kind
def trade_dropped(trade_id: int, player: int, to: int) -> dict:
    """Trade `trade_id` from `player` to `to` can no longer happen (a deed changed hands, a player
    left) and was removed."""
    return {"id": trade_id, "player": player, "to": to}


# Bankruptcy and the end


@kind
def bankrupt(player: int, creditor: int | str) -> dict:
    """`player` went bankrupt; everything goes to `creditor`, a player or "bank"."""
    return {"player": player, "creditor": creditor}


@kind
def debt_passed(debt_id: int, debtor: int, from_creditor: int, to_creditor: int | str, amount: int) -> dict:
    """What `debtor` owed the bankrupt `from_creditor` (as `from`) is now owed to their heir
    `to_creditor` (as `to`)."""
    return {"id": debt_id, "debtor": debtor, "from": from_creditor, "to": to_creditor, "amount": amount}


@kind
def debt_cancelled(debt_id: int, debtor: int, amount: int) -> dict:
    """What `debtor` owed the bankrupt player is settled: `debtor` was their heir."""
    return {"id": debt_id, "debtor": debtor, "amount": amount}


@kind
def claim_offered(player: int, bankrupt_player: int) -> dict:
    """`player` may take the deeds of `bankrupt_player` (as `from`), bankrupt over the jail fine, for
    that fine (tournament rules)."""
    return {"player": player, "from": bankrupt_player}


@kind
def deeds_claimed(player: int, bankrupt_player: int, squares: list[int]) -> dict:
    """`player` paid the fine and took the deeds of `bankrupt_player` (as `from`) on `squares`."""
    return {"player": player, "from": bankrupt_player, "squares": squares}


@kind
def claim_declined(player: int, bankrupt_player: int) -> dict:
    """`player` left the deeds of `bankrupt_player` (as `from`) to the bank's auction."""
    return {"player": player, "from": bankrupt_player}


@kind
def round_clock(ends_at: int | None, paused_left: int | None) -> dict:
    """A tournament's round clock runs until `ends_at` (Unix seconds), or is paused with
    `paused_left` seconds left."""
    return {"ends_at": ends_at, "paused_left": paused_left}


@kind
def last_turn() -> dict:
    """The banker (a tournament's organiser) called the last turn: the game ends once every seat
    still in has had as many turns as the first."""
    return {}


@kind
def last_turn_withdrawn() -> dict:
    """The tournament's organiser undid the call of the last turn: the game goes on as before it."""
    return {}


@kind
def ended(winner: int) -> dict:
    """The game is over; `winner` heads the standings (kept in the state)."""
    return {"winner": winner}
