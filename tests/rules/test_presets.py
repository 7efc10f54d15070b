"""Rule presets (official, classic, jma) and the tournament (JMA) rules each one turns on, with
balances worked out by hand from the reference board."""

import pytest

from banker.rules import ActionError, RuleError, Settings, legal_actions

from . import (
    ANN, BANKER, BOB, CY, LIGHT_BLUE, act, cash, funded, go, owning, place, play, refusal, set_buildings,
    started, supply, transfers,
)
from .test_cards import drawing, next_turn

JMA = Settings.parse({"preset": "jma"})
JAIL = 10
BOARDWALK = 39


# Presets


def test_the_presets_set_every_setting_they_name():
    assert vars(Settings.parse({})) == vars(Settings.parse({"preset": "official"})) == vars(Settings())
    classic = Settings.parse({"preset": "classic"})
    assert (classic.income_tax, classic.luxury_tax, classic.community_chest) == ("choice", 75, "2008")
    assert (JMA.income_tax, JMA.shortage_auction_floor, JMA.income_tax_worth) == ("flat", "cost", "half_mortgaged")
    assert JMA.deals_between_turns and JMA.jail_card_on_third_miss and JMA.hotel_breakdown_only_in_debt
    assert JMA.jail_fee_bankruptcy_claim and JMA.mortgage_transfer_fee  # the JMA rules in our sources charge the fee


def test_a_setting_beside_the_preset_overrides_it():
    settings = Settings.parse({"preset": "jma", "deals_between_turns": False, "luxury_tax": 75})
    assert settings.preset == "jma" and not settings.deals_between_turns and settings.luxury_tax == 75
    assert settings.jail_card_on_third_miss


@pytest.mark.parametrize("preset", ["tournament", 1, None, ["jma"]])
def test_an_unknown_preset_is_refused(preset):
    with pytest.raises(ActionError, match="preset must be one of: official, classic, jma."):
        Settings.parse({"preset": preset})


# deals_between_turns


def landed_on_boardwalk(settings, players=3):
    """Ann rolls 1 + 2 from Chance (36) onto Boardwalk; its offer is open."""
    state = play(place(started(players, settings), ANN, 36), ANN, "roll", dice=[1, 2])
    assert state.pending == {"kind": "buy", "player": ANN, "square": BOARDWALK}
    return state


def test_a_trade_in_the_middle_of_a_turn_waits_under_jma():
    """The issue's repro: Ann's offer for Boardwalk is open; Bob offers Cy a trade."""
    state = owning(landed_on_boardwalk(JMA), BOB, 1)
    error = refusal(state, BOB, "offer_trade", RuleError, to=CY, give={"squares": [1]}, get={"cash": 100})
    assert (error.code, error.params) == ("between_turns", {"player": ANN})
    assert str(error) == ("Trading, building and mortgaging wait until 1's roll is settled (tournament rules); "
                          "only raising cash for a debt is allowed now.")
    play(owning(landed_on_boardwalk(Settings()), BOB, 1), BOB, "offer_trade", to=CY, give={"squares": [1]},
         get={"cash": 100})  # the official rules allow it


@pytest.mark.parametrize("type, fields", [
    ("build", {"square": 9}), ("mortgage", {"square": 1}), ("sell_building", {"square": 6}),
    ("set_buildings", {"levels": {"6": 1, "8": 1, "9": 1}}),
])
def test_building_and_mortgaging_wait_during_a_turn_and_are_open_before_and_after_it(type, fields):
    state = set_buildings(owning(started(3, JMA), BOB, 1, *LIGHT_BLUE), BOB, {6: 1, 8: 1, 9: 0})
    play(state, BOB, type, **fields)  # before Ann's first roll
    mid = play(place(state, ANN, 0), ANN, "roll", dice=[3, 3])  # doubles: Ann rolls again
    assert refusal(mid, BOB, type, RuleError, **fields).code == "between_turns"
    settled = play(mid, ANN, "roll", dice=[1, 2])
    assert settled.rolled and not settled.pending
    play(settled, BOB, type, **fields)  # her roll is settled: deals are open until she ends her turn


def test_raising_cash_for_a_debt_is_allowed_in_the_middle_of_a_turn():
    state = set_buildings(owning(started(3, JMA), BOB, 1, 3, 5), BOB, {1: 1, 3: 1})
    state = play(place(state, ANN, 36), ANN, "roll", dice=[1, 2])  # Ann's offer for Boardwalk is open
    state = play(state, BOB, "pay", to=CY, amount=3000)  # Bob owes Cy
    play(state, BOB, "sell_building", square=1)
    play(state, BOB, "mortgage", square=5)
    play(state, BOB, "set_buildings", levels={"1": 0, "3": 0})
    play(state, BOB, "offer_trade", to=ANN, give={"squares": [5]}, get={"cash": 200})  # deeds for cash
    assert refusal(state, BOB, "offer_trade", RuleError, to=ANN, give={"cash": 5}).code == "between_turns"
    assert refusal(state, CY, "offer_trade", RuleError, to=ANN, give={"cash": 5}).code == "between_turns"


def test_placing_a_building_won_at_auction_is_allowed_while_other_deals_wait():
    state = owning(owning(started(3, JMA), ANN, 1, 3), BOB, 5)
    state = play(state, BANKER, "auction_building", building="house")
    state = play(state, ANN, "bid", amount=50)  # the only bidder: sold at once
    assert state.pending == {"kind": "place", "player": ANN, "building": "house"}
    assert refusal(state, BOB, "mortgage", RuleError, square=5).code == "between_turns"
    state = play(state, ANN, "build", square=1)  # the placement the game waits for
    assert state.deeds[1].houses == 1 and state.pending is None


# jail_card_on_third_miss


def third_miss(settings, card_holder=ANN):
    """Ann has missed doubles twice in jail and misses a third time (1 + 2); `card_holder` holds
    Chance's Get Out of Jail Free card."""
    state = play(drawing(7, settings=settings, who=ANN), ANN, "draw", deck="chance", card="ch_get_out_of_jail_free")
    if card_holder != ANN:
        state = state.copy()
        state.player(ANN).jail_cards.remove("ch_get_out_of_jail_free")
        state.player(card_holder).jail_cards.append("ch_get_out_of_jail_free")
    state = next_turn(state)
    state = play(state, BANKER, "move", player=ANN, square=JAIL)
    state.player(ANN).in_jail = True  # (test set-up: sent to jail)
    for _ in range(2):
        state = next_turn(play(state, ANN, "roll", dice=[1, 2]))
    return play(state, ANN, "roll", dice=[1, 2])


def test_after_the_third_miss_the_player_chooses_the_fine_or_a_card_under_jma():
    state = third_miss(JMA)
    assert state.pending == {"kind": "jail_exit", "player": ANN, "dice": [1, 2]}
    assert state.player(ANN).position == JAIL and legal_actions(state, ANN) >= {"pay_jail_fine", "use_jail_card"}
    state, effects = act(state, ANN, "use_jail_card")  # (the card goes back to its deck)
    assert transfers(effects) == [] and state.player(ANN).position == JAIL + 3 and not state.player(ANN).in_jail
    assert cash(state, ANN) == 1500 and state.pending == {"kind": "buy", "player": ANN, "square": 13}


def test_after_the_third_miss_the_fine_moves_the_player_by_that_roll():
    state, effects = go(third_miss(JMA), ANN, "pay_jail_fine")
    assert transfers(effects)[0] == (ANN, "bank", 50, "jail_fine") and state.player(ANN).position == JAIL + 3


def test_the_card_may_be_bought_from_another_player_at_that_moment():
    state = third_miss(JMA, card_holder=BOB)
    assert state.pending["kind"] == "jail_exit"
    state = play(state, ANN, "offer_trade", to=BOB, give={"cash": 30}, get={"jail_cards": ["ch_get_out_of_jail_free"]})
    state = play(state, BOB, "accept_trade", trade=state.trades[0].id)
    state = play(state, ANN, "use_jail_card")
    assert state.player(ANN).position == JAIL + 3 and cash(state, ANN) == 1470


def test_the_official_third_miss_pays_the_fine_at_once():
    state = third_miss(Settings())
    assert state.pending["kind"] == "buy" and state.player(ANN).position == JAIL + 3 and cash(state, ANN) == 1450


# hotel_breakdown_only_in_debt


def light_blue_hotel(settings):
    """Bob: hotel / 4 / 4 on the light blues (houses cost 50), plenty of cash, no debt."""
    state = funded(owning(started(3, settings), BOB, *LIGHT_BLUE), BOB)
    return set_buildings(state, BOB, {6: 5, 8: 4, 9: 4})


@pytest.mark.parametrize("settings, paid", [(Settings(), 25), (JMA, 125 - 200)])
def test_a_hotel_back_to_four_houses(settings, paid):
    """US: +25 (half a house). JMA: the hotel goes with its four houses (+125) and the four are
    bought again (-200): -75. The bank's stock moves alike: 4 houses out, 1 hotel in."""
    state = light_blue_hotel(settings)
    before, stock = cash(state, BOB), supply(state)
    state, effects = go(state, BOB, "set_buildings", levels={"6": 4, "8": 4, "9": 4})
    assert cash(state, BOB) - before == paid
    assert supply(state) == (stock[0] - 4, stock[1] + 1)


def test_selling_a_whole_group_pays_the_same_under_both_rules():
    for settings in (Settings(), JMA):
        state = light_blue_hotel(settings)
        before = cash(state, BOB)
        state = play(state, BOB, "set_buildings", levels={"6": 0, "8": 0, "9": 0})
        assert cash(state, BOB) - before == 13 * 25


def test_outside_a_debt_a_single_hotel_sale_is_refused_and_in_debt_it_breaks_down():
    state = light_blue_hotel(JMA)
    assert refusal(state, BOB, "sell_building", RuleError, square=6).code == "hotel_breakdown"
    state = play(state, BANKER, "bank_charge", player=BOB, amount=cash(state, BOB) + 100)
    state, effects = go(state, BOB, "sell_building", square=6)
    assert transfers(effects) == [("bank", BOB, 25, "building_sale")]


# income_tax_worth


@pytest.mark.parametrize("worth, tax", [("printed", 210), ("half_mortgaged", 190)])
def test_the_ten_percent_worth_counts_a_mortgaged_deed_at_half_under_jma(worth, tax):
    """Ann holds Boardwalk mortgaged (+200): cash 1700; worth 1700 + 400 = 2100 (printed) or
    1700 + 200 = 1900 (JMA). The Get Out of Jail Free card she holds counts nothing."""
    settings = Settings(income_tax="choice", income_tax_worth=worth)
    state = play(owning(started(2, settings), ANN, BOARDWALK), ANN, "mortgage", square=BOARDWALK)
    state.player(ANN).jail_cards.append("ch_get_out_of_jail_free")
    state = play(place(state, ANN, 1), ANN, "roll", dice=[1, 2])
    state, effects = act(state, ANN, "income_tax", choice="percent")
    assert transfers(effects) == [(ANN, "bank", tax, "tax")]


# jail_fee_bankruptcy_claim


def broke_in_jail(settings, cash_left=20, owner=BOB):
    """Ann, with `cash_left`, misses doubles a third time in jail (1 + 2, towards States Avenue,
    13, which `owner` holds); nobody has a Get Out of Jail Free card."""
    state = owning(started(3, settings), owner, 13) if owner else started(3, settings)
    state = play(state, BANKER, "move", player=ANN, square=JAIL)
    state.player(ANN).in_jail = True  # (test set-up: sent to jail)
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1500 - cash_left)
    for _ in range(2):
        state = next_turn(play(state, ANN, "roll", dice=[1, 2]))
    return play(state, ANN, "roll", dice=[1, 2])


def test_the_fine_comes_before_the_rent_under_jma():
    """Ann owes the 50 fine and stays on the jail square until she pays it; paying moves her on,
    and only then is States Avenue's rent (10) due."""
    state = broke_in_jail(JMA)
    assert state.pending == {"kind": "jail_move", "player": ANN, "dice": [1, 2]}
    assert state.player(ANN).position == JAIL and not state.player(ANN).in_jail
    assert [(d.creditor, d.amount, d.reason) for d in state.debts] == [("bank", 50, "jail_fine")]
    state = play(state, BANKER, "bank_pay", player=ANN, amount=40)  # she raised 40 (cash 60)
    state, effects = go(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, "bank", 50, "jail_fine"), (ANN, BOB, 10, "rent")]
    assert state.player(ANN).position == 13 and state.pending is None and cash(state, ANN) == 0


def test_officially_the_rent_of_the_square_is_paid_while_the_fine_is_owed():
    state = broke_in_jail(Settings())
    assert state.player(ANN).position == 13 and [d.reason for d in state.debts] == ["jail_fine"]
    assert cash(state, ANN) == 10  # 20 - 10 rent


def test_the_owner_of_the_square_may_take_the_deeds_of_a_player_bankrupt_over_the_fine():
    state = owning(broke_in_jail(JMA), ANN, 39, 5, mortgaged=[5, 39])  # nothing left to raise
    state, effects = go(state, ANN, "bankrupt")
    assert {"kind": "bankrupt", "player": ANN, "creditor": "bank"} in effects
    assert state.pending == {"kind": "claim", "player": BOB, "from": ANN, "squares": [5, 39]}
    assert state.auction is None and legal_actions(state, BOB) >= {"claim_deeds"}
    bob = cash(state, BOB)
    state, effects = go(state, BOB, "claim_deeds", choice="take")
    assert transfers(effects) == [(BOB, "bank", 50, "claim")]
    assert [state.deeds[s].owner for s in (5, 39)] == [BOB, BOB] and state.deeds[5].mortgaged
    assert state.pending == {"kind": "inherit", "player": BOB, "squares": [5, 39]}  # the usual 10% or lift
    assert cash(state, BOB) == bob - 50


def test_an_owner_who_declines_leaves_the_deeds_to_the_bank_auction():
    state = owning(broke_in_jail(JMA), ANN, 39, 5, mortgaged=[5, 39])
    state = play(state, ANN, "bankrupt")
    state, effects = go(state, BOB, "claim_deeds", choice="auction")
    assert state.auction.square == 5 and state.auction_queue == [39] and not state.deeds[5].mortgaged


def test_without_an_owner_of_that_square_the_bank_auctions_at_once():
    state = owning(broke_in_jail(JMA, owner=None), ANN, 39, mortgaged=[39])
    state = play(state, ANN, "bankrupt")
    assert state.pending is None and state.auction.square == 39
