"""A French box's own cards, entered from a French phone as they are drawn at the table (issue:
"the cards in the box"): ten real cards of the classic French deck, each found in the picker by
its printed words and applied with its own effect; « Retournez à Belleville » goes backwards,
without the Départ salary; a card the app does not know is played through "Another card…".

Ann plays on her phone; Bob (no phone) takes his turns through the store, as the banker would.
Between Ann's draws the banker puts her token three squares short of the draw square, and she
rolls 1 + 2 onto it. Her cash and square after each card are worked out by hand."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, PHONE, check_accessible
from .test_host_screen import store_act
from .test_languages import Catalog, join, open_table, start

pytestmark = pytest.mark.e2e

ANN, BOB = 1, 2


def test_ten_french_cards_from_a_phone(contexts, server, artifacts):
    fr = Catalog("fr")
    host, code, join_url = open_table(contexts, "/?lang=fr", fr, "fr")
    ann = contexts.page("phone 1", **PHONE, locale="fr-FR")
    ann.goto(join_url)
    join(ann, fr, "Ann", "Car")
    store_act(server, code, None, type="join", name="Bob", token="dog")
    start(host, fr, [ann, "Bob, without a phone"], "Ann")
    turn = ann.locator("#turn")

    def state():
        from banker import store

        with server.app.app_context():
            return store.load_state(store.find_game(code))

    def bob_turn():
        """Bob's turn: the banker puts him on 7 and he rolls 1 + 2 onto Simple visite (10)."""
        store_act(server, code, "banker", type="move", player=BOB, square=7)
        store_act(server, code, BOB, type="roll", dice=[1, 2])
        store_act(server, code, BOB, type="end_turn")

    def ann_draws(square: int, *words: str) -> None:
        """Ann rolls onto a draw square and taps the card (or the choice) starting with each of `words`."""
        store_act(server, code, "banker", type="move", player=ANN, square=(square - 3) % 40)
        store_act(server, code, ANN, type="roll", dice=[1, 2])
        for said in words:
            turn.get_by_role("button", name=re.compile("^" + re.escape(said))).tap()
        expect(turn.locator(".card-picker")).to_have_count(0, timeout=LIVE)

    def ann_has(cash: int, square: int) -> None:
        ann_now = state().player(ANN)
        assert (ann_now.cash, ann_now.position) == (cash, square)

    def ann_buys(price: int, cash: int, square: int) -> None:
        """The deed Ann's card took her to is offered: she has `cash` on `square`, and buys it."""
        buy = turn.get_by_role("button", name=fr("Buy for %(price)s", price=f"{price}\u00a0€"))
        expect(buy).to_be_visible(timeout=LIVE)
        ann_has(cash, square)
        buy.tap()
        expect(buy).to_have_count(0, timeout=LIVE)
        ann_has(cash - price, square)

    def next_turn():
        store_act(server, code, ANN, type="end_turn")

    # 1. Chance (7): « Amende pour ivresse : 20 € ». The picker shows the printed words, then what
    # the card does here.
    store_act(server, code, "banker", type="move", player=ANN, square=4)
    store_act(server, code, ANN, type="roll", dice=[1, 2])
    drunk = turn.get_by_role("button", name=re.compile("^Amende pour ivresse"))
    expect(drunk).to_contain_text("−\u206020" + "\u00a0€", timeout=LIVE)
    turn.screenshot(path=artifacts / "french-cards-picker.png")
    drunk.tap()
    expect(turn.locator(".latest")).to_contain_text("« Amende pour ivresse : 20 € »", timeout=LIVE)
    ann_has(1480, 7)
    next_turn()
    bob_turn()

    # 2 and 3. Caisse de communauté (17): « Payez une amende de 10 € ou bien tirez une carte Chance »:
    # she chooses the Chance card, and draws « Allez à la gare de Lyon »: forward past Départ (+200)
    # to Gare de Lyon (15), unowned: she buys it.
    ann_draws(17, "Payez une amende de 10 €")
    expect(turn.get_by_role("button", name=fr("Draw a Chance card"))).to_be_visible(timeout=LIVE)
    turn.get_by_role("button", name=fr("Draw a Chance card")).tap()
    lyon = turn.get_by_role("button", name=re.compile("^Allez à la gare de Lyon"))
    expect(lyon).to_contain_text("Gare de Lyon", timeout=LIVE)
    lyon.tap()
    ann_buys(200, 1680, 15)
    next_turn()
    bob_turn()

    # 4. Caisse de communauté (33): « Retournez à Belleville »: backwards to 1, no Départ salary;
    # she buys it (60).
    ann_draws(33, "Retournez à Belleville")
    ann_buys(60, 1480, 1)
    next_turn()
    bob_turn()

    # She completes the brown group (Rue Lecourbe, 60) and builds three houses (50 each): 1,210.
    store_act(server, code, "banker", type="move", player=ANN, square=0)
    store_act(server, code, ANN, type="roll", dice=[1, 2])
    store_act(server, code, ANN, type="buy")
    store_act(server, code, ANN, type="set_buildings", levels={"1": 2, "3": 1})
    ann_has(1210, 3)
    next_turn()
    bob_turn()

    # 5. Chance (22): « Vous êtes imposé pour les réparations de voirie »: 40 € a house, 3 houses.
    ann_draws(22, "Vous êtes imposé pour les réparations de voirie")
    ann_has(1090, 22)
    next_turn()
    bob_turn()

    # 6-9. Four that pay or collect: the crossword prize (+100), the loan interest (+25), the tax
    # refund (+20) and the birthday (+10 from Bob).
    for square, words, cash in ((36, "Vous avez gagné le prix de mots croisés", 1190),
                                (2, "Recevez votre intérêt sur l'emprunt", 1415),   # past Départ: +200
                                (17, "Les contributions vous remboursent", 1435),
                                (33, "C'est votre anniversaire", 1445)):
        ann_draws(square, words)
        ann_has(cash, square)
        next_turn()
        bob_turn()

    # 10. Chance (7): « Reculez de trois cases » to Impôts sur le revenu (4): 200 € of tax.
    ann_draws(7, "Reculez de trois cases")
    ann_has(1245, 4)
    history = ann.locator("#history")
    next_turn()
    bob_turn()

    # A card the app does not know: "Another card…", pay the bank 20 €. Only the amount is asked.
    store_act(server, code, "banker", type="move", player=ANN, square=19)
    store_act(server, code, ANN, type="roll", dice=[1, 2])
    another = turn.locator(".custom-card")
    another.locator("summary").tap()
    amount, square = another.get_by_label(fr("Amount"), exact=True), another.get_by_label(fr("Square"), exact=True)
    expect(amount).to_be_visible()
    expect(square).to_be_hidden()
    another.get_by_label(fr("What the card does"), exact=True).select_option("go_back_to")
    expect(square).to_be_visible()
    expect(amount).to_be_hidden()
    another.get_by_label(fr("What the card does"), exact=True).select_option("pay")
    amount.fill("20")
    check_accessible(ann, "the French phone's Another card form")
    another.screenshot(path=artifacts / "french-cards-another-card.png")
    another.get_by_role("button", name=fr("Play this card")).tap()
    # The form was at the foot of a long picker: the turn panel's top comes back into view.
    expect(turn.locator("h2")).to_be_in_viewport(timeout=LIVE)
    expect(turn.locator(".latest")).to_contain_text(
        fr.brace("{player} drew a card: {card}.", player="Ann", card=fr("pay %(amount)s", amount="20\u00a0€")),
        timeout=LIVE)
    ann_has(1225, 22)
    ann.screenshot(path=artifacts / "french-cards-phone.png", full_page=True)
    expect(history).to_contain_text("« Retournez à Belleville »")
