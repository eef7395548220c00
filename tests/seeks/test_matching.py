"""R28's matching on plain values: oldest first, sizes intersected at the largest size enough
seeks allow, blocks respected, the rating range widening with the wait, bots after the chosen
wait. And, for any waiting seeks, tables that never share a seek or break a rule."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from seeks.matching import Table, Waiting, rating_range, tables


def nobody_apart(a: int, b: int) -> bool:
    return False


def seek(n: int, sizes: set[int], since: float = 0.0, rating: float = 0.0, **kw: int) -> Waiting:
    return Waiting(
        seek=n,
        player=100 + n,
        sizes=frozenset(sizes),
        since=since + n / 100,
        rating=rating,
        bots_after=kw.get("bots_after"),
    )


def test_the_oldest_sit_together_at_the_largest_size_enough_of_them_accept() -> None:
    waiting = [seek(n, {3, 4}) for n in range(5)]
    assert tables(waiting, 1.0, nobody_apart) == [Table((0, 1, 2, 3), 4)]
    # Three alone make a table of 3, the largest size three allow.
    assert tables(waiting[:3], 1.0, nobody_apart) == [Table((0, 1, 2), 3)]
    assert tables(waiting[:2], 1.0, nobody_apart) == []


def test_sizes_are_intersected_and_a_younger_seek_is_seated_if_the_oldest_cannot_be() -> None:
    waiting = [seek(0, {3}), seek(1, {4}), seek(2, {3, 4}), seek(3, {4})]
    assert tables(waiting, 1.0, nobody_apart) == []  # 3 wants 2 more of size 3: only seek 2
    more = [*waiting, seek(4, {4, 5})]
    # The oldest still cannot sit; seek 1 can, at 4, with 2, 3 and 4.
    assert tables(more, 1.0, nobody_apart) == [Table((1, 2, 3, 4), 4)]
    more = [*waiting, seek(4, {3})]
    assert tables(more, 1.0, nobody_apart) == [Table((0, 2, 4), 3)]


def test_two_players_one_of_whom_blocked_the_other_never_sit_together() -> None:
    waiting = [seek(n, {3}) for n in range(4)]
    apart = {frozenset((100, 101))}

    def blocked(a: int, b: int) -> bool:
        return frozenset((a, b)) in apart

    assert tables(waiting, 1.0, blocked) == [Table((0, 2, 3), 3)]
    assert tables(waiting[:3], 1.0, blocked) == []


def test_the_rating_range_grows_by_50_every_10_seconds_and_is_unlimited_after_a_minute() -> None:
    assert [rating_range(t) for t in (0, 9.9, 10, 25, 59.9)] == [150, 150, 200, 250, 400]
    assert rating_range(60) == math.inf
    waiting = [seek(0, {3}, rating=1500), seek(1, {3}, rating=1640), seek(2, {3}, rating=1700)]
    assert tables(waiting, 1.0, nobody_apart) == []  # 1700 is 200 away from the oldest
    assert tables(waiting, 10.5, nobody_apart) == [Table((0, 1, 2), 3)]
    far = [seek(0, {3}, rating=0), seek(1, {3}, rating=2000), seek(2, {3}, rating=-900)]
    assert tables(far, 59.0, nobody_apart) == []
    assert tables(far, 60.5, nobody_apart) == [Table((0, 1, 2), 3)]


def test_after_its_bot_wait_a_seek_sits_at_its_smallest_size_with_bots_in_the_empty_seats() -> None:
    waiting = [seek(0, {4, 5}, bots_after=10), seek(1, {4}, bots_after=600), seek(2, {4})]
    assert tables(waiting, 9.0, nobody_apart) == []
    # Seek 1 allows bots (its own wait has not passed), seek 2 does not.
    assert tables(waiting, 10.5, nobody_apart) == [Table((0, 1), 4, bots=2)]
    alone = [seek(0, {3, 6}, bots_after=10)]
    assert tables(alone, 10.5, nobody_apart) == [Table((0,), 3, bots=2)]


def test_people_first_a_seek_that_may_sit_with_people_is_not_given_bots() -> None:
    waiting = [seek(n, {3}, bots_after=10) for n in range(3)]
    assert tables(waiting, 30.0, nobody_apart) == [Table((0, 1, 2), 3)]


waiting_seeks = st.lists(
    st.builds(
        lambda n, sizes, since, rating, bots: (n, sizes, since, rating, bots),
        st.integers(0, 10_000),
        st.frozensets(st.integers(3, 6), min_size=1),
        st.floats(0, 120),
        st.floats(-300, 300),
        st.one_of(st.none(), st.integers(10, 600)),
    ),
    max_size=25,
    unique_by=lambda t: t[0],
)


@given(waiting_seeks, st.floats(0, 200), st.sets(st.tuples(st.integers(0, 24), st.integers(0, 24))))
def test_any_tables_are_disjoint_and_keep_every_seek_s_terms(
    raw: list[tuple[int, frozenset[int], float, float, int | None]],
    now: float,
    pairs: set[tuple[int, int]],
) -> None:
    waiting = [
        Waiting(
            seek=n, player=i, sizes=sizes, since=min(since, now), rating=rating, bots_after=bots
        )
        for i, (n, sizes, since, rating, bots) in enumerate(raw)
    ]
    apart = {frozenset(p) for p in pairs if p[0] != p[1]}
    by_id = {w.seek: w for w in waiting}
    found = tables(waiting, now, lambda a, b: frozenset((a, b)) in apart)
    seated = [n for table in found for n in table.seeks]
    assert len(seated) == len(set(seated))  # no seek sits twice
    for table in found:
        members = [by_id[n] for n in table.seeks]
        assert len(members) + table.bots == table.size and 3 <= table.size <= 6
        assert all(table.size in w.sizes for w in members)
        assert not any(
            frozenset((a.player, b.player)) in apart for a in members for b in members if a is not b
        )
        # The table's oldest seek was its anchor, and its range holds; or its anchor's bot wait
        # has passed and it sits at its smallest size with seeks that allow bots, bots in the
        # rest (none when enough such seeks wait).
        reach = rating_range(now - members[0].since)
        in_range = members[0] == min(members, key=lambda w: (w.since, w.seek)) and all(
            abs(w.rating - members[0].rating) <= reach for w in members
        )
        with_bots = (
            members[0].bots_due(now)
            and all(w.bots_after is not None for w in members)
            and table.size == min(members[0].sizes)
        )
        assert with_bots if table.bots else in_range or with_bots
