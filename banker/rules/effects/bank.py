"""What happened to money and deeds, the Bank's business: payments and debts, deeds bought, built on
and mortgaged, auctions, trades, and a bankrupt's debts and deeds. One constructor per kind (package
docstring); the rule modules of money and deeds import this module as `happened`.
"""

from . import kind

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


# Bankruptcy


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
