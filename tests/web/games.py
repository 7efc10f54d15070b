"""Games and screens for the web tests: a game driven through the JSON API, a browser posting the
pages' forms, and one ready-made situation per action in which that action is legal."""

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from html import unescape
from html.parser import HTMLParser

from banker.rules.board import load_board
from banker.rules.cards import printing, printing_decks
from banker.rules.state import Settings

PLAYERS = [("Ann", "hat"), ("Bob", "car"), ("Cy", "dog")]
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HTMX = {"HX-Request": "true"}


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Game:
    """A game made through the JSON API: its code, the banker's secret and each seat's secret."""

    client: object
    code: str
    banker: str
    seats: dict[int, str] = field(default_factory=dict)

    def token(self, who) -> str | None:
        """The secret for "banker" or a seat id; None for anybody else."""
        return self.banker if who == "banker" else self.seats.get(who)

    def act(self, who, state: bool = False, **action):
        """POST one action to the API as `who` ("banker", a seat id, or None), asking for the state
        after it too if `state`; returns the response."""
        return self.client.post(f"/api/games/{self.code}/actions{'?state=1' if state else ''}", json=action,
                                headers=bearer(self.token(who)))

    def ok(self, who, state: bool = False, **action) -> dict:
        """An action that must be applied; returns the response JSON."""
        response = self.act(who, state, **action)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def join(self, name: str, token: str) -> int:
        response = self.client.post(f"/api/games/{self.code}/players", json={"name": name, "token": token})
        assert response.status_code == 201, response.get_json()
        data = response.get_json()
        self.seats[data["player_id"]] = data["player_token"]
        return data["player_id"]

    def state(self) -> dict:
        response = self.client.get(f"/api/games/{self.code}", headers=bearer(self.banker))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def events(self, limit: int | None = None) -> list[dict]:
        """The whole history, oldest first, page after page (of `limit` events, else the API's
        default) by the `next` links."""
        url, found = f"/api/games/{self.code}/events" + (f"?limit={limit}" if limit else ""), []
        while url:
            response = self.client.get(url, headers=bearer(self.banker))
            assert response.status_code == 200, response.get_json()
            found += response.get_json()["events"]
            url = response.get_json()["next"]
        return found

    def cash(self) -> dict[int, int]:
        return {p["id"]: p["cash"] for p in self.state()["players"]}


def new_game(client, players: int = 2, start: bool = True, rules: dict | None = None, edition: str = "us") -> Game:
    """A game with the first `players` of Ann, Bob and Cy seated, started in that order unless asked not to."""
    response = client.post("/api/games", json={"edition": edition, "rules": rules or {}})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    game = Game(client, data["code"], data["banker_token"])
    for name, token in PLAYERS[:players]:
        game.join(name, token)
    if start:
        game.ok("banker", type="start", order=list(game.seats))
    return game


def seat(state: dict, pid: int) -> dict:
    return next(p for p in state["players"] if p["id"] == pid)


def deed(state: dict, square: int) -> dict:
    return next(d for d in state["deeds"] if d["square"] == square)


@dataclass(frozen=True)
class Scenario:
    """A situation in which `action` is legal for Ann (seat 1), and how to tell it was applied.

    `steps` are (who, action) pairs sent through the API first, in a game of `players` seats made
    with `rules`. The banker sends the action with `"player": 1` unless it is `seatless` (start,
    undo, close_auction, end_game, seed_jackpot).
    """

    action: dict
    done: Callable[[dict], bool]
    says: str
    steps: tuple = ()
    lobby: bool = False
    banker_only: bool = False
    seatless: bool = False
    players: int = 2
    rules: dict | None = None

    def by_banker(self) -> dict:
        return self.action if self.seatless else {**self.action, "player": 1}


ROLL_TO_BALTIC = (1, {"type": "roll", "dice": [1, 2]})
BALTIC = (ROLL_TO_BALTIC, (1, {"type": "buy"}))  # Ann owns Baltic Avenue, has 1440 and has rolled
AUCTION = (ROLL_TO_BALTIC, (1, {"type": "decline"}))  # Baltic Avenue is up for auction (id 1)
BROWN = (("banker", {"type": "move", "player": 1, "square": 39}),
         (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
         (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}))
BOB_BIDS_100 = (2, {"type": "offer_trade", "to": 1, "give": {"cash": 100}, "get": {"squares": [3]}})
# Chance is on squares 7, 22 and 36, Community Chest on 2, 17 and 33.
TO_CHANCE = (1, {"type": "roll", "dice": [3, 4]})  # Ann on Chance (7), to draw
TO_CHEST = (1, {"type": "roll", "dice": [1, 1]})  # Ann on Community Chest (2), doubles, to draw
# Bob wins Electric Company at auction for $10; the banker puts Ann (who rolled doubles) on 4
# and she rolls to Chance (7).
BOB_HAS_ELECTRIC = ((1, {"type": "roll", "dice": [6, 6]}), (1, {"type": "decline"}),
                    (2, {"type": "bid", "amount": 10}), (1, {"type": "pass"}))
NEAREST_UTILITY = (*BOB_HAS_ELECTRIC, ("banker", {"type": "move", "player": 1, "square": 4}),
                   (1, {"type": "roll", "dice": [1, 2]}),
                   (1, {"type": "draw", "deck": "chance", "card": "ch_nearest_utility"}))
# Ann keeps the Community Chest Get Out of Jail Free card, a Chance card sends her to jail, Bob
# takes his turn: Ann's turn, in jail, holding the card.
JAILED_WITH_CARD = (TO_CHEST, (1, {"type": "draw", "deck": "chest", "card": "cc21_rescue_puppy"}),
                    (1, {"type": "roll", "dice": [2, 3]}),
                    (1, {"type": "draw", "deck": "chance", "card": "ch_go_to_jail"}),
                    (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}))
ANN_OWES_BOB = (1, {"type": "pay", "to": 2, "amount": 2000})  # more than she has: a debt to Bob
# Tournament rules, three players: Ann buys States Avenue (13) and Bob Baltic Avenue, which he
# mortgages; the banker leaves him $20, and on his third miss in jail he moves to States Avenue and
# goes bankrupt over the $50 fine: Ann, its owner, may take his deeds for the fine. (The others
# spend their turns on Luxury Tax.)
ROLL_1_2, END = {"type": "roll", "dice": [1, 2]}, {"type": "end_turn"}


def _to_luxury_tax(p: int) -> tuple:
    return ("banker", {"type": "move", "player": p, "square": 35}), (p, ROLL_1_2), (p, END)


BOB_BANKRUPT_OVER_THE_FINE = (
    ("banker", {"type": "move", "player": 1, "square": 10}), (1, ROLL_1_2), (1, {"type": "buy"}), (1, END),
    (2, ROLL_1_2), (2, {"type": "buy"}), (2, END), (3, {"type": "roll", "dice": [4, 6]}), (3, END),
    *_to_luxury_tax(1),
    (2, {"type": "mortgage", "square": 3}), ("banker", {"type": "move", "player": 2, "square": 27}),
    (2, ROLL_1_2), (2, END),  # to jail
    *_to_luxury_tax(3), *_to_luxury_tax(1),
    ("banker", {"type": "bank_charge", "player": 2, "amount": 1450}), (2, ROLL_1_2), (2, END),
    *_to_luxury_tax(3), *_to_luxury_tax(1), (2, ROLL_1_2), (2, END),
    *_to_luxury_tax(3), *_to_luxury_tax(1), (2, ROLL_1_2), (2, {"type": "bankrupt"}))
# Three players: Bob buys Baltic Avenue, mortgages it and goes bankrupt to Ann, who receives it
# with his last $1,470 and must settle the mortgage.
BOB_BANKRUPT_TO_ANN = ((1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}),
                       (2, {"type": "roll", "dice": [1, 2]}), (2, {"type": "buy"}),
                       (2, {"type": "mortgage", "square": 3}), (2, {"type": "pay", "to": 1, "amount": 2000}),
                       (2, {"type": "bankrupt"}))
SCENARIOS = {
    "opening_roll": Scenario(
        {"type": "opening_roll", "dice": [3, 4]}, lobby=True,
        done=lambda s: seat(s, 1)["opening_rolls"] == [7], says="Ann rolled 7 for the seat order."),
    "start_in_order": Scenario(
        {"type": "start", "order": [2, 1]}, lobby=True, banker_only=True, seatless=True,
        done=lambda s: s["status"] == "playing" and s["turn"] == 2, says="The game starts. Order: Bob and Ann."),
    "start_by_opening_rolls": Scenario(
        {"type": "start"}, lobby=True, banker_only=True, seatless=True,
        steps=((1, {"type": "opening_roll", "dice": [1, 2]}), (2, {"type": "opening_roll", "dice": [6, 6]})),
        done=lambda s: s["order"] == [2, 1] and s["turn"] == 2, says="The game starts. Order: Bob and Ann."),
    "roll": Scenario(
        {"type": "roll", "dice": [3, 4]},
        done=lambda s: seat(s, 1)["position"] == 7 and s["last_roll"] == [3, 4], says="Ann rolled 3 + 4."),
    "buy": Scenario(
        {"type": "buy"}, steps=(ROLL_TO_BALTIC,),
        done=lambda s: deed(s, 3)["owner"] == 1 and seat(s, 1)["cash"] == 1440,
        says="Ann bought Baltic Avenue for $60."),
    "decline": Scenario(
        {"type": "decline"}, steps=(ROLL_TO_BALTIC,),
        done=lambda s: s["pending"] is None and deed(s, 3)["owner"] is None and s["auction"]["square"] == 3,
        says="Ann declined Baltic Avenue."),
    "pay_player": Scenario(
        {"type": "pay", "to": 2, "amount": 25, "memo": "pizza"},
        done=lambda s: (seat(s, 1)["cash"], seat(s, 2)["cash"]) == (1475, 1525), says="Ann paid Bob $25. (pizza)"),
    "pay_bank": Scenario(
        {"type": "pay", "to": "bank", "amount": 25},
        done=lambda s: (seat(s, 1)["cash"], seat(s, 2)["cash"]) == (1475, 1500), says="Ann paid the bank $25."),
    "bank_pay": Scenario(
        {"type": "bank_pay", "amount": 100, "memo": "card"}, banker_only=True,
        done=lambda s: seat(s, 1)["cash"] == 1600, says="The bank paid Ann $100. (card)"),
    "bank_charge": Scenario(
        {"type": "bank_charge", "amount": 100}, banker_only=True,
        done=lambda s: seat(s, 1)["cash"] == 1400, says="The bank charged Ann $100."),
    "pay_debt": Scenario(
        {"type": "pay_debt"},
        steps=(("banker", {"type": "bank_charge", "player": 1, "amount": 2000}),
               ("banker", {"type": "bank_pay", "player": 1, "amount": 600})),
        done=lambda s: s["debts"] == [] and seat(s, 1)["cash"] == 100, says="Ann paid the bank the $2,000 owed."),
    "pay_jail_fine": Scenario(
        {"type": "pay_jail_fine"},
        steps=(("banker", {"type": "move", "player": 1, "square": 27}), (1, {"type": "roll", "dice": [1, 2]}),
               (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"})),
        done=lambda s: not seat(s, 1)["in_jail"] and seat(s, 1)["cash"] == 1450,
        says="Ann paid the $50 jail fine. Ann leaves jail."),
    "end_turn": Scenario(
        {"type": "end_turn"}, steps=((1, {"type": "roll", "dice": [4, 6]}),),
        done=lambda s: s["turn"] == 2 and not s["rolled"], says="It is Bob's turn."),
    "move": Scenario(
        {"type": "move", "square": 5}, banker_only=True,
        done=lambda s: seat(s, 1)["position"] == 5, says="The banker put Ann on Reading Railroad."),
    "undo": Scenario(
        {"type": "undo"}, banker_only=True, seatless=True,
        steps=((1, {"type": "pay", "to": 2, "amount": 25}),),
        done=lambda s: (seat(s, 1)["cash"], seat(s, 2)["cash"]) == (1500, 1500), says="The banker undid"),
    # Buildings and mortgages. BROWN: the banker puts Ann on Boardwalk; she rolls doubles twice,
    # buying Mediterranean Avenue (passing GO) and Baltic Avenue: 1500 + 200 - 60 - 60 = 1580.
    "build": Scenario(
        {"type": "build", "square": 3}, steps=BROWN,
        done=lambda s: deed(s, 3)["houses"] == 1 and seat(s, 1)["cash"] == 1530 and s["bank"]["houses"] == 31,
        says="Ann built a house on Baltic Avenue for $50."),
    "sell_building": Scenario(
        {"type": "sell_building", "square": 3}, steps=(*BROWN, (1, {"type": "build", "square": 3})),
        done=lambda s: deed(s, 3)["houses"] == 0 and seat(s, 1)["cash"] == 1555 and s["bank"]["houses"] == 32,
        says="Ann sold a house on Baltic Avenue for $25."),
    "set_buildings": Scenario(
        {"type": "set_buildings", "levels": {"1": 2, "3": 2}}, steps=BROWN,
        done=lambda s: [deed(s, q)["houses"] for q in (1, 3)] == [2, 2] and seat(s, 1)["cash"] == 1380,
        says="Ann paid $200 for buildings on the Brown group."),
    "mortgage": Scenario(
        {"type": "mortgage", "square": 3}, steps=BALTIC,
        done=lambda s: deed(s, 3)["mortgaged"] and seat(s, 1)["cash"] == 1470,
        says="Ann mortgaged Baltic Avenue for $30."),
    "unmortgage": Scenario(
        {"type": "unmortgage", "square": 3}, steps=(*BALTIC, (1, {"type": "mortgage", "square": 3})),
        done=lambda s: not deed(s, 3)["mortgaged"] and seat(s, 1)["cash"] == 1437,
        says="Ann repaid the mortgage on Baltic Avenue for $33."),
    # Auctions: Ann declines Baltic Avenue, which opens auction 1 (Ann and Bob bidding).
    "bid": Scenario(
        {"type": "bid", "amount": 10}, steps=AUCTION,
        done=lambda s: (s["auction"] or {}).get("high_bidder") == 1 and s["auction"]["high_bid"] == 10,
        says="Ann bids $10."),
    "pass": Scenario(
        {"type": "pass"}, steps=(*AUCTION, (2, {"type": "bid", "amount": 10})),
        done=lambda s: s["auction"] is None and deed(s, 3)["owner"] == 2 and seat(s, 2)["cash"] == 1490,
        says="Ann passes. Bob wins Baltic Avenue for $10."),
    "close_auction": Scenario(
        {"type": "close_auction", "high_bid": 10}, banker_only=True, seatless=True,
        steps=(*AUCTION, (1, {"type": "bid", "amount": 10})),
        done=lambda s: s["auction"] is None and deed(s, 3)["owner"] == 1 and seat(s, 1)["cash"] == 1490,
        says="Ann wins Baltic Avenue for $10."),
    "auction_building": Scenario(
        {"type": "auction_building", "building": "house"}, banker_only=True, seatless=True, steps=BROWN,
        done=lambda s: (s["auction"] or {}).get("building") == "house" and s["auction"]["bidders"] == [1],
        says="The bank auctions one house."),
    # Trades: trade 1 is the first offer of a game with no auction or debt before it.
    "offer_trade": Scenario(
        {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}}, steps=BALTIC,
        done=lambda s: [(t["offerer"], t["to"], t["give"]["squares"], t["get"]["cash"]) for t in s["trades"]]
        == [(1, 2, [3], 100)],
        says="Ann offers Bob a trade."),
    "accept_trade": Scenario(
        {"type": "accept_trade", "trade": 1}, steps=(*BALTIC, BOB_BIDS_100),
        done=lambda s: s["trades"] == [] and deed(s, 3)["owner"] == 2 and (seat(s, 1)["cash"], seat(s, 2)["cash"])
        == (1540, 1400),
        says="Trade done: Bob gives $100; Ann gives Baltic Avenue."),
    "reject_trade": Scenario(
        {"type": "reject_trade", "trade": 1}, steps=(*BALTIC, BOB_BIDS_100),
        done=lambda s: s["trades"] == [] and deed(s, 3)["owner"] == 1 and seat(s, 2)["cash"] == 1500,
        says="Ann rejected Bob's offer."),
    "withdraw_trade": Scenario(
        {"type": "withdraw_trade", "trade": 1},
        steps=(*BALTIC, (1, {"type": "offer_trade", "to": 2, "give": {"squares": [3]}, "get": {"cash": 100}})),
        done=lambda s: s["trades"] == [] and deed(s, 3)["owner"] == 1,
        says="Ann withdrew the offer to Bob."),
    # Cards, taxes, bankruptcy and the end.
    "draw": Scenario(
        {"type": "draw", "deck": "chance", "card": "ch_dividend"}, steps=(TO_CHANCE,),
        done=lambda s: s["pending"] is None and seat(s, 1)["cash"] == 1550,
        says="Ann drew “Bank pays you dividend of $50”."),
    "card_choice": Scenario(  # the French box's « Payez une amende de 10 € ou bien tirez une carte Chance »
        {"type": "card_choice", "choice": "draw"}, rules={"cards": "fr"},
        steps=(TO_CHEST, (1, {"type": "draw", "deck": "chest", "card": "cc_fine_or_chance"})),
        done=lambda s: s["pending"] == {"kind": "draw", "player": 1, "deck": "chance", "square": 2},
        says="Ann draws a Chance card."),
    "utility_roll": Scenario(
        {"type": "utility_roll", "dice": [2, 3]}, steps=NEAREST_UTILITY,
        done=lambda s: s["pending"] is None and (seat(s, 1)["cash"], seat(s, 2)["cash"]) == (1450, 1540),
        says="Ann paid Bob $50 rent for Electric Company (10 × 5)."),
    "use_jail_card": Scenario(
        {"type": "use_jail_card", "card": "cc21_rescue_puppy"}, steps=JAILED_WITH_CARD,
        done=lambda s: not seat(s, 1)["in_jail"] and seat(s, 1)["jail_cards"] == [] and seat(s, 1)["cash"] == 1500,
        says="Ann used a Get Out of Jail Free card and leaves jail."),
    "income_tax": Scenario(
        {"type": "income_tax", "choice": "percent"}, steps=((1, {"type": "roll", "dice": [1, 3]}),),
        rules={"income_tax": "choice"},
        done=lambda s: s["pending"] is None and seat(s, 1)["cash"] == 1350, says="Ann paid $150 Income Tax."),
    "bankrupt": Scenario(
        {"type": "bankrupt"}, steps=(ANN_OWES_BOB,), players=3,
        done=lambda s: seat(s, 1)["bankrupt"] and seat(s, 2)["cash"] == 3000 and s["debts"] == []
        and s["turn"] == 2 and s["status"] == "playing",
        says="Ann is bankrupt; everything goes to Bob."),
    "receive_deeds": Scenario(
        {"type": "receive_deeds", "lift": [3]}, steps=BOB_BANKRUPT_TO_ANN, players=3,
        done=lambda s: s["pending"] is None and deed(s, 3)["owner"] == 1 and not deed(s, 3)["mortgaged"]
        and seat(s, 1)["cash"] == 1500 + 1470 - 33,
        says="Ann repaid the mortgage on Baltic Avenue for $33."),
    "claim_deeds": Scenario(
        {"type": "claim_deeds", "choice": "take"}, steps=BOB_BANKRUPT_OVER_THE_FINE, players=3, rules={"preset": "jma"},
        done=lambda s: deed(s, 3)["owner"] == 1 and seat(s, 1)["cash"] == 910 and s["pending"]["kind"] == "inherit",
        says="Ann paid the bank the $50 jail fine to take the bankrupt's deeds."),
    "last_turn": Scenario(
        {"type": "last_turn"}, banker_only=True, seatless=True, steps=((1, {"type": "roll", "dice": [4, 6]}),),
        done=lambda s: s["last_turn"] and s["status"] == "playing",
        says="Last turn: the game ends once everyone has had as many turns as the first player."),
    "end_game": Scenario(
        {"type": "end_game"}, banker_only=True, seatless=True, steps=((1, {"type": "pay", "to": 2, "amount": 25}),),
        done=lambda s: s["status"] == "ended" and [w["player"] for w in s["standings"]] == [2, 1],
        says="The game is over: Bob wins!"),
    "seed_jackpot": Scenario(
        {"type": "seed_jackpot", "amount": 100}, banker_only=True, seatless=True,
        rules={"free_parking_jackpot": True},
        done=lambda s: s["free_parking"] == 100, says="The banker put $100 into the Free Parking pot."),
}
SEAT_ACTIONS = [name for name, s in SCENARIOS.items() if not s.banker_only]
BANKER_ONLY = [name for name, s in SCENARIOS.items() if s.banker_only]


def play(game: Game, *steps) -> Game:
    """Send (who, action) steps through the API, each of which must be applied."""
    for who, action in steps:
        game.ok(who, **action)
    return game


def on_board(edition: str, scenario: Scenario) -> tuple[dict | None, tuple, dict]:
    """A scenario played on another board: its rules, its steps and its action as the banker sends
    it, each card it draws (named by its US id) replaced by the card of the same deck and effect in
    that board's own decks; where they have none (the French and Portuguese decks have no "nearest
    utility"), the game plays with the US cards."""
    if scenario.rules and "cards" in scenario.rules:  # the scenario names the printing it plays
        return scenario.rules, scenario.steps, scenario.by_banker()
    us = printing_decks("us_2021")
    own = printing_decks(printing(Settings.parse(scenario.rules, load_board(edition).settings)))

    def twin(action: dict) -> dict | None:
        if "card" not in action:
            return action
        deck = "chance" if action.get("deck") == "chance" or action["card"].startswith("ch_") else "chest"
        effect = next(c["effect"] for c in us[deck] if c["id"] == action["card"])
        same = [c["id"] for c in own[deck] if c["effect"] == effect]
        return {**action, "card": same[0]} if same else None

    steps = tuple((who, twin(action)) for who, action in scenario.steps)
    action = twin(scenario.by_banker())
    if action is None or any(a is None for _, a in steps):
        return {**(scenario.rules or {}), "cards": "us_2021"}, scenario.steps, scenario.by_banker()
    return scenario.rules, steps, action


def ready(client, name: str) -> Game:
    """A new game brought to the scenario's situation through the API."""
    scenario = SCENARIOS[name]
    game = new_game(client, players=scenario.players, start=not scenario.lobby, rules=scenario.rules)
    for who, action in scenario.steps:
        game.ok(who, **action)
    assert not scenario.done(game.state())
    return game


def csrf_token(client, path: str) -> str:
    """The CSRF token of a page's forms, as the browser showing it has it."""
    html = client.get(path, follow_redirects=True).get_data(as_text=True)
    found = CSRF.search(html) or re.search(r'"X-CSRFToken": "([^"]+)"', html)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def messages(html: str) -> str:
    """The text of a page's message area: what the last form did, or why it was refused."""
    return unescape(html.split('<div id="message"', 1)[1].split("</div>", 1)[0])


def form(action: dict, csrf: str | None, nonce: str | None = None) -> dict:
    """An action dict as a page's form fields: dice as die1/die2, an order as pos-<id>, a fresh nonce."""
    fields = {"nonce": nonce or secrets.token_urlsafe(16)}
    if csrf:
        fields["csrf_token"] = csrf
    for key, value in action.items():
        if key == "dice":
            fields["die1"], fields["die2"] = (str(d) for d in value)
        elif key == "order":
            fields.update({f"pos-{pid}": str(place) for place, pid in enumerate(value, 1)})
        elif key == "levels":
            fields.update({f"level-{square}": str(level) for square, level in value.items()})
        elif key in ("give", "get"):
            fields[f"{key}_cash"] = str(value.get("cash", ""))
            fields[f"{key}_squares"] = [str(s) for s in value.get("squares", [])]
            fields[f"{key}_cards"] = list(value.get("jail_cards", []))
        elif key == "lift":
            fields["lift"] = [str(s) for s in value]
        else:
            fields[key] = str(value)
    return fields


@dataclass
class PageForm:
    """A <form> as a page shows it: where it posts, its fields as a browser sends them (a select
    sends its selected option), its checkboxes (name, value, checked), its buttons (text,
    disabled, title) and each select's options (value list by name)."""

    action: str
    classes: str = ""
    attrs: dict = field(default_factory=dict)
    fields: list = field(default_factory=list)
    boxes: list = field(default_factory=list)
    buttons: list = field(default_factory=list)
    choices: dict = field(default_factory=dict)

    def get(self, name: str) -> str | None:
        return next((v for n, v in self.fields if n == name), None)

    @property
    def type(self) -> str | None:
        return self.get("type")

    @property
    def label(self) -> str:
        return self.buttons[0][0] if self.buttons else ""

    @property
    def disabled(self) -> bool:
        return bool(self.buttons) and self.buttons[0][1]

    @property
    def title(self) -> str | None:
        return self.buttons[0][2] if self.buttons else None

    def data(self, check=(), **typed) -> dict:
        """What submitting it sends: every field (`typed` fills some in), the checkboxes already
        checked and those whose value is in `check`."""
        sent: dict[str, list] = {}
        for name, value in self.fields:
            sent.setdefault(name, []).append(str(typed.get(name, value)))
        for name, value, checked in self.boxes:
            if checked or value in {str(c) for c in check}:
                sent.setdefault(name, []).append(value)
        return sent

    def box(self, name: str, value) -> bool:
        """Whether the form has that checkbox."""
        return any(n == name and v == str(value) for n, v, _ in self.boxes)


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[PageForm] = []
        self.current: PageForm | None = None
        self.button: list | None = None
        self.select: dict | None = None
        self.option: list | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = PageForm(a.get("action") or "", a.get("class") or "", a)
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "select" and a.get("name"):
            self.select = {"name": a["name"], "options": [], "selected": None}
        elif tag == "option" and self.select is not None:
            # [value, disabled]; an option without a value sends its text
            self.option = [a.get("value"), "disabled" in a]
            self.select["options"].append(self.option)
            if "selected" in a:
                self.select["selected"] = self.option
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio"):
                self.current.boxes.append((a["name"], a.get("value", "on"), "checked" in a))
            else:
                self.current.fields.append((a["name"], a.get("value") or ""))
        elif tag == "button":
            self.button = ["", "disabled" in a, a.get("title")]

    def handle_data(self, data):
        if self.button is not None:
            self.button[0] += data
        if self.option is not None and self.option[0] is None:
            self.option[0] = data.strip()

    def handle_endtag(self, tag):
        if tag == "option":
            self.option = None
        elif tag == "select" and self.select is not None and self.current is not None:
            # A browser sends the selected option (else the first enabled one), nothing for a disabled one.
            options = self.select["options"]
            self.current.choices[self.select["name"]] = [v for v, disabled in options if not disabled]
            chosen = self.select["selected"] or next((o for o in options if not o[1]), None)
            if chosen and not chosen[1]:
                self.current.fields.append((self.select["name"], chosen[0]))
            self.select = None
        elif tag == "button" and self.button is not None and self.current is not None:
            self.current.buttons.append((" ".join(self.button[0].split()), self.button[1], self.button[2]))
            self.button = None
        elif tag == "form":
            self.current = None


def page_forms(html: str, type: str | None = None, **fields) -> list[PageForm]:
    """The forms of a page (those of one action type, with these hidden field values, if asked)."""
    parser = _FormParser()
    parser.feed(html)
    return [f for f in parser.forms
            if (type is None or f.type == type) and all(f.get(k) == str(v) for k, v in fields.items())]


def page_form(html: str, type: str, **fields) -> PageForm:
    """The one form of that type (and hidden values) on the page."""
    found = page_forms(html, type, **fields)
    assert len(found) == 1, f"{len(found)} {type} forms with {fields}"
    return found[0]


@dataclass
class Browser:
    """A test client standing for one screen (the host's laptop or a phone) with its CSRF token."""

    client: object
    code: str
    home: str

    @cached_property
    def csrf(self) -> str:
        """Read off the screen when first needed: a test that only reads pages never pays for it."""
        return csrf_token(self.client, self.home)

    def post(self, action: dict, htmx: bool = False, nonce: str | None = None, csrf: bool = True,
             path: str | None = None):
        """Submit an action form as a plain form, or as htmx does (with the HX-Request header)."""
        return self.client.post(path or f"{self.home}/act", data=form(action, self.csrf if csrf else None, nonce),
                                headers=HTMX if htmx else {})

    def submit(self, page_form: PageForm, htmx: bool = False, check=(), **typed):
        """Submit a form as the page shows it (its own nonce), ticking the checkboxes in `check`
        and typing `typed` into its fields."""
        return self.client.post(page_form.action, data=page_form.data(check, **typed),
                                headers=HTMX if htmx else {})

    def page(self, path: str | None = None) -> str:
        response = self.client.get(path or self.home)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def live(self, seen: int = -1, headers: dict | None = None) -> list["LiveEvent"]:
        """Open the screen's live connection as a page at version `seen` does (-1: a page that shows
        nothing yet) and read what it sends before it has to wait for a change: the events up to the
        first that carries data, or up to its first keep-alive comment (then none)."""
        response = self.client.get(f"{self.home}/live?v={seen}", headers=headers or {}, buffered=False)
        assert response.status_code == 200, response.status_code
        assert response.mimetype == "text/event-stream"
        try:
            return read_events(response.response)
        finally:
            response.close()

    def pushed(self) -> str:
        """Every part of the screen as its live connection pushes them to a page that shows nothing."""
        events = self.live()
        assert [e.name for e in events] == ["update"], events
        return events[0].data


@dataclass
class LiveEvent:
    """One Server-Sent Event: its id, name and data."""

    id: str | None
    name: str
    data: str


def read_events(chunks) -> list[LiveEvent]:
    """Parse an event stream until an event with data (or a comment: the stream has nothing more to
    say now); events without data only move the id on, so they are kept too."""
    events, buffer = [], ""
    for chunk in chunks:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            lines = block.split("\n")
            if all(line.startswith(":") for line in lines):
                return events
            fields: dict[str, list[str]] = {}
            for line in lines:
                name, _, value = line.partition(": ")
                fields.setdefault(name, []).append(value)
            if "retry" in fields:
                continue
            event = LiveEvent(fields.get("id", [None])[0], fields.get("event", ["message"])[0],
                              "\n".join(fields.get("data", [])))
            events.append(event)
            if event.data:
                return events
    return events


def rejoin_address(banker: Browser, pid: int) -> str:
    """The address of a fresh rejoin code for a seat, as the host screen shows it."""
    made = banker.client.post(f"/t/{banker.code}/seats/{pid}/rejoin", data={"csrf_token": banker.csrf})
    assert made.status_code == 303, made.status_code
    response = banker.client.get(made.headers["Location"])
    return unescape(re.search(r'<p class="url">([^<]+)</p>', response.get_data(as_text=True)).group(1))


def take_seat(client, address: str):
    """Open a rejoin address on a phone and tap "Take this seat"; returns the answer to the tap."""
    opened = client.get(address)
    assert opened.status_code == 200, opened.get_data(as_text=True)
    [take] = page_forms(opened.get_data(as_text=True))
    return client.post(take.action, data=take.data())
