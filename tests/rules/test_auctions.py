"""Auctions: a declined deed is auctioned at once among everyone with cash, the decliner too; the
banker auctions one house or hotel in a shortage among those who could place it now
(docs/rules.md, Buying and auctions).

Ownership is arranged with `owning` (a copy of the state); buildings and cash through actions.
Every money movement is checked against the ledger with `go` (see `conserved`).
"""

import pytest

from banker.rules import ActionError, NotAllowed, RuleError, Settings, legal_actions
from banker.rules.auctions import building_auctions

from . import (
    ANN, BANKER, BOB, BROWN, CY, GREEN, HOTELS, HOUSES, LIGHT_BLUE, ORANGE, PINK, RED, YELLOW, act,
    cash, funded, go, levels, owning, place, play, refusal, set_buildings, started, supply, transfers,
)

READING = 5  # Reading Railroad, price 200: Ann lands on it rolling 2 + 3 from GO


def kinds(effects) -> list[str]:
    return [e["kind"] for e in effects if e["kind"] != "transfer"]


# Deed auctions


def declined(state):
    """Ann rolls 2 + 3 from GO onto Reading Railroad and declines it: the auction is open."""
    state = play(state, ANN, "roll", dice=[2, 3])
    assert state.pending == {"kind": "buy", "player": ANN, "square": READING}
    return go(state, ANN, "decline")


@pytest.fixture
def auction(game3):
    """Reading Railroad is up for auction among Ann, Bob and Cy, 1500 each, no bid yet."""
    return declined(game3)[0]


def test_a_decline_opens_the_auction_at_once_with_every_player_as_a_bidder(game3):
    state, effects = declined(game3)
    assert kinds(effects) == ["declined", "auction_opened"]
    assert {"kind": "auction_opened", "id": state.auction.id, "square": READING} in effects
    assert state.auction.square == READING and state.auction.building is None
    assert state.auction.bidders == [ANN, BOB, CY]
    assert (state.auction.high_bid, state.auction.high_bidder, state.auction.passed) == (0, None, [])
    assert state.deeds[READING].owner is None
    assert state.pending is None
    assert transfers(effects) == []


def test_a_player_with_no_cash_is_not_a_bidder(game3):
    state = play(game3, BANKER, "bank_charge", player=CY, amount=1500)
    state = declined(state)[0]
    assert state.auction.bidders == [ANN, BOB]
    assert refusal(state, CY, "bid", RuleError, amount=1).code == "not_bidding"
    assert refusal(state, CY, "pass", RuleError).code == "not_bidding"
    assert "bid" not in legal_actions(state, CY) and "pass" not in legal_actions(state, CY)


def test_with_nobody_holding_cash_the_auction_closes_at_once_unsold(game):
    state = play(game, BANKER, "bank_charge", player=BOB, amount=1500)
    state = play(state, ANN, "roll", dice=[2, 3])
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1500)
    state, effects = go(state, ANN, "decline")
    assert kinds(effects) == ["declined", "auction_opened", "auction_unsold"]
    assert state.auction is None
    assert state.deeds[READING].owner is None


def test_bids_start_at_1_and_each_must_beat_the_high_bid(auction):
    with pytest.raises(ActionError):
        act(auction, ANN, "bid", amount=0)
    state, effects = go(auction, BOB, "bid", amount=1)
    assert {"kind": "bid", "player": BOB, "amount": 1} in effects
    assert (state.auction.high_bid, state.auction.high_bidder) == (1, BOB)
    error = refusal(state, CY, "bid", RuleError, amount=1)
    assert (error.code, error.params) == ("bid_too_low", {"amount": 2})
    assert str(error) == "A bid must be at least 2."
    state = play(state, CY, "bid", amount=2)
    assert refusal(state, ANN, "bid", RuleError, amount=2).params == {"amount": 3}
    state = play(state, ANN, "bid", amount=50)
    assert (state.auction.high_bid, state.auction.high_bidder) == (50, ANN)
    assert transfers(effects) == [] and cash(state, ANN) == 1500  # nothing is paid until it closes


def test_a_bid_above_the_bidders_cash_is_refused_with_the_numbers(auction):
    state = play(auction, BANKER, "bank_charge", player=BOB, amount=700)
    error = refusal(state, BOB, "bid", RuleError, amount=801)
    assert (error.code, error.params) == ("bid_over_cash", {"player": BOB, "cash": 800})
    assert str(error) == f"{BOB} has only 800; a bid cannot be more."
    state = play(state, BOB, "bid", amount=800)  # all of it is fine
    assert state.auction.high_bid == 800


def test_the_decliner_may_bid_and_win_below_the_printed_price(game):
    state = declined(game)[0]
    assert ANN in state.auction.bidders
    state = play(state, ANN, "bid", amount=120)
    state, effects = go(state, BOB, "pass")
    assert transfers(effects) == [(ANN, "bank", 120, "auction")]
    assert {"kind": "auction_won", "player": ANN, "square": READING, "amount": 120} in effects
    assert state.deeds[READING].owner == ANN
    assert cash(state, ANN) == 1380 and cash(state, BOB) == 1500


def test_the_high_bidder_cannot_pass(auction):
    state = play(auction, BOB, "bid", amount=10)
    error = refusal(state, BOB, "pass", RuleError)
    assert (error.code, error.params) == ("high_bidder", {"player": BOB})
    assert "pass" not in legal_actions(state, BOB)
    assert "pass" in legal_actions(state, ANN)


def test_the_high_bidder_cannot_raise_their_own_bid(auction):
    state = play(auction, BOB, "bid", amount=10)
    error = refusal(state, BOB, "bid", RuleError, amount=20)
    assert (error.code, error.params) == ("high_bidder", {"player": BOB})
    assert "bid" not in legal_actions(state, BOB)
    assert "bid" in legal_actions(play(state, ANN, "bid", amount=15), BOB)


def test_it_closes_by_itself_when_everyone_else_has_passed(auction):
    state = play(auction, BOB, "pass")
    state = play(state, CY, "bid", amount=150)
    state, effects = go(state, ANN, "pass")
    assert state.auction is None
    assert transfers(effects) == [(CY, "bank", 150, "auction")]
    assert kinds(effects) == ["passed", "auction_won"]
    assert state.deeds[READING].owner == CY
    assert (cash(state, ANN), cash(state, BOB), cash(state, CY)) == (1500, 1500, 1350)


def test_it_stays_open_while_anyone_but_the_high_bidder_may_still_bid(auction):
    state = play(auction, ANN, "bid", amount=150)
    state = play(state, BOB, "pass")
    assert state.auction is not None
    state = play(state, CY, "bid", amount=151)  # Ann has not passed: she may outbid Cy
    state = play(state, ANN, "bid", amount=160)
    state, effects = go(state, CY, "pass")
    assert state.deeds[READING].owner == ANN
    assert transfers(effects) == [(ANN, "bank", 160, "auction")]


def test_a_lone_bidder_wins_with_the_first_bid(game):
    state = play(game, BANKER, "bank_charge", player=BOB, amount=1500)
    state = declined(state)[0]
    assert state.auction.bidders == [ANN]
    state, effects = go(state, ANN, "bid", amount=1)
    assert state.auction is None and state.deeds[READING].owner == ANN
    assert transfers(effects) == [(ANN, "bank", 1, "auction")]


def test_with_no_bid_and_everyone_passed_the_deed_stays_with_the_bank(auction):
    state = play(auction, ANN, "pass")
    state = play(state, BOB, "pass")
    state, effects = go(state, CY, "pass")
    assert state.auction is None
    assert {"kind": "auction_unsold", "square": READING, "building": None} in effects
    assert transfers(effects) == []
    assert state.deeds[READING].owner is None
    assert [cash(state, p) for p in (ANN, BOB, CY)] == [1500, 1500, 1500]


def test_a_player_who_passed_cannot_bid_or_pass_again(auction):
    state = play(auction, BOB, "pass")
    error = refusal(state, BOB, "bid", RuleError, amount=5)
    assert (error.code, error.params) == ("passed", {"player": BOB})
    assert refusal(state, BOB, "pass", RuleError).code == "not_bidding"
    assert not {"bid", "pass"} & legal_actions(state, BOB)


def test_bidding_passing_or_closing_with_no_auction_open_is_refused(game):
    for who, type, fields in ((ANN, "bid", {"amount": 5}), (ANN, "pass", {}), (BANKER, "close_auction", {})):
        error = refusal(game, who, type, RuleError, **fields)
        assert (error.code, str(error)) == ("no_auction", "No auction is open.")


def test_the_banker_closes_the_auction_selling_to_the_high_bidder(auction):
    state = play(auction, ANN, "bid", amount=90)
    state = play(state, BOB, "bid", amount=95)  # Ann and Cy have not passed
    state, effects = go(state, BANKER, "close_auction")
    assert state.auction is None
    assert transfers(effects) == [(BOB, "bank", 95, "auction")]
    assert state.deeds[READING].owner == BOB


def test_the_banker_closing_with_no_bid_leaves_the_deed_with_the_bank(auction):
    state, effects = go(auction, BANKER, "close_auction", high_bid=0)
    assert state.auction is None
    assert kinds(effects) == ["auction_unsold"] and transfers(effects) == []
    assert state.deeds[READING].owner is None


def test_closing_is_refused_when_a_new_bid_came_in(auction):
    state = play(auction, ANN, "bid", amount=50)
    state = play(state, BOB, "bid", amount=60)
    error = refusal(state, BANKER, "close_auction", RuleError, high_bid=50)
    assert (error.code, error.params) == ("new_bid", {"amount": 60})
    assert str(error) == "A new bid of 60 came in; the countdown starts again."
    assert refusal(auction, BANKER, "close_auction", RuleError, high_bid=5).params == {"amount": 0}
    state, effects = go(state, BANKER, "close_auction", high_bid=60)
    assert state.deeds[READING].owner == BOB
    assert transfers(effects) == [(BOB, "bank", 60, "auction")]


def test_only_the_banker_closes_an_auction(auction):
    assert refusal(auction, ANN, "close_auction", NotAllowed).code == "banker_only"


def test_the_turn_does_not_go_on_while_an_auction_is_open(game):
    # Ann rolls doubles onto Reading: she owes another roll once the auction is over.
    state = play(place(game, ANN, 1), ANN, "roll", dice=[2, 2])
    state = play(state, ANN, "decline")
    for type, fields in (("roll", {"dice": [1, 2]}), ("end_turn", {})):
        error = refusal(state, ANN, type, RuleError, **fields)
        assert (error.code, str(error)) == ("auction_open", "An auction is open: bid or pass first.")
    assert refusal(state, ANN, "buy", RuleError).code == "no_offer"
    assert refusal(state, BOB, "roll", RuleError, dice=[1, 2]).code == "not_your_turn"
    assert not {"roll", "end_turn", "buy", "decline"} & legal_actions(state, ANN)
    state = play(play(state, ANN, "pass"), BOB, "pass")
    assert play(state, ANN, "roll", dice=[1, 2]).player(ANN).position == 8


def ann_in_jail_before_rolling(state):
    """Ann rolls onto Go To Jail; Bob takes a quiet turn; it is Ann's turn again, in jail."""
    state = play(place(state, ANN, 27), ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "end_turn")
    state = play(state, BOB, "roll", dice=[4, 6])
    state = play(state, BOB, "end_turn")
    assert state.player(ANN).in_jail and state.turn == ANN and not state.rolled
    return state


def test_no_jail_fine_or_jail_card_while_an_auction_is_open(game):
    state = ann_in_jail_before_rolling(owning(game, BOB, *BROWN))
    state.player(ANN).jail_cards.append("ch_get_out_of_jail_free")  # set-up: Ann holds the card
    assert {"pay_jail_fine", "use_jail_card"} <= legal_actions(state, ANN)
    state = play(state, BANKER, "auction_building", building="house")
    assert not {"pay_jail_fine", "use_jail_card", "roll"} & legal_actions(state, ANN)
    for type in ("pay_jail_fine", "use_jail_card", "roll"):
        fields = {"dice": [1, 2]} if type == "roll" else {}
        assert refusal(state, ANN, type, RuleError, **fields).code == "auction_open"
    state = play(state, BOB, "pass")
    assert not play(state, ANN, "pay_jail_fine").player(ANN).in_jail


def test_building_paying_mortgaging_and_trading_go_on_during_an_auction(game):
    """docs/rules.md, Buildings: building is allowed at any time; so, in the engine, are payments,
    mortgages and trades. Only what moves the turn on waits for the auction."""
    state = declined(owning(game, BOB, *BROWN, 12))[0]
    state, _ = go(state, BOB, "build", square=1)
    state, _ = go(state, BOB, "mortgage", square=12)
    state, _ = go(state, ANN, "pay", to=BOB, amount=10)
    state, _ = go(state, BOB, "offer_trade", to=ANN, give={"squares": [12]}, get={"cash": 100})
    state, _ = go(state, ANN, "accept_trade", trade=state.trades[0].id)
    assert state.auction is not None
    assert state.deeds[12].owner == ANN and state.deeds[1].houses == 1
    state = play(state, ANN, "bid", amount=20)
    state, effects = go(state, BOB, "pass")
    assert state.deeds[READING].owner == ANN


def test_a_winner_whose_cash_the_bank_took_meanwhile_owes_the_bid_to_the_bank(game):
    """Bids are checked against cash when made; taken meanwhile (a charge), the bid becomes a debt."""
    state = declined(game)[0]
    state = play(state, BOB, "bid", amount=1000)
    state = play(state, BANKER, "bank_charge", player=BOB, amount=900)
    state, effects = go(state, ANN, "pass")
    assert state.deeds[READING].owner == BOB
    assert transfers(effects) == []
    assert [(d.debtor, d.creditor, d.amount, d.reason) for d in state.debts] == [(BOB, "bank", 1000, "auction")]
    assert refusal(state, BOB, "pay_debt", RuleError).code == "short_of_cash"
    state = play(state, BANKER, "bank_pay", player=BOB, amount=400)
    state, effects = go(state, BOB, "pay_debt")
    assert transfers(effects) == [(BOB, "bank", 1000, "auction")]


def high_bid_of_1450(game3):
    """Bob owns both brown lots (1,500 cash); Ann declines Reading Railroad; Bob bids 1,450."""
    state = owning(game3, BOB, *BROWN)
    return play(declined(state)[0], BOB, "bid", amount=1450)


@pytest.mark.parametrize("who, type, fields", [
    (BOB, "set_buildings", {"levels": {"1": 4, "3": 4}}),    # the repro: 400 of houses
    (BOB, "pay", {"to": CY, "amount": 51}),
    (BOB, "offer_trade", {"to": CY, "give": {"cash": 100}}),
    (CY, "offer_trade", {"to": BOB, "get": {"cash": 100}}),  # Bob would give it on accepting
])
def test_the_cash_behind_a_standing_high_bid_cannot_be_spent(game3, who, type, fields):
    state = high_bid_of_1450(game3)
    error = refusal(state, who, type, RuleError, **fields)
    assert (error.code, error.params) == ("bid_held", {"player": BOB, "amount": 1450})
    assert str(error) == "2 holds the high bid of 1450: that much cash must stay until the auction closes."


def test_a_house_that_leaves_exactly_the_bid_is_allowed_and_the_next_is_not(game3):
    state = play(high_bid_of_1450(game3), BOB, "build", square=1)  # 1,500 - 50 = 1,450
    assert refusal(state, BOB, "build", RuleError, square=3).code == "bid_held"


def test_the_cash_above_a_standing_high_bid_can_be_spent_and_the_winner_pays_in_full(game3):
    state = play(high_bid_of_1450(game3), BOB, "pay", to=CY, amount=50)
    state = play(state, ANN, "pass")
    state, effects = go(state, CY, "pass")
    assert state.deeds[READING].owner == BOB and state.debts == [] and cash(state, BOB) == 0
    assert refusal(state, BOB, "build", RuleError, square=1).code == "short_of_cash"  # the auction is over


def test_a_repaid_mortgage_cannot_spend_the_cash_behind_a_high_bid(game3):
    state = owning(game3, BOB, 39, mortgaged=[39])  # 220 to repay
    state = play(declined(state)[0], BOB, "bid", amount=1400)
    assert refusal(state, BOB, "unmortgage", RuleError, square=39).code == "bid_held"


def test_a_bidder_in_debt_may_pass_but_not_bid(auction):
    state = play(auction, BANKER, "bank_charge", player=BOB, amount=2000)
    assert refusal(state, BOB, "bid", RuleError, amount=5).code == "in_debt"
    assert play(state, BOB, "pass").auction.passed == [BOB]


def test_with_auctions_off_a_declined_deed_stays_with_the_bank():
    state = play(started(2, Settings(auctions=False)), ANN, "roll", dice=[2, 3])
    state, effects = go(state, ANN, "decline")
    assert kinds(effects) == ["declined"]
    assert state.auction is None and state.pending is None
    assert state.deeds[READING].owner is None
    assert play(state, ANN, "end_turn").turn == BOB


def test_a_bankrupt_high_bidders_bid_falls_away(auction):
    state = play(auction, ANN, "bid", amount=40)
    state = play(state, BOB, "bid", amount=100)
    state = play(state, BANKER, "bank_charge", player=BOB, amount=5000)
    state, effects = go(state, BOB, "bankrupt")
    assert state.auction is not None
    assert (state.auction.high_bid, state.auction.high_bidder) == (0, None)
    state = play(state, CY, "pass")
    state = play(state, ANN, "bid", amount=1)
    assert state.auction is None
    assert state.deeds[READING].owner == ANN and cash(state, ANN) == 1499


def test_an_auction_closes_when_the_last_rival_of_the_high_bidder_goes_bankrupt(auction):
    state = play(auction, ANN, "bid", amount=40)
    state = play(state, CY, "pass")
    state = play(state, BANKER, "bank_charge", player=BOB, amount=5000)
    state, effects = go(state, BOB, "bankrupt")
    assert state.auction is None
    assert state.deeds[READING].owner == ANN
    assert (ANN, "bank", 40, "auction") in transfers(effects)


# Building shortage auctions


@pytest.fixture
def houses3(game3):
    """Ann holds brown (a house costs 50), Bob pink (100); Cy holds two of the three orange lots."""
    return owning(owning(owning(game3, ANN, *BROWN), BOB, *PINK), CY, *ORANGE[:2])


def test_only_players_who_could_place_the_building_now_are_bidders(houses3):
    state, effects = go(houses3, BANKER, "auction_building", building="house")
    assert {"kind": "auction_opened", "id": state.auction.id, "building": "house"} in effects
    assert state.auction.building == "house" and state.auction.square is None
    assert state.auction.bidders == [ANN, BOB]
    assert refusal(state, CY, "bid", RuleError, amount=5).code == "not_bidding"
    assert (supply(state), transfers(effects)) == ((HOUSES, HOTELS), [])


def test_a_group_with_a_mortgaged_lot_cannot_take_an_auctioned_building(houses3):
    state = play(houses3, BOB, "mortgage", square=13)
    assert play(state, BANKER, "auction_building", building="house").auction.bidders == [ANN]


def test_a_house_goes_to_lots_below_four_and_a_hotel_to_groups_of_four_houses(houses3):
    state = set_buildings(funded(houses3, BOB), BOB, {11: 4, 13: 4, 14: 4})
    assert play(state, BANKER, "auction_building", building="house").auction.bidders == [ANN]
    assert play(state, BANKER, "auction_building", building="hotel").auction.bidders == [BOB]


def test_without_a_floor_any_bid_from_1_will_do(houses3):
    state = play(houses3, BANKER, "auction_building", building="house")
    assert state.auction.floors == {str(ANN): 1, str(BOB): 1}
    state = play(state, BOB, "bid", amount=1)
    state, effects = go(state, ANN, "pass")
    assert transfers(effects) == [(BOB, "bank", 1, "auction")]


@pytest.fixture
def floored():
    """The cost floor: Ann holds brown (a house costs 50) and green (200), Bob pink (100)."""
    state = owning(started(2, Settings(shortage_auction_floor="cost")), ANN, *BROWN, *GREEN)
    return owning(state, BOB, *PINK)


def test_under_the_cost_floor_a_bid_is_at_least_the_bidders_cheapest_eligible_house_cost(floored):
    state = play(floored, BANKER, "auction_building", building="house")
    assert state.auction.floors == {str(ANN): 50, str(BOB): 100}
    assert refusal(state, ANN, "bid", RuleError, amount=49).params == {"amount": 50}
    error = refusal(state, BOB, "bid", RuleError, amount=99)
    assert (error.code, error.params) == ("bid_too_low", {"amount": 100})
    state = play(state, ANN, "bid", amount=50)
    assert refusal(state, BOB, "bid", RuleError, amount=51).params == {"amount": 100}
    state = play(state, BOB, "bid", amount=100)
    assert refusal(state, ANN, "bid", RuleError, amount=100).params == {"amount": 101}
    state, effects = go(state, ANN, "pass")
    assert transfers(effects) == [(BOB, "bank", 100, "auction")]


def test_the_cost_floor_counts_only_the_lots_that_could_take_the_building(floored):
    state = set_buildings(floored, ANN, {1: 4, 3: 4})  # brown takes only a hotel now
    state = play(state, BANKER, "auction_building", building="house")
    assert state.auction.floors == {str(ANN): 200, str(BOB): 100}
    state = play(state, BANKER, "close_auction")
    assert play(state, BANKER, "auction_building", building="hotel").auction.floors == {str(ANN): 50}


@pytest.fixture
def won(houses3):
    """Ann won a house for 30 at the banker's auction (Bob passed); it waits to be placed."""
    state = play(houses3, BANKER, "auction_building", building="house")
    state = play(state, ANN, "bid", amount=30)
    state, effects = go(state, BOB, "pass")
    assert transfers(effects) == [(ANN, "bank", 30, "auction")]
    assert {"kind": "auction_won", "player": ANN, "building": "house", "amount": 30} in effects
    return state


def test_the_winner_pays_the_bid_and_places_the_building_with_build_at_no_further_cost(won):
    assert won.auction is None
    assert won.pending == {"kind": "place", "player": ANN, "building": "house"}
    assert supply(won) == (HOUSES, HOTELS)  # taken from the bank when placed
    assert "build" in legal_actions(won, ANN)
    state, effects = go(won, ANN, "build", square=3)
    assert transfers(effects) == []
    assert {"kind": "built", "player": ANN, "square": 3, "level": 1} in effects
    assert levels(state, *BROWN) == (0, 1)
    assert supply(state) == (HOUSES - 1, HOTELS)
    assert state.pending is None and cash(state, ANN) == 1470
    state, effects = go(state, ANN, "build", square=1)  # the next one is bought as usual
    assert transfers(effects) == [(ANN, "bank", 50, "building")]


def test_the_won_house_goes_only_where_building_evenly_allows(houses3):
    state = play(houses3, ANN, "build", square=1)  # brown stands at (1, 0)
    state = play(state, BANKER, "auction_building", building="house")
    state = play(play(state, ANN, "bid", amount=5), BOB, "pass")
    error = refusal(state, ANN, "build", RuleError, square=1)
    assert (error.code, error.params["other_square"]) == ("uneven", 3)
    assert refusal(state, ANN, "build", RuleError, square=11).code == "not_yours"
    state, effects = go(state, ANN, "build", square=3)
    assert levels(state, *BROWN) == (1, 1) and transfers(effects) == []


def test_nobody_else_builds_while_a_won_building_waits_to_be_placed(won):
    for type, fields in (("build", {"square": 11}), ("set_buildings", {"levels": {"11": 1, "13": 1, "14": 1}})):
        error = refusal(won, BOB, type, RuleError, **fields)
        assert (error.code, error.params) == ("placing", {"player": ANN, "building": "house"})
    assert refusal(won, ANN, "set_buildings", RuleError, levels={"1": 1, "3": 1}).code == "placing"


def test_the_turn_does_not_go_on_until_the_won_building_is_placed(houses3):
    state = play(houses3, BANKER, "auction_building", building="house")
    state = play(state, BOB, "bid", amount=5)
    state = play(state, ANN, "pass")  # it is Ann's turn; Bob won
    error = refusal(state, ANN, "roll", RuleError, dice=[1, 2])
    assert (error.code, str(error)) == ("decision_pending", f"{BOB} must first place the house won at auction.")
    assert "roll" not in legal_actions(state, ANN)
    state = play(state, BOB, "build", square=11)
    assert play(state, ANN, "roll", dice=[1, 2]).player(ANN).position == 3


def test_a_won_hotel_needs_four_houses_and_returns_them_to_the_bank(game3):
    state = owning(owning(owning(game3, ANN, *BROWN), BOB, *LIGHT_BLUE), CY, *ORANGE)
    state = set_buildings(state, ANN, {1: 4, 3: 4})
    state = set_buildings(funded(state, BOB), BOB, {6: 4, 8: 4, 9: 4})
    state = set_buildings(state, CY, {16: 3, 18: 3, 19: 3})
    assert supply(state) == (HOUSES - 29, HOTELS)
    state = play(state, BANKER, "auction_building", building="hotel")
    assert state.auction.bidders == [ANN, BOB]
    state = play(state, BOB, "bid", amount=10)
    state = play(state, ANN, "bid", amount=80)
    state, effects = go(state, BOB, "pass")
    assert state.pending == {"kind": "place", "player": ANN, "building": "hotel"}
    error = refusal(state, BOB, "build", RuleError, square=6)
    assert error.params == {"player": ANN, "building": "hotel"}
    state, effects = go(state, ANN, "build", square=3)
    assert transfers(effects) == []
    assert levels(state, *BROWN) == (4, 5)
    assert supply(state) == (HOUSES - 25, HOTELS - 1)
    assert cash(state, ANN) == 1500 - 400 - 80


def test_a_won_hotel_cannot_go_on_a_lot_short_of_four_houses(game):
    state = set_buildings(owning(game, ANN, *BROWN), ANN, {1: 4, 3: 4})
    state = play(state, BANKER, "auction_building", building="hotel")
    state = play(state, ANN, "bid", amount=10)  # Ann alone: the first bid wins
    assert state.pending == {"kind": "place", "player": ANN, "building": "hotel"}
    state = owning(state, ANN, *LIGHT_BLUE)
    error = refusal(state, ANN, "build", RuleError, square=6)
    assert (error.code, error.params) == ("wrong_building", {"building": "hotel", "square": 6})
    assert levels(play(state, ANN, "build", square=1), *BROWN) == (5, 4)


def use_every_house(state, player: int):
    """The player (given pink, orange and red) builds all 32 of the bank's houses."""
    state = funded(owning(state, player, *PINK, *ORANGE, *RED), player)
    state = set_buildings(state, player, {s: 4 for s in PINK})
    state = set_buildings(state, player, {s: 4 for s in ORANGE})
    return set_buildings(state, player, {21: 3, 23: 3, 24: 2})


def test_no_house_auction_when_the_bank_has_no_houses(game):
    state = use_every_house(owning(game, ANN, *BROWN), BOB)
    assert supply(state) == (0, HOTELS)
    error = refusal(state, BANKER, "auction_building", RuleError, building="house")
    assert (error.code, error.params) == ("none_left", {"building": "house"})


def test_no_hotel_auction_when_the_bank_has_no_hotels(game):
    state = funded(owning(game, BOB, *ORANGE, *RED, *YELLOW, *GREEN), BOB, 50_000)
    for group in (ORANGE, RED, YELLOW, GREEN):
        state = set_buildings(state, BOB, {s: 5 for s in group})
    state = set_buildings(owning(state, ANN, *BROWN), ANN, {1: 4, 3: 4})
    assert supply(state) == (HOUSES - 8, 0)
    error = refusal(state, BANKER, "auction_building", RuleError, building="hotel")
    assert (error.code, error.params) == ("none_left", {"building": "hotel"})


def test_no_building_auction_when_nobody_could_place_one(game):
    state = owning(game, ANN, 1, 6, 8)
    for building in ("house", "hotel"):
        error = refusal(state, BANKER, "auction_building", RuleError, building=building)
        assert (error.code, str(error)) == ("nobody_can_build", f"Nobody can place a {building} now.")


def test_no_building_auction_while_a_decision_or_another_auction_is_open(houses3):
    offered = play(houses3, ANN, "roll", dice=[2, 3])
    error = refusal(offered, BANKER, "auction_building", RuleError, building="house")
    assert (error.code, str(error)) == ("decision_pending", "Finish the open decision before auctioning buildings.")
    deed_auction = play(offered, ANN, "decline")
    assert refusal(deed_auction, BANKER, "auction_building", RuleError, building="house").code == "auction_open"
    state = play(houses3, BANKER, "auction_building", building="house")
    assert refusal(state, BANKER, "auction_building", RuleError, building="house").code == "auction_open"
    placing = play(play(state, ANN, "bid", amount=5), BOB, "pass")
    assert refusal(placing, BANKER, "auction_building", RuleError, building="house").code == "decision_pending"
    assert refusal(houses3, ANN, "auction_building", NotAllowed, building="house").code == "banker_only"


def test_nobody_buys_buildings_while_the_banks_building_is_auctioned(game):
    state = use_every_house(owning(game, ANN, *BROWN), BOB)
    state = play(state, BOB, "sell_building", square=21)  # one house back in the bank
    state = play(state, BANKER, "auction_building", building="house")
    assert state.auction.bidders == [ANN, BOB]
    for who, type, fields in ((BOB, "build", {"square": 21}), (ANN, "build", {"square": 1}),
                              (BOB, "set_buildings", {"levels": {"21": 3, "23": 3, "24": 3}})):
        assert refusal(state, who, type, RuleError, **fields).code == "building_auction"
    state = play(state, BOB, "sell_building", square=23)  # selling is fine
    state = play(play(state, ANN, "bid", amount=60), BOB, "pass")
    state = play(state, ANN, "build", square=1)
    assert supply(state) == (1, HOTELS) and levels(state, *BROWN) == (1, 0)


def test_a_winner_who_can_no_longer_place_the_building_does_not_buy_it(game):
    state = set_buildings(owning(owning(game, ANN, *BROWN), BOB, *LIGHT_BLUE), ANN, {1: 4, 3: 4})
    state = set_buildings(funded(state, BOB), BOB, {6: 4, 8: 4, 9: 4})
    state = play(state, BANKER, "auction_building", building="hotel")
    state = play(state, ANN, "bid", amount=90)
    state = play(state, ANN, "sell_building", square=3)  # brown can no longer take a hotel
    state, effects = go(state, BOB, "pass")
    assert state.auction is None and state.pending is None
    assert {"kind": "auction_unsold", "square": None, "building": "hotel"} in effects
    assert transfers(effects) == []
    assert cash(state, ANN) == 1500 - 400 + 25
    assert play(state, ANN, "roll", dice=[1, 2]).player(ANN).position == 3


def test_the_winner_sells_no_building_before_placing_the_won_one(game):
    state = set_buildings(owning(game, ANN, *BROWN), ANN, {1: 4, 3: 4})
    state = play(play(state, BANKER, "auction_building", building="hotel"), ANN, "bid", amount=10)
    error = refusal(state, ANN, "sell_building", RuleError, square=3)
    assert (error.code, error.params) == ("placing", {"player": ANN, "building": "hotel"})
    state = play(play(state, ANN, "build", square=3), ANN, "sell_building", square=3)
    assert levels(state, *BROWN) == (4, 4)


# Money and deeds across a whole run of auctions


def test_money_and_deeds_are_conserved_across_auctions(game3):
    state = owning(game3, BOB, *PINK)
    steps = [
        (ANN, "roll", {"dice": [2, 3]}), (ANN, "decline", {}),
        (BOB, "bid", {"amount": 10}), (CY, "bid", {"amount": 180}), (ANN, "pass", {}), (BOB, "pass", {}),
        (ANN, "end_turn", {}),
        (BOB, "roll", {"dice": [3, 3]}), (BOB, "decline", {}),  # Oriental Avenue
        (ANN, "pass", {}), (BOB, "pass", {}), (CY, "pass", {}),
        (BOB, "roll", {"dice": [1, 1]}), (BOB, "decline", {}),  # Vermont Avenue
        (ANN, "bid", {"amount": 99}), (BANKER, "close_auction", {"high_bid": 99}),
        (BANKER, "auction_building", {"building": "house"}),
        (BOB, "bid", {"amount": 70}), (BOB, "build", {"square": 11}),
        (BOB, "roll", {"dice": [1, 2]}), (BOB, "pay", {"to": CY, "amount": 25}), (BOB, "end_turn", {}),
    ]
    for who, type, fields in steps:
        state, _ = go(state, who, type, **fields)
    owners = {sq: d.owner for sq, d in state.deeds.items() if d.owner}
    assert owners == {READING: CY, 8: ANN, 11: BOB, 13: BOB, 14: BOB}
    assert [cash(state, p) for p in (ANN, BOB, CY)] == [1500 - 99, 1500 - 70 - 25, 1500 - 180 + 25]
    assert supply(state) == (HOUSES - 1, HOTELS)


def offered_is_legal(state) -> list[str]:
    """The buildings whose auction the banker's screen offers, checked against the rules' verdict."""
    legal = []
    for building in ("house", "hotel"):
        try:
            act(state, BANKER, "auction_building", building=building)
            legal.append(building)
        except RuleError:
            pass
    assert building_auctions(state) == legal
    return legal


def test_the_building_auctions_offered_are_those_the_rules_allow(game, houses3):
    assert offered_is_legal(houses3) == ["house"]
    assert offered_is_legal(set_buildings(funded(houses3, BOB), BOB, {11: 4, 13: 4, 14: 4})) == ["house", "hotel"]
    # No house left; Bob's lots of four houses could take a hotel.
    assert offered_is_legal(use_every_house(owning(game, ANN, *BROWN), BOB)) == ["hotel"]
    assert offered_is_legal(owning(game, ANN, 1, 6, 8)) == []  # nobody could place one
    offered = play(houses3, ANN, "roll", dice=[2, 3])
    assert offered_is_legal(offered) == []  # a decision is open
    assert offered_is_legal(play(offered, ANN, "decline")) == []  # a deed auction is open
    state = play(houses3, BANKER, "auction_building", building="house")
    assert offered_is_legal(state) == []  # the building's own auction
    assert offered_is_legal(play(play(state, ANN, "bid", amount=5), BOB, "pass")) == []  # Ann places it
