"""Chance and Community Chest on the screens: the card picker on the phone and in the banker's
tools, a held Get Out of Jail Free card shown in its holder's hand, and the other decisions a
card or a square asks for (the utility roll, the Income Tax choice, the jail card)."""

import json
import re
from html import unescape
from pathlib import Path

import pytest

from banker.rules.cards import printing_decks

from .games import JAILED_WITH_CARD, NEAREST_UTILITY, TO_CHANCE, TO_CHEST, new_game, page_form, page_forms, play, seat

CARDS = json.loads((Path(__file__).parents[2] / "banker/rules/editions/us_cards.json").read_text())
CHANCE_LABELS = {
    "ch_advance_boardwalk": "Advance to Boardwalk",
    "ch_advance_go": "Advance to GO",
    "ch_advance_illinois": "Advance to Illinois Avenue",
    "ch_advance_st_charles": "Advance to St. Charles Place",
    "ch_nearest_railroad_1": "Nearest railroad, double rent",
    "ch_nearest_railroad_2": "Nearest railroad, double rent",
    "ch_nearest_utility": "Nearest utility, 10× a new roll",
    "ch_dividend": "Collect $50",
    "ch_get_out_of_jail_free": "Get Out of Jail Free",
    "ch_go_back_3": "Go back 3 spaces",
    "ch_go_to_jail": "Go to Jail",
    "ch_general_repairs": "Repairs: $25 a house, $100 a hotel",
    "ch_speeding_fine": "Pay $15",
    "ch_trip_reading": "Advance to Reading Railroad",
    "ch_chairman": "Pay each player $50",
    "ch_building_loan": "Collect $150",
}
# Ann keeps the Chance Get Out of Jail Free card and ends her turn; Bob rolls to Chance (7).
ANN_HOLDS_CHANCE_CARD = (TO_CHANCE, (1, {"type": "draw", "deck": "chance", "card": "ch_get_out_of_jail_free"}),
                         (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [3, 4]}))
CARD_BUTTON = re.compile(r'<input type="hidden" name="card" value="([^"]+)">\s*<button class="game-card (\w+)"\s*'
                         r'(disabled)?>\s*<strong>(.*?)</strong>\s*(?:<small>(.*?)</small>)?\s*</button>', re.S)


def picker(html: str) -> list[tuple]:
    """The card picker's buttons: (card id, deck, disabled, label, small print)."""
    return [(card, deck, bool(disabled), label, small)
            for card, deck, disabled, label, small in CARD_BUTTON.findall(unescape(html))]


def test_the_phone_lists_the_sixteen_chance_cards_with_their_labels(game, phone):
    play(game, TO_CHANCE)
    page = phone(game, 1).page()
    assert "Draw the top Chance card and tap the one you got:" in unescape(page)
    cards = picker(page)
    assert sorted(c[0] for c in cards) == sorted(c["id"] for c in CARDS["chance"])  # grouped: test_phone_screens
    assert {c[0]: c[3] for c in cards} == CHANCE_LABELS
    assert all(deck == "chance" and not disabled for _, deck, disabled, _, _ in cards)
    assert dict((c[0], c[4]) for c in cards)["ch_dividend"] == "Bank pays you dividend of $50."
    forms = page_forms(page, "draw")
    assert len(forms) == 16 and all(f.get("deck") == "chance" and f.action == f"/p/{game.code}/act" for f in forms)
    assert not page_forms(page, "roll") and not page_forms(page, "end_turn")


@pytest.mark.parametrize("chest, deck", [("2021", "chest_2021"), ("2008", "chest_2008")])
def test_the_chest_picker_shows_the_deck_the_game_chose(client, phone, chest, deck):
    game = play(new_game(client, rules={"community_chest": chest}), TO_CHEST)
    page = phone(game, 1).page()
    assert "Draw the top Community Chest card and tap the one you got:" in unescape(page)
    cards = picker(page)
    assert sorted(c[0] for c in cards) == sorted(c["id"] for c in CARDS[deck])
    assert all(c[1] == "chest" for c in cards)
    labels = {c[0]: c[3] for c in cards}
    if chest == "2021":
        assert labels["cc21_walking_path"] == "Collect $50" and labels["cc21_block_party"] == "Collect $10 from each player"
        assert labels["cc21_home_improvement"] == "Repairs: $40 a house, $115 a hotel"
    else:
        assert labels["cc08_bank_error"] == "Collect $200" and labels["cc08_doctors_fee"] == "Pay $50"


def test_a_held_jail_card_is_disabled_in_its_holders_hand(game, phone):
    play(game, *ANN_HOLDS_CHANCE_CARD)
    bob = phone(game, 2).page()
    cards = {c[0]: c for c in picker(bob)}
    assert len(cards) == 16
    held = cards["ch_get_out_of_jail_free"]
    assert held[2] and held[3] == "Get Out of Jail Free" and held[4] == "in Ann's hand"
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
    # The printed words under each label, unless they only say the label again ("Go to jail. ...").
    assert all(c[1] == "chest" and c[3] for c in cards)
    assert all(small == printed[card] or (not small and printed[card].lower().startswith(label.lower()))
               for card, _, _, label, small in cards)
    assert any(small for *_, small in cards)


def test_the_new_kinds_of_card_have_labels(client, phone):
    game = play(new_game(client, edition="fr"), TO_CHEST)
    labels = {c[0]: c[3] for c in picker(phone(game, 1).page())}
    assert labels["cc_go_back_belleville"] == "Go back to Boulevard de Belleville"
    assert labels["cc_fine_or_chance"] == "Pay €10 or draw a Chance card"
    game = play(new_game(client, rules={"cards": "fr_variant"}), TO_CHEST)
    assert {c[0]: c[3] for c in picker(phone(game, 1).page())}["cc_nearest_station"] == "Nearest railroad"


@pytest.mark.parametrize("choice, cash, pending", [
    ("pay", 1490, None), ("draw", 1500, {"kind": "draw", "player": 1, "deck": "chance", "square": 2})])
def test_a_fine_or_a_chance_card_is_chosen_through_the_api(client, host, phone, choice, cash, pending):
    """The French box's « Payez une amende de 10 € ou bien tirez une carte Chance »: the game waits
    for the choice (the screens still open), which the drawer or the banker for them sends."""
    game = play(new_game(client, edition="fr"), TO_CHEST, (1, {"type": "draw", "deck": "chest", "card": "cc_fine_or_chance"}))
    assert game.state()["pending"] == {"kind": "card_choice", "player": 1, "amount": 10, "deck": "chance"}
    banker = host(game)
    assert [banker.client.get(f"/t/{game.code}{path}").status_code for path in ("", "/seats/1")] == [200, 200]
    assert phone(game, 1).client.get(f"/p/{game.code}").status_code == 200
    assert game.act(2, type="card_choice", player=1, choice=choice).status_code == 403
    assert game.act(1, type="card_choice", choice="maybe").status_code == 400
    game.ok("banker" if choice == "pay" else 1, type="card_choice", player=1, choice=choice)
    state = game.state()
    assert (seat(state, 1)["cash"], state["pending"]) == (cash, pending)
    if choice == "draw":
        game.ok(1, type="draw", deck="chance", card="ch_drunk_fine")
        assert seat(game.state(), 1)["cash"] == 1480


@pytest.mark.parametrize("screen", ["phone", "host"])
@pytest.mark.parametrize("choice, cash, pending", [("pay", 1490, None), ("draw", 1500, "draw")])
def test_a_fine_or_a_chance_card_is_chosen_on_the_phone_or_by_the_banker(client, host, phone, screen, choice, cash,
                                                                        pending):
    """The phone (and the banker's "Act for" box, for a seat without one) asks: pay the fine, or draw
    from the other deck, whose picker then shows."""
    game = play(new_game(client, edition="fr"), TO_CHEST, (1, {"type": "draw", "deck": "chest", "card": "cc_fine_or_chance"}))
    browser = phone(game, 1) if screen == "phone" else host(game)
    page = unescape(browser.page())
    assert "Your card: pay €10, or draw a Chance card instead." in page
    forms = {f.get("choice"): f for f in page_forms(page, "card_choice")}
    assert sorted(forms) == ["draw", "pay"] and [f.label for f in (forms["pay"], forms["draw"])] == [
        "Pay €10", "Draw a Chance card"]
    response = browser.submit(forms[choice], htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    state = game.state()
    assert seat(state, 1)["cash"] == cash and (state["pending"] or {}).get("kind") == pending
    if choice == "draw":  # the Chance picker, in the French box's own words
        assert ("ch_drunk_fine", "chance") in {c[:2] for c in picker(browser.page())}
