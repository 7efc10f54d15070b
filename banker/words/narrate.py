"""What happened, and what was refused, in the reader's words: each kind of effect by its sentence,
an action's effects as a paragraph, an undo, whose history an effect belongs in; a refusal from the
rules, and a player's deeds with their buttons' words and reasons. The things these sentences name
are named by phrases.py."""

from ..rules.cards import CUSTOM, card
from ..rules.errors import GameError
from ..rules.networth import first_place
from ..rules.state import BANK, GameState
from ..store import BadEvent
from . import amounts
from .card_texts import card_text
from .labels import BUTTON_LABELS, FIELD_LABELS, GROUP_NAMES, MONEY_FIELDS
from .languages import gettext as _, ngettext
from .names import reader_language
from .phrases import building_word, buildings, custom_card, listed, money, named, party, square


def refusal(error: GameError, state: GameState | None, on_page: bool = False) -> str:
    """A refusal from the rules as one translated sentence naming squares and players. `on_page`: a
    form's field is named as the page labels it ("the amount"), not by its JSON name ("amount").
    An archive's event that does not replay is told with the rules' refusal of it, its squares and
    players named as the game had them just before it (the event's own `state`)."""
    if isinstance(error, BadEvent):
        return _("Event %(seq)s of the file does not replay: %(why)s",
                 seq=error.params["seq"], why=refusal(error.why, error.state, on_page))
    params = named(state, error.params) if state else error.params
    labelled = on_page and params.get("field") in FIELD_LABELS
    if labelled:
        params = {**params, "field": FIELD_LABELS[params["field"]]}
    if on_page and state and error.params.get("field") in MONEY_FIELDS:  # "from $1 to $1,000,000"
        params.update({k: money(state, error.params[k]) for k in ("low", "high") if k in error.params})
    text = _(error.message).format(**params)
    return text[:1].upper() + text[1:] if labelled else text  # "The amount must be…"


def _rent_basis(effect: dict) -> str:
    """What a rent was for: "Boardwalk, hotel", "2 railroads", "10 × 7"."""
    if "level" in effect:
        if effect["level"]:
            return buildings(effect["level"])
        return _("whole group, double rent") if effect.get("doubled") else ""
    if effect.get("dice"):
        return f"{effect['amount'] // effect['dice']} × {effect['dice']}"
    if "held" in effect and effect.get("doubled_by_card"):
        return ngettext("%(num)s railroad, doubled by the card", "%(num)s railroads, doubled by the card",
                        effect["held"])
    if "held" in effect:
        return ngettext("%(num)s railroad", "%(num)s railroads", effect["held"])
    return ""


def _rent(p: dict, effect: dict) -> str:
    basis = _rent_basis(effect)
    if basis:
        return _("{from} paid {to} {amount} rent for {square} ({basis}).").format(basis=basis, **p)
    return _("{from} paid {to} {amount} rent for {square}.").format(**p)


REASONS = {
    "salary": lambda p: _("{to} collected {amount} salary.").format(**p),
    "tax": lambda p: _("{from} paid {amount} {square}.").format(**p),
    "purchase": lambda p: _("{from} bought {square} for {amount}.").format(**p),
    "payment": lambda p: _("{from} paid {to} {amount}.").format(**p),
    "bank_payment": lambda p: _("The bank paid {to} {amount}.").format(**p),
    "bank_charge": lambda p: _("The bank charged {from} {amount}.").format(**p),
    "jail_fine": lambda p: _("{from} paid the {amount} jail fine.").format(**p),
    "jackpot": lambda p: _("{to} collected the {amount} Free Parking jackpot.").format(**p),
    "building": lambda p: _("{from} paid {amount} for buildings on {where}.").format(**p),
    "building_sale": lambda p: _("{to} sold buildings on {where} for {amount}.").format(**p),
    "house": lambda p: _("{from} built a house on {square} for {amount}.").format(**p),
    "hotel": lambda p: _("{from} built a hotel on {square} for {amount}.").format(**p),
    "house_sale": lambda p: _("{to} sold a house on {square} for {amount}.").format(**p),
    "hotel_sale": lambda p: _("{to} sold the hotel on {square} for {amount}.").format(**p),
    "mortgage": lambda p: _("{to} mortgaged {square} for {amount}.").format(**p),
    # "repaid", as the button says ("Repay mortgage"), and as the rules' refusals say.
    "unmortgage": lambda p: _("{from} repaid the mortgage on {square} for {amount}.").format(**p),
    "mortgage_fee": lambda p: _("{from} paid the bank {amount}: {rate} on the mortgage of {square}.").format(
        **p, rate=amounts.ten_percent()),
    "auction": lambda p: _("{from} paid the bank {amount} at auction.").format(**p),
    "trade": lambda p: _("{from} gave {to} {amount} in a trade.").format(**p),
    "card": lambda p: _("{from} paid {to} {amount} (card).").format(**p),
    "card_for": lambda p: _("The bank paid {to} {amount} for {drawer}, who now owes it to the bank.").format(**p),
    "repairs": lambda p: _("{from} paid {amount} for repairs ({houses}, {hotels}).").format(
        **{**p, "houses": ngettext("%(num)s house", "%(num)s houses", p["houses"]),
           "hotels": ngettext("%(num)s hotel", "%(num)s hotels", p["hotels"])}),
    "bankruptcy": lambda p: _("{from}'s last {amount} goes to {to}.").format(**p),
    "seed": lambda p: _("The banker put {amount} into the Free Parking pot.").format(**p),
    "claim": lambda p: _("{from} paid the bank the {amount} jail fine to take the bankrupt's deeds.").format(**p),
}

JAIL_WHY = {
    "square": lambda p: _("{player} goes to jail.").format(**p),
    "three_doubles": lambda p: _("Three doubles in a row: {player} goes to jail.").format(**p),
    "card": lambda p: _("The card sends {player} to jail.").format(**p),
}

JAIL_EXIT = {
    "doubles": lambda p: _("{player} rolled doubles and leaves jail.").format(**p),
    "fine": lambda p: _("{player} leaves jail.").format(**p),
    "third_roll": lambda p: _("Third try: {player} pays the fine and leaves jail.").format(**p),
    "card": lambda p: _("{player} used a Get Out of Jail Free card and leaves jail.").format(**p),
}



def _rolled(p: dict, effect: dict) -> str:
    a, b = effect["dice"]
    if a == b:
        return _("{player} rolled {a} + {b}: doubles!").format(a=a, b=b, **p)
    return _("{player} rolled {a} + {b}.").format(a=a, b=b, **p)


def _debt(p: dict, effect: dict) -> str:
    # A sum its payer counts themselves (rules/counting.py): its amount is what their phone asks them.
    if effect.get("counted"):
        if effect.get("payees"):
            return _("{debtor} is counting the sum owed to the other players.").format(**p)
        return _("{debtor} is counting the sum owed to {creditor}.").format(**p)
    if effect.get("payees"):  # a "pay each player" card: the players are paid once the cash is there
        return _("{debtor} owes the other players {amount} in all but has too little cash.").format(**p)
    return _("{debtor} owes {creditor} {amount} but has too little cash.").format(**p)


def _settled(p: dict, effect: dict) -> str:
    """A payment that settles a debt: told as what it is, not with the debt's own words again ("The
    bank charged Dan $1,464." a second time would read as a second charge)."""
    if effect["to"] == BANK:
        return _("{from} paid the bank the {amount} owed.").format(**p)
    return _("{from} paid {to} the {amount} owed.").format(**p)


def _memo(effect: dict) -> str:
    """The note a payer or the banker gave, after the sentence."""
    return f" ({effect['memo']})" if effect.get("memo") else ""


def _moved(p: dict, effect: dict) -> str:
    if effect.get("correction"):
        return _("The banker put {player} on {square}.").format(**p)
    return _("{player} moves to {square}.").format(**p)


# Every kind of effect (banker/rules/effects/) by its sentence, or None where the same action's
# other effects already tell it.
STORIES = {
    "joined": lambda p, e: _("{player} joined the game.").format(**p),
    "opening_roll": lambda p, e: _("{player} rolled {total} for the seat order.").format(total=sum(e["dice"]), **p),
    "seats_fixed": lambda p, e: _("The seats are set. Order: {names}.").format(**p),
    "started": lambda p, e: _("The game starts. Order: {names}.").format(**p),
    "rolled": _rolled,
    "moved": _moved,
    "transfer": lambda p, e: (_settled(p, e) if e.get("settles") else _rent(p, e) if e["reason"] == "rent"
                              else REASONS[_reason(e)](p)) + _memo(e),
    "debt": lambda p, e: _debt(p, e) + _memo(e),
    "offer": lambda p, e: _("{player} may buy {square}.").format(**p),
    "declined": lambda p, e: _("{player} declined {square}.").format(**p),
    "auction_opened": lambda p, e: (_("{square} is up for auction.").format(**p) if e.get("square") is not None
                                    else _("The bank auctions one {building}.").format(building=building_word(e["building"]))),
    "bid": lambda p, e: _("{player} bids {amount}.").format(**p),
    "passed": lambda p, e: _("{player} passes.").format(**p),
    "auction_won": lambda p, e: (_("{player} wins {square} for {amount}.").format(**p) if e.get("square") is not None
                                 else _("{player} wins a {building} for {amount} and must place it now.").format(
                                     **{**p, "building": building_word(e["building"])})),
    "auction_unsold": lambda p, e: (_("Nobody bid: {square} stays with the bank.").format(**p) if e.get("square") is not None
                                    else _("Nobody bid for the {building}.").format(building=building_word(e["building"]))),
    "trade_offered": lambda p, e: _("{player} offers {to} a trade.").format(**p),
    "trade_done": lambda p, e: _("Trade done: {player} gives {give}; {to} gives {get}.").format(**p),
    # Events logged before the other side was recorded say "a trade".
    "trade_rejected": lambda p, e: (_("{player} rejected {offerer}'s offer.") if "offerer" in e
                                    else _("{player} rejected a trade.")).format(**p),
    "trade_withdrawn": lambda p, e: (_("{player} withdrew the offer to {to}.") if "to" in e
                                     else _("{player} withdrew a trade offer.")).format(**p),
    "trade_dropped": lambda p, e: _("The offer between {player} and {to} can no longer happen and was removed.").format(**p),
    "no_rent": lambda p, e: _("{square} is mortgaged: no rent.").format(**p),
    "jailed": lambda p, e: JAIL_WHY[e["why"]](p),
    "left_jail": lambda p, e: JAIL_EXIT[e["how"]](p),
    "stayed_in_jail": lambda p, e: _("No doubles: {player} stays in jail (try {tries} of 3).").format(**p),
    "card_due": lambda p, e: (_("{player} draws a Chance card.") if e.get("deck") == "chance"
                              else _("{player} draws a Community Chest card.")).format(**p),
    "drew": lambda p, e: (_("{player} drew a card: {card}.") if e["card"] == CUSTOM
                          else _("{player} drew “{card}”.")).format(**p),
    "jail_card": lambda p, e: _("{player} keeps the Get Out of Jail Free card.").format(**p),
    "card_choice_due": lambda p, e: (_("{player} pays {amount} or draws a Chance card.") if e.get("deck") == "chance"
                                     else _("{player} pays {amount} or draws a Community Chest card.")).format(**p),
    "no_repairs": lambda p, e: _("{player} has no buildings: no repairs to pay.").format(**p),
    "utility_roll_due": lambda p, e: _("{player} rolls the dice again: 10 times the roll goes to the owner of {square}.").format(**p),
    "tax_choice": lambda p, e: _("{player} chooses: {flat}, or {rate} of total worth.").format(
        **p, rate=amounts.ten_percent()),
    "bankrupt": lambda p, e: _("{player} is bankrupt; everything goes to {creditor}.").format(**p),
    "debt_passed": lambda p, e: _("What {debtor} owed {from} ({amount}) is now owed to {to}.").format(**p),
    "debt_cancelled": lambda p, e: _("What {debtor} owed the bankrupt player ({amount}) is settled: {debtor} received it.").format(**p),
    "third_miss": lambda p, e: _("Third miss: {player} pays the fine or uses a Get Out of Jail Free card.").format(**p),
    "fine_first": lambda p, e: _("{player} must pay the jail fine before moving.").format(**p),
    "claim_offered": lambda p, e: _("{player} may take {from}'s deeds for the jail fine.").format(**p),
    "deeds_claimed": lambda p, e: _("{player} takes {from}'s deeds.").format(**p),
    "claim_declined": lambda p, e: _("{player} leaves {from}'s deeds to the bank's auction.").format(**p),
    "round_clock": lambda p, e: (_("The round's clock is paused.") if e["paused_left"] is not None
                                 else _("The round's clock is running.") if e["ends_at"] is not None
                                 else _("The round has not started: its clock is stopped.")),
    "last_turn": lambda p, e: _("Last turn: the game ends once everyone has had as many turns as the first player."),
    "last_turn_withdrawn": lambda p, e: _("The last turn is no longer called: the game goes on."),
    "ended": lambda p, e: (_("The game is over: {names} share first place!") if "names" in p
                           else _("The game is over: {winner} wins!")).format(**p),
    "turn_ended": lambda p, e: _("{player} ended the turn.").format(**p),
    "turn": lambda p, e: _("It is {player}'s turn.").format(**p),
    # The entry taken back is told by the ledger (undid); an undo told alone names no entry number.
    "undone": lambda p, e: (_("{player} took back their last action.").format(**p) if "player" in e
                            else _("The banker undid the last entry.")),
    # A building bought is told by its payment (summary leaves "built" out then); this is one won at
    # a shortage auction, placed with no payment.
    "built": lambda p, e: (_("{player} placed the hotel won at auction on {square}.") if e["level"] == 5
                           else _("{player} placed the house won at auction on {square}.")).format(**p),
    # A group's buildings set in one step are told by what it cost or refunded (summary leaves
    # "levels_set" out then); this is a step that cost nothing (two houses sold, one bought).
    "levels_set": lambda p, e: _("{player} moved buildings within {where}: nothing to pay.").format(**p),
    # Told by the transfer that paid for it: "Ann bought Boardwalk for $400."
    "bought": None, "sold": None, "mortgaged": None, "unmortgaged": None,
    "debt_paid": None,
}


def undid(what: str, player: str | None = None) -> str:
    """An undo in words, with the sentences of the entry it took back: the banker's, or a player's
    taking back their own."""
    if player is not None:
        return _("{player} took back: {what}").format(player=player, what=what)
    return _("The banker undid: {what}").format(what=what)


def _reason(effect: dict) -> str:
    """The sentence for a transfer; one building bought or sold is told as a house or a hotel."""
    reason = effect["reason"]
    if reason in ("building", "building_sale") and "level" in effect:
        kind = "hotel" if effect["level"] == 5 else "house"
        return kind if reason == "building" else kind + "_sale"
    return reason


def _bundle(state: GameState, side: dict) -> str:
    """One side of a trade in words: "$100, Boardwalk and a Get Out of Jail Free card"."""
    parts = [money(state, side["cash"])] if side["cash"] else []
    parts += [square(state, s) for s in side["squares"]]
    parts += [_("a Get Out of Jail Free card")] * len(side["jail_cards"])
    return listed(parts) if parts else _("nothing")


# Transfers whose story another effect of the same action already tells.
TOLD_ELSEWHERE = {"auction", "trade"}


def told_effect(state: GameState, effect: dict) -> str | None:
    """One effect as a sentence (None for effects another sentence already tells)."""
    tell = STORIES[effect["kind"]]
    if tell is None:
        return None
    params = named(state, effect)
    if "group" in effect or effect["kind"] == "levels_set":
        group = effect.get("group") or state.board[effect["square"]].group
        params["where"] = _("the %(group)s group", group=GROUP_NAMES[group])
    elif "square" in effect:
        params["where"] = params["square"]
    if effect["kind"] == "transfer" and effect["reason"] in TOLD_ELSEWHERE:
        return None
    if effect["kind"] == "trade_done":
        params["give"], params["get"] = _bundle(state, effect["give"]), _bundle(state, effect["get"])
    if effect["kind"] == "drew" and effect["card"] == CUSTOM:  # a card the app does not know: what it did
        params["card"] = custom_card(state, effect["effect"])
    elif effect["kind"] == "drew":  # by its own words, as the player holding it reads it (less its full stop)
        params["card"] = card_text(state, card(state, effect["deck"], effect["card"])).rstrip(".")
    if effect["kind"] == "ended":
        params["winner"] = party(state, effect["winner"])
        level = first_place(state.standings) if state.status == "ended" else []
        if len(level) > 1:  # (the effect names the first of them: the standings, who shares it)
            params["names"] = listed(party(state, pid) for pid in level)
    if effect["kind"] == "tax_choice":
        params["flat"] = money(state, state.board[effect["square"]].amount)
    if "drawer" in effect:
        params["drawer"] = party(state, effect["drawer"])
    if effect["kind"] in ("seats_fixed", "started"):
        params["names"] = listed(party(state, pid) for pid in effect["order"])
    return _sentence(state, tell(params, effect))


def _sentence(state: GameState, text: str) -> str:
    """A sentence starts with a capital ("The bank paid Ann $25."), unless it starts with a player's
    name, which stays as its player typed it."""
    if not text[:1].islower() or any(text.startswith(p.name) for p in state.players):
        return text
    return text[0].upper() + text[1:]


def summary(state: GameState, effects: list[dict]) -> str:
    """All the effects of one action as a short paragraph (once it ended the game, nobody's turn
    comes next: the last bankruptcy passes the turn before the end, and that is not told)."""
    if any(e["kind"] == "ended" for e in effects):
        effects = [e for e in effects if e["kind"] != "turn"]
    # The transfers of a debt paid off (pay_debt: they come before its debt_paid) are told as such.
    settling = {e["debtor"] for e in effects if e["kind"] == "debt_paid"}
    if settling:
        effects = [{**e, "settles": True} if e["kind"] == "transfer" and e["from"] in settling else e for e in effects]
    # A building bought, or a group's buildings set, is told by the transfer that paid for it
    # (STORIES, "built" and "levels_set").
    if any(e["kind"] == "transfer" for e in effects):
        effects = [e for e in effects if e["kind"] not in ("built", "levels_set")]
    return sentence_gap().join(text for text in (told_effect(state, e) for e in effects) if text)


def sentence_gap() -> str:
    """What goes between two sentences: a space, but nothing in Japanese (「…です。Annは…」)."""
    return "" if reader_language() == "ja" else " "


# The table's big moments: every phone's history tells them, whoever they concern.
PUBLIC = {"seats_fixed", "started", "bought", "auction_won", "auction_unsold", "trade_done", "bankrupt", "ended"}


def mentions(effect: dict) -> set:
    """The players (and the bank or the pot) an effect names: whose phone's history it belongs in.
    A turn passing names nobody: every screen's heading says whose turn it is, and a row on each
    phone for every turn of the others buried what happened to its player."""
    if effect["kind"] == "turn":
        return set()
    return {effect[k] for k in ("player", "from", "to", "debtor", "creditor", "offerer") if k in effect}


def explain(state: GameState, holdings: list[dict]) -> list[dict]:
    """Put a player's holdings into words: the lots' names, each refusal as a sentence, each button's
    `label` and `why` (None when it may be tapped), and each lot's `why` told under it, if any."""
    for section in holdings:
        for lot in section["lots"]:
            lot["name"] = square(state, lot["square"])
            for key in ("build", "sell", "mortgage", "unmortgage"):
                if key in lot:
                    value, error = lot[key]
                    lot[key] = (value, refusal(error, state) if error else None)
            for button in lot["buttons"]:
                button["label"], button["why"] = BUTTON_LABELS[button["kind"]], lot[button["check"]][1]
            lot["why"] = lot[lot["told"]][1] if lot["told"] else None
    return holdings
