"""Scoring a table's result (net worth, placings with shared ties, the JMA's share with its flat score
for a monopoly win) and the standings with each tie-break, on hand-computed tables."""

import pytest

from banker.rules import ActionError
from banker.rules.networth import places
from banker.rules.tournament import Result, Scoring, score, seat_results
from banker.rules.tournament.scoring import standings, ties

from . import ANN, BANKER, BOB, CY, Logged


def table(*rows) -> list[Result]:
    """Results from (player, net_worth, place[, bankrupt])."""
    return [Result(player=p, net_worth=w, place=pl, bankrupt=bool(rest and rest[0])) for p, w, pl, *rest in rows]


FOUR = table((1, 4000, 1), (2, 3000, 2), (3, 2000, 3), (4, 1000, 4))


def test_net_worth_scores_the_net_worth():
    assert score(Scoring(kind="net_worth"), FOUR, 1) == {1: 4000, 2: 3000, 3: 2000, 4: 1000}


def test_placings_score_by_place():
    assert score(Scoring(kind="placings"), FOUR, 1) == {1: 4, 2: 2, 3: 1, 4: 0}


def test_players_tied_for_a_place_share_its_points_and_the_next_rounded_down():
    tied = table((1, 4000, 1), (2, 3000, 2), (3, 3000, 2), (4, 1000, 4))
    assert score(Scoring(kind="placings"), tied, 1) == {1: 4, 2: 1, 3: 1, 4: 0}  # (2 + 1) // 2
    first = table((1, 4000, 1), (2, 4000, 1), (3, 2000, 3), (4, 1000, 4))
    assert score(Scoring(kind="placings", placings=(10, 5, 2, 0)), first, 1) == {1: 7, 2: 7, 3: 2, 4: 0}


def test_a_place_beyond_the_list_scores_nothing():
    five = [*FOUR, Result(player=5, net_worth=0, place=5, bankrupt=True)]
    assert score(Scoring(kind="placings"), five, 1)[5] == 0


def test_jma_scores_a_share_of_the_tables_net_worth_in_percent():
    # 4000 of 10,000 at a table of four: 40 points; whole percent, rounded down.
    assert score(Scoring(kind="jma"), FOUR, 1) == {1: 40, 2: 30, 3: 20, 4: 10}
    odd = table((1, 1001, 1), (2, 999, 2), (3, 500, 3), (4, 500, 3))
    assert score(Scoring(kind="jma"), odd, 1) == {1: 33, 2: 33, 3: 16, 4: 16}


def test_jma_weighs_a_seat_at_a_table_of_five_as_one_at_a_table_of_four_up_to_the_cap():
    five = table((1, 9000, 1), (2, 500, 2), (3, 500, 2), (4, 0, 4, True), (5, 0, 5, True))
    # 9000 / 10,000 of the table, times 5 / 4: 112, capped at 100.
    assert score(Scoring(kind="jma"), five, 1) == {1: 100, 2: 6, 3: 6, 4: 0, 5: 0}
    assert score(Scoring(kind="jma", caps=(100, 110)), five, 2)[1] == 110
    assert score(Scoring(kind="jma", caps=(100, 110)), five, 3)[1] == 110  # the last cap goes on


def test_jma_gives_a_monopoly_win_its_flat_score():
    swept = table((1, 9000, 1), (2, 0, 2, True), (3, 0, 3, True), (4, 0, 4, True))
    assert score(Scoring(kind="jma"), swept, 1) == {1: 100, 2: 0, 3: 0, 4: 0}
    assert score(Scoring(kind="jma", sweep=150), swept, 1)[1] == 150


def test_the_scoring_an_organiser_sends_is_checked():
    assert Scoring.parse({"kind": "jma", "sweep": 120, "caps": [100]}) == Scoring(kind="jma", sweep=120, caps=(100,))
    assert Scoring.parse({"kind": "placings", "placings": [5, 3, 1]}).placings == (5, 3, 1)
    for bad in ({"kind": "luck"}, {"kind": "placings", "placings": [1, 2]}, {"kind": "net_worth", "caps": [5]},
                {"kind": "jma", "sweep": -1}, {"kind": "placings", "placings": []}, "jma"):
        with pytest.raises(ActionError):
            Scoring.parse(bad)


def test_a_games_end_gives_each_seats_facts():
    game = Logged(3)
    game.do(BANKER, "bank_charge", player=CY, amount=2000)
    game.do(CY, "bankrupt")
    game.do(BANKER, "end_game")
    results = seat_results(game.state)
    assert [(r.player, r.net_worth, r.place, r.bankrupt, r.bankrupt_to) for r in results] == [
        (ANN, 1500, 1, False, None), (BOB, 1500, 1, False, None), (CY, 0, 3, True, "bank")]


def test_the_games_end_screen_places_the_seats_as_the_tournament_does():
    """Players of equal net worth share a place on the end screen too (networth.places), so a
    table's result and its game's end screen agree; a bankrupt player has no place there (out)."""
    game = Logged(3)
    game.do(BANKER, "bank_pay", player=ANN, amount=100)
    game.do(BANKER, "end_game")
    assert places(game.state.standings) == [1, 2, 2]
    assert [r.place for r in seat_results(game.state)] == [1, 2, 2]
    out = Logged(3)
    out.do(BANKER, "bank_charge", player=CY, amount=2000)
    out.do(CY, "bankrupt")
    out.do(BANKER, "end_game")
    assert places(out.state.standings) == [1, 1, None]


def test_a_games_seats_are_named_by_the_event_players_at_its_table():
    game = Logged(3)
    game.do(CY, "pay", to=ANN, amount=2000)  # more than he has: a debt to Ann
    game.do(CY, "bankrupt")
    game.do(BANKER, "end_game")
    results = seat_results(game.state, players=[17, 4, 9])
    assert [(r.player, r.net_worth, r.place, r.bankrupt_to) for r in results] == [
        (17, 3000, 1, None), (4, 1500, 2, None), (9, 0, 3, 17)]


def line(ranked, player):
    return next(s for s in ranked if s.player == player)


def rows(*rows) -> list[Result]:
    """Round results from (player, points, net_worth, place)."""
    return [Result(player=p, points=pts, net_worth=w, place=pl) for p, pts, w, pl in rows]


def test_standings_sum_the_points_of_every_round():
    ranked = standings([1, 2, 3], rows((1, 4, 3000, 1), (2, 2, 2000, 2), (1, 1, 1000, 3), (3, 4, 2500, 1)))
    assert [(s.player, s.points, s.net_worth, s.rank) for s in ranked] == [(1, 5, 4000, 1), (3, 4, 2500, 2), (2, 2, 2000, 3)]


def test_a_tie_on_points_breaks_on_total_net_worth():
    ranked = standings([1, 2], rows((1, 4, 3000, 1), (2, 4, 3500, 1)))
    assert [s.player for s in ranked] == [2, 1] and [s.rank for s in ranked] == [1, 2]


def test_then_on_the_best_single_round_place():
    ranked = standings([1, 2], rows((1, 3, 2000, 2), (1, 3, 2000, 2), (2, 2, 2000, 1), (2, 4, 2000, 3)))
    assert [s.player for s in ranked] == [2, 1] and line(ranked, 2).best_place == 1


def test_then_on_the_roll_off_the_organiser_recorded():
    level = rows((1, 4, 3000, 1), (2, 4, 3000, 1))
    assert [s.rank for s in standings([1, 2], level)] == [1, 1]
    ranked = standings([1, 2], level, roll_offs=[[2, 1]])
    assert [s.player for s in ranked] == [2, 1] and [s.rank for s in ranked] == [1, 2]
    assert [s.player for s in standings([1, 2], level, roll_offs=[[2, 1], [1, 2]])] == [1, 2]  # the newest


def test_a_roll_off_is_wanted_only_between_players_who_played_and_are_level_on_everything():
    level = rows((1, 4, 3000, 1), (2, 4, 3000, 1), (3, 2, 2000, 2), (4, 2, 2000, 2), (5, 1, 900, 3))
    assert ties(standings([1, 2, 3, 4, 5, 6], level)) == [[1, 2], [3, 4]]  # 6 has not played: no tie with anyone
    assert ties(standings([1, 2, 3, 4, 5, 6], level, roll_offs=[[2, 1]])) == [[3, 4]]
