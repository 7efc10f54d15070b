"""Rejoin codes in the store (new_claim, claim, take_seat): a code moves its seat to a new browser,
once, within CLAIM_SECONDS; a newer code replaces the older; a code opens nothing but its seat; junk
answers None."""

import pytest
from sqlalchemy import func, select

from banker import store
from banker.store import claims
from banker.models import Badge, Claim, db
from banker.rules import Actor

from .tables import fresh, give_badge, new_browser, new_table
from .test_concurrency import in_threads

pytestmark = pytest.mark.storage  # a code is used up in the transaction that takes the seat


def test_a_code_moves_its_seat_to_the_new_browser_once(app, announced):
    table = new_table(2)
    old_phone, new_phone, late_phone = new_browser(), new_browser(), new_browser()
    give_badge(table.code, old_phone, 1)
    code = store.new_claim(fresh(table.code), 1)
    game, player = store.claim(table.code, code)  # opening the page changes nothing
    assert (game.code, player) == (table.code, 1)
    assert store.visit(table.code, browser=old_phone)[1] == Actor(player=1)
    announced.clear()

    assert store.take_seat(table.code, code, new_phone) == 1
    assert store.visit(table.code, browser=new_phone)[1] == Actor(player=1)
    assert store.visit(table.code, browser=old_phone)[1] is None  # the seat's other phones,
    assert store.visit(table.code, table.seats[1])[1] is None  # and its API secret, are retired
    assert store.visit(table.code, table.seats[2])[1] == Actor(player=2)
    assert announced == [(table.code, fresh(table.code).version)]  # the old phone's page hears at once

    assert store.take_seat(table.code, code, late_phone) is None  # once
    assert store.claim(table.code, code)[1] is None
    assert store.visit(table.code, browser=late_phone)[1] is None
    moved = store.act(table.code, {"type": "roll", "dice": [3, 4]}, browser=new_phone)
    assert moved.state.player(1).position == 7


def test_a_code_expires_after_claim_seconds(app, monkeypatch):
    table = new_table(2)
    now = claims._now()
    monkeypatch.setattr(claims, "_now", lambda: now)
    code = store.new_claim(fresh(table.code), 1)
    monkeypatch.setattr(claims, "_now", lambda: now + store.CLAIM_SECONDS + 1)
    assert store.claim(table.code, code)[1] is None
    assert store.take_seat(table.code, code, new_browser()) is None
    monkeypatch.setattr(claims, "_now", lambda: now + store.CLAIM_SECONDS)
    assert store.take_seat(table.code, code, new_browser()) == 1


def test_a_newer_code_replaces_the_older_one_and_expired_codes_are_cleared(app, monkeypatch):
    table = new_table(2)
    game = fresh(table.code)
    now = claims._now()
    monkeypatch.setattr(claims, "_now", lambda: now)
    older, bobs = store.new_claim(game, 1), store.new_claim(game, 2)
    newer = store.new_claim(game, 1)
    assert older != newer
    assert store.claim(table.code, older)[1] is None
    assert store.claim(table.code, bobs)[1] == 2  # another seat's code stays
    monkeypatch.setattr(claims, "_now", lambda: now + store.CLAIM_SECONDS + 1)
    store.new_claim(game, 1)  # a new code clears the expired ones of the game
    assert db.session.scalar(select(func.count()).select_from(Claim).where(Claim.game_id == game.id)) == 1
    monkeypatch.setattr(claims, "_now", lambda: now)
    assert store.take_seat(table.code, newer, new_browser()) is None


def test_a_code_opens_its_seat_and_nothing_else(app):
    """Not a secret: the API and the pages refuse it, another game does not know it."""
    table, other = new_table(2), new_table(2)
    code = store.new_claim(fresh(table.code), 2)
    assert store.visit(table.code, code)[1] is None
    with pytest.raises(store.UnknownSecret):
        store.act(table.code, {"type": "pay", "to": 1, "amount": 5}, code)
    game, player = store.claim(other.code, code)
    assert game.code == other.code and player is None
    assert store.take_seat(other.code, code, new_browser()) is None
    phone = new_browser()
    assert store.take_seat(table.code, code, phone) == 2
    assert store.visit(table.code, browser=phone)[1] == Actor(player=2)
    assert store.visit(table.code, browser=store.Browser(phone.key, "banker"))[1] is None
    with pytest.raises(store.SeatNotFound):  # a seat nobody holds has no code
        store.new_claim(fresh(table.code), 3)


def test_a_browser_taking_a_seat_gives_up_the_one_it_had(app):
    table = new_table(2)
    phone = new_browser()
    give_badge(table.code, phone, 2)
    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 1), phone) == 1
    assert store.visit(table.code, browser=phone)[1] == Actor(player=1)
    assert db.session.scalar(select(func.count()).select_from(Badge).where(Badge.browser_hash == phone.digest)) == 1


def test_junk_codes_answer_none(app):
    table = new_table(2)
    store.new_claim(fresh(table.code), 1)
    for rejoin in ("", "not-a-secret", "x" * 500, "😀", store.token_hash("x")):
        game, player = store.claim(table.code, rejoin)
        assert game.code == table.code and player is None
        assert store.take_seat(table.code, rejoin, new_browser()) is None
    for code in ("", "ZZZZZ", "nope!", "ABCDEFGH"):
        assert store.claim(code, "whatever") == (None, None)
        assert store.take_seat(code, "whatever", new_browser()) is None
    assert store.visit(table.code, table.seats[1])[1] == Actor(player=1)  # nothing was retired


def test_eight_phones_racing_one_code_leave_exactly_one_seated(app):
    """Eight new phones tap Take the seat with one code at once (issue 22, item 5): exactly one takes
    the seat and keeps it, the seven others are told the code is used, never all of them refused. On
    PostgreSQL the claim's row is locked: a read without the lock let two takers both go on, and the
    later one's badge cleanup retired the earlier one's badge."""
    table = new_table(2)
    for round_ in range(3):
        code = store.new_claim(fresh(table.code), 1)
        phones = [new_browser() for _ in range(8)]
        taken = in_threads(app, 8, lambda i: store.take_seat(table.code, code, phones[i]))
        assert sorted(taken, key=str) == [1] + [None] * 7, round_
        winner = phones[taken.index(1)]
        db.session.rollback()
        assert [store.visit(table.code, browser=phone)[1] for phone in phones] == [
            Actor(player=1) if phone is winner else None for phone in phones]
        assert store.claim_state(fresh(table.code), 1, code) == "used"


def test_the_phone_a_seat_moved_from_is_told_which_seat_until_it_holds_one_again(app):
    """The old phone keeps a note of the seat a code took from it (moved_seat), which opens nothing;
    the newest one when a second seat moves from it too; none once it holds a seat again."""
    table = new_table(3)
    old_phone, new_phone, third_phone = new_browser(), new_browser(), new_browser()
    give_badge(table.code, old_phone, 1)
    assert store.moved_seat(fresh(table.code), old_phone) is None
    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 1), new_phone) == 1
    assert store.moved_seat(fresh(table.code), old_phone) == 1
    assert store.moved_seat(fresh(table.code), new_phone) is None
    assert store.visit(table.code, browser=old_phone)[1] is None  # the note holds no seat
    with pytest.raises(store.UnknownSecret):
        store.act(table.code, {"type": "roll", "dice": [3, 4]}, browser=old_phone)

    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 2), old_phone) == 2
    assert store.moved_seat(fresh(table.code), old_phone) is None  # it has a seat again
    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 2), third_phone) == 2
    assert store.moved_seat(fresh(table.code), old_phone) == 2  # the newest news, one note
    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 3), old_phone) == 3
    assert store.take_seat(table.code, store.new_claim(fresh(table.code), 3), new_phone) == 3  # new_phone had seat 1
    assert store.moved_seat(fresh(table.code), old_phone) == 3
    assert store.moved_seat(fresh(table.code), new_phone) is None
    game = fresh(table.code)
    notes = db.session.scalars(select(Badge.browser_hash).where(Badge.game_id == game.id, Badge.role == "moved"))
    assert sorted(notes) == [old_phone.digest]
    assert store.moved_seat(fresh(new_table(2).code), old_phone) is None  # another game's news is not this one's
