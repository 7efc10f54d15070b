"""Undo: the banker takes back the newest action, repeatedly; nothing is deleted, the history strikes it through."""

import random
import re
from html import unescape

import pytest

from banker import store
from banker.rules import GameState

from ..evenings import next_move
from .games import BROWN, SCENARIOS, TO_CHANCE, deed, new_game, page_form, page_forms, play, ready, seat

SEQUENCE = [
    (1, {"type": "roll", "dice": [1, 2]}),          # Ann to Baltic Avenue, offered
    (1, {"type": "buy"}),                           # Ann owns Baltic
    (1, {"type": "end_turn"}),                      # Bob's turn
    (2, {"type": "roll", "dice": [1, 2]}),          # Bob pays Ann rent
    ("banker", {"type": "bank_charge", "player": 2, "amount": 5000}),  # Bob owes the bank
    ("banker", {"type": "move", "player": 1, "square": 39}),
    (1, {"type": "pay", "to": 2, "amount": 100, "memo": "deal"}),
]


def without_version(state: dict) -> dict:
    """The state less what the moment decides: its version, and an open auction's deadline (an undo
    restarts the countdown: countdown.py)."""
    shown = {k: v for k, v in state.items() if k != "version"}
    if shown["auction"]:
        shown["auction"] = {k: v for k, v in shown["auction"].items() if k != "closes_at"}
    return shown


def test_repeated_undo_restores_money_deeds_positions_turn_and_debts_exactly(game):
    snapshots = []
    for who, action in SEQUENCE:
        snapshots.append(without_version(game.state()))
        game.ok(who, **action)
    assert game.state()["debts"] and seat(game.state(), 1)["position"] == 39

    for expected in reversed(snapshots):
        body = game.ok("banker", type="undo", state=True)
        assert body["events"][0]["kind"] == "undone"
        assert without_version(body["state"]) == expected
        assert without_version(game.state()) == expected

    state = game.state()
    assert state["turn"] == 1 and state["debts"] == [] and not state["rolled"]
    assert [p["cash"] for p in state["players"]] == [1500, 1500]
    assert all(d["owner"] is None for d in state["deeds"])


NEW_ACTIONS = ["decline", "bid", "pass", "close_auction", "auction_building", "build", "sell_building",
               "set_buildings", "mortgage", "unmortgage", "offer_trade", "accept_trade", "reject_trade",
               "withdraw_trade", "draw", "utility_roll", "use_jail_card", "income_tax", "bankrupt",
               "receive_deeds", "end_game", "seed_jackpot"]


@pytest.mark.parametrize("name", NEW_ACTIONS)
def test_undoing_a_new_action_restores_the_state_exactly(client, name):
    scenario = SCENARIOS[name]
    game = ready(client, name)
    before = without_version(game.state())
    game.ok("banker", **scenario.by_banker())
    assert scenario.done(game.state())
    game.ok("banker", type="undo")
    assert without_version(game.state()) == before


def test_undo_walks_back_builds_bids_a_close_and_a_trade_exactly(client):
    """An evening's worth of the new actions, then undo after undo: each snapshot comes back in turn."""
    game = new_game(client, players=3)
    play(game, *BROWN)
    sequence = [
        (1, {"type": "set_buildings", "levels": {"1": 1, "3": 2}}),
        (1, {"type": "build", "square": 1}),
        (1, {"type": "roll", "dice": [2, 3]}),              # Vermont Avenue, declined: auction
        (1, {"type": "decline"}),
        (2, {"type": "bid", "amount": 40}),
        (3, {"type": "bid", "amount": 75}),
        (1, {"type": "pass"}),
        ("banker", {"type": "close_auction", "high_bid": 75}),  # Cy wins Vermont for 75
        (3, {"type": "mortgage", "square": 8}),
        (3, {"type": "offer_trade", "to": 2, "give": {"squares": [8]}, "get": {"cash": 120}}),
        (2, {"type": "accept_trade", "trade": 2, "lift": [8]}),  # ids: auction 1, trade 2
        (1, {"type": "sell_building", "square": 3}),
    ]
    snapshots = []
    for who, action in sequence:
        snapshots.append(without_version(game.state()))
        game.ok(who, **action)
    state = game.state()
    assert seat(state, 3)["cash"] == 1500 - 75 + 50 + 120
    assert deed_of(state, 8) == (2, False) and seat(state, 2)["cash"] == 1500 - 120 - 55
    for expected in reversed(snapshots):
        game.ok("banker", type="undo")
        assert without_version(game.state()) == expected


def test_undo_walks_back_cards_a_bankruptcy_to_the_bank_its_auction_and_the_end_exactly(client, host):
    """Three players: cards, a bankruptcy to the bank (a house sold back, deeds queued for auction),
    a bid, the last player left winning; each undo brings the previous snapshot back."""
    game = new_game(client, players=3)
    play(game, *BROWN, (1, {"type": "build", "square": 3}))
    sequence = [
        (1, {"type": "roll", "dice": [1, 3]}),              # Baltic Avenue to Chance (7)
        (1, {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"}),
        (1, {"type": "pay", "to": "bank", "amount": 1800}),  # more than everything: a debt to the bank
        (1, {"type": "bankrupt"}),                          # card back to the deck, auction of Mediterranean
        (2, {"type": "bid", "amount": 20}),
        (3, {"type": "pass"}),                              # Bob wins it; Baltic Avenue is next
        (3, {"type": "pay", "to": 2, "amount": 2000}),
        (3, {"type": "bankrupt"}),                          # Cy to Bob: Bob is the last one left
    ]
    snapshots = []
    for who, action in sequence:
        snapshots.append(without_version(game.state()))
        game.ok(who, **action)
    state = game.state()
    assert state["status"] == "ended" and state["auction"] is None and state["standings"][0]["player"] == 2
    middle = snapshots[4]
    assert middle["auction"]["square"] == 1 and middle["auction_queue"] == [3] and middle["bank"]["houses"] == 32
    assert seat(middle, 1)["jail_cards"] == [] and seat(middle, 1)["bankrupt"]
    assert seat(snapshots[3], 1)["jail_cards"] == ["ch_get_out_of_jail_free"] and snapshots[3]["bank"]["houses"] == 31
    for expected in reversed(snapshots):
        game.ok("banker", type="undo")
        assert without_version(game.state()) == expected
    assert 'class="standings"' not in host(game).page()


def test_undoing_the_end_reopens_the_game_where_it_was(game, host, phone):
    play(game, TO_CHANCE)
    before = without_version(game.state())
    game.ok("banker", type="end_game")
    assert 'class="standings"' in phone(game, 1).page()
    game.ok("banker", type="undo")
    assert without_version(game.state()) == before
    page = phone(game, 1).page()
    assert 'class="standings"' not in page and 'worth-chart' not in page
    assert "Draw the top Chance card" in page
    game.ok(1, type="draw", deck="chance", card="ch_dividend")
    assert game.cash() == {1: 1550, 2: 1500}


def deed_of(state: dict, square: int) -> tuple:
    found = next(d for d in state["deeds"] if d["square"] == square)
    return found["owner"], found["mortgaged"]


def test_undone_entries_stay_in_the_history_marked_undone(game, host):
    for who, action in SEQUENCE[:4]:
        game.ok(who, **action)
    for _ in range(2):
        game.ok("banker", type="undo")

    events = game.events()
    by_type = [(e["type"], e["undone"]) for e in events]
    assert by_type[-6:] == [("roll", False), ("buy", False), ("end_turn", True), ("roll", True),
                            ("undo", False), ("undo", False)]
    assert [e["action"]["seq"] for e in events if e["type"] == "undo"] == [events[-3]["seq"], events[-4]["seq"]]

    page = unescape(host(game).page())
    struck = re.findall(r"<del>(.*?)</del>", page, re.S)
    assert any("It is Bob's turn." in text for text in struck)
    assert any("Bob rolled 1 + 2." in text for text in struck)
    assert not any("Ann bought Baltic Avenue" in text for text in struck)
    assert "Ann bought Baltic Avenue for $60." in page


def test_the_host_undo_names_what_it_takes_back_and_takes_back_only_that(game, host):
    paid = game.ok(1, type="pay", to=2, amount=25)["version"]
    banker = host(game)
    page = unescape(banker.page())
    assert "Undo: Ann paid Bob $25." in page
    undo = page_form(page, "undo")
    assert undo.get("seq") == str(paid) and undo.label == "Yes, undo it"
    game.ok(2, type="pay", to=1, amount=5)  # meanwhile, before the banker confirms
    answer = banker.submit(undo, htmx=True)
    assert answer.status_code == 422
    assert "Something else happened meanwhile: look at Undo again." in unescape(answer.get_data(as_text=True))
    assert game.cash() == {1: 1480, 2: 1520}
    answer = banker.submit(page_form(unescape(banker.page()), "undo"), htmx=True)
    assert game.cash() == {1: 1475, 2: 1525}
    assert "The banker undid: Bob paid Ann $5." in unescape(answer.get_data(as_text=True))  # the tap's answer too


# A player takes back their own newest action


def test_a_phone_takes_back_its_own_purchase_while_nothing_came_after(game, host, phone):
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}))
    ann, bob = phone(game, 1), phone(game, 2)
    take_back = page_form(ann.page(), "take_back")
    assert take_back.label == "Take back"
    assert 'aria-label="Take back: Ann bought Baltic Avenue for $60."' in unescape(ann.page())
    assert not page_forms(bob.page(), "take_back")
    answer = ann.submit(take_back, htmx=True)
    assert answer.status_code == 200
    assert "Ann took back: Ann bought Baltic Avenue for $60." in unescape(answer.get_data(as_text=True))
    state = game.state()
    assert deed(state, 3)["owner"] is None and state["pending"] == {"kind": "buy", "player": 1, "square": 3}
    assert seat(state, 1)["cash"] == 1500
    assert "Ann took back: Ann bought Baltic Avenue for $60." in unescape(host(game).page())
    assert not page_forms(ann.page(), "take_back")  # a take back is not taken back


def test_a_take_back_is_refused_once_anything_came_after_it(game, phone):
    play(game, (1, {"type": "pay", "to": 2, "amount": 25}))
    ann = phone(game, 1)
    take_back = page_form(ann.page(), "take_back")
    game.ok(2, type="pay", to=1, amount=5)
    assert not page_forms(ann.page(), "take_back")
    answer = ann.submit(take_back, htmx=True)  # a stale page
    assert answer.status_code == 422
    assert "Only your own newest action can be taken back" in unescape(answer.get_data(as_text=True))
    response = game.act(2, type="take_back")  # through the API: Bob's payment is Bob's
    assert response.status_code == 200 and game.cash() == {1: 1475, 2: 1525}
    response = game.act(1, type="take_back")  # an undo came after Ann's payment
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "nothing_to_take_back"
    assert game.act("banker", type="take_back").status_code == 403
    assert game.cash() == {1: 1475, 2: 1525}


def test_there_is_nothing_to_undo_in_a_new_game_and_joins_stay(client):
    game = new_game(client, players=0, start=False)
    response = game.act("banker", type="undo")
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == "There is nothing to undo."
    game.join("Ann", "hat")
    response = game.act("banker", type="undo")
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == "Joining the game cannot be undone."
    assert len(game.state()["players"]) == 1


def test_only_the_banker_can_undo(game):
    game.ok(1, type="pay", to=2, amount=25)
    for who in (1, 2):
        assert game.act(who, type="undo").status_code == 403
    assert game.cash() == {1: 1475, 2: 1525}


def test_the_replayed_log_equals_the_snapshot_after_every_step(app, client):
    """A random-ish evening through the API, undo included: replaying the log always gives the snapshot."""
    game = new_game(client, players=3)
    rng = random.Random(20240611)
    applied = undone = 0
    for _ in range(80):
        who, action = next_move(game.state(), rng)
        response = game.act(who, **action)
        assert response.status_code in (200, 409), response.get_json()
        if response.status_code == 200:
            applied += 1
            undone += action["type"] == "undo"
        with app.app_context():
            saved = store.find_game(game.code)
            assert store.replay_game(saved) == GameState.from_dict(saved.state)
            assert saved.version == response.get_json().get("version", saved.version)
    assert applied > 60 and undone > 3
