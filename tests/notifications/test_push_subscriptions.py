"""A player holds at most 10 push subscriptions (an 11th replaces their oldest); their own
endpoint posted again takes the new keys; an endpoint another account holds stays theirs, keys
and all, and the poster is told so (400 `invalid`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from notifications.models import PushSubscription
from notifications.services import MAX_PUSH_SUBSCRIPTIONS
from tests.games.helpers import API, Player, assert_error
from tests.notifications.push_server import BrowserKeys

pytestmark = pytest.mark.django_db

SUBSCRIPTIONS = f"{API}/accounts/me/push-subscriptions/"
SETTINGS = f"{API}/accounts/me/notifications/"


def endpoint(n: int) -> str:
    return f"https://fcm.googleapis.com/fcm/send/browser-{n}"


def body(url: str) -> dict[str, Any]:
    keys = BrowserKeys.new()
    return {"endpoint": url, "keys": {"p256dh": keys.p256dh, "auth": keys.auth}}


def endpoints_of(player: Player) -> list[str]:
    rows = PushSubscription.objects.filter(user_id=player.user_id).order_by("pk")
    return [row.endpoint for row in rows]


def test_an_eleventh_subscription_replaces_the_oldest(make_player: Callable[..., Player]) -> None:
    player, other = make_player(), make_player()
    assert other.client.post(SUBSCRIPTIONS, body(endpoint(99)), format="json").status_code == 201
    for n in range(MAX_PUSH_SUBSCRIPTIONS):
        assert (
            player.client.post(SUBSCRIPTIONS, body(endpoint(n)), format="json").status_code == 201
        )
    assert MAX_PUSH_SUBSCRIPTIONS == 10
    assert endpoints_of(player) == [endpoint(n) for n in range(10)]
    assert player.client.post(SUBSCRIPTIONS, body(endpoint(10)), format="json").status_code == 201
    assert endpoints_of(player) == [endpoint(n) for n in range(1, 11)]
    # Posting one of them again is no new subscription: nothing else goes.
    assert player.client.post(SUBSCRIPTIONS, body(endpoint(5)), format="json").status_code == 201
    assert endpoints_of(player) == [endpoint(n) for n in range(1, 11)]
    assert endpoints_of(other) == [endpoint(99)]  # another player's never count


def test_the_players_own_endpoint_posted_again_takes_the_new_keys(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    player.client.post(SUBSCRIPTIONS, body(endpoint(1)), format="json")
    again = body(endpoint(1))
    assert player.client.post(SUBSCRIPTIONS, again, format="json").status_code == 201
    row = PushSubscription.objects.get()
    assert (row.user_id, row.p256dh, row.auth) == (
        player.user_id,
        again["keys"]["p256dh"],
        again["keys"]["auth"],
    )


def test_an_endpoint_held_by_another_account_is_not_handed_over(
    make_player: Callable[..., Player],
) -> None:
    owner, poster = make_player(), make_player()
    first = body(endpoint(1))
    owner.client.post(SUBSCRIPTIONS, first, format="json")
    response = poster.client.post(SUBSCRIPTIONS, body(endpoint(1)), format="json")
    assert_error(response, 400, "invalid")
    assert "another account" in response.json()["error"]["message"]
    assert response.json()["error"]["fields"] == {"endpoint": ["held by another account"]}
    row = PushSubscription.objects.get()
    assert (row.user_id, row.p256dh, row.auth) == (
        owner.user_id,
        first["keys"]["p256dh"],
        first["keys"]["auth"],
    )
    assert poster.client.get(SETTINGS).json()["push_turns"] is False
    # Nor can the other account delete it.
    gone = poster.client.delete(SUBSCRIPTIONS, {"endpoint": endpoint(1)}, format="json")
    assert gone.status_code == 204 and PushSubscription.objects.count() == 1
