"""Chance and Community Chest on the screens: the card picker on the phone and in the banker's
tools, a held Get Out of Jail Free card shown in its holder's hand, and the other decisions a
card or a square asks for (the utility roll, the Income Tax choice, the jail card)."""

import json
import re
from html import unescape
from pathlib import Path

import pytest

from banker.rules.cards import printing_decks
from banker.rules.inputs import CARD_FIELDS

from .games import (
    JAILED_WITH_CARD, NEAREST_UTILITY, SCENARIOS, TO_CHANCE, TO_CHEST, new_game, page_form, page_forms, play, seat,
)

CARDS = json.loads((Path(__file__).parents[2] / "banker/rules/editions/us_cards.json").read_text())
# What each Chance card will do to Ann, drawn on Chance (7), in words under its printed ones.
CHANCE_OUTCOMES = {
    "ch_advance_boardwalk": "→ Boardwalk",
    "ch_advance_go": "→ GO, +$200",
    "ch_advance_illinois": "→ Illinois Avenue",
    "ch_advance_st_charles": "→ St. Charles Place",
    "ch_nearest_railroad_1": "→ Pennsylvania Railroad, rent ×2",
    "ch_nearest_railroad_2": "→ Pennsylvania Railroad, rent ×2",
    "ch_nearest_utility": "→ Electric Company, 10× a new roll",
    "ch_dividend": "+$50",
    "ch_get_out_of_jail_free": "Kept until you use it",
    "ch_go_back_3": "← Income Tax",
    "ch_go_to_jail": "→ Jail",
    "ch_general_repairs": "−$25 a house, −$100 a hotel",
    "ch_speeding_fine": "−$15",
    "ch_trip_reading": "→ Reading Railroad, +$200 for passing GO",
    "ch_chairman": "−$50 to each player",
    "ch_building_loan": "+$150",
}
# Ann keeps the Chance Get Out of Jail Free card and ends her turn; Bob rolls to Chance (7).
ANN_HOLDS_CHANCE_CARD = (TO_CHANCE, (1, {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"}),
                         (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [3, 4]}))
CARD_BUTTON = re.compile(r'<input type="hidden" name="card" value="([^"]+)">\s*<button class="game-card (\w+)"\s*'
                         r'(disabled)?>\s*<span class="words">(.*?)</span>\s*<strong>(.*?)</strong>\s*</button>', re.S)


def picker(html: str) -> list[tuple]:
    """The card picker's buttons: (card id, deck, disabled, printed words, what it does)."""
    return [(card, deck, bool(disabled), words, does.replace("\u2060", ""))  # the sign's word joiner
            for card, deck, disabled, words, does in CARD_BUTTON.findall(unescape(html))]


def test_the_phone_lists_the_sixteen_chance_cards_by_their_words_and_what_they_do(game, phone):
    play(game, TO_CHANCE)
    page = phone(game, 1).page()
    assert "Draw the top Chance card and tap the one you got:" in unescape(page)
    cards = picker(page)
    assert sorted(c[0] for c in cards) == sorted(c["id"] for c in CARDS["chance"])  # grouped: test_phone_screens
    assert {c[0]: c[4] for c in cards} == CHANCE_OUTCOMES
    assert all(deck == "chance" and not disabled for _, deck, disabled, _, _ in cards)
    words = {c[0]: c[3] for c in cards}
    assert words["ch_dividend"] == "Bank pays you dividend of $50."
    assert words["ch_advance_illinois"] == "Advance to Illinois Avenue. If you pass GO, collect $200."
    forms = page_forms(page, "draw")
    assert len(forms) == 17 and all(f.get("deck") == "chance" and f.action == f"/p/{game.code}/act" for f in forms)
    assert [f.get("card") for f in forms].count("custom") == 1  # Another card…
    assert not page_forms(page, "roll") and not page_forms(page, "end_turn")


@pytest.mark.parametrize("chest, deck", [("2021", "chest_2021"), ("2008", "chest_2008")])
def test_the_chest_picker_shows_the_deck_the_game_chose(client, phone, chest, deck):
    game = play(new_game(client, rules={"community_chest": chest}), TO_CHEST)
    page = phone(game, 1).page()
    assert "Draw the top Community Chest card and tap the one you got:" in unescape(page)
    cards = picker(page)
    assert sorted(c[0] for c in cards) == sorted(c["id"] for c in CARDS[deck])
    assert all(c[1] == "chest" for c in cards)
    does = {c[0]: c[4] for c in cards}
    if chest == "2021":
        assert does["cc21_walking_path"] == "+$50" and does["cc21_block_party"] == "+$10 from each player"
        assert does["cc21_home_improvement"] == "−$40 a house, −$115 a hotel"
    else:
        assert does["cc08_bank_error"] == "+$200" and does["cc08_doctors_fee"] == "−$50"


def test_a_held_jail_card_is_disabled_in_its_holders_hand(game, phone):
    play(game, *ANN_HOLDS_CHANCE_CARD)
    bob = phone(game, 2).page()
    cards = {c[0]: c for c in picker(bob)}
    assert len(cards) == 16
    held = cards["ch_get_out_of_jail_free"]
    assert held[2] and held[3].startswith("Get Out of Jail Free.") and held[4] == "in Ann's hand"
    assert [c for c, v in cards.items() if v[2]] == ["ch_get_out_of_jail_free"]
    assert not picker(phone(game, 1).page())  # Ann is not drawing


def test_a_kept_jail_card_shows_in_its_holders_wallet_and_on_the_host(game, phone, host):
    play(game, *ANN_HOLDS_CHANCE_CARD)
    ann, bob = phone(game, 1).page(), phone(game, 2).page()
    assert 'data-card="ch_get_out_of_jail_free"' in ann
    assert 'data-card=' not in bob
    assert 'class="badge card">Get Out of Jail Free' in host(game).page()


def test_the_banker_tools_show_the_picker_and_draw_for_the_current_player(game, host, stranger):
    play(game, *ANN_HOLDS_CHANCE_CARD)
    banker = host(game)
    page = banker.page()
    assert "Act for Bob" in unescape(page)
    cards = {c[0]: c for c in picker(page)}
    assert len(cards) == 16 and cards["ch_get_out_of_jail_free"][2]
    assert cards["ch_get_out_of_jail_free"][4] == "in Ann's hand"
    assert not picker(stranger(game).page())
    response = banker.submit(page_form(page, "draw", card="ch_building_loan"), htmx=True)
    assert response.status_code == 200
    assert "Bob drew “Your building loan matures. Collect $150”." in unescape(response.get_data(as_text=True))
    state = game.state()
    assert state["pending"] is None and seat(state, 2)["cash"] == 1650
    assert not picker(banker.page())


def test_a_drawn_card_is_told_in_the_history_on_every_screen(game, host, phone):
    play(game, TO_CHANCE)
    ann = phone(game, 1)
    ann.submit(page_form(ann.page(), "draw", card="ch_advance_boardwalk"))
    state = game.state()
    assert seat(state, 1)["position"] == 39 and state["pending"] == {"kind": "buy", "player": 1, "square": 39}
    assert "Ann drew “Advance to Boardwalk”. Ann moves to Boardwalk. Ann may buy Boardwalk." in unescape(host(game).page())
    assert "Boardwalk is for sale at $400." in unescape(ann.page())


def test_the_utility_roll_asks_for_the_dice_on_the_phone_and_the_host(client, host, phone):
    game = play(new_game(client), *NEAREST_UTILITY)
    page = unescape(phone(game, 1).page())
    assert "Roll the dice again: you pay the owner of Electric Company ten times the roll." in page
    roll = page_form(page, "utility_roll")
    assert roll.label == "Pay rent" and [n for n, _, _ in roll.boxes].count("die1") == 6
    assert not page_forms(page, "roll") and not page_forms(page, "end_turn")
    banker = host(game)
    tools = page_form(banker.page(), "utility_roll")
    response = banker.submit(tools, htmx=True)  # no die tapped (the radios are required): refused
    assert response.status_code == 422 and "Tap the number on each die." in response.get_data(as_text=True)
    assert game.state()["pending"]["kind"] == "utility_roll"
    banker.submit(tools, check=[6])  # 6 on each die
    assert game.cash() == {1: 1500 - 120, 2: 1490 + 120}


def test_the_income_tax_choice_shows_both_amounts(client, phone):
    game = play(new_game(client, rules={"income_tax": "choice"}), (1, {"type": "roll", "dice": [1, 3]}))
    ann = phone(game, 1)
    page = ann.page()
    assert "Income Tax: choose before counting what you are worth." in unescape(page)
    flat, percent = page_form(page, "income_tax", choice="flat"), page_form(page, "income_tax", choice="percent")
    assert flat.label == "Pay $200" and percent.label == "Pay 10% of my total worth"
    ann.submit(flat)
    assert game.cash() == {1: 1300, 2: 1500}
    assert not page_forms(ann.page(), "income_tax")


def test_a_flat_income_tax_asks_nothing(game, phone):
    play(game, (1, {"type": "roll", "dice": [1, 3]}))
    assert game.cash() == {1: 1300, 2: 1500}
    assert not page_forms(phone(game, 1).page(), "income_tax")


def test_the_jail_card_button_shows_only_to_a_jailed_holder_before_rolling(client, host, phone):
    game = play(new_game(client), *JAILED_WITH_CARD)
    ann = phone(game, 1)
    use = page_form(ann.page(), "use_jail_card")
    assert use.label == "Use a Get Out of Jail Free card"
    assert page_form(host(game).page(), "use_jail_card").label == "Use a Get Out of Jail Free card"  # the same words
    assert not page_forms(phone(game, 2).page(), "use_jail_card")
    ann.submit(use)
    state = game.state()
    assert not seat(state, 1)["in_jail"] and seat(state, 1)["jail_cards"] == []
    assert not page_forms(ann.page(), "use_jail_card")
    # The card went back to its deck: the next Community Chest draw may pick it again.
    play(game, (1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [3, 4]}))
    assert {c[0]: c[2] for c in picker(phone(game, 2).page())}["cc21_rescue_puppy"] is False


@pytest.mark.parametrize("edition, rules, printing", [
    ("uk", {}, "uk_classic"), ("uk", {"cards": "uk_modern"}, "uk_modern"), ("fr", {}, "fr"), ("pt", {}, "pt"),
    ("ja", {"community_chest": "2008"}, "ja_2008"), ("ja", {"cards": "ja_classic"}, "ja_classic"),
    ("us", {"cards": "fr_variant"}, "fr_variant"),
])
def test_the_picker_shows_the_printing_the_game_plays_in_its_printed_words(client, phone, edition, rules, printing):
    game = play(new_game(client, edition=edition, rules=rules), TO_CHEST)
    assert game.state()["rules"]["cards"] == printing
    cards = picker(phone(game, 1).page())
    printed = {c["id"]: c["text"] for c in printing_decks(printing)["chest"]}
    assert sorted(c[0] for c in cards) == sorted(printed)
    # Every card by its printed words, then what it does.
    assert all(c[1] == "chest" and c[3] == printed[c[0]] and c[4] for c in cards)


def test_what_the_new_kinds_of_card_do_is_said_from_where_the_drawer_stands(client, phone):
    game = play(new_game(client, edition="fr"), TO_CHEST)  # Ann on Caisse de communauté (2)
    does = {c[0]: c[4] for c in picker(phone(game, 1).page())}
    assert does["cc_go_back_belleville"] == "← Boulevard de Belleville, no salary"
    assert does["cc_fine_or_chance"] == "−€10 or a Chance card"
    game = play(new_game(client, rules={"cards": "fr_variant"}), TO_CHEST)
    assert {c[0]: c[4] for c in picker(phone(game, 1).page())}["cc_nearest_station"] == "→ Reading Railroad"
    game = play(new_game(client, edition="fr"), ("banker", {"type": "move", "player": 1, "square": 33}),
                (1, {"type": "roll", "dice": [1, 2]}))  # Chance (36)
    does = {c[0]: c[4] for c in picker(phone(game, 1).page())}
    assert does["ch_gare_de_lyon"] == "→ Gare de Lyon, +€200 for passing GO"  # in English, GO
    assert does["ch_rue_de_la_paix"] == "→ Rue de la Paix"


@pytest.mark.parametrize("rules, to_go, passing_go", [
    ({"go_salary": 400}, "→ GO, +$400", "+$400"),
    ({"go_exact_bonus": True}, "→ GO, +$400", "+$200"),  # double on GO itself, plain for passing it
])
def test_the_picker_tells_the_salary_the_rules_pay_under_house_rules(client, phone, rules, to_go, passing_go):
    game = play(new_game(client, rules=rules), TO_CHANCE)
    does = {c[0]: c[4] for c in picker(phone(game, 1).page())}
    assert does["ch_advance_go"] == to_go
    assert does["ch_trip_reading"] == f"→ Reading Railroad, {passing_go} for passing GO"
    assert does["ch_advance_illinois"] == "→ Illinois Avenue"


def test_the_picker_tells_what_repairs_cost_the_drawer_with_their_buildings(game, phone):
    play(game, ("banker", {"type": "bank_pay", "player": 1, "amount": 5000}),
         ("banker", {"type": "move", "player": 1, "square": 35}), (1, {"type": "roll", "dice": [1, 1]}),
         (1, {"type": "buy"}), (1, {"type": "roll", "dice": [1, 1]}), (1, {"type": "buy"}),
         (1, {"type": "set_buildings", "levels": {"37": 2, "39": 1}}),
         (1, {"type": "roll", "dice": [3, 5]}))  # from Boardwalk (39) to Chance (7), past GO
    does = {c[0]: c[4] for c in picker(phone(game, 1).page())}
    # Its total too, unless the phone counts it itself ("I count it myself", app.css shows one).
    assert does["ch_general_repairs"] == ('<span class="unless-counting">−$75 (−$25 a house, −$100 a hotel)</span>'
                                          '<span class="if-counting">−$25 a house, −$100 a hotel</span>')


# Another card: one the app does not know, said by what it does


KINDS_OFFERED = {"pay", "collect", "pay_each_player", "collect_from_each_player", "repairs", "move_to", "go_back_to",
                 "move_back", "advance_to_nearest/railroad", "move_to_nearest/railroad", "advance_to_nearest/utility",
                 "move_to_nearest/utility", "go_to_jail", "get_out_of_jail_free"}


def test_another_card_offers_every_kind_the_rules_know_and_every_square(game, phone):
    play(game, TO_CHANCE)
    form = page_form(phone(game, 1).page(), "draw", card="custom")
    assert form.label == "Play this card" and form.get("deck") == "chance"
    assert set(form.choices["effect-kind"]) == KINDS_OFFERED
    assert {kind.partition("/")[0] for kind in KINDS_OFFERED} == set(CARD_FIELDS)
    assert form.choices["effect-square"] == [str(n) for n in range(40)]


# Ann, 1,500, on Chance (7); Bob 1,500. What she types, where she ends up and her cash, and the history.
ANOTHER_CARD = [
    ({"effect-kind": "pay", "effect-amount": "$20"}, 7, 1480, "Ann drew a card: pay $20."),  # as the money says it
    ({"effect-kind": "collect", "effect-amount": "1,000"}, 7, 2500, "Ann drew a card: collect $1,000."),
    ({"effect-kind": "collect_from_each_player", "effect-amount": "10", "effect-spaces": "9"}, 7, 1510,
     "Ann drew a card: collect $10 from each player."),
    ({"effect-kind": "pay_each_player", "effect-amount": "50"}, 7, 1450, "Ann drew a card: pay each player $50."),
    ({"effect-kind": "repairs", "effect-per_house": "40", "effect-per_hotel": "115"}, 7, 1500,
     "Ann drew a card: repairs, $40 a house and $115 a hotel."),
    ({"effect-kind": "move_to", "effect-square": "5"}, 5, 1700, "Ann drew a card: advance to Reading Railroad."),
    ({"effect-kind": "go_back_to", "effect-square": "1"}, 1, 1500, "Ann drew a card: go back to Mediterranean Avenue."),
    ({"effect-kind": "move_back", "effect-spaces": "3"}, 4, 1300, "Ann drew a card: go back 3 spaces."),
    ({"effect-kind": "advance_to_nearest/railroad"}, 15, 1500, "Ann drew a card: the nearest railroad, double rent."),
    ({"effect-kind": "move_to_nearest/utility"}, 12, 1500, "Ann drew a card: the nearest utility."),
    ({"effect-kind": "go_to_jail", "effect-amount": "99"}, 10, 1500, "Ann drew a card: go to jail."),
    ({"effect-kind": "get_out_of_jail_free"}, 7, 1500, "Ann drew a card: keep a Get Out of Jail Free card."),
]


@pytest.mark.parametrize("typed, square, cash, told", ANOTHER_CARD, ids=[t[0]["effect-kind"] for t in ANOTHER_CARD])
def test_another_card_of_each_kind_plays_from_the_phone(game, phone, host, typed, square, cash, told):
    play(game, TO_CHANCE)
    ann = phone(game, 1)
    response = ann.submit(page_form(ann.page(), "draw", card="custom"), htmx=True, **typed)
    assert response.status_code == 200
    assert told in unescape(response.get_data(as_text=True))
    state = game.state()
    assert (seat(state, 1)["position"], seat(state, 1)["cash"]) == (square, cash)
    assert told in unescape(host(game).page())
    if typed["effect-kind"] == "get_out_of_jail_free":
        assert seat(state, 1)["jail_cards"] == ["custom-chance-1"]
        assert 'data-card="custom-chance-1">Get Out of Jail Free' in ann.page()


@pytest.mark.parametrize("typed, says", [
    ({"effect-kind": "pay", "effect-amount": ""}, "This card needs the amount."),
    ({"effect-kind": "pay", "effect-amount": "twenty"}, "The amount must be a whole number."),
    ({"effect-kind": "pay", "effect-amount": "0"}, "The amount must be from $1 to $1,000,000."),
    ({"effect-kind": "move_to", "effect-square": "40"}, "The square must be from 0 to 39."),
    ({"effect-kind": "move_back", "effect-spaces": "-3"}, "The number of squares back must be from 1 to 39."),
    ({"effect-kind": "repairs", "effect-per_house": "0", "effect-per_hotel": "0"},
     "A repairs card charges for a house, a hotel or both."),
    ({"effect-kind": "fly_to_the_moon"}, "effect must have a kind:"),
    ({"effect-kind": "advance_to_nearest/street"}, "type must be railroad or utility."),
])
def test_a_bad_other_card_is_refused_on_the_page_and_changes_nothing(game, phone, typed, says):
    play(game, TO_CHANCE)
    before = game.state()
    ann = phone(game, 1)
    response = ann.submit(page_form(ann.page(), "draw", card="custom"), htmx=True, **typed)
    assert response.status_code == 422 and says in unescape(response.get_data(as_text=True))
    assert game.state() == before


def test_another_card_through_the_api(game, host):
    play(game, TO_CHANCE)
    before = game.state()
    for effect, says in [({"kind": "teleport"}, "effect must have a kind"),
                         ({"kind": "pay", "amount": -20}, "amount must be from 1 to 1000000."),
                         ({"kind": "go_back_to", "square": 77}, "square must be from 0 to 39."),
                         ({"kind": "pay", "amount": 20, "square": 3}, "A pay card has no field square.")]:
        response = game.act(1, type="draw", deck="chance", card="custom", effect=effect)
        assert response.status_code == 400 and says in response.get_json()["error"]["message"]
    response = game.act(1, type="draw", deck="chance", card="custom")
    assert response.status_code == 400 and response.get_json()["error"]["message"] == "Say what the card does."
    assert game.state() == before
    game.ok(1, type="draw", deck="chance", card="custom", effect={"kind": "pay_each_player", "amount": 25})
    assert game.cash() == {1: 1475, 2: 1525}
    assert "Ann drew a card: pay each player $25." in unescape(host(game).page())


def test_a_fine_or_a_card_is_asked_on_the_phone_and_for_the_seat_on_the_host(client, host, phone):
    game = play(new_game(client, rules={"cards": "fr"}), *SCENARIOS["card_choice"].steps)
    ann, banker = unescape(phone(game, 1).page()), unescape(host(game).page())
    assert "Your card: pay $10, or draw a Chance card instead." in ann
    assert "Ann's card: pay $10, or draw a Chance card instead." in banker  # the banker answers for Ann
    assert page_form(banker, "card_choice", choice="draw").label == "Draw a Chance card"


def test_a_square_named_twice_on_the_board_is_told_apart_in_the_lists(game, host, phone):
    play(game, TO_CHANCE)
    page = unescape(phone(game, 1).page())
    assert "Chance, after Oriental Avenue" in page and "Chance, after Kentucky Avenue" in page
    assert "Community Chest, after Mediterranean Avenue" in page and ">Boardwalk<" in page
    assert "Chance, after Oriental Avenue" in unescape(host(game).page())  # the banker's move form
