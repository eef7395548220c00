"""T2–T4's arithmetic in plain Python: table sizes, Swiss seating, arena tables, place points."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Waiting,
    arena_place_points,
    arena_tables,
    place_points,
    repeated_pairs,
    shared_ranks,
    swiss_tables,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (8, 4, [4, 4]),
        (9, 4, [5, 4]),  # one more at one table beats three tables of 3
        (7, 4, [4, 3]),
        (10, 4, [5, 5]),  # 5+5 is two off, as 4+3+3 is, with a table fewer
        (11, 4, [4, 4, 3]),
        (3, 6, [3]),
        (13, 6, [5, 4, 4]),  # 7+6 is too big: three tables
        (12, 3, [3, 3, 3, 3]),
        (5, 3, [5]),  # 3+2 leaves a table of two
        (1000, 4, [4] * 250),
    ],
)
def test_t3_tables_are_the_chosen_size_changed_only_as_needed(
    players: int, size: int, sizes: list[int]
) -> None:
    assert table_sizes(players, size) == sizes


@given(st.integers(3, 200), st.integers(3, 6))
def test_t3_every_table_seats_three_to_six_and_sizes_differ_by_at_most_one(
    players: int, size: int
) -> None:
    sizes = table_sizes(players, size)
    assert sum(sizes) == players
    assert all(3 <= seats <= 6 for seats in sizes)
    assert max(sizes) - min(sizes) <= 1


def test_fewer_than_three_players_or_a_size_outside_three_to_six_is_refused() -> None:
    with pytest.raises(ValueError):
        table_sizes(2, 4)
    with pytest.raises(ValueError):
        table_sizes(10, 7)


def met_pairs(players: int, pairs: list[tuple[int, int]]) -> set[frozenset[int]]:
    return {frozenset((a % players, b % players)) for a, b in pairs if a % players != b % players}


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 60),
    st.integers(3, 6),
    st.lists(st.tuples(st.integers(0, 59), st.integers(0, 59)), max_size=120),
)
def test_t3_swiss_seats_everyone_once_leader_first_and_never_adds_repeats(
    players: int, size: int, pairs: list[tuple[int, int]]
) -> None:
    ranked = list(range(players))
    met = met_pairs(players, pairs)
    tables = swiss_tables(ranked, size, met)
    assert sorted(p for table in tables for p in table) == ranked
    assert [len(table) for table in tables] == table_sizes(players, size)
    assert 0 in tables[0]  # T3: the leader at the first table
    plain = [[p for p in ranked if home == i] for i, home in enumerate(_homes(ranked, size))]
    assert repeated_pairs(tables, met) <= repeated_pairs(plain, met)
    homes = dict(zip(ranked, _homes(ranked, size), strict=True))
    for index, table in enumerate(tables):
        assert all(abs(homes[p] - index) <= 1 for p in table)  # a neighbouring table at most


def _homes(ranked: list[int], size: int) -> list[int]:
    homes: list[int] = []
    for index, seats in enumerate(table_sizes(len(ranked), size)):
        homes += [index] * seats
    return homes


def _best_split(ranked: list[int], size: int, met: set[frozenset[int]]) -> int:
    """Brute force over two tables: every split that keeps sizes and the leader at table 1."""
    first, _ = table_sizes(len(ranked), size)
    best = None
    for upper in combinations(ranked[1:], first - 1):
        tables = [[0, *upper], [p for p in ranked[1:] if p not in upper]]
        repeats = repeated_pairs(tables, met)
        best = repeats if best is None else min(best, repeats)
    assert best is not None
    return best


@settings(max_examples=80, deadline=None)
@given(
    st.integers(6, 10),
    st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=30),
)
def test_t3_two_tables_hold_the_fewest_repeats_a_brute_force_finds(
    players: int, pairs: list[tuple[int, int]]
) -> None:
    size = 3 if players <= 7 else 4
    if len(table_sizes(players, size)) != 2:
        return
    ranked = list(range(players))
    met = met_pairs(players, pairs)
    assert repeated_pairs(swiss_tables(ranked, size, met), met) == _best_split(ranked, size, met)


def test_t3_players_change_tables_to_avoid_meeting_again() -> None:
    # Round 1 sat 0–3 and 4–7; the same standings would seat the same tables again.
    met = {
        frozenset(pair) for table in ([0, 1, 2, 3], [4, 5, 6, 7]) for pair in combinations(table, 2)
    }
    tables = swiss_tables(list(range(8)), 4, met)
    assert 0 in tables[0]
    assert repeated_pairs(tables, met) == 4  # two and two from each table: the least possible


@pytest.mark.parametrize(
    ("totals", "points"),
    [
        ([50, 30, 10, -20], [3, 1, -1, -3]),
        ([40, 40, 10], [1, 1, -2]),  # a shared first place
        ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
        ([10, 20, 30, 40, 50, 60], [-5, -3, -1, 1, 3, 5]),
    ],
)
def test_t2_place_points_are_players_below_minus_players_above(
    totals: list[int], points: list[int]
) -> None:
    assert place_points(totals) == points


@given(st.lists(st.integers(-300, 300), min_size=3, max_size=6))
def test_t2_place_points_add_up_to_zero(totals: list[int]) -> None:
    assert sum(place_points(totals)) == 0


def test_t2_equal_standings_share_a_rank() -> None:
    assert shared_ranks([(5, 100, 3), (5, 100, 3), (5, 90, 4), (1, 0, 0)]) == [1, 1, 3, 4]


def test_t4_a_first_place_after_two_firsts_in_a_row_counts_double() -> None:
    assert arena_place_points(3, first=True, firsts_before=0) == 3
    assert arena_place_points(3, first=True, firsts_before=1) == 3
    assert arena_place_points(3, first=True, firsts_before=2) == 6
    assert arena_place_points(-1, first=False, firsts_before=5) == -1


def waiting(
    player: int, score: int, since: float = 0.0, mates: tuple[int, ...] = ()
) -> Waiting[int]:
    return Waiting(player=player, score=score, since=since, last_mates=frozenset(mates))


def test_t4_a_table_forms_from_the_players_closest_in_score() -> None:
    queue = [waiting(1, 0), waiting(2, 9), waiting(3, 10), waiting(4, 11), waiting(5, 12)]
    assert arena_tables(queue, 4, now=1.0) == [[2, 3, 4, 5]]  # 1 waits: too few, too soon


def test_t4_last_table_mates_are_kept_apart_when_another_table_is_as_close() -> None:
    queue = [waiting(p, 0, mates=(2,) if p == 1 else (1,) if p == 2 else ()) for p in range(1, 6)]
    (table,) = arena_tables(queue, 4, now=0.0)
    assert not {1, 2} <= set(table)


def test_t4_three_players_who_waited_thirty_seconds_get_a_table() -> None:
    queue = [waiting(1, 0, since=0.0), waiting(2, 5, since=10.0), waiting(3, 1, since=0.0)]
    assert arena_tables(queue, 4, now=29.0) == []
    assert arena_tables(queue, 4, now=31.0) == []  # only two have waited 30 s
    assert sorted(arena_tables(queue, 4, now=40.0)[0]) == [1, 2, 3]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=40), st.integers(3, 6), st.floats(0, 60))
def test_t4_nobody_is_seated_twice_and_tables_are_full_or_of_long_waiters(
    scores: list[int], size: int, now: float
) -> None:
    queue = [waiting(p, score, since=float(p)) for p, score in enumerate(scores)]
    tables = arena_tables(queue, size, now=now)
    seated = [p for table in tables for p in table]
    assert len(seated) == len(set(seated))
    assert all(len(table) == size for table in tables[:-1])
    assert len(scores) - len(seated) < size
    if tables and len(tables[-1]) < size:
        assert len(tables[-1]) >= 3 and sum(now - float(p) >= 30 for p in tables[-1]) >= 3


def test_a_thousand_players_are_seated_in_order() -> None:
    ranked = list(range(1000))
    met = {frozenset((p, p + 1)) for p in range(0, 999, 2)}
    tables = swiss_tables(ranked, 4, met)
    assert len(tables) == 250 and sorted(p for t in tables for p in t) == ranked
    assert repeated_pairs(tables, met) == 0
