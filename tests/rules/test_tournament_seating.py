"""Seating: tables of four or five (three only for 6, 7 and 11 players), the first round from the
seed, later rounds without a rematch whenever one can be avoided, the final by standings."""

from hypothesis import given, settings
from hypothesis import strategies as st

from banker.rules.tournament import meetings, seat_final, seat_round, table_sizes
from banker.rules.tournament.seating import rematches


def seated(tables) -> list[int]:
    return sorted(p for table in tables for p in table)


def play_rounds(players: int, rounds: int, seed: int = 1) -> list:
    """Seat `rounds` rounds of players 1..players in turn, each knowing the ones before."""
    played: list = []
    for number in range(rounds):
        played.append(seat_round(range(1, players + 1), played, seed + number))
    return played


@given(st.integers(min_value=8, max_value=100))
@settings(max_examples=30)
def test_tables_are_of_four_or_five_from_eight_players_on_except_eleven(players):
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert set(sizes) <= ({3, 4} if players == 11 else {4, 5})


def test_tables_of_three_only_where_no_split_into_fours_and_fives_exists():
    assert table_sizes(6) == [3, 3] and table_sizes(7) == [4, 3] and table_sizes(11) == [4, 4, 3]
    assert table_sizes(9) == [5, 4] and table_sizes(16) == [4, 4, 4, 4] and table_sizes(17) == [5, 4, 4, 4]
    assert table_sizes(5) == [5] and table_sizes(3) == [3] and table_sizes(2) == [2]


@given(st.integers(min_value=2, max_value=60), st.integers(min_value=0, max_value=2**31 - 1))
@settings(max_examples=40, deadline=None)
def test_the_first_round_seats_everyone_once_at_tables_of_valid_sizes_from_the_seed(players, seed):
    tables = seat_round(range(1, players + 1), [], seed)
    assert seated(tables) == list(range(1, players + 1))
    assert sorted(map(len, tables), reverse=True) == table_sizes(players)
    assert seat_round(range(1, players + 1), [], seed) == tables


def test_another_seed_draws_another_first_round():
    assert seat_round(range(1, 17), [], 1) != seat_round(range(1, 17), [], 2)


@given(st.integers(min_value=20, max_value=60), st.integers(min_value=0, max_value=1000))
@settings(max_examples=10, deadline=None)
def test_a_second_round_has_no_rematch_when_there_are_enough_tables(players, seed):
    # With at least as many tables as the largest first-round table, everyone from one table can sit
    # apart: a seating without a rematch exists (the JMA's table plus seat position is one).
    first = seat_round(range(1, players + 1), [], seed)
    second = seat_round(range(1, players + 1), [first], seed + 1)
    assert seated(second) == list(range(1, players + 1))
    assert sorted(map(len, second), reverse=True) == table_sizes(players)
    assert rematches(second, [first]) == 0


def test_sixteen_players_play_three_rounds_without_a_rematch():
    played = play_rounds(16, 3)
    assert all(len(tables) == 4 and set(map(len, tables)) == {4} for tables in played)
    assert max(meetings(played).values()) == 1


def test_later_rounds_are_drawn_the_same_from_the_same_seed():
    assert play_rounds(16, 3, seed=9) == play_rounds(16, 3, seed=9)


def test_where_a_rematch_cannot_be_avoided_the_fewest_are_kept():
    # Nine players at a 5 and a 4, twice: the first round's five split 3 + 2 at best, its four
    # 2 + 2, so 3 + 1 + 1 + 1 pairs meet again at the least; the search finds that seating.
    played = play_rounds(9, 2)
    assert rematches(played[1], played[:1]) == 6


def test_withdrawn_and_late_players_are_seated_with_the_others():
    first = seat_round(range(1, 17), [], 3)
    second = seat_round([*range(2, 17), 17], [first], 4)  # 1 withdrew, 17 came late
    assert seated(second) == list(range(2, 18)) and sorted(map(len, second)) == [4, 4, 4, 4]


def test_the_final_seats_the_top_players_by_standings():
    assert seat_final([7, 3, 9, 1, 4, 2], 4) == ((7, 3, 9, 1),)
    assert seat_final([7, 3], 4) == ((7, 3),)
