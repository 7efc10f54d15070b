"""Buildings and mortgages on the screens: the phone's deed buttons with their prices or the reason
they are off, selling a whole group in one step, and houses, hotels and mortgages on the host board."""

import re
from html import unescape

import pytest

from .games import BROWN, deed, messages, new_game, page_form, page_forms, play, seat

# Ann also buys Vermont Avenue (100) and mortgages it (+50), then builds a house on Baltic (50): 1480.
SPREAD = (*BROWN, (1, {"type": "roll", "dice": [2, 3]}), (1, {"type": "buy"}),
          (1, {"type": "mortgage", "square": 8}), (1, {"type": "build", "square": 3}))


def deed_buttons(browser, code: str) -> dict[tuple[str, int], tuple[str, bool, str | None]]:
    """The phone's deed buttons, as its live connection pushes the wallet: (type, square) -> (label, disabled, why)."""
    html = browser.pushed()
    return {(f.type, int(f.get("square"))): f.buttons[0] for f in page_forms(html) if f.get("square")}


def test_the_phone_shows_each_deeds_price_or_why_not(game, phone):
    play(game, *SPREAD)
    ann = phone(game, 1)
    buttons = deed_buttons(ann, game.code)
    assert buttons == {
        ("build", 1): ("Build house −$50", False, None),
        ("build", 3): ("Build house −$50", True, "Build evenly: Mediterranean Avenue needs its next building before Baltic Avenue."),
        ("sell_building", 1): ("Sell house +$25", True, "Mediterranean Avenue has no buildings to sell."),
        ("sell_building", 3): ("Sell house +$25", False, None),
        ("mortgage", 1): ("Mortgage +$30", True,
                          "Baltic Avenue has buildings: sell every building in the group before mortgaging "
                          "Mediterranean Avenue."),
        ("mortgage", 3): ("Mortgage +$30", True,
                          "Baltic Avenue has buildings: sell every building in the group before mortgaging "
                          "Baltic Avenue."),
        ("unmortgage", 8): ("Repay mortgage −$55", False, None),  # Vermont: no buildings (its group is not complete)
    }
    page = unescape(ann.page())
    assert re.findall(r'<p class="hint why">(.*?)</p>', page) == [
        "Build evenly: Mediterranean Avenue needs its next building before Baltic Avenue."]
    assert 'data-houses="31" data-hotels="12">Bank: 31 houses and 12 hotels left' in page

    game.ok("banker", type="bank_charge", player=1, amount=1440)  # Ann keeps $40
    buttons = deed_buttons(ann, game.code)
    assert buttons[("build", 1)] == ("Build house −$50", True, "A building on Mediterranean Avenue costs $50; Ann has only $40.")
    assert buttons[("unmortgage", 8)] == ("Repay mortgage −$55", True,
                                          "Repaying the mortgage on Vermont Avenue costs $55; Ann has only $40.")
    assert buttons[("sell_building", 3)] == ("Sell house +$25", False, None)
    assert re.findall(r'<p class="hint why">(.*?)</p>', unescape(ann.page())) == [
        "A building on Mediterranean Avenue costs $50; Ann has only $40.",
        "Build evenly: Mediterranean Avenue needs its next building before Baltic Avenue.",
        "Repaying the mortgage on Vermont Avenue costs $55; Ann has only $40."]


def test_a_phone_button_does_what_its_label_says(game, phone):
    play(game, *SPREAD)
    ann = phone(game, 1)
    before = game.cash()[1]
    for kind, square, change in (("build", 1, -50), ("sell_building", 3, +25), ("unmortgage", 8, -55)):
        form = page_form(ann.page(), kind, square=square)
        assert ann.submit(form, htmx=True).status_code == 200
        before += change
        assert game.cash()[1] == before, kind
    state = game.state()
    assert (deed(state, 1)["houses"], deed(state, 3)["houses"], deed(state, 8)["mortgaged"]) == (1, 0, False)


@pytest.mark.parametrize("levels, refund, says", [
    pytest.param({"1": 2, "3": 2}, 100, "Ann sold buildings on the Brown group for $100.", id="houses"),
    pytest.param({"1": 4, "3": 5}, 225, "Ann sold buildings on the Brown group for $225.", id="house-and-hotel"),
    pytest.param({"1": 5, "3": 5}, 250, "Ann sold buildings on the Brown group for $250.", id="hotels"),
])
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_sell_every_building_in_a_group_with_one_form(game, phone, levels, refund, says, htmx):
    play(game, *BROWN, (1, {"type": "set_buildings", "levels": levels}))
    cash = game.cash()[1]
    ann = phone(game, 1)
    form = page_form(ann.page(), "set_buildings")
    assert (form.get("level-1"), form.get("level-3")) == ("0", "0")
    assert form.label == f"Sell every building: +${refund}"
    response = ann.submit(form, htmx=htmx)
    if htmx:
        assert response.status_code == 200 and says in unescape(response.get_data(as_text=True))
    else:
        assert response.status_code == 303 and says in messages(ann.page())
    state = game.state()
    assert [(deed(state, q)["houses"], deed(state, q)["hotel"]) for q in (1, 3)] == [(0, False), (0, False)]
    assert seat(state, 1)["cash"] == cash + refund
    assert state["bank"] == {"houses": 32, "hotels": 12}
    assert not page_forms(ann.page(), "set_buildings")


def board_cells(html: str) -> dict[int, tuple[str, str]]:
    """The host board's squares: index -> (classes, inner html)."""
    return {int(square): (classes, inner) for classes, square, inner in re.findall(
        r'<div id="sq-\d+" class="sq ([^"]*)"[^>]*data-square="(\d+)"[^>]*>(.*?)</div>', html, re.S)}


def test_the_host_board_shows_houses_hotels_and_mortgages(game, host, stranger):
    play(game, *BROWN, (1, {"type": "set_buildings", "levels": {"1": 4, "3": 5}}),
         (1, {"type": "roll", "dice": [2, 3]}), (1, {"type": "buy"}), (1, {"type": "mortgage", "square": 8}))
    for browser in (host(game), stranger(game)):
        for html in (browser.page(), browser.pushed()):
            cells = board_cells(html)
            assert len(cells) == 40
            assert cells[1][1].count('class="house"') == 4 and 'class="hotel"' not in cells[1][1]
            assert cells[3][1].count('class="hotel"') == 1 and 'class="house"' not in cells[3][1]
            assert "mortgaged" in cells[8][0].split() and 'class="mortgage-mark"' in cells[8][1]
            assert "mortgaged" not in cells[1][0].split() and "mortgage-mark" not in cells[1][1]
            assert all("owned token-hat" in cells[q][0] for q in (1, 3, 8))
            assert 'data-houses="28" data-hotels="11"' in html
    state = game.state()
    assert state["bank"] == {"houses": 28, "hotels": 11}
    assert (deed(state, 1)["houses"], deed(state, 3)["hotel"], deed(state, 8)["mortgaged"]) == (4, True, True)


@pytest.mark.parametrize("lang, houses, hotels, says", [
    ("en", 1, 0, "Bank: 1 house and 0 hotels left"),
    ("fr", 1, 0, "Banque\u00a0: 1 maison et 0 hôtel disponibles"),      # French counts 0 as one (CLDR)
    ("pt", 0, 1, "Banco: restam 0 casas e 1 hotel"),               # Portugal counts 0 as many (CLDR pt_PT)
    ("ja", 5, 1, "銀行の残り：家5軒、ホテル1軒"),
])
def test_the_banks_supply_is_counted_in_the_readers_plurals(app, client, phone, lang, houses, hotels, says):
    from banker import store
    from banker.models import db

    game = play(new_game(client), *BROWN)  # Ann holds the browns: her wallet shows the bank's supply
    with app.app_context():  # the bank down to its last buildings, as a long game leaves it
        row = store.find_game(game.code)
        row.state = {**row.state, "bank_houses": houses, "bank_hotels": hotels}
        db.session.commit()
    ann = phone(game, 1)
    ann.client.set_cookie("lang", lang)
    assert says in unescape(ann.page())


def test_buildings_moved_within_a_group_at_no_cost_are_told(game):
    """Two houses sold and one bought at the same price cost nothing: no payment tells it, and the
    history had an empty line for it. Ann buys the light blues (6, 8, 9: $50 a house) one a turn."""
    bob_waits = ((1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}))
    play(game, *[step for square in (6, 8, 9) for step in (
        ("banker", {"type": "move", "player": 1, "square": square - 3}),
        (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), *bob_waits)][:-3],
         (1, {"type": "set_buildings", "levels": {"6": 2, "8": 2, "9": 1}}))
    cash = game.cash()[1]
    play(game, (1, {"type": "set_buildings", "levels": {"6": 1, "8": 1, "9": 2}}))
    assert game.cash()[1] == cash
    assert game.events()[-1]["text"] == "Ann moved buildings within the Light blue group: nothing to pay."
