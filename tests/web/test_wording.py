"""Issue 10, the words: Undo says what it takes back, and so does the history after an undo; the
same words for the same thing on every screen and in the history; sentences start with a capital."""

import re
from html import unescape


from .games import BALTIC, JAILED_WITH_CARD, TO_CHANCE, new_game, page_form, play

UNDO_BUTTON = re.compile(r"↶ Undo: (.*?)\s*</summary>", re.S)
# Bob owns Pennsylvania Railroad (15); Ann is on Chance (7) and draws "nearest railroad".
BOB_HAS_PENNSYLVANIA = ((1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}),
                        ("banker", {"type": "move", "player": 2, "square": 12}),
                        (2, {"type": "roll", "dice": [1, 2]}), (2, {"type": "buy"}), (2, {"type": "end_turn"}),
                        ("banker", {"type": "move", "player": 1, "square": 4}),
                        (1, {"type": "roll", "dice": [1, 2]}))


def undo_button(html: str) -> str:
    return UNDO_BUTTON.search(unescape(html)).group(1)


def latest(html: str) -> str:
    return unescape(re.search(r'<p class="latest"[^>]*>(.*?)</p>', html, re.S).group(1))


def test_undo_offers_an_ended_turn_by_who_ended_it_not_by_whose_turn_it_is(game, host):
    play(game, (1, {"type": "roll", "dice": [4, 6]}), (1, {"type": "end_turn"}))
    assert undo_button(host(game).page()) == "Ann ended the turn. It is Bob's turn."


def test_a_turn_the_banker_ended_for_the_player_names_that_player(game3, host):
    game3.ok("banker", type="roll", dice=[4, 6])
    game3.ok("banker", type="end_turn")  # for whoever's turn it is: the host's "Act for" without a seat
    assert undo_button(host(game3).page()) == "Ann ended the turn. It is Bob's turn."
    game3.ok("banker", type="roll", dice=[4, 6])
    game3.ok("banker", type="end_turn", player=2)
    assert undo_button(host(game3).page()) == "Bob ended the turn. It is Cy's turn."


def test_after_an_undo_every_screen_says_what_the_banker_undid(game, host, phone):
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}),
         (2, {"type": "roll", "dice": [1, 2]}))
    rent = "Bob rolled 1 + 2. Bob moves to Baltic Avenue. Bob paid Ann $4 rent for Baltic Avenue."
    banker = host(game)
    assert undo_button(banker.page()) == rent
    banker.post({"type": "undo"})
    said = f"The banker undid: {rent}"
    assert game.events()[-1]["text"] == said
    for screen in (banker, phone(game, 1), phone(game, 2)):
        page = unescape(screen.page())
        assert latest(page) == said
        assert re.search(rf"</time>\s*{re.escape(said)}\s*</li>", page)  # the history row, on every screen
        assert "undid entry" not in page
    # The next Undo offers the entry before, in its own words.
    assert undo_button(banker.page()) == "Ann ended the turn. It is Bob's turn."


def test_an_undo_further_back_than_the_recent_history_still_names_what_it_took_back(game):
    """Undo after undo walks back past the newest entries the screens keep read: the entry taken back
    is then read on its own."""
    game.ok(1, type="pay", to=2, amount=7)
    for _ in range(60):
        game.ok(1, type="pay", to=2, amount=1)
    for _ in range(61):
        game.ok("banker", type="undo")
    assert game.cash() == {1: 1500, 2: 1500}
    assert game.events()[-1]["text"] == "The banker undid: Ann paid Bob $7."


def test_history_sentences_start_with_a_capital(game, phone):
    play(game, TO_CHANCE, (1, {"type": "draw", "deck": "chance", "card": "ch_dividend"}))
    told = game.events()[-1]["text"]
    assert told == "Ann drew “Bank pays you dividend of $50”. The bank paid Ann $50 (card)."
    page = unescape(phone(game, 1).page())
    assert "The bank paid Ann $50 (card)." in page and "the bank paid" not in page


def test_a_name_typed_in_lowercase_stays_as_typed(client):
    game = new_game(client, players=0, start=False)
    game.join("ann", "hat")
    game.join("Bob", "car")
    game.ok("banker", type="start", order=[1, 2])
    game.ok(1, type="pay", to="bank", amount=5)
    assert game.events()[-1]["text"] == "ann paid the bank $5."


def test_repaying_a_mortgage_is_told_as_the_button_says(game, phone):
    play(game, *BALTIC, (1, {"type": "mortgage", "square": 3}))
    ann = phone(game, 1)
    repay = page_form(ann.page(), "unmortgage", square=3)
    assert repay.label == "Repay mortgage −$33"
    ann.submit(repay)
    assert game.events()[-1]["text"] == "Ann repaid the mortgage on Baltic Avenue for $33."
    assert "lifted" not in unescape(ann.page()).lower()


def test_double_railroad_rent_after_a_card_says_why_it_is_doubled(game):
    play(game, *BOB_HAS_PENNSYLVANIA, (1, {"type": "draw", "deck": "chance", "card": "ch_nearest_railroad_1"}))
    assert game.cash()[1] == 1500 - 50
    assert game.events()[-1]["text"].endswith(
        "Ann paid Bob $50 rent for Pennsylvania Railroad (1 railroad, doubled by the card).")


def test_jail_has_the_same_words_on_the_phone_and_the_host(game, host, phone):
    play(game, *JAILED_WITH_CARD)
    assert game.state()["players"][0]["in_jail"]
    words = {"roll": "Roll for doubles", "pay_jail_fine": "Pay the $50 fine and leave jail",
             "use_jail_card": "Use a Get Out of Jail Free card"}
    for screen in (phone(game, 1), host(game)):
        page = screen.page()
        assert {kind: page_form(page, kind).label for kind in words} == words


def test_a_debt_paid_off_reads_as_paid_not_as_charged_again_and_keeps_the_bankers_note(game, host, phone):
    """The banker charged Ann more than she had (a debt, with the banker's note); paying it off is
    told as a payment of what was owed, on the screens and in the history (before, as "The bank
    charged Ann $1,600." a second time: a family read it as a second charge)."""
    game.ok("banker", type="bank_charge", player=1, amount=1600, memo="fine for cheating")
    assert "The bank charged" not in latest(host(game).page())
    assert latest(host(game).page()) == "Ann owes the bank $1,600 but has too little cash. (fine for cheating)"
    game.ok("banker", type="bank_pay", player=1, amount=200)
    game.ok(1, type="pay_debt")
    told = "Ann paid the bank the $1,600 owed. (fine for cheating)"
    assert latest(host(game).page()) == told and told in unescape(phone(game, 1).page())
    assert undo_button(host(game).page()) == told
