"""A random evening at the table, for the web tests (through the API) and the store tests (direct
calls) alike: what a table might do next, given the state as the API shows it."""

import random

from banker.rules.cards import printing, printing_decks
from banker.rules.state import Settings

from .web.games import seat


def next_move(state: dict, rng: random.Random):
    """Something a table might do now: mostly the turn's next step, sometimes money, a correction or
    undo. Returns who does it ("banker" or a seat id) and the action; it may be refused."""
    if state["status"] == "lobby":
        return "banker", {"type": "start", "order": [p["id"] for p in state["players"]]}
    turn = state["turn"]
    ids = [p["id"] for p in state["players"]]
    luck = rng.random()
    if luck < 0.08:
        return "banker", {"type": "undo"}
    if luck < 0.16:
        payer = rng.choice(ids)
        return payer, {"type": "pay", "to": rng.choice([i for i in ids if i != payer] + ["bank"]),
                       "amount": rng.randint(1, 300)}
    if luck < 0.22:
        kind = rng.choice(["bank_pay", "bank_charge"])
        return "banker", {"type": kind, "player": rng.choice(ids), "amount": rng.randint(1, 2000)}
    if luck < 0.25:
        return "banker", {"type": "move", "player": rng.choice(ids), "square": rng.randint(0, 39)}
    auction = state["auction"]
    if auction:
        bidders = [p for p in auction["bidders"] if p not in auction["passed"] and p != auction["high_bidder"]]
        if bidders and rng.random() < 0.5:
            who = rng.choice(bidders)
            return who, {"type": "bid", "amount": auction["high_bid"] + rng.randint(1, 60)}
        if bidders:
            return rng.choice(bidders), {"type": "pass"}
        return "banker", {"type": "close_auction"}
    pending = state["pending"]
    if pending and pending["kind"] == "draw":
        held = {c for p in state["players"] for c in p["jail_cards"]}
        deck = printing_decks(printing(Settings(**state["rules"])))[pending["deck"]]  # the game's own cards
        return pending["player"], {"type": "draw", "deck": pending["deck"],
                                   "card": rng.choice([c["id"] for c in deck if c["id"] not in held])}
    if pending and pending["kind"] == "utility_roll":
        return pending["player"], {"type": "utility_roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    if pending and pending["kind"] == "card_choice":
        return pending["player"], {"type": "card_choice", "choice": rng.choice(["pay", "draw"])}
    if pending and pending["kind"] == "inherit":
        return pending["player"], {"type": "receive_deeds"}
    if pending:
        return pending["player"], {"type": rng.choice(["buy", "buy", "decline"])}
    debts = [d for d in state["debts"] if d["debtor"] == turn]
    if debts:
        short = debts[0]["amount"] - seat(state, turn)["cash"]
        if short > 0:
            return "banker", {"type": "bank_pay", "player": turn, "amount": short}
        return turn, {"type": "pay_debt"}
    if state["rolled"]:
        return turn, {"type": "end_turn"}
    if seat(state, turn)["in_jail"] and rng.random() < 0.5:
        return turn, {"type": "pay_jail_fine"}
    return turn, {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
