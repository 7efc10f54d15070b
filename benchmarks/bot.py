"""A table that plays by itself, for the benchmarks: given the state as the JSON API shows it, the
next thing a real table would do. Players roll, buy what they can afford (else it goes to auction,
where someone bids and the banker closes), draw cards, build on complete groups, pay each other now
and then and end their turns; the banker tops up whoever owes more than they have, so nobody goes
bankrupt and the game goes on as long as the benchmark needs."""

import random

from banker.rules.cards import printing_decks


def next_move(state: dict, rng: random.Random) -> tuple[str | int, dict]:
    """(who, action): "banker" or a player id, and the action to send."""
    players = {p["id"]: p for p in state["players"]}
    for debt in state["debts"]:
        debtor = players[debt["debtor"]]
        if debtor["cash"] < debt["amount"]:
            return "banker", {"type": "bank_pay", "player": debtor["id"], "amount": debt["amount"] - debtor["cash"]}
        return debtor["id"], {"type": "pay_debt", "debt": debt["id"]}
    auction = state["auction"]
    if auction:
        bidders = [b for b in auction["bidders"] if b not in auction["passed"] and b != auction["high_bidder"]]
        if not auction["high_bidder"] and bidders:
            return rng.choice(bidders), {"type": "bid", "amount": rng.randint(10, 60)}
        return "banker", {"type": "close_auction"}
    pending = state["pending"]
    if pending:
        return pending["player"], _decide(state, pending, players[pending["player"]], rng)
    turn = players[state["turn"]]
    if not state["rolled"]:
        if turn["in_jail"] and turn["cash"] >= 50:
            return turn["id"], {"type": "pay_jail_fine"}
        return turn["id"], {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    luck = rng.random()
    if luck < 0.15:
        to = rng.choice([p for p in players if p != turn["id"]])
        return turn["id"], {"type": "pay", "to": to, "amount": rng.randint(1, 40), "memo": "snacks"}
    if luck < 0.35 and (lot := _buildable(state, turn)):
        return turn["id"], {"type": "build", "square": lot}
    return turn["id"], {"type": "end_turn"}


def _decide(state: dict, pending: dict, me: dict, rng: random.Random) -> dict:
    kind = pending["kind"]
    if kind == "buy":
        price = next(d["price"] for d in state["deeds"] if d["square"] == pending["square"])
        return {"type": "buy"} if me["cash"] >= price and rng.random() < 0.8 else {"type": "decline"}
    if kind == "draw":
        held = {c for p in state["players"] for c in p["jail_cards"]}
        rules = state["rules"]  # the game's printing: "us" plays the US Chance with its Community Chest
        deck = printing_decks(rules["cards"] if rules["cards"] != "us" else f"us_{rules['community_chest']}")
        return {"type": "draw", "deck": pending["deck"],
                "card": rng.choice([c["id"] for c in deck[pending["deck"]] if c["id"] not in held])}
    if kind == "card_choice":
        return {"type": "card_choice", "choice": rng.choice(["pay", "draw"])}
    if kind == "utility_roll":
        return {"type": "utility_roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    if kind == "income_tax":
        return {"type": "income_tax", "choice": "flat"}
    if kind == "inherit":
        return {"type": "receive_deeds"}
    return {"type": "build", "square": _buildable(state, me) or 1}


def _buildable(state: dict, me: dict) -> int | None:
    """A lot where the player could put the next house evenly, with cash to spare; or None."""
    groups: dict[str, list[dict]] = {}
    for deed in state["deeds"]:
        if deed["type"] == "street":
            groups.setdefault(deed["group"], []).append(deed)
    for lots in groups.values():
        if all(d["owner"] == me["id"] and not d["mortgaged"] for d in lots) and me["cash"] > 600:
            level = min(d["houses"] + 5 * d["hotel"] for d in lots)
            if level < 5:
                return next(d["square"] for d in lots if d["houses"] + 5 * d["hotel"] == level)
    return None
