"""Tournaments through the API (API.md "Tournaments", T1–T6): whole Swiss and arena events
played by their players, the standings checked against the games' own final scores."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from tests.games.helpers import Player, assert_error
from tests.tournaments.helpers import (
    TOURNAMENTS,
    create_tournament,
    join,
    play_game,
    running_games,
    tournament_url,
    view,
)
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def place_points(totals: list[int]) -> list[int]:
    """T2, written out again: players below minus players above."""
    return [sum(t < mine for t in totals) - sum(t > mine for t in totals) for mine in totals]


def expected_standings(tournament_id: int, arena: bool) -> dict[str, tuple[int, int, int]]:
    """Each player's (points, Wizard points, exact bids) from the finished games, in order."""
    totals: dict[str, list[int]] = {}
    firsts: dict[str, int] = {}
    tables = TournamentTable.objects.filter(tournament_id=tournament_id).order_by("game_id")
    for table in tables:
        seats = list(Seat.objects.filter(game_id=table.game_id).order_by("number"))
        scores = [seat.final_score or 0 for seat in seats]
        for seat, points in zip(seats, place_points(scores), strict=True):
            name = seat.user.username
            row = totals.setdefault(name, [0, 0, 0])
            first = max(scores) == seat.final_score
            doubled = arena and first and firsts.get(name, 0) >= 2  # T4
            row[0] += points * (2 if doubled else 1)
            row[1] += seat.final_score or 0
            row[2] += seat.exact_bids or 0
            firsts[name] = firsts.get(name, 0) + 1 if first else 0
    return {name: (row[0], row[1], row[2]) for name, row in totals.items()}


def by_user(people: list[Player]) -> dict[int, Player]:
    return {player.user_id: player for player in people}


def test_a_nine_player_swiss_of_three_rounds_plays_itself_to_the_end(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(9)]
    created = create_tournament(people[0], table_size=4, rounds=3)
    assert created["status"] == "upcoming" and created["players"] == 0  # the creator joins too
    for player in people:
        assert join(player, created["id"]).status_code == 200
    started = people[0].client.post(tournament_url(created["id"], "start"))
    assert started.status_code == 200, started.content
    seen_rounds = []
    while (shown := view(people[1], created["id"]))["status"] == "running":
        this_round = [t for t in shown["tables"] if t["round"] == shown["round"]]
        assert sorted(len(t["seats"]) for t in this_round) == [4, 5]  # T3: 9 at tables of 4
        seated = [name for t in this_round for name in t["seats"]]
        assert sorted(seated) == sorted(p.username for p in people)  # each exactly once
        seen_rounds.append(shown["round"])
        for game in running_games(created["id"]):
            play_game(game, by_user(people))
    assert seen_rounds == [1, 2, 3]  # each round started by itself when the last one ended
    assert shown["status"] == "finished" and shown["ends_at"] is not None
    assert len(shown["tables"]) == 6
    leader = shown["standings"][0]
    assert leader["rank"] == 1 and leader["games"] == 3
    expected = expected_standings(created["id"], arena=False)
    for row in shown["standings"]:
        assert (row["points"], row["wizard_points"], row["exact_bids"]) == expected[row["username"]]
    keys = [(r["points"], r["wizard_points"], r["exact_bids"]) for r in shown["standings"]]
    assert keys == sorted(keys, reverse=True)  # T2's order and tie-breaks
    for before, after in zip(shown["standings"], shown["standings"][1:], strict=False):
        same = (before["points"], before["wizard_points"], before["exact_bids"]) == (
            after["points"],
            after["wizard_points"],
            after["exact_bids"],
        )
        assert after["rank"] == (before["rank"] if same else shown["standings"].index(after) + 1)
    assert Game.objects.filter(status=GameStatus.ACTIVE).count() == 0


def test_a_seven_player_arena_forms_tables_and_none_after_its_end(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(7)]
    created = create_tournament(people[0], format="arena", minutes=10, rounds=None)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    tournament_id = created["id"]
    start = timezone.now()
    assert services.tournament_step(tournament_id=tournament_id, now=start) is False  # not yet
    Tournament.objects.filter(pk=tournament_id).update(starts_at=start)
    assert services.tournament_step(tournament_id=tournament_id, now=start)
    shown = view(people[0], tournament_id)
    assert shown["status"] == "running" and [len(t["seats"]) for t in shown["tables"]] == [4]
    waiting = Entry.objects.filter(tournament_id=tournament_id, waiting_since__isnull=False)
    assert waiting.count() == 3
    services.tournament_step(tournament_id=tournament_id, now=start + timedelta(seconds=10))
    assert len(view(people[0], tournament_id)["tables"]) == 1  # three wait, not yet 30 s
    services.tournament_step(tournament_id=tournament_id, now=start + timedelta(seconds=31))
    assert [len(t["seats"]) for t in view(people[0], tournament_id)["tables"]] == [4, 3]  # T4
    for _ in range(3):  # free players are seated again as their games end
        for game in running_games(tournament_id):
            play_game(game, by_user(people))
        services.tournament_step(tournament_id=tournament_id, now=timezone.now())
    assert len(view(people[0], tournament_id)["tables"]) > 2  # players were seated again
    Tournament.objects.filter(pk=tournament_id).update(ends_at=timezone.now())  # time is up
    tables = len(view(people[0], tournament_id)["tables"])
    assert running_games(tournament_id)
    for game in running_games(tournament_id):  # T4: games still running finish and count
        play_game(game, by_user(people))
    services.tournament_step(tournament_id=tournament_id, now=timezone.now())
    shown = view(people[0], tournament_id)
    assert len(shown["tables"]) == tables  # T4: no table starts when time is up
    assert shown["status"] == "finished"
    assert all(table["status"] == "finished" for table in shown["tables"])
    expected = expected_standings(tournament_id, arena=True)
    for row in shown["standings"]:
        got = (row["points"], row["wizard_points"], row["exact_bids"])
        assert got == expected.get(row["username"], (0, 0, 0))


def test_a_tournament_with_fewer_than_three_players_is_cancelled_at_its_time(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(2)]
    created = create_tournament(people[0])
    for player in people:
        join(player, created["id"])
    assert_error(
        people[0].client.post(tournament_url(created["id"], "start")), 409, "tournament_not_open"
    )
    later = timezone.now() + timedelta(hours=2)
    assert services.tournaments_sweep(now=later) == 1
    assert view(people[0], created["id"])["status"] == "cancelled"  # T6
    assert_error(join(make_player(), created["id"]), 409, "tournament_not_open")
    assert not TournamentTable.objects.exists()


def test_only_the_creator_starts_it_early(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(3)]
    created = create_tournament(people[0])
    for player in people:
        join(player, created["id"])
    assert_error(people[1].client.post(tournament_url(created["id"], "start")), 403, "forbidden")
    assert view(people[0], created["id"])["status"] == "upcoming"


def test_a_private_tournament_needs_its_code_and_is_listed_to_its_players_only(
    make_player: Callable[..., Player],
) -> None:
    host, friend, stranger = make_player(), make_player(), make_player()
    created = create_tournament(host, visibility="private")
    code = created["invite"]
    assert code
    assert_error(join(stranger, created["id"]), 403, "invite_required")
    assert_error(join(stranger, created["id"], invite="wrong"), 403, "invite_required")
    assert_error(stranger.client.get(tournament_url(created["id"])), 403, "invite_required")
    assert stranger.client.get(tournament_url(created["id"]) + f"?invite={code}").status_code == 200
    assert join(friend, created["id"], invite=code).status_code == 200
    assert view(friend, created["id"])["invite"] == code
    listed = lambda player: [t["id"] for t in player.client.get(TOURNAMENTS).json()["results"]]  # noqa: E731
    assert created["id"] in listed(friend)
    assert created["id"] not in listed(stranger)


def test_a_withdrawn_player_is_not_seated_and_may_rejoin(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(4)]
    created = create_tournament(people[0], rounds=2, table_size=3)
    for player in people:
        join(player, created["id"])
    assert people[3].client.post(tournament_url(created["id"], "withdraw")).status_code == 200
    people[0].client.post(tournament_url(created["id"], "start"))
    shown = view(people[0], created["id"])
    seated = [name for table in shown["tables"] for name in table["seats"]]
    assert people[3].username not in seated and len(seated) == 3
    assert join(people[3], created["id"]).status_code == 200  # T5: rejoins for the next round
    for game in running_games(created["id"]):
        play_game(game, by_user(people))
    shown = view(people[0], created["id"])
    assert shown["round"] == 2
    assert people[3].username in [n for t in shown["tables"] if t["round"] == 2 for n in t["seats"]]


@pytest.mark.parametrize(
    "body",
    [
        {"format": "knockout"},
        {"table_size": 7},
        {"table_size": "4"},
        {"rounds": 16},
        {"format": "arena", "minutes": 5},
        {"name": ""},
        {"starts_at": "yesterday"},
        {"starts_at": "2020-01-01T00:00:00Z"},
        {"rounds_format": 11},
        {"rounds_format": "11"},
        {"special_cards": ["dragon"]},
        {"visibility": "hidden"},
        {"turn_seconds": 1},
    ],
)
def test_bad_options_are_refused_and_create_nothing(
    make_player: Callable[..., Player], body: dict[str, Any]
) -> None:
    host = make_player()
    good = {
        "name": "Friday night",
        "format": "swiss",
        "rounds": 3,
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
    }
    sent = {key: value for key, value in {**good, **body}.items() if value is not None}
    response = host.client.post(TOURNAMENTS, sent, format="json")
    assert_error(response, 400, "invalid")
    assert not Tournament.objects.exists()


def test_signed_out_visitors_may_read_but_not_create(make_player: Callable[..., Player]) -> None:
    host = make_player()
    created = create_tournament(host)
    host.client.credentials()
    assert host.client.get(tournament_url(created["id"])).status_code == 200
    assert host.client.get(TOURNAMENTS + "?status=upcoming").json()["count"] == 1
    assert_error(host.client.get(TOURNAMENTS + "?status=soon"), 400, "invalid")
    assert_error(host.client.post(TOURNAMENTS, {}, format="json"), 401, "not_authenticated")
    assert_error(host.client.get(tournament_url(999)), 404, "not_found")
