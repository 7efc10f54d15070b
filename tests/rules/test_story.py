"""The story in numbers (rules/story.py): hand-written logs of effects, folded into the records,
the big moments and each owner's return on each deed. The page that words them: tests/web/test_story.py."""

from datetime import UTC, datetime, timedelta

from banker.rules.board import load_board
from banker.rules.story import count


def left(**levels: tuple[int, int]):
    """The game those hand-written logs leave: each deed named `sq<square>` held by (player, level)."""
    from banker.rules import Settings, new_game
    from banker.rules.buildings import set_level

    state = new_game("us", Settings())
    for name, (owner, level) in levels.items():
        deed = state.deeds[int(name[2:])]
        deed.owner = owner
        set_level(deed, level)
    return state


def test_the_evenings_records_and_big_moments_from_a_log():
    """A log written out by hand, a minute apart: Bob goes to jail and begins two turns there before
    rolling out; Ann completes the brown group and puts the first hotel on it (in one step, the
    transfer naming the group); Bob's last turn is still going."""
    from banker.rules.effects import bank, play

    start = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    log = [
        [play.started([1, 2])],  # 20:00 Ann's turn
        [play.rolled(1, [1, 2]), play.moved(1, 0, 3), bank.bought(1, 3), bank.transfer(1, "bank", 60, "purchase", 3)],
        [play.turn(2)],  # 20:02 Ann's turn took two minutes
        [play.rolled(2, [5, 5]), play.moved(2, 0, 10), play.rolled(2, [6, 6]), play.rolled(2, [1, 1]),
         play.jailed(2, "three_doubles"), play.turn(1)],  # 20:03 Bob's, one minute
        [play.rolled(1, [1, 1]), play.moved(1, 3, 5), play.turn(2)],  # 20:04: no deed on 5 bought
        [play.rolled(2, [1, 2]), play.stayed_in_jail(2, 1), play.turn(1)],  # 20:05
        [bank.bought(1, 1), bank.transfer(1, "bank", 60, "purchase", 1)],  # 20:06: brown is Ann's
        [bank.levels_set(1, 1, {1: 5, 3: 4}), bank.transfer(1, "bank", 450, "building", group="brown")],  # 20:07
        [play.turn(2)],  # 20:08
        [play.rolled(2, [2, 2]), play.left_jail(2, "doubles"), play.moved(2, 10, 14)],  # 20:09
    ]
    story = count(load_board("us"), [(effects, start + timedelta(minutes=n)) for n, effects in enumerate(log)],
                  left(sq1=(1, 5), sq3=(1, 4)))
    assert story.longest_jail == (2, 2)
    assert story.most_doubles() == (2, 4) and dict(story.doubles) == {1: 1, 2: 4}
    # Ann: 20:00-20:02, 20:03-20:04, 20:05-20:08; Bob: 20:02-20:03, 20:04-20:05 (his last goes on).
    assert (dict(story.turns), dict(story.turn_seconds)) == ({1: 3, 2: 2}, {1: 360, 2: 120})
    assert story.seconds_per_turn() == 96 and story.seconds_per_turn(1) == 120
    assert [(m.kind, m.step, m.player, m.group, m.square) for m in story.marks] == [
        ("monopoly", 6, 1, "brown", None), ("hotel", 7, 1, None, 1)]
    # Five levels on Mediterranean and four on Baltic, at $50 each.
    assert [(h.square, h.cost, h.net) for h in story.holdings] == [(3, 60 + 200, 0), (1, 60 + 250, 0)]  # worth as much
    assert dict(story.landings) == {3: 1, 10: 1, 5: 1, 14: 1}
    assert story.biggest_rent is None and story.best_deed(1) is None


def test_each_owner_of_a_deed_in_turn_is_charged_and_credited_with_their_own_time_with_it():
    """Ann buys the brown group; Bob buys both lots from her for $150 (half each: their prices are
    equal) and builds a house on each; Ann pays him $10 rent; Bob goes bankrupt to Ann (his houses
    sold back at $25 each) and Ann builds on the lots again. Each owner's return is their own."""
    from banker.rules.effects import bank, play

    start = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    nothing = {"cash": 0, "squares": [], "jail_cards": []}
    log = [
        [play.started([1, 2])],
        [bank.transfer(1, "bank", 60, "purchase", 1), bank.bought(1, 1)],
        [bank.transfer(1, "bank", 60, "purchase", 3), bank.bought(1, 3)],
        [bank.transfer(2, 1, 150, "trade"),
         bank.trade_done(1, 2, 1, nothing | {"cash": 150}, nothing | {"squares": [1, 3]})],
        [bank.levels_set(2, 1, {1: 1, 3: 1}), bank.transfer(2, "bank", 100, "building", group="brown")],
        [bank.transfer(1, 2, 10, "rent", 1)],
        [bank.bankrupt(2, 1), bank.transfer("bank", 2, 25, "building_sale", 1),
         bank.transfer("bank", 2, 25, "building_sale", 3), bank.transfer(2, 1, 1350, "bankruptcy")],
        [bank.levels_set(1, 1, {1: 1, 3: 1}), bank.transfer(1, "bank", 100, "building", group="brown")],
    ]
    story = count(load_board("us"), [(effects, start + timedelta(minutes=n)) for n, effects in enumerate(log)],
                  left(sq1=(1, 1), sq3=(1, 1)))
    # Ann holds the lots again at the end, each worth its $60 and its house's $50.
    assert [(h.square, h.owner, h.how, h.rent, h.sold_for, h.worth_now, h.cost, h.net) for h in story.holdings] == [
        (1, 1, "bought", 0, 75, 0, 60, 15), (3, 1, "bought", 0, 75, 0, 60, 15),
        (1, 2, "trade", 10, 0, 0, 75 + 50 - 25, -90), (3, 2, "trade", 0, 0, 0, 75 + 50 - 25, -100),
        (1, 1, "bankruptcy", 0, 0, 110, 50, 60), (3, 1, "bankruptcy", 0, 0, 110, 50, 60)]  # from no houses again
    assert story.best_buy() is story.holdings[0] and story.worst_buy() is story.holdings[1]
    assert [(m.kind, m.step, m.player, m.other) for m in story.marks] == [
        ("monopoly", 2, 1, None), ("trade", 3, 2, 1), ("monopoly", 3, 2, None), ("bankrupt", 6, 2, 1),
        ("monopoly", 6, 1, None)]
