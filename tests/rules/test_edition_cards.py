"""Each edition's own Chance and Community Chest cards (docs/rules.md, Chance and Community Chest):
the printings and the setting `cards` that chooses one; the effects only those decks have, with
balances worked out by hand: going back to a square (no GO salary, then an ordinary landing), a
fine or a card from the other deck (the drawer's choice, `card_choice`), the nearest station at its
ordinary rent; and every card of every printing drawn from every square of its deck.

The boards all have the US numbers: Belleville / Old Kent Road / Campo Grande (1) costs 60 and
rents 2 (4 with Rue Lecourbe, 3, in the same hands); a station rents 25, 50, 100 or 200.
"""

import re

import pytest

from banker.rules import ActionError, NotAllowed, RuleError, Settings, legal_actions
from banker.rules.board import PRINTINGS, load_board
from banker.rules.cards import apply_effect, deck, printing, printing_decks
from banker.rules.state import GameState

from . import (
    ANN, BANKER, BOB, Logged, act, cash, edition_settings, money, owning, place, play, refusal, started, transfers,
)

CHANCE_SQUARES = (7, 22, 36)
CHEST_SQUARES = (2, 17, 33)
BOARD_OF = {"us_2021": "us", "us_2008": "us", "uk_classic": "uk", "uk_modern": "uk", "fr": "fr",
            "fr_variant": "fr", "pt": "pt", "ja_2008": "ja", "ja_classic": "ja"}
# The "go back to square 1" and "a fine of 10 or a Chance card" cards of each classic deck.
GO_BACK = {"fr": "cc_go_back_belleville", "uk": "cc_go_back_old_kent_road", "pt": "cc_recue_campo_grande"}
FINE_OR_CHANCE = {"fr": "cc_fine_or_chance", "uk": "cc_fine_or_chance", "pt": "cc_multa_ou_sorte"}
KNOWN_KINDS = {"move_to", "move_back", "go_back_to", "advance_to_nearest", "move_to_nearest", "collect", "pay",
               "collect_from_each_player", "pay_each_player", "repairs", "get_out_of_jail_free", "go_to_jail",
               "pay_or_draw"}


def drawing(square: int, edition: str = "fr", players: int = 3, state=None, **settings):
    """Ann rolls 1 and 2 onto a Chance or Community Chest square of a game on `edition`'s board
    (its own cards unless `cards` says otherwise) and the game asks which card she drew. From 2 she
    passes GO on the way (1,700); from anywhere else she still has 1,500."""
    state = state or started(players, edition_settings(edition, **settings), edition)
    state = play(place(state, ANN, (square - 3) % 40), ANN, "roll", dice=[1, 2])
    deck_name = "chance" if square in CHANCE_SQUARES else "chest"
    assert state.pending == {"kind": "draw", "player": ANN, "deck": deck_name, "square": square}
    return state


# The printings and the setting


def test_each_board_plays_its_own_printing_by_default():
    own = {edition: printing(edition_settings(edition)) for edition in ("us", "uk", "fr", "pt", "ja")}
    assert own == {"us": "us_2021", "uk": "uk_classic", "fr": "fr", "pt": "pt", "ja": "ja_2008"}


def test_the_us_community_chest_setting_still_chooses_the_us_chest():
    assert printing(edition_settings("us", community_chest="2008")) == "us_2008"
    assert printing(edition_settings("us", preset="classic")) == "us_2008"
    assert [c["id"] for c in deck(started(2, Settings(community_chest="2008")), "chest")][0] == "cc08_advance_go"
    # Japan's Community Chest since 2008 is the US 2008 one in Japanese: both years give it.
    assert printing(edition_settings("ja", community_chest="2008")) == "ja_2008"
    assert printing(edition_settings("ja", preset="classic")) == "ja_2008"


@pytest.mark.parametrize("name", sorted(PRINTINGS))
def test_any_printing_can_be_chosen(name):
    assert printing(edition_settings("us", cards=name)) == name
    assert printing(edition_settings("uk", cards=name)) == name


@pytest.mark.parametrize("value", ["uk", "UK_CLASSIC", "us_1935", "", 1, None, ["fr"]])
def test_an_unknown_printing_is_refused(value):
    with pytest.raises(ActionError) as caught:
        Settings.parse({"cards": value})
    assert caught.value.code == "bad_setting" and caught.value.params["key"] == "cards"


@pytest.mark.parametrize("name", sorted(PRINTINGS))
def test_each_printing_has_sixteen_and_sixteen_cards_with_unique_ids_and_known_effects(name):
    decks = printing_decks(name)
    ids = [c["id"] for cards in decks.values() for c in cards]
    assert [len(decks["chance"]), len(decks["chest"])] == [16, 16]
    assert len(set(ids)) == 32
    for c in (c for cards in decks.values() for c in cards):
        assert c["text"].strip() and c["effect"]["kind"] in KNOWN_KINDS
        assert 0 <= c["effect"].get("square", 0) < 40
        assert all(isinstance(v, int) and v > 0 for k, v in c["effect"].items()
                   if k in ("amount", "per_house", "per_hotel", "spaces"))
        if c["effect"]["kind"] == "pay_or_draw":
            assert c["effect"]["deck"] in ("chance", "chest")


# A square's name as a card prints it where that is shorter than the board's: the classic French
# Community Chest card says « Retournez à Belleville ».
PRINTED_SHORT = {("fr", 1): "Belleville"}
# A square's name on the boards whose cards print their own words, by the word that begins or ends
# it ("Rua ...", "... Station"): a card text holding one names a square, and it must be its board's.
STREET_WORDS = re.compile(r"\b(?:Av\.|Avenida|Avenue|Boulevard|Estação|Gare|Praça|Rua|Rue) \S"
                          r"|\b[A-Z][\w']* (?:Road|Square|Station|Street)\b|通り|プレース")


def _without_city(name: str) -> str:
    """"Rossio (Lisboa)" → "Rossio": a card may leave out the city the board adds."""
    return re.sub(r"\s*\([^)]*\)$", "", name)


@pytest.mark.parametrize("name", [n for n in PRINTINGS if not n.startswith("us_")])
def test_every_card_names_its_boards_squares_as_the_board_names_them(name):
    """The printed words of a card that sends the token to a square name that square as its board
    does (the Portuguese cards once named Av. Central, a square of another board, for Avenida dos
    Combatentes); and no card names a square its board does not have."""
    board = load_board(BOARD_OF[name])
    names = {s.index: s.name for s in board.squares}
    known = sorted({*names.values(), *map(_without_city, names.values()), *PRINTED_SHORT.values()}, key=len,
                   reverse=True)
    for c in (c for cards in printing_decks(name).values() for c in cards):
        text, square = c["text"].casefold(), c["effect"].get("square")
        if square is not None:
            said = PRINTED_SHORT.get((board.edition, square), _without_city(names[square]))
            assert said.casefold() in text, f"{c['id']} names {square} otherwise than {names[square]!r}: {c['text']}"
        rest = c["text"]
        for known_name in known:
            rest = re.sub(re.escape(known_name), " ", rest, flags=re.IGNORECASE)
        assert not STREET_WORDS.search(rest), f"{c['id']} names a square {board.edition!r} does not have: {c['text']}"


# Go back to a square: backwards, no GO salary, then an ordinary landing


@pytest.mark.parametrize("edition", sorted(GO_BACK))
@pytest.mark.parametrize("square", CHEST_SQUARES)
def test_going_back_to_an_unowned_street_pays_no_salary_and_offers_it(edition, square):
    state = drawing(square, edition)
    before = cash(state, ANN)
    assert before == (1700 if square == 2 else 1500)  # from 39 the roll to 2 passed GO
    state, effects = act(state, ANN, "draw", deck="chest", card=GO_BACK[edition])
    assert {"kind": "moved", "player": ANN, "from_square": square, "square": 1} in effects
    assert transfers(effects) == [] and cash(state, ANN) == before
    assert state.player(ANN).position == 1
    assert state.pending == {"kind": "buy", "player": ANN, "square": 1}
    state, effects = act(state, ANN, "buy")
    assert transfers(effects) == [(ANN, "bank", 60, "purchase")] and cash(state, ANN) == before - 60


@pytest.mark.parametrize("square", CHEST_SQUARES)
def test_going_back_to_an_owned_street_pays_its_rent(square):
    state = owning(drawing(square), BOB, 1)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_go_back_belleville")
    assert transfers(effects) == [(ANN, BOB, 2, "rent")]
    assert (cash(state, ANN), cash(state, BOB)) == ((1698 if square == 2 else 1498), 1502)
    assert state.pending is None


def test_going_back_to_a_lot_of_a_complete_group_pays_double():
    state = owning(drawing(17, "uk"), BOB, 1, 3)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_go_back_old_kent_road")
    assert transfers(effects) == [(ANN, BOB, 4, "rent")] and cash(state, ANN) == 1496


def test_going_back_to_a_mortgaged_street_costs_nothing():
    state = owning(drawing(33, "pt"), BOB, 1, mortgaged=[1])
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_recue_campo_grande")
    assert transfers(effects) == [] and cash(state, ANN) == 1500
    assert {"kind": "no_rent", "player": ANN, "square": 1} in effects and state.pending is None


def test_going_back_to_your_own_street_costs_nothing():
    state = owning(drawing(17), ANN, 1)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_go_back_belleville")
    assert transfers(effects) == [] and state.pending is None
    assert play(state, ANN, "end_turn").turn == BOB


def test_going_back_to_a_street_short_of_cash_owes_the_rent():
    state = owning(drawing(17), BOB, 1, 3)
    state = play(state, BANKER, "bank_charge", player=ANN, amount=1497)  # Ann keeps 3
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_go_back_belleville")
    assert transfers(effects) == [] and cash(state, ANN) == 3
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason, debt.square) == (ANN, BOB, 4, "rent", 1)


def test_going_back_behind_go_pays_no_salary_either():
    """A square ahead of the token is reached backwards too, through GO, and GO pays nothing."""
    state = drawing(7)
    effects = []
    apply_effect(state, state.player(ANN), {"kind": "go_back_to", "square": 39}, "test", effects)
    assert state.player(ANN).position == 39 and transfers(effects) == []
    assert state.pending == {"kind": "buy", "player": ANN, "square": 39}


# A fine or a card from the other deck


def choosing(square: int = 17, edition: str = "fr", **settings):
    """Ann drew the "fine of 10 or a Chance card" card: the game waits for her choice."""
    state, effects = act(drawing(square, edition, **settings), ANN, "draw", deck="chest",
                         card=FINE_OR_CHANCE[edition])
    assert {"kind": "card_choice_due", "player": ANN, "amount": 10, "deck": "chance"} in effects
    assert transfers(effects) == []
    assert state.pending == {"kind": "card_choice", "player": ANN, "amount": 10, "deck": "chance"}
    return state


@pytest.mark.parametrize("edition", sorted(FINE_OR_CHANCE))
@pytest.mark.parametrize("square", CHEST_SQUARES)
def test_choosing_to_pay_the_fine_pays_the_bank(edition, square):
    state = choosing(square, edition)
    before = cash(state, ANN)
    state, effects = act(state, ANN, "card_choice", choice="pay")
    assert transfers(effects) == [(ANN, "bank", 10, "card")]
    assert cash(state, ANN) == before - 10 == (1690 if square == 2 else 1490)
    assert state.pending is None and play(state, ANN, "end_turn").turn == BOB


@pytest.mark.parametrize("edition", sorted(FINE_OR_CHANCE))
@pytest.mark.parametrize("square", CHEST_SQUARES)
def test_choosing_to_draw_asks_for_a_chance_card_and_applies_it(edition, square):
    state = choosing(square, edition)
    before = cash(state, ANN)
    state, effects = act(state, ANN, "card_choice", choice="draw")
    assert transfers(effects) == []
    assert {"kind": "card_due", "player": ANN, "square": square, "deck": "chance"} in effects
    assert state.pending == {"kind": "draw", "player": ANN, "deck": "chance", "square": square}
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"
    dividend = next(c["id"] for c in deck(state, "chance") if c["effect"] == {"kind": "collect", "amount": 50})
    state, effects = act(state, ANN, "draw", deck="chance", card=dividend)
    assert transfers(effects) == [("bank", ANN, 50, "card")] and cash(state, ANN) == before + 50
    assert state.pending is None


def test_the_other_deck_is_the_one_drawn_after_choosing_to_draw():
    state = play(choosing(), ANN, "card_choice", choice="draw")
    assert refusal(state, ANN, "draw", RuleError, deck="chest", card="cc_doctor").code == "wrong_deck"
    assert refusal(state, ANN, "draw", ActionError, deck="chance", card="cc_doctor").code == "no_such_card"


def test_the_chance_card_drawn_instead_moves_the_token_from_where_it_stands():
    # From 17: Boulevard de la Villette (11) lies behind, so the way there passes Départ (+200);
    # Avenue Henri-Martin (24) lies ahead.
    state = play(choosing(17), ANN, "card_choice", choice="draw")
    after, effects = act(state, ANN, "draw", deck="chance", card="ch_bd_villette")
    assert transfers(effects) == [("bank", ANN, 200, "salary")] and after.player(ANN).position == 11
    assert after.pending == {"kind": "buy", "player": ANN, "square": 11}
    after, effects = act(state, ANN, "draw", deck="chance", card="ch_av_henri_martin")
    assert transfers(effects) == [] and after.player(ANN).position == 24
    after, effects = act(state, ANN, "draw", deck="chance", card="ch_go_back_3")
    assert after.player(ANN).position == 14 and after.pending == {"kind": "buy", "player": ANN, "square": 14}


def test_the_choice_is_offered_and_blocks_the_turn_until_made():
    state = choosing()
    assert "card_choice" in legal_actions(state, ANN) and "end_turn" not in legal_actions(state, ANN)
    assert "card_choice" not in legal_actions(state, BOB)
    assert refusal(state, ANN, "end_turn", RuleError).code == "decision_pending"
    assert refusal(state, ANN, "draw", RuleError, deck="chance", card="ch_dividend").code == "no_draw"


def test_the_drawer_short_of_cash_may_still_choose_to_pay_and_owes_the_fine():
    state = play(choosing(), BANKER, "bank_charge", player=ANN, amount=1495)  # Ann keeps 5
    assert "card_choice" in legal_actions(state, ANN)
    state, effects = act(state, ANN, "card_choice", choice="pay")
    assert transfers(effects) == [] and cash(state, ANN) == 5 and state.pending is None
    [debt] = state.debts
    assert (debt.debtor, debt.creditor, debt.amount, debt.reason) == (ANN, "bank", 10, "card")
    assert refusal(state, ANN, "end_turn", RuleError).code == "in_debt"
    state = play(state, BANKER, "bank_pay", player=ANN, amount=5)
    state, effects = act(state, ANN, "pay_debt")
    assert transfers(effects) == [(ANN, "bank", 10, "card")] and cash(state, ANN) == 0 and not state.debts


def test_the_drawer_short_of_cash_may_draw_instead_and_owes_nothing():
    state = play(choosing(), BANKER, "bank_charge", player=ANN, amount=1495)
    state, effects = act(state, ANN, "card_choice", choice="draw")
    assert transfers(effects) == [] and not state.debts and cash(state, ANN) == 5


def test_the_fine_goes_to_the_pot_under_the_jackpot_house_rule():
    state, effects = act(choosing(free_parking_jackpot=True), ANN, "card_choice", choice="pay")
    assert transfers(effects) == [(ANN, "free_parking", 10, "card")]
    assert (cash(state, ANN), state.free_parking) == (1490, 10)


def test_the_banker_may_choose_for_the_seat_and_another_player_may_not():
    state = choosing()
    _, effects = act(state, BANKER, "card_choice", player=ANN, choice="pay")
    assert transfers(effects) == [(ANN, "bank", 10, "card")]
    assert refusal(state, BOB, "card_choice", NotAllowed, player=ANN, choice="pay").code == "not_your_seat"
    assert refusal(state, BOB, "card_choice", RuleError, choice="pay").code == "no_card_choice"


def test_a_choice_with_none_due_is_refused():
    assert refusal(started(2), ANN, "card_choice", RuleError, choice="pay").code == "no_card_choice"
    assert refusal(drawing(17), ANN, "card_choice", RuleError, choice="draw").code == "no_card_choice"


@pytest.mark.parametrize("fields", [{}, {"choice": "maybe"}, {"choice": 1}, {"choice": "pay", "deck": "chance"}])
def test_a_malformed_choice_is_refused(fields):
    assert refusal(choosing(), ANN, "card_choice", ActionError, **fields).code in (
        "missing_field", "bad_field", "unknown_field")


# The nearest station, at its ordinary rent (the French variant deck)


@pytest.mark.parametrize("square, station", [(2, 5), (17, 25), (33, 35)])
def test_the_nearest_station_unowned_is_offered(square, station):
    state = drawing(square, cards="fr_variant")
    before = cash(state, ANN)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_nearest_station")
    assert {"kind": "moved", "player": ANN, "from_square": square, "square": station} in effects
    assert transfers(effects) == [] and cash(state, ANN) == before
    assert state.pending == {"kind": "buy", "player": ANN, "square": station}


@pytest.mark.parametrize("held, rent", [((25,), 25), ((25, 5), 50), ((25, 5, 15), 100), ((25, 5, 15, 35), 200)])
def test_the_nearest_station_owned_charges_its_ordinary_rent_not_double(held, rent):
    state = owning(drawing(17, cards="fr_variant"), BOB, *held)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_nearest_station")
    assert transfers(effects) == [(ANN, BOB, rent, "rent")]
    assert (cash(state, ANN), cash(state, BOB)) == (1500 - rent, 1500 + rent)


def test_the_nearest_station_mortgaged_or_your_own_costs_nothing():
    state = owning(drawing(33, cards="fr_variant"), BOB, 35, mortgaged=[35])
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_nearest_station")
    assert transfers(effects) == [] and {"kind": "no_rent", "player": ANN, "square": 35} in effects
    state = owning(drawing(33, cards="fr_variant"), ANN, 35)
    state, effects = act(state, ANN, "draw", deck="chest", card="cc_nearest_station")
    assert transfers(effects) == [] and state.pending is None


def test_the_nearest_station_past_go_pays_the_salary():
    """No Community Chest square lies past the last station; from Chance 36 the nearest is 5."""
    state = owning(drawing(36), BOB, 5)
    effects = []
    apply_effect(state, state.player(ANN), {"kind": "move_to_nearest", "type": "railroad"}, "test", effects)
    assert state.player(ANN).position == 5
    assert transfers(effects) == [("bank", ANN, 200, "salary"), (ANN, BOB, 25, "rent")]
    assert cash(state, ANN) == 1500 + 200 - 25


def test_the_nearest_utility_charges_the_ordinary_rent_on_the_roll_that_came_here():
    """Ann rolled 1 + 2 to Chance 22; Bob holds the Water Works (28) alone: 4 times 3."""
    state = owning(drawing(22), BOB, 28)
    effects = []
    apply_effect(state, state.player(ANN), {"kind": "move_to_nearest", "type": "utility"}, "test", effects)
    assert state.player(ANN).position == 28 and transfers(effects) == [(ANN, BOB, 12, "rent")]


# Undo is a replay of the log without the newest action


def test_undoing_each_new_effect_restores_the_state_before_it():
    game = Logged(3, edition="fr")
    game.do(BANKER, "move", player=ANN, square=14)
    game.do(ANN, "roll", dice=[1, 2])                                     # Caisse de communauté, 17
    before_draw = game.state
    game.do(ANN, "draw", deck="chest", card="cc_fine_or_chance")
    assert game.undone().to_dict() == before_draw.to_dict()
    before_choice = game.state
    game.do(ANN, "card_choice", choice="draw")
    assert game.undone().to_dict() == before_choice.to_dict()
    game.log.pop()
    game.state = before_choice
    game.do(ANN, "card_choice", choice="pay")
    assert game.undone().to_dict() == before_choice.to_dict()
    game.do(ANN, "end_turn")
    game.do(BANKER, "move", player=BOB, square=30)
    game.do(BOB, "roll", dice=[1, 2])                                     # Caisse de communauté, 33
    before_back = game.state
    game.do(BOB, "draw", deck="chest", card="cc_go_back_belleville")
    assert game.state.player(BOB).position == 1
    assert game.undone().to_dict() == before_back.to_dict()


def test_undoing_the_nearest_station_restores_the_state_before_it():
    game = Logged(2, settings=edition_settings("fr", cards="fr_variant"), edition="fr")
    game.do(ANN, "roll", dice=[2, 3])
    game.do(ANN, "buy")                                                   # Ann holds Gare Montparnasse (5)
    game.do(ANN, "end_turn")
    game.do(BANKER, "move", player=BOB, square=39)
    game.do(BOB, "roll", dice=[1, 2])                                     # passes Départ onto 2
    before = game.state
    effects = game.do(BOB, "draw", deck="chest", card="cc_nearest_station")
    assert transfers(effects) == [(BOB, ANN, 25, "rent")]
    assert game.undone().to_dict() == before.to_dict()


# Every card of every printing, drawn from every square of its deck


def every_draw() -> list:
    return [pytest.param(name, deck_name, c, square, id=f"{name}-{c['id']}-from-{square}")
            for name in sorted(PRINTINGS) for deck_name, cards in printing_decks(name).items() for c in cards
            for square in (CHANCE_SQUARES if deck_name == "chance" else CHEST_SQUARES)]


@pytest.mark.parametrize("name, deck_name, card, square", every_draw())
def test_every_card_of_every_printing_applies_on_its_board(name, deck_name, card, square):
    state = drawing(square, BOARD_OF[name], cards=name)
    after, effects = act(state, ANN, "draw", deck=deck_name, card=card["id"])
    _money_kept(state, after, effects)
    ann = after.player(ANN)
    if "destinations" in card:
        where = card["destinations"][str(square)]
        salary = where["passes_go"] or where["lands_on"] == 0
        assert ann.position == where["lands_on"]
        assert (("bank", ANN, 200, "salary") in transfers(effects)) == salary
    if card["effect"]["kind"] == "get_out_of_jail_free":
        assert ann.jail_cards == [card["id"]]
    if card["effect"]["kind"] == "pay_or_draw":
        for choice in ("pay", "draw"):
            chosen, effects = act(after, ANN, "card_choice", choice=choice)
            _money_kept(after, chosen, effects)


def _money_kept(before, after, effects) -> None:
    """What the players and the pot hold changes by what the bank paid out less what it took in."""
    flows = transfers(effects)
    assert money(after) - money(before) == (sum(a for f, _, a, _ in flows if f == "bank")
                                           - sum(a for _, t, a, _ in flows if t == "bank"))
    assert all(p.cash >= 0 for p in after.players)


@pytest.mark.parametrize("edition", ["uk", "fr", "pt", "ja"])
def test_a_board_s_game_offers_its_own_cards_and_refuses_the_us_ones(edition):
    state = drawing(7, edition)
    ids = [c["id"] for c in deck(state, "chance")]
    assert ids == [c["id"] for c in printing_decks(printing(edition_settings(edition)))["chance"]]
    if edition != "ja":  # the Japanese Chance is the US one, card for card
        assert refusal(state, ANN, "draw", ActionError, deck="chance", card="ch_advance_boardwalk").code == "no_such_card"
    assert load_board(edition).settings["cards"] == printing(edition_settings(edition))


def test_the_japanese_decks_are_the_us_2008_decks_card_for_card():
    us, ja = printing_decks("us_2008"), printing_decks("ja_2008")
    for name in ("chance", "chest"):
        assert {c["id"]: c["effect"] for c in ja[name]} == {c["id"]: c["effect"] for c in us[name]}
    assert printing_decks("ja_classic")["chance"] == ja["chance"]


def test_the_french_and_portuguese_decks_are_the_uk_classic_deck_card_for_card():
    """The same 32 effects (the French variant trades the hospital for the nearest station)."""
    def effects(name):
        return sorted(sorted(c["effect"].items()) for deck_cards in printing_decks(name).values() for c in deck_cards)
    assert effects("fr") == effects("uk_classic") == effects("pt")


def test_a_game_saved_before_the_setting_keeps_the_us_cards_it_was_played_with():
    """A snapshot (and the settings the store replays from) made before `cards` existed has none:
    such a game goes on with the US cards, whatever its board, so its log still replays."""
    saved = started(2, edition_settings("fr"), "fr").to_dict()
    del saved["settings"]["cards"]
    state = GameState.from_dict(saved)
    assert printing(state.settings) == "us_2021" and deck(state, "chest")[0]["id"] == "cc21_storm_cleanup"
