"""Two players one of whom blocked the other never meet in a tournament: the join is refused
(403 `blocked`, as a table's), and a block made after both joined keeps them apart at every
Swiss round and arena table (the seating's arithmetic, then whole tournaments)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Seat
from tests.games.helpers import API, Player, assert_error
from tests.tournaments.helpers import create_tournament, join, play_game, running_games, view
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.seating import MIN_TABLE, Waiting, arena_tables, swiss_tables, table_sizes


def apart_pairs(players: int, pairs: list[tuple[int, int]]) -> set[frozenset[int]]:
    return {frozenset((a % players, b % players)) for a, b in pairs if a % players != b % players}


def together(tables: list[list[int]], apart: set[frozenset[int]]) -> list[frozenset[int]]:
    return [
        frozenset(pair) for t in tables for pair in combinations(t, 2) if frozenset(pair) in apart
    ]


# -- the arithmetic ----------------------------------------------------------------------------
def test_swiss_parts_the_leaders_when_the_leader_blocked_the_second() -> None:
    tables = swiss_tables(list(range(8)), 4, met=set(), apart={frozenset((0, 1))})
    assert sorted(p for t in tables for p in t) == list(range(8))  # nobody sits out
    assert 0 in tables[0] and 1 in tables[1]


def test_swiss_parts_a_blocked_pair_even_against_fewer_repeats() -> None:
    # Keeping 0 and 1 together would avoid every repeat; a block comes first.
    met = {frozenset(pair) for pair in combinations([0, 2, 3, 4, 5, 6, 7], 2)}
    tables = swiss_tables(list(range(8)), 4, met=met, apart={frozenset((0, 1))})
    assert not together(tables, {frozenset((0, 1))})


def test_one_table_and_a_blocked_pair_the_lower_placed_sits_the_round_out() -> None:
    apart = {frozenset((1, 3))}
    assert swiss_tables([0, 1, 2, 3, 4], 4, met=set(), apart=apart) == [[0, 1, 2, 4]]
    assert swiss_tables([0, 1, 2], 4, met=set(), apart={frozenset((0, 2))}) == []  # two left


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 30),
    st.integers(3, 6),
    st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=12),
    st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=40),
)
def test_swiss_never_seats_an_apart_pair_together_and_seats_everyone_else_once(
    players: int, size: int, blocks: list[tuple[int, int]], meetings: list[tuple[int, int]]
) -> None:
    ranked = list(range(players))
    apart = apart_pairs(players, blocks)
    tables = swiss_tables(ranked, size, apart_pairs(players, meetings), apart)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated))
    assert not together(tables, apart)
    if not tables:  # fewer than 3 would be left once each blocked pair is parted
        assert len(ranked) - len({max(pair) for pair in apart}) < MIN_TABLE
        return
    assert [len(t) for t in tables] == table_sizes(len(seated), size)
    assert 0 in tables[0]  # T3: the leader is never the one to sit out
    for left_out in set(ranked) - set(seated):  # only for a block, and the lower placed
        assert any(frozenset((above, left_out)) in apart for above in range(left_out))


def waiting(player: int, score: int, since: float = 0.0) -> Waiting[int]:
    return Waiting(player=player, score=score, since=since)


def test_an_arena_window_passes_over_a_player_blocked_by_one_in_it() -> None:
    queue = [waiting(p, score=p) for p in range(5)]
    assert arena_tables(queue, 4, now=0.0, apart={frozenset((1, 2))}) == [[0, 1, 3, 4]]


def test_the_last_arena_table_leaves_out_the_later_waiter_of_a_blocked_pair() -> None:
    queue = [waiting(1, 0, since=0.0), waiting(2, 1, since=5.0), waiting(3, 2, since=0.0)]
    queue.append(waiting(4, 3, since=1.0))
    apart = {frozenset((2, 4))}
    assert arena_tables(queue, 5, now=60.0, apart=apart) == [[1, 3, 4]]  # 2 came last


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(0, 30), max_size=30),
    st.integers(3, 6),
    st.floats(0, 60),
    st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=15),
)
def test_arena_never_seats_an_apart_pair_together(
    scores: list[int], size: int, now: float, blocks: list[tuple[int, int]]
) -> None:
    queue = [waiting(p, score, since=float(p)) for p, score in enumerate(scores)]
    apart = apart_pairs(max(len(scores), 1), blocks)
    tables = arena_tables(queue, size, now=now, apart=apart)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated))
    assert not together(tables, apart)
    assert all(len(t) == size for t in tables[:-1]) and all(len(t) >= MIN_TABLE for t in tables)
    assert all(len(t) <= size for t in tables)


def test_players_kept_apart_never_make_the_last_arena_table_larger_than_the_others() -> None:
    # These blocks leave no window of 6 neighbours with ten still waiting: the last table then
    # took seven of them, more than a table holds (the game's creation refused it, and so the
    # scheduler stopped).
    found = [(0, 3), (0, 3), (3, 0), (2, 0), (1, 3), (0, 0), (0, 2), (1, 1), (2, 5), (1, 4)]
    queue = [waiting(p, score, since=float(since)) for p, (score, since) in enumerate(found)]
    blocks = ((1, 7), (9, 3), (1, 2), (4, 5), (0, 4), (8, 1))
    apart = {frozenset(pair) for pair in blocks}
    tables = arena_tables(queue, 6, now=60.0, apart=apart)
    assert all(MIN_TABLE <= len(t) <= 6 for t in tables), tables
    assert not together(tables, apart)


# -- whole tournaments -------------------------------------------------------------------------
def block(blocker: Player, other: Player) -> None:
    response = blocker.client.post(f"{API}/players/{other.username}/block/")
    assert response.status_code == 204, response.content


def seated_together(tournament_id: int, a: Player, b: Player) -> bool:
    tables = TournamentTable.objects.filter(tournament_id=tournament_id)
    return any(
        {a.user_id, b.user_id}
        <= set(Seat.objects.filter(game=t.game).values_list("user_id", flat=True))
        for t in tables
    )


@pytest.mark.django_db
def test_a_player_is_refused_where_someone_they_blocked_or_who_blocked_them_plays(
    make_player: Callable[..., Player],
) -> None:
    host, blocked, blocker, other = (make_player(n) for n in ("host", "ben", "carl", "dora"))
    created = create_tournament(host)
    assert join(host, created["id"]).status_code == 200
    block(host, blocked)
    block(blocker, host)
    assert_error(join(blocked, created["id"]), 403, "blocked")
    assert_error(join(blocker, created["id"]), 403, "blocked")
    assert not Entry.objects.filter(user_id__in=[blocked.user_id, blocker.user_id]).exists()
    assert join(other, created["id"]).status_code == 200
    # Who withdrew is not in it: the blocked one may join then, and the blocker not rejoin.
    assert host.client.post(f"{API}/tournaments/{created['id']}/withdraw/").status_code == 200
    assert join(blocked, created["id"]).status_code == 200
    assert_error(join(host, created["id"]), 403, "blocked")
    assert Entry.objects.get(tournament_id=created["id"], user_id=host.user_id).withdrawn


@pytest.mark.django_db
def test_a_block_made_after_both_joined_keeps_them_apart_every_swiss_round(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(6)]
    created = create_tournament(people[0], table_size=3, rounds=3)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    first, second = people[0], people[1]  # equal standings: the first to join lead, together
    block(second, first)
    assert people[0].client.post(f"{API}/tournaments/{created['id']}/start/").status_code == 200
    for round_number in (1, 2, 3):
        assert view(first, created["id"])["round"] == round_number
        assert not seated_together(created["id"], first, second)
        seated = Seat.objects.filter(game__tournament_table__tournament_id=created["id"])
        assert seated.filter(game__tournament_table__round=round_number).count() == 6
        for game in running_games(created["id"]):
            play_game(game, {p.user_id: p for p in people})
    assert view(first, created["id"])["status"] == "finished"


@pytest.mark.django_db
def test_a_block_made_after_both_joined_keeps_them_apart_at_every_arena_table(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(4)]
    created = create_tournament(people[0], format="arena", minutes=10, rounds=None, table_size=3)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    block(people[0], people[1])
    start = timezone.now()
    Tournament.objects.filter(pk=created["id"]).update(starts_at=start)
    services.tournament_step(tournament_id=created["id"], now=start)
    services.tournament_step(tournament_id=created["id"], now=start + timedelta(seconds=31))
    (table,) = view(people[0], created["id"])["tables"]  # three of four: one pair is apart
    assert not seated_together(created["id"], people[0], people[1])
    assert len(table["seats"]) == 3
