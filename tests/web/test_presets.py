"""The tournament (JMA) preset on the screens: the third miss in jail asks for the fine or a card,
and what the history says of the rules' new moments."""

from html import unescape

from .games import JAILED_WITH_CARD, new_game, page_forms, play


def jailed_under_jma(client):
    """Ann holds a Get Out of Jail Free card in jail; Bob has taken his turn: Ann's turn."""
    return play(new_game(client, rules={"preset": "jma"}), *JAILED_WITH_CARD)


def test_the_third_miss_asks_for_the_fine_or_the_card_on_the_phone(client, phone):
    game = jailed_under_jma(client)
    for _ in range(2):
        play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "end_turn"}),
             (2, {"type": "roll", "dice": [4, 6]}), (2, {"type": "end_turn"}))
    play(game, (1, {"type": "roll", "dice": [1, 2]}))
    assert game.state()["pending"] == {"kind": "jail_exit", "player": 1, "dice": [1, 2]}
    ann = phone(game, 1)
    page = unescape(ann.page())
    assert "Third miss: pay the fine or use a Get Out of Jail Free card" in page
    assert {f.type for f in page_forms(page)} >= {"pay_jail_fine", "use_jail_card"}
    answer = ann.submit(page_forms(page, "use_jail_card")[0], htmx=True)
    assert answer.status_code == 200
    state = game.state()
    assert state["players"][0]["position"] == 13 and state["pending"]["kind"] == "buy"
    texts = [e["text"] for e in game.events()]
    assert any("Third miss: Ann pays the fine or uses a Get Out of Jail Free card." in t for t in texts)


def test_a_debt_owed_to_a_bankrupt_player_passing_on_is_told(client):
    game = new_game(client, players=3)
    play(game, (3, {"type": "pay", "to": 1, "amount": 5000}), ("banker", {"type": "bank_charge", "player": 1, "amount": 5000}),
         (1, {"type": "bankrupt"}))
    [debt] = game.state()["debts"]
    assert (debt["debtor"], debt["creditor"], debt["amount"]) == (3, "bank", 5000)
    assert "What Cy owed Ann ($5,000) is now owed to the bank." in game.events()[-1]["text"]


def test_the_standings_name_the_preset_in_force(client, phone):
    game = new_game(client, rules={"preset": "jma", "auctions": False})
    play(game, ("banker", {"type": "end_game"}))
    page = unescape(phone(game, 1).page())
    assert "Tournament rules (Japan Monopoly Association). House rules: no auctions" in page
