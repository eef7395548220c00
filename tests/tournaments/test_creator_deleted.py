"""A tournament whose creator deletes their account: an upcoming one is cancelled (its players
told as at T6's cancellation), a running one goes on under `deleted-<n>`; and a creation
racing the deletion is refused (401) rather than leave one owned by the deleted account."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.utils import timezone

from core.errors import NotAuthenticated
from tests.games.helpers import API, PASSWORD, Player, assert_error, race, register_player
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
from tournaments.models import Status, Tournament
from tournaments.notify import tournament_group

ME = f"{API}/accounts/me/"


def delete_account(player: Player) -> int:
    status: int = player.client.delete(ME, {"password": PASSWORD}, format="json").status_code
    return status


def listen(tournament_id: int) -> Callable[[], Any]:
    """A channel in the tournament's socket group; the returned call reads its next message
    (None if none comes within a few seconds)."""
    layer = get_channel_layer()
    assert layer is not None
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(tournament_group(tournament_id), channel)

    async def next_message() -> Any:
        try:
            return await asyncio.wait_for(layer.receive(channel), timeout=5)
        except TimeoutError:
            return None

    return async_to_sync(next_message)


@pytest.mark.django_db
def test_an_upcoming_tournament_is_cancelled_when_its_creator_deletes_their_account(
    make_player: Callable[..., Player],
) -> None:
    host, *people = (make_player() for _ in range(4))
    created = create_tournament(host)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    heard = listen(created["id"])
    assert delete_account(host) == 204
    pushed = heard()  # its sockets are sent the view, as at T6's cancellation
    assert pushed is not None and pushed["type"] == "tournament.changed"
    assert json.loads(pushed["frame"])["tournament"]["status"] == "cancelled"
    shown = view(people[0], created["id"])
    assert shown["status"] == "cancelled" and shown["ends_at"] is not None
    assert shown["players"] == 3  # its players are not withdrawn: it is over for everyone
    listed = people[0].client.get(TOURNAMENTS + "?status=upcoming").json()["results"]
    assert created["id"] not in [t["id"] for t in listed]
    assert_error(join(make_player(), created["id"]), 409, "tournament_not_open")
    assert services.tournaments_sweep(now=timezone.now().replace(year=2100)) == 0


@pytest.mark.django_db
def test_a_running_tournament_goes_on_when_its_creator_deletes_their_account(
    make_player: Callable[..., Player],
) -> None:
    host, *people = (make_player(f"named{i}") for i in range(4))
    created = create_tournament(host, table_size=3, rounds=2)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    assert host.client.post(tournament_url(created["id"], "start")).status_code == 200
    assert delete_account(host) == 204
    shown = view(people[0], created["id"])
    assert shown["status"] == "running" and shown["creator"] == f"deleted-{host.user_id}"
    assert host.username not in json.dumps(shown)
    for game in running_games(created["id"]):
        play_game(game, {p.user_id: p for p in people})
    assert view(people[0], created["id"])["round"] == 2  # the next round was seated


@pytest.mark.django_db
def test_a_creation_already_past_sign_in_cannot_create_for_a_deleted_account(
    make_player: Callable[..., Player],
) -> None:
    leaving = make_player()
    before_deletion = User.objects.get(pk=leaving.user_id)  # as the request's auth found it
    assert delete_account(leaving) == 204
    with pytest.raises(NotAuthenticated):
        services.tournament_create(
            user=before_deletion, name="Late", format="swiss", starts_at=timezone.now(), rounds=3
        )
    assert not Tournament.objects.exists()


RACES = 100


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_creation_racing_the_deletion_never_leaves_an_upcoming_tournament() -> None:
    for attempt in range(RACES):
        starts_at = (timezone.now() + timedelta(hours=1)).isoformat()  # never refused as past
        body = {"name": "Race", "format": "swiss", "rounds": 3, "starts_at": starts_at}
        player = register_player(f"racer{attempt}")
        creation = partial(player.client.post, TOURNAMENTS, body, format="json")
        created, deleted = race([creation, partial(delete_account, player)])
        assert deleted == 204, attempt
        assert created.status_code in (201, 401), (attempt, created.content)
        left = Tournament.objects.filter(created_by_id=player.user_id)
        assert not left.exclude(status=Status.CANCELLED).exists(), attempt
        assert left.count() == (created.status_code == 201), attempt
