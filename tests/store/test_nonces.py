"""Nonces in the store: the same nonce from the same sender applies once and answers with the first
outcome; a nonce is its sender's alone (each seat's secret or browser, the banker, a newcomer); a
double-submitted join takes one seat."""

import pytest
from sqlalchemy import delete, func, select

from banker import store
from banker.models import Badge, Seat, db
from banker.rules import Actor

from .tables import BANKER, cash, events, fresh, give_badge, new_browser, new_table

pytestmark = pytest.mark.storage  # the first use of a nonce is read under the game's lock


def test_the_same_nonce_twice_applies_once_and_answers_with_the_first_outcome(app, announced):
    table = new_table(2)
    announced.clear()
    first = store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap-1"}, table.seats[1])
    again = store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": "tap-1"}, table.seats[1])
    other_body = store.act(table.code, {"type": "pay", "to": 2, "amount": 500, "nonce": "tap-1"}, table.seats[1])
    assert (first.repeated, again.repeated, other_body.repeated) == (False, True, True)
    assert first.version == again.version == other_body.version == fresh(table.code).version
    assert first.effects == again.effects == other_body.effects
    assert cash(other_body.state) == {1: 1425, 2: 1575}
    assert [e.type for e in events(table.code)].count("pay") == 1
    assert announced == [(table.code, first.version)]  # a repeat changed nothing to tell


def test_a_new_nonce_or_none_applies_again(app):
    table = new_table(2)
    for nonce in ("tap-1", "tap-2", None, ""):
        store.act(table.code, {"type": "pay", "to": 2, "amount": 75, "nonce": nonce}, table.seats[1])
    assert cash(store.load_state(fresh(table.code))) == {1: 1200, 2: 1800}


def test_a_nonce_another_seat_used_is_theirs_alone(app):
    """Two API clients that both number their nonces from 1: each one's actions apply."""
    table = new_table(2)
    store.act(table.code, {"type": "pay", "to": 2, "amount": 5, "nonce": "1"}, table.seats[1])
    bob = store.act(table.code, {"type": "pay", "to": 1, "amount": 500, "nonce": "1"}, table.seats[2])
    assert not bob.repeated and cash(bob.state) == {1: 1995, 2: 1005}
    assert store.act(table.code, {"type": "pay", "to": 1, "amount": 500, "nonce": "1"}, table.seats[2]).repeated


def test_the_banker_and_a_seat_never_share_a_nonce(app):
    """By secret, by browser and in process alike: a player who learnt the banker's nonce and used
    it first blocks nothing of the banker's."""
    table = new_table(2)
    host, phone = new_browser("banker"), new_browser("seat")
    give_badge(table.code, host)
    give_badge(table.code, phone, 1)
    senders = [({"secret": table.seats[1]}, {"secret": table.banker}),
               ({"browser": phone}, {"browser": host}),
               ({"actor": Actor(player=1)}, {"actor": BANKER})]
    for number, (seat, banker) in enumerate(senders):
        nonce = f"sale-{number}"
        store.act(table.code, {"type": "pay", "to": "bank", "amount": 1, "nonce": nonce}, **seat)
        sold = store.act(table.code, {"type": "bank_pay", "player": 2, "amount": 10, "nonce": nonce}, **banker)
        assert not sold.repeated
    assert cash(sold.state) == {1: 1497, 2: 1530}


def test_every_screen_of_the_banker_shares_its_nonces(app):
    """Two laptops showing the same "Sell to … now" form send the same nonce: the sale is made once."""
    table = new_table(2)
    laptops = [new_browser("banker") for _ in range(2)]
    for laptop in laptops:
        give_badge(table.code, laptop)
    answers = [store.act(table.code, {"type": "bank_pay", "player": 1, "amount": 10, "nonce": "n"}, browser=b)
               for b in laptops]
    assert [a.repeated for a in answers] == [False, True]
    assert cash(answers[1].state)[1] == 1510


def test_a_join_with_a_nonce_a_seat_already_used_takes_a_seat(app):
    table = new_table(2, start=False)
    store.act(table.code, {"type": "opening_roll", "dice": [1, 2], "nonce": "n1"}, table.seats[1])
    joined = store.act(table.code, {"type": "join", "name": "Eve", "token": "cat", "nonce": "n1"})
    assert not joined.repeated and joined.player == 3


def seats(code: str) -> int:
    game = fresh(code)
    return db.session.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game.id))


def test_a_double_submitted_join_from_a_browser_takes_one_seat_and_gives_the_badge(app):
    table = new_table(2, start=False)
    phone = new_browser()
    body = {"type": "join", "name": "Cy", "token": "dog", "nonce": "join-form"}
    first, second = (store.act(table.code, body, browser=phone) for _ in range(2))
    assert (first.player, second.player) == (3, 3) and (first.repeated, second.repeated) == (False, True)
    assert [p.name for p in second.state.players] == ["Ann", "Bob", "Cy"] and seats(table.code) == 3
    assert store.visit(table.code, browser=phone)[1] == Actor(player=3)

    # Should the badge have gone missing since (the first answer lost), the repeat gives it again.
    db.session.execute(delete(Badge).where(Badge.browser_hash == phone.digest))
    db.session.commit()
    assert store.visit(table.code, browser=phone)[1] is None
    assert store.act(table.code, body, browser=phone).player == 3
    assert store.visit(table.code, browser=phone)[1] == Actor(player=3)
    assert seats(table.code) == 3


def test_a_repeated_api_join_takes_one_seat_and_its_second_secret_opens_nothing(app):
    """An API client's nonce may be guessable: a repeat must neither seat anyone nor let the secret
    it brings open the seat."""
    table = new_table(2, start=False)
    body = {"type": "join", "name": "Cy", "token": "dog", "nonce": "join-cy"}
    first_secret, second_secret = store.new_token(), store.new_token()
    first = store.act(table.code, body, seat_token=first_secret)
    again = store.act(table.code, body, seat_token=second_secret)
    assert again.repeated and again.player == first.player == 3 and seats(table.code) == 3
    assert store.visit(table.code, first_secret)[1] == Actor(player=3)
    assert store.visit(table.code, second_secret)[1] is None


def test_newcomers_sharing_a_nonce_each_take_a_seat(app):
    """Two API clients that both number their nonces from 1, or one that sends another's predictable
    nonce first (issue 22, item 6): a newcomer's nonce is scoped to the name it joins as, so each
    takes a seat of its own, each with its own secret."""
    table = new_table(2, start=False)
    secrets = {name: store.new_token() for name in ("Cy", "Dee")}
    joined = {name: store.act(table.code, {"type": "join", "name": name, "token": token, "nonce": "1"},
                              seat_token=secrets[name])
              for name, token in (("Cy", "dog"), ("Dee", "cat"))}
    assert [(j.player, j.repeated) for j in joined.values()] == [(3, False), (4, False)]
    assert seats(table.code) == 4
    for name, player in (("Cy", 3), ("Dee", 4)):
        assert store.visit(table.code, secrets[name])[1] == Actor(player=player)


def test_a_newcomer_retrying_its_join_meets_the_first_one_whatever_the_case_and_spaces(app):
    """The name counts as the game tells names apart, so a retry that only changed its case or
    spaces is still the same newcomer's: one seat, once."""
    table = new_table(2, start=False)
    bodies = [{"type": "join", "name": name, "token": "dog", "nonce": "join-1"} for name in ("Cy Young", " cy  YOUNG ")]
    first, again = (store.act(table.code, body, seat_token=store.new_token()) for body in bodies)
    assert (first.player, first.repeated, again.player, again.repeated) == (3, False, 3, True)
    assert [p.name for p in again.state.players] == ["Ann", "Bob", "Cy Young"] and seats(table.code) == 3
