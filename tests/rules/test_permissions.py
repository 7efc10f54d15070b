"""Who may take which action, decided where the rules decide it: for every declared action, in a
situation where it is legal for Ann (seat 1), the banker and Ann herself may take it for her seat,
Bob may not, only the banker takes the banker's actions, and a newcomer may only join.

The actions and who may take each come from their declarations (rules/actions/): an action declared
without a situation here fails the first test.
"""

import pytest

from banker.rules import ACTIONS, NotAllowed, RuleError, Settings
from banker.rules.declaration import Who

from . import ANN, BANKER, BOB, BROWN, GUEST, act, lobby, owning, place, play, refusal, started
from .test_cards import next_turn
from .test_edition_cards import choosing

JACKPOT = Settings(free_parking_jackpot=True)
TAX_CHOICE = Settings(income_tax="choice")
JMA = Settings.parse({"preset": "jma"})


def rolled():
    """Ann rolled 4 + 6 onto Jail, just visiting: her turn may end."""
    return play(started(), ANN, "roll", dice=[4, 6])


def on_baltic():
    """Ann rolled 1 + 2 onto Baltic Avenue (3), unowned: she may buy or decline it."""
    return play(started(), ANN, "roll", dice=[1, 2])


def baltic_auctioned():
    """Ann declined Baltic Avenue: it is up for auction, Ann and Bob bidding."""
    return play(on_baltic(), ANN, "decline")


def baltic(mortgaged=()):
    """Ann holds Baltic Avenue (mortgaged if asked)."""
    return owning(started(), ANN, 3, mortgaged=mortgaged)


def brown():
    """Ann holds the Brown group: she may build on it."""
    return owning(started(), ANN, *BROWN)


def bob_bids_for_baltic():
    """Bob offers Ann 100 for Baltic Avenue: trade 1."""
    return play(baltic(), BOB, "offer_trade", to=ANN, give={"cash": 100}, get={"squares": [3]})


def in_jail():
    """Ann's turn, in jail since her last one (Go to Jail, 30), before she rolls."""
    return next_turn(play(place(started(), ANN, 27), ANN, "roll", dice=[1, 2]))


def in_jail_with_a_card():
    """Ann's turn, in jail, holding Community Chest's Get Out of Jail Free card."""
    state = in_jail()
    state.player(ANN).jail_cards.append("cc21_rescue_puppy")  # (test set-up: she kept the card)
    return state


def sent_to_bobs_utility():
    """Bob holds Electric Company (12); Ann drew "advance to the nearest utility" on Chance (7):
    she rolls again for its rent."""
    state = play(place(owning(started(), BOB, 12), ANN, 4), ANN, "roll", dice=[1, 2])
    return play(state, ANN, "draw", deck="chance", card="ch_nearest_utility")


def owing_the_bank():
    """The bank charged Ann 2,000 (a debt) and then paid her 600: she has the cash to pay it."""
    state = play(started(), BANKER, "bank_charge", player=ANN, amount=2000)
    return play(state, BANKER, "bank_pay", player=ANN, amount=600)


def bob_bankrupt_to_ann():
    """Three players: Bob, holding Baltic Avenue mortgaged, goes bankrupt to Ann, who settles its
    mortgage."""
    state = play(owning(started(3), BOB, 3, mortgaged=[3]), BOB, "pay", to=ANN, amount=2000)
    return play(state, BOB, "bankrupt")


def bob_bankrupt_over_the_fine():
    """Tournament rules, three players: Bob, with 20 and only mortgaged deeds, misses doubles a
    third time in jail towards States Avenue (13), Ann's, and goes bankrupt over the fine: Ann may
    take his deeds for it."""
    state = owning(owning(started(3, JMA), ANN, 13), BOB, 5, 39, mortgaged=[5, 39])
    state = play(next_turn(state, BOB), BANKER, "move", player=BOB, square=10)
    state.player(BOB).in_jail = True  # (test set-up: sent to jail)
    state = play(state, BANKER, "bank_charge", player=BOB, amount=1480)
    for _ in range(2):
        state = next_turn(play(state, BOB, "roll", dice=[1, 2]), BOB)
    return play(play(state, BOB, "roll", dice=[1, 2]), BOB, "bankrupt")


# For each action: the situation in which Ann (or, for join, a newcomer) may take it, and its fields.
SITUATIONS = {
    "join": (lambda: lobby(2), {"name": "Cy", "token": "dog"}),
    "opening_roll": (lambda: lobby(2), {"dice": [3, 4]}),
    "fix_seats": (lambda: lobby(2), {}),
    "start": (lambda: lobby(2), {"order": [BOB, ANN]}),
    "roll": (started, {"dice": [3, 4]}),
    "buy": (on_baltic, {}),
    "decline": (on_baltic, {}),
    "pay_jail_fine": (in_jail, {}),
    "use_jail_card": (in_jail_with_a_card, {"card": "cc21_rescue_puppy"}),
    "end_turn": (rolled, {}),
    "draw": (lambda: play(started(), ANN, "roll", dice=[3, 4]), {"deck": "chance", "card": "ch_dividend"}),
    "card_choice": (choosing, {"choice": "pay"}),
    "utility_roll": (sent_to_bobs_utility, {"dice": [2, 3]}),
    "income_tax": (lambda: play(started(2, TAX_CHOICE), ANN, "roll", dice=[1, 3]), {"choice": "percent"}),
    "pay": (started, {"to": BOB, "amount": 25, "memo": "pizza"}),
    "pay_debt": (owing_the_bank, {}),
    "bank_pay": (started, {"amount": 100, "memo": "card"}),
    "bank_charge": (started, {"amount": 100}),
    "seed_jackpot": (lambda: started(2, JACKPOT), {"amount": 100}),
    "move": (started, {"square": 5}),
    "build": (brown, {"square": 3}),
    "sell_building": (lambda: play(brown(), ANN, "build", square=3), {"square": 3}),
    "set_buildings": (brown, {"levels": {"1": 2, "3": 2}}),
    "mortgage": (baltic, {"square": 3}),
    "unmortgage": (lambda: baltic(mortgaged=[3]), {"square": 3}),
    "bid": (baltic_auctioned, {"amount": 10}),
    "pass": (lambda: play(baltic_auctioned(), BOB, "bid", amount=10), {}),
    "close_auction": (lambda: play(baltic_auctioned(), ANN, "bid", amount=10), {"high_bid": 10}),
    "auction_building": (brown, {"building": "house"}),
    "offer_trade": (baltic, {"to": BOB, "give": {"squares": [3]}, "get": {"cash": 100}}),
    "accept_trade": (bob_bids_for_baltic, {"trade": 1}),
    "reject_trade": (bob_bids_for_baltic, {"trade": 1}),
    "withdraw_trade": (lambda: play(baltic(), ANN, "offer_trade", to=BOB, give={"squares": [3]}), {"trade": 1}),
    "bankrupt": (lambda: play(started(3), ANN, "pay", to=BOB, amount=2000), {}),
    "claim_deeds": (bob_bankrupt_over_the_fine, {"choice": "take"}),
    "receive_deeds": (bob_bankrupt_to_ann, {"lift": [3]}),
    "last_turn": (started, {}),
    "round_clock": (started, {"paused_left": 600}),
    "end_game": (started, {}),
}
SEAT_ACTIONS = [name for name, cls in ACTIONS.items() if cls.who is Who.SEAT]
BANKER_ONLY = [name for name, cls in ACTIONS.items() if cls.who.banker_only]
NEWCOMER_ACTIONS = [name for name, cls in ACTIONS.items() if cls.who is Who.NEWCOMER]


def situation(name: str) -> tuple:
    """The state in which the action is legal for Ann, and its fields naming her seat (an action
    that names no seat is sent as it is)."""
    make, fields = SITUATIONS[name]
    return make(), fields if ACTIONS[name].who.seatless else {**fields, "player": ANN}


def test_every_declared_action_has_a_situation():
    assert sorted(SITUATIONS) == sorted(ACTIONS)


@pytest.mark.parametrize("name", list(ACTIONS))
def test_the_banker_may_take_every_action_for_anns_seat(name):
    state, fields = situation(name)
    assert act(state, BANKER, name, **fields)[1]


@pytest.mark.parametrize("name", SEAT_ACTIONS)
def test_ann_may_take_her_own_seats_actions_with_the_same_outcome_as_the_banker(name):
    state, fields = situation(name)
    hers, her_effects = act(state, ANN, name, **fields)
    bankers, banker_effects = act(state, BANKER, name, **fields)
    assert hers.to_dict() == bankers.to_dict() and her_effects == banker_effects


@pytest.mark.parametrize("name", SEAT_ACTIONS)
def test_another_player_may_not_act_for_anns_seat(name):
    state, fields = situation(name)
    assert refusal(state, BOB, name, NotAllowed, **fields).code == "not_your_seat"


@pytest.mark.parametrize("who", [ANN, BOB, GUEST], ids=["Ann", "Bob", "newcomer"])
@pytest.mark.parametrize("name", BANKER_ONLY)
def test_only_the_banker_may_take_the_bankers_actions(name, who):
    state, fields = situation(name)
    assert refusal(state, who, name, NotAllowed, **fields).code == "banker_only"


@pytest.mark.parametrize("name", list(ACTIONS))
def test_a_newcomer_may_only_join(name):
    state, fields = situation(name)
    if name in NEWCOMER_ACTIONS:
        assert act(state, GUEST, name, **fields)[1]
    else:
        refusal(state, GUEST, name, NotAllowed, **fields)


@pytest.mark.parametrize("who", [ANN, BOB], ids=["Ann", "Bob"])
@pytest.mark.parametrize("name", NEWCOMER_ACTIONS)
def test_a_seated_player_may_not_join_again(name, who):
    state, fields = situation(name)
    assert refusal(state, who, name, RuleError, **fields).code == "already_seated"
