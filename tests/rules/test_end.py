"""The end of the game (docs/rules.md, End of the game and net worth): the banker ends it
(a time limit, or the table has had enough) and everyone is ranked by net worth: cash + printed
price of each deed (mortgaged: half) + buildings at cost, a hotel as five houses. After the end
nothing changes the game.

Ownership is arranged with `owning` (a copy of the state); buildings are built with set_buildings.
"""

import pytest

from banker.rules import NotAllowed, RuleError, Settings, legal_actions
from banker.rules.holdings import holdings
from banker.rules.networth import net_worths, worth

from . import (
    ANN, BANKER, BOB, BROWN, CY, DARK_BLUE, Logged, act, funded, lobby, owning, play, refusal,
    set_buildings, started,
)


def mid_game():
    """Three players mid-game:
    Ann: a hotel and 4 houses on brown (9 x 50 = 450 paid), Boardwalk mortgaged (+200): cash 1250,
         deeds 60 + 60 + 400 / 2 = 320, buildings 450: 2020.
    Bob: Reading and Pennsylvania Railroads, Electric Company mortgaged (+75): cash 1575,
         deeds 200 + 200 + 150 / 2 = 475: 2050.
    Cy: cash 1500 only."""
    state = owning(started(3), ANN, *BROWN, 39)
    state = play(set_buildings(state, ANN, {1: 5, 3: 4}), ANN, "mortgage", square=39)
    state = owning(state, BOB, 5, 15, 12)
    return play(state, BOB, "mortgage", square=12)


STANDINGS = [
    {"player": BOB, "cash": 1575, "deeds": 475, "buildings": 0, "total": 2050},
    {"player": ANN, "cash": 1250, "deeds": 320, "buildings": 450, "total": 2020},
    {"player": CY, "cash": 1500, "deeds": 0, "buildings": 0, "total": 1500},
]


def test_the_banker_ends_the_game_and_everyone_is_ranked_by_net_worth():
    state, effects = act(mid_game(), BANKER, "end_game")
    assert state.status == "ended"
    assert state.standings == STANDINGS
    assert {"kind": "ended", "winner": BOB} in effects


@pytest.mark.parametrize("deeds, mortgaged, buildings, parts", [
    ((), (), {}, (1500, 0, 0)),
    ((5,), (5,), {}, (1500 + 100, 100, 0)),                         # mortgaged: half the price
    ((12, 28), (), {}, (1500, 300, 0)),
    (DARK_BLUE, (), {37: 5, 39: 5}, (3500 - 2000, 750, 2000)),      # a hotel is five houses
    (DARK_BLUE, (), {37: 4, 39: 3}, (3500 - 1400, 750, 1400)),
])
def test_net_worth_is_cash_plus_printed_prices_plus_buildings_at_cost(game, deeds, mortgaged, buildings, parts):
    state = owning(game, ANN, *deeds)
    if buildings:
        state = set_buildings(funded(state, ANN, 2000), ANN, buildings)
    for square in mortgaged:
        state = play(state, ANN, "mortgage", square=square)
    cash, deeds_worth, buildings_worth = parts
    assert worth(state, ANN) == {"player": ANN, "cash": cash, "deeds": deeds_worth,
                                 "buildings": buildings_worth, "total": cash + deeds_worth + buildings_worth}
    # Everyone's at once, as the net-worth chart asks after every action: the same totals.
    assert net_worths(state) == {p.id: worth(state, p.id)["total"] for p in state.players}


def test_a_time_limit_game_ends_the_same_way():
    state = play(started(2, Settings(time_limit_minutes=60)), BANKER, "end_game")
    assert state.status == "ended" and [s["total"] for s in state.standings] == [1500, 1500]


def test_only_the_banker_ends_the_game(game):
    assert refusal(game, ANN, "end_game", NotAllowed).code == "banker_only"


def test_ending_twice_is_refused(game):
    state = play(game, BANKER, "end_game")
    assert refusal(state, BANKER, "end_game", RuleError).code == "game_over"


def test_a_game_still_in_its_lobby_cannot_be_ended():
    assert refusal(lobby(2), BANKER, "end_game", RuleError).code == "not_started"


@pytest.mark.parametrize("who, action", [
    (ANN, {"type": "roll", "dice": [1, 2]}),
    (ANN, {"type": "end_turn"}),
    (ANN, {"type": "pay", "to": BOB, "amount": 10}),
    (ANN, {"type": "pay", "to": "bank", "amount": 10}),
    (ANN, {"type": "mortgage", "square": 39}),
    (ANN, {"type": "unmortgage", "square": 39}),
    (ANN, {"type": "sell_building", "square": 1}),
    (ANN, {"type": "build", "square": 1}),
    (ANN, {"type": "offer_trade", "to": CY, "give": {"cash": 10}}),
    (ANN, {"type": "bankrupt"}),
    (ANN, {"type": "pay_debt"}),
    (ANN, {"type": "draw", "deck": "chance", "card": "ch_dividend"}),
    (ANN, {"type": "use_jail_card"}),
    (ANN, {"type": "pay_jail_fine"}),
    (BOB, {"type": "buy"}),
    (BOB, {"type": "bid", "amount": 10}),
    (BOB, {"type": "receive_deeds"}),
    (BANKER, {"type": "bank_pay", "player": CY, "amount": 100}),
    (BANKER, {"type": "bank_charge", "player": CY, "amount": 100}),
    (BANKER, {"type": "move", "player": CY, "square": 5}),
    (BANKER, {"type": "close_auction"}),
    (BANKER, {"type": "auction_building", "building": "house"}),
    (BANKER, {"type": "end_game"}),
    (BANKER, {"type": "start"}),
])
def test_no_action_is_accepted_after_the_end(who, action):
    state = play(mid_game(), BANKER, "end_game")
    error = refusal(state, who, **action)
    assert error.code in ("game_over", "game_started")


def test_nobody_has_a_legal_action_after_the_end():
    state = play(mid_game(), BANKER, "end_game")
    assert [legal_actions(state, p.id) for p in state.players] == [set(), set(), set()]


def test_after_the_end_the_phones_offer_no_building_or_mortgage_button():
    state = play(mid_game(), BANKER, "end_game")
    for player in (ANN, BOB):
        lots = [lot for section in holdings(state, player) for lot in section["lots"]]
        assert lots
        for lot in lots:
            for button in ("build", "sell", "mortgage", "unmortgage"):
                if button in lot:
                    price, refusal_shown = lot[button]
                    assert (price, refusal_shown.code) == (None, "game_over")


def test_ending_closes_the_open_auction_and_decision():
    state = play(started(3), ANN, "roll", dice=[1, 2])
    state = play(play(state, ANN, "decline"), BOB, "bid", amount=30)
    state = play(state, BANKER, "end_game")
    assert (state.auction, state.pending, state.deeds[3].owner) == (None, None, None)
    assert [s["total"] for s in state.standings] == [1500, 1500, 1500]


def test_bankrupt_players_come_last_in_the_standings():
    state = play(mid_game(), BANKER, "bank_charge", player=CY, amount=5000)
    state = play(play(state, CY, "bankrupt"), BANKER, "end_game")
    assert [(s["player"], s.get("bankrupt", False)) for s in state.standings] == [
        (BOB, False), (ANN, False), (CY, True)]


def test_undoing_the_end_resumes_the_game():
    game = Logged(2)
    game.do(ANN, "roll", dice=[2, 3])
    before = game.state
    game.do(BANKER, "end_game")
    undone = game.undone()
    assert undone.to_dict() == before.to_dict() and undone.status == "playing"
