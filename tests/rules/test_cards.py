"""Chance and Community Chest (docs/rules.md, Chance and Community Chest): every card of
both decks, Community Chest in its 2021 and 2008 editions, drawn from every square that reaches
that deck, against the reference decks (tests/rules/reference/cards_us.json: where the token
lands from each draw square and whether it passes GO); then the cards whose effect depends on the
table: rent at the nearest railroad or utility, repairs, paying each player, Get Out of Jail Free.

Ownership is arranged with `owning` (a copy of the state); buildings are built with set_buildings.
"""

import pytest

from banker.rules import ActionError, RuleError, Settings, legal_actions

from . import (
    ANN, BANKER, BOB, BROWN, CY, DARK_BLUE, LIGHT_BLUE, Logged, act, cash, funded, owning, place,
    go, play, reference_board, reference_cards, refusal, set_buildings, started, transfers,
)

CARDS = reference_cards()
BOARD = {s["index"]: s for s in reference_board()["squares"]}
CHANCE_SQUARES = CARDS["meta"]["chance_squares"]            # 7, 22, 36
CHEST_SQUARES = CARDS["meta"]["community_chest_squares"]    # 2, 17, 33
CHEST = {"2021": CARDS["community_chest"], "2008": CARDS["community_chest_2008_to_2021"]}
JAIL = 10
RAILROADS = tuple(reference_board()["railroads"]["indices"])
RAILROAD_RENT = reference_board()["railroads"]["rent_by_number_owned"]
CHANCE_JAIL_CARD = "ch_get_out_of_jail_free"
CHEST_JAIL_CARD = "cc21_rescue_puppy"


def by_id(card_id: str) -> dict:
    return next(c for deck in (CARDS["chance"], *CHEST.values()) for c in deck if c["id"] == card_id)


def destinations(card: dict) -> dict:
    """Where a moving card lands from each draw square. The 2008 "Advance to Go" carries no table
    in the reference; the 2021 card that replaced it has the same effect, so it has the same one."""
    if "destinations" in card:
        return card["destinations"]
    [twin] = [c for c in CHEST["2021"] if c["effect"] == card["effect"]]
    return twin["destinations"]


def every_draw() -> list:
    """(Community Chest edition, deck, reference card, draw square) for every card of every deck."""
    decks = [("2021", "chance", CARDS["chance"], CHANCE_SQUARES)]
    decks += [(edition, "chest", cards, CHEST_SQUARES) for edition, cards in CHEST.items()]
    return [pytest.param(edition, deck, card, square, id=f"{edition}-{card['id']}-from-{square}")
            for edition, deck, cards, squares in decks for card in cards for square in squares]


def drawing(square: int, players: int = 3, settings=None, state=None, who=ANN):
    """`who` (on turn) rolls 1 and 2 onto a Chance or Community Chest square and the game asks
    which card they drew."""
    state = state or started(players, settings)
    state = play(place(state, who, (square - 3) % 40), who, "roll", dice=[1, 2])
    deck = "chance" if square in CHANCE_SQUARES else "chest"
    assert state.pending == {"kind": "draw", "player": who, "deck": deck, "square": square}
    return state


def next_turn(state, who=ANN):
    """The current player ends the turn if they rolled; the others take a quiet turn (4+6 from
    GO) until it is `who`'s."""
    if state.rolled:
        state = play(state, state.turn, "end_turn")
    while state.turn != who:
        state = play(place(state, state.turn, 0), state.turn, "roll", dice=[4, 6])
        state = play(state, state.turn, "end_turn")
    return state


def expected(card: dict, square: int) -> dict:
    """What drawing `card` at `square` does to Ann in a fresh three-player game (nothing owned,
    no buildings), worked out from the reference card and board alone."""
    effect = card["effect"]
    out = {"position": square, "transfers": [], "pending": None, "in_jail": False, "jail_cards": []}
    kind = effect["kind"]
    if kind in ("move_to", "advance_to_nearest", "move_back"):
        where = destinations(card)[str(square)]
        lands = out["position"] = where["lands_on"]
        if where.get("lands_on_go"):
            out["transfers"].append(("bank", ANN, effect["collect_on_arrival"], "salary"))
        elif where["passes_go"]:
            out["transfers"].append(("bank", ANN, BOARD[0]["salary"], "salary"))
        landed = BOARD[lands]["type"]
        if landed in ("street", "railroad", "utility"):
            out["pending"] = {"kind": "buy", "player": ANN, "square": lands}
        elif landed == "tax":
            out["transfers"].append((ANN, "bank", BOARD[lands]["amount"], "tax"))
        elif landed == "community_chest":
            out["pending"] = {"kind": "draw", "player": ANN, "deck": "chest", "square": lands}
        else:
            assert landed == "go", landed
    elif kind == "collect":
        out["transfers"] = [("bank", ANN, effect["amount"], "card")]
    elif kind == "pay":
        out["transfers"] = [(ANN, "bank", effect["amount"], "card")]
    elif kind == "collect_from_each_player":
        out["transfers"] = [(other, ANN, effect["amount"], "card") for other in (BOB, CY)]
    elif kind == "pay_each_player":
        out["transfers"] = [(ANN, other, effect["amount"], "card") for other in (BOB, CY)]
    elif kind == "get_out_of_jail_free":
        out["jail_cards"] = [card["id"]]
    elif kind == "go_to_jail":
        out["position"], out["in_jail"] = JAIL, True
    else:
        assert kind == "repairs", kind  # no buildings yet: nothing to pay
    return out


@pytest.mark.parametrize("edition, deck, card, square", every_draw())
def test_every_card_from_every_square_does_what_the_reference_says(edition, deck, card, square):
    state = drawing(square, settings=Settings(community_chest=edition))
    state, effects = act(state, ANN, "draw", deck=deck, card=card["id"])
    ann = state.player(ANN)
    assert {"kind": "drew", "player": ANN, "deck": deck, "card": card["id"]} in effects
    assert {
        "position": ann.position, "transfers": transfers(effects), "pending": state.pending,
        "in_jail": ann.in_jail, "jail_cards": ann.jail_cards,
    } == expected(card, square)
    assert state.debts == []


def test_the_decks_hold_sixteen_cards_each_and_the_engine_knows_them_all():
    for cards in (CARDS["chance"], *CHEST.values()):
        assert len(cards) == 16
    assert len(every_draw()) == 3 * 16 * 3


# Moves: GO, jail, going back


def test_advance_to_go_pays_the_salary_once_on_arrival():
    state, effects = act(drawing(36), ANN, "draw", deck="chance", card="ch_advance_go")
    assert transfers(effects) == [("bank", ANN, 200, "salary")]
    assert cash(state, ANN) == 1700 and state.player(ANN).position == 0


def test_a_go_to_jail_card_pays_no_salary_and_ends_the_rolling_even_after_doubles():
    state = play(place(started(3), ANN, 34), ANN, "roll", dice=[1, 1])  # doubles onto Chance 36
    assert state.doubles == 1 and not state.rolled
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_go_to_jail")
    assert transfers(effects) == []
    assert (state.player(ANN).position, state.player(ANN).in_jail) == (JAIL, True)
    assert refusal(state, ANN, "roll", RuleError, dice=[2, 3]).code == "already_rolled"
    assert play(state, ANN, "end_turn").turn == BOB


def test_go_back_three_from_36_lands_on_community_chest_and_asks_for_that_card_too():
    state = play(drawing(36), ANN, "draw", deck="chance", card="ch_go_back_3")
    assert state.pending == {"kind": "draw", "player": ANN, "deck": "chest", "square": 33}
    assert refusal(state, ANN, "draw", RuleError, deck="chance", card="ch_dividend").code == "wrong_deck"
    state, effects = act(state, ANN, "draw", deck="chest", card="cc21_storm_cleanup")
    assert transfers(effects) == [("bank", ANN, 200, "card")]
    assert state.pending is None and cash(state, ANN) == 1700


def test_go_back_three_never_passes_go():
    state, effects = act(drawing(7), ANN, "draw", deck="chance", card="ch_go_back_3")
    assert state.player(ANN).position == 4
    assert transfers(effects) == [(ANN, "bank", 200, "tax")]


def test_go_back_three_onto_an_owned_street_pays_its_rent():
    state = owning(drawing(22), BOB, 19)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_go_back_3")
    assert transfers(effects) == [(ANN, BOB, BOARD[19]["rent"][0], "rent")]


# Nearest railroad: twice the rent, an offer when unowned, nothing when mortgaged


@pytest.mark.parametrize("held", [1, 2, 3, 4])
def test_the_nearest_railroad_card_pays_twice_the_rent_for_the_railroads_held(held):
    others = [r for r in RAILROADS if r != 15][:held - 1]
    state = owning(drawing(7), BOB, 15, *others)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_nearest_railroad_1")
    assert state.player(ANN).position == 15
    assert transfers(effects) == [(ANN, BOB, 2 * RAILROAD_RENT[str(held)], "rent")]
    rent = next(e for e in effects if e.get("reason") == "rent")
    assert rent["doubled_by_card"] is True


def test_the_nearest_railroad_from_36_passes_go_then_pays_double():
    state = owning(drawing(36), BOB, 5)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_nearest_railroad_2")
    assert transfers(effects) == [("bank", ANN, 200, "salary"), (ANN, BOB, 50, "rent")]


def test_the_nearest_railroad_mortgaged_costs_nothing():
    state = owning(drawing(22), BOB, 25, 35, mortgaged=[25])
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_nearest_railroad_1")
    assert transfers(effects) == []
    assert {"kind": "no_rent", "player": ANN, "square": 25} in effects
    assert state.pending is None


def test_the_nearest_railroad_of_your_own_costs_nothing():
    state = owning(drawing(22), ANN, 25)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_nearest_railroad_1")
    assert transfers(effects) == [] and state.pending is None


def test_the_nearest_railroad_unowned_is_offered_and_declining_auctions_it():
    state = play(drawing(7), ANN, "draw", deck="chance", card="ch_nearest_railroad_1")
    assert legal_actions(state, ANN) >= {"buy", "decline"}
    state = play(state, ANN, "decline")
    assert state.auction.square == 15
    state = play(play(state, ANN, "bid", amount=120), BOB, "pass")
    state = play(state, CY, "pass")
    assert state.deeds[15].owner == ANN and cash(state, ANN) == 1380


def test_the_trip_to_reading_charges_the_plain_rent():
    state = owning(drawing(22), BOB, 5)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_trip_reading")
    assert transfers(effects) == [("bank", ANN, 200, "salary"), (ANN, BOB, 25, "rent")]


# Nearest utility: a new roll at ten times, whatever the owner holds


@pytest.mark.parametrize("square, utility, salary", [(7, 12, 0), (22, 28, 0), (36, 12, 200)])
def test_the_nearest_utility_card_asks_for_a_new_roll_and_charges_ten_times_it(square, utility, salary):
    state = owning(drawing(square), BOB, utility)  # one utility: the deed alone would say 4x
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_nearest_utility")
    assert transfers(effects) == ([("bank", ANN, salary, "salary")] if salary else [])
    assert state.pending == {"kind": "utility_roll", "player": ANN, "square": utility}
    assert "utility_roll" in legal_actions(state, ANN)
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"
    state, effects = act(state, ANN, "utility_roll", dice=[3, 4])
    assert transfers(effects) == [(ANN, BOB, 70, "rent")]
    assert state.pending is None and cash(state, BOB) == 1570


def test_the_nearest_utility_with_both_held_is_still_ten_times():
    state = play(owning(drawing(7), BOB, 12, 28), ANN, "draw", deck="chance", card="ch_nearest_utility")
    assert transfers(act(state, ANN, "utility_roll", dice=[6, 6])[1]) == [(ANN, BOB, 120, "rent")]


def test_the_utility_roll_short_of_cash_becomes_a_debt_to_the_owner():
    state = play(drawing(7), BANKER, "bank_charge", player=ANN, amount=1450)
    state = play(owning(state, BOB, 12), ANN, "draw", deck="chance", card="ch_nearest_utility")
    state = play(state, ANN, "utility_roll", dice=[5, 6])
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (ANN, BOB, 110, "rent")


def test_the_nearest_utility_mortgaged_or_your_own_costs_nothing_and_needs_no_roll():
    mortgaged = play(owning(drawing(7), BOB, 12, mortgaged=[12]), ANN, "draw", deck="chance",
                     card="ch_nearest_utility")
    own = play(owning(drawing(7), ANN, 12), ANN, "draw", deck="chance", card="ch_nearest_utility")
    for state in (mortgaged, own):
        assert state.pending is None and cash(state, ANN) == 1500


def test_a_utility_roll_is_refused_when_none_is_due():
    assert refusal(started(), ANN, "utility_roll", RuleError, dice=[1, 2]).code == "no_utility_roll"
    state = play(owning(drawing(7), BOB, 12), ANN, "draw", deck="chance", card="ch_nearest_utility")
    assert refusal(state, BOB, "utility_roll", RuleError, dice=[1, 2]).code == "no_utility_roll"


# Repairs, paying and collecting


def built_up(state):
    """Ann has a hotel and 4 houses on brown, and 2+2+1 houses on light blue (9 houses, 1 hotel);
    Bob has a house on each dark blue lot, which Ann's repairs do not count."""
    state = funded(owning(state, ANN, *BROWN, *LIGHT_BLUE), ANN, 1000)
    state = set_buildings(state, ANN, {1: 5, 3: 4})
    state = set_buildings(state, ANN, {6: 2, 8: 2, 9: 1})
    state = funded(owning(state, BOB, *DARK_BLUE), BOB, 1000)
    return set_buildings(state, BOB, {37: 1, 39: 1})


REPAIRS = [pytest.param(edition, deck, card, id=card["id"])
           for edition, deck, cards in (("2021", "chance", CARDS["chance"]), *(
               (edition, "chest", cards) for edition, cards in CHEST.items()))
           for card in cards if card["effect"]["kind"] == "repairs"]


@pytest.mark.parametrize("edition, deck, card", REPAIRS)
def test_repairs_charge_per_house_and_per_hotel_of_the_drawer(edition, deck, card):
    square = 7 if deck == "chance" else 17
    state = built_up(drawing(square, settings=Settings(community_chest=edition)))
    before = cash(state, ANN)
    state, effects = act(state, ANN, "draw", deck=deck, card=card["id"])
    due = 9 * card["effect"]["per_house"] + card["effect"]["per_hotel"]
    assert transfers(effects) == [(ANN, "bank", due, "repairs")]
    assert cash(state, ANN) == before - due


def test_repairs_without_buildings_cost_nothing():
    state, effects = act(drawing(7), ANN, "draw", deck="chance", card="ch_general_repairs")
    assert transfers(effects) == [] and {"kind": "no_repairs", "player": ANN} in effects


def test_repairs_short_of_cash_become_a_debt_to_the_bank():
    state = built_up(drawing(7))
    state = play(state, ANN, "pay", to="bank", amount=cash(state, ANN) - 100)
    state = play(state, ANN, "draw", deck="chance", card="ch_general_repairs")
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount) == (ANN, "bank", 325)


def short_chairman():
    """Ann, with $60, draws "Pay each player $50" (Bob and Cy: $100 in all)."""
    state = play(drawing(7), BANKER, "bank_charge", player=ANN, amount=1440)
    state, effects = go(state, ANN, "draw", deck="chance", card="ch_chairman")
    assert transfers(effects) == []  # nobody is paid yet: the bank pays nobody on her behalf
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason, debt.payees) == (ANN, "bank", 100, "card", [BOB, CY])
    assert (cash(state, ANN), cash(state, BOB), cash(state, CY)) == (60, 1500, 1500)
    return state


def test_pay_each_player_that_the_drawer_raises_the_cash_for_pays_each_player():
    state = play(owning(short_chairman(), ANN, 39), ANN, "mortgage", square=39)  # +200
    state, effects = go(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, BOB, 50, "card"), (ANN, CY, 50, "card")]
    assert (cash(state, ANN), cash(state, BOB), cash(state, CY)) == (160, 1550, 1550) and state.debts == []


def test_pay_each_player_that_cannot_be_paid_is_a_bankruptcy_to_the_bank_and_nobody_is_paid():
    """JMA rules, last section: the other players are not paid; no money is made."""
    state, effects = go(short_chairman(), ANN, "bankrupt")
    assert {"kind": "bankrupt", "player": ANN, "creditor": "bank"} in effects
    assert transfers(effects) == [(ANN, "bank", 60, "bankruptcy")]
    assert (cash(state, BOB), cash(state, CY)) == (1500, 1500) and state.debts == []


def test_a_share_of_a_player_who_went_bankrupt_meanwhile_stays_with_the_bank():
    state = short_chairman()
    state.player(CY).bankrupt = True
    state = play(owning(state, ANN, 39), ANN, "mortgage", square=39)
    state, effects = act(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, BOB, 50, "card"), (ANN, "bank", 50, "card")]


def test_pay_each_player_with_just_enough_cash_pays_them_directly():
    state = play(drawing(7), BANKER, "bank_charge", player=ANN, amount=1400)
    state, effects = act(state, ANN, "draw", deck="chance", card="ch_chairman")
    assert transfers(effects) == [(ANN, BOB, 50, "card"), (ANN, CY, 50, "card")]
    assert state.debts == [] and cash(state, ANN) == 0


def test_collect_from_each_player_turns_what_one_cannot_pay_into_a_debt_to_the_drawer():
    state = play(drawing(2), BANKER, "bank_charge", player=CY, amount=1495)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc21_block_party")
    assert transfers(effects) == [(BOB, ANN, 10, "card")]
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount) == (CY, ANN, 10)


# Get Out of Jail Free


def holding(card_id=CHANCE_JAIL_CARD, players=3):
    """Ann drew a Get Out of Jail Free card on her first turn and ended it."""
    square = 7 if card_id.startswith("ch") else 2
    deck = "chance" if square == 7 else "chest"
    state = play(drawing(square, players), ANN, "draw", deck=deck, card=card_id)
    return play(state, ANN, "end_turn")


def jailed_with_card(card_id=CHANCE_JAIL_CARD):
    """Ann holds the card and went to jail; it is her turn again, before rolling."""
    state = next_turn(holding(card_id))
    state = play(place(state, ANN, 27), ANN, "roll", dice=[1, 2])
    assert state.player(ANN).in_jail
    return next_turn(state)


def test_a_held_card_cannot_be_drawn_by_anyone_else():
    state = drawing(22, who=BOB, state=holding())
    error = refusal(state, BOB, "draw", RuleError, deck="chance", card=CHANCE_JAIL_CARD)
    assert (error.code, error.params["player"]) == ("card_in_hand", ANN)


@pytest.mark.parametrize("card_id, deck", [(CHANCE_JAIL_CARD, "chance"), (CHEST_JAIL_CARD, "chest")])
def test_the_card_gets_its_holder_out_of_jail_and_goes_back_to_its_own_deck(card_id, deck):
    state = jailed_with_card(card_id)
    before = cash(state, ANN)
    assert "use_jail_card" in legal_actions(state, ANN)
    state, effects = act(state, ANN, "use_jail_card")
    ann = state.player(ANN)
    assert (ann.in_jail, ann.jail_cards, ann.cash, ann.position) == (False, [], before, JAIL)
    assert {"kind": "left_jail", "player": ANN, "how": "card", "card": card_id, "deck": deck} in effects
    state = play(state, ANN, "roll", dice=[1, 2])
    assert state.player(ANN).position == 13
    state = play(play(play(state, ANN, "decline"), ANN, "pass"), BOB, "pass")
    state = play(play(state, CY, "pass"), ANN, "end_turn")
    square = 22 if deck == "chance" else 17
    state = play(drawing(square, who=BOB, state=state), BOB, "draw", deck=deck, card=card_id)
    assert state.player(BOB).jail_cards == [card_id]


def test_a_named_card_is_the_one_used():
    state = jailed_with_card()
    state.player(ANN).jail_cards.append(CHEST_JAIL_CARD)  # set-up: a second card, as if bought
    state = play(state, ANN, "use_jail_card", card=CHEST_JAIL_CARD)
    assert state.player(ANN).jail_cards == [CHANCE_JAIL_CARD]


def test_using_a_card_not_held_is_refused():
    state = jailed_with_card()
    assert refusal(state, ANN, "use_jail_card", RuleError, card=CHEST_JAIL_CARD).code == "no_jail_card"
    assert refusal(state, ANN, "use_jail_card", RuleError, card="no_such").code == "no_jail_card"
    state.player(ANN).jail_cards.clear()  # set-up: the card given away
    assert "use_jail_card" not in legal_actions(state, ANN)
    assert refusal(state, ANN, "use_jail_card", RuleError).code == "no_jail_card"


def test_using_a_card_out_of_jail_is_refused():
    state = holding()
    assert "use_jail_card" not in legal_actions(state, ANN)
    assert refusal(state, ANN, "use_jail_card", RuleError).code == "not_in_jail"


def test_using_a_card_after_rolling_is_refused():
    state = play(jailed_with_card(), ANN, "roll", dice=[1, 2])
    assert "use_jail_card" not in legal_actions(state, ANN)
    assert refusal(state, ANN, "use_jail_card", RuleError).code == "already_rolled"


def test_using_a_card_out_of_turn_is_refused():
    state = play(jailed_with_card(), ANN, "roll", dice=[1, 2])
    state = play(state, ANN, "end_turn")
    assert refusal(state, ANN, "use_jail_card", RuleError).code == "not_your_turn"


def test_the_card_can_be_traded():
    state = holding()
    state, effects = act(state, ANN, "offer_trade", to=CY,
                         give={"jail_cards": [CHANCE_JAIL_CARD]}, get={"cash": 40})
    [trade] = state.trades
    state = play(state, CY, "accept_trade", trade=trade.id)
    assert (state.player(ANN).jail_cards, state.player(CY).jail_cards) == ([], [CHANCE_JAIL_CARD])
    assert (cash(state, ANN), cash(state, CY)) == (1540, 1460)


def test_offering_a_card_not_held_is_refused():
    state = holding()
    error = refusal(state, BOB, "offer_trade", RuleError, to=ANN, give={"jail_cards": [CHANCE_JAIL_CARD]})
    assert error.code == "no_card"
    error = refusal(state, ANN, "offer_trade", RuleError, to=BOB, give={"jail_cards": [CHEST_JAIL_CARD]})
    assert error.code == "no_card"


# Bad input


def test_a_card_while_none_is_due_is_refused():
    error = refusal(started(), ANN, "draw", RuleError, deck="chance", card="ch_dividend")
    assert error.code == "no_draw"


def test_only_the_player_who_landed_draws():
    assert refusal(drawing(7), BOB, "draw", RuleError, deck="chance", card="ch_dividend").code == "no_draw"


def test_naming_the_other_deck_is_refused():
    error = refusal(drawing(7), ANN, "draw", RuleError, deck="chest", card="cc21_storm_cleanup")
    assert (error.code, error.params["deck"]) == ("wrong_deck", "Chance")


def test_a_card_of_the_other_deck_is_refused():
    error = refusal(drawing(7), ANN, "draw", ActionError, deck="chance", card="cc21_storm_cleanup")
    assert error.code == "no_such_card"


@pytest.mark.parametrize("edition, card_id", [("2008", "cc21_storm_cleanup"), ("2021", "cc08_bank_error")])
def test_a_card_of_the_other_community_chest_edition_is_refused(edition, card_id):
    state = drawing(17, settings=Settings(community_chest=edition))
    assert refusal(state, ANN, "draw", ActionError, deck="chest", card=card_id).code == "no_such_card"


@pytest.mark.parametrize("fields, code", [
    ({"deck": "chance", "card": "ch_free_money"}, "no_such_card"),
    ({"deck": "pile", "card": "ch_dividend"}, "bad_field"),
    ({"deck": "chance"}, "missing_field"),
    ({"deck": "chance", "card": "x" * 41}, "bad_field"),
    ({"deck": "chance", "card": 7}, "bad_field"),
])
def test_a_malformed_draw_is_refused(fields, code):
    state = drawing(7)
    assert refusal(state, ANN, "draw", ActionError, **fields).code == code
    assert state.pending["kind"] == "draw"


def test_a_turn_cannot_end_or_roll_on_before_the_card_is_drawn():
    state = drawing(7)
    assert legal_actions(state, ANN) == {"draw", "pay"}
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"


# Undo


def test_undoing_a_draw_restores_the_state_before_it_exactly():
    game = Logged(3)
    game.do(ANN, "roll", dice=[2, 3])
    game.do(ANN, "buy")                       # Ann owns Reading Railroad
    game.do(ANN, "end_turn")
    game.do(BANKER, "move", player=BOB, square=33)
    game.do(BOB, "roll", dice=[1, 2])         # Chance 36
    before = game.state
    effects = game.do(BOB, "draw", deck="chance", card="ch_nearest_railroad_2")
    assert transfers(effects) == [("bank", BOB, 200, "salary"), (BOB, ANN, 50, "rent")]
    assert game.undone().to_dict() == before.to_dict()


def test_undoing_a_jail_card_draw_puts_the_card_back_in_the_deck():
    game = Logged(2)
    game.do(BANKER, "move", player=ANN, square=4)
    game.do(ANN, "roll", dice=[1, 2])
    before = game.state
    game.do(ANN, "draw", deck="chance", card=CHANCE_JAIL_CARD)
    assert game.state.player(ANN).jail_cards == [CHANCE_JAIL_CARD]
    undone = game.undone()
    assert undone.to_dict() == before.to_dict()
    assert undone.player(ANN).jail_cards == []
