"""`GET`/`PATCH /accounts/me/notifications/` and `POST`/`DELETE /accounts/me/push-subscriptions/`:
strict input (unknown fields, wrong types, hostile URLs and keys are 400 `invalid`), 401
without a token, and each player's subscriptions are theirs alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from notifications.models import PushSubscription
from tests.games.helpers import API, Player, assert_error
from tests.notifications.push_server import BrowserKeys, b64url

pytestmark = pytest.mark.django_db

SETTINGS = f"{API}/accounts/me/notifications/"
SUBSCRIPTIONS = f"{API}/accounts/me/push-subscriptions/"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc-123"


def subscription(endpoint: str = ENDPOINT, **keys: Any) -> dict[str, Any]:
    browser = BrowserKeys.new()
    return {"endpoint": endpoint, "keys": {"p256dh": browser.p256dh, "auth": browser.auth, **keys}}


def test_settings_default_to_mail_on_and_push_off_and_change_one_at_a_time(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    assert player.client.get(SETTINGS).json() == {"email_turns": True, "push_turns": False}
    response = player.client.patch(SETTINGS, {"email_turns": False}, format="json")
    assert response.status_code == 200
    assert response.json() == {"email_turns": False, "push_turns": False}
    response = player.client.patch(SETTINGS, {"push_turns": True}, format="json")
    assert response.json() == {"email_turns": False, "push_turns": True}
    assert player.client.get(SETTINGS).json() == {"email_turns": False, "push_turns": True}
    assert make_player().client.get(SETTINGS).json() == {"email_turns": True, "push_turns": False}


@pytest.mark.parametrize(
    "body",
    [
        {"email_turns": "false"},
        {"email_turns": 0},
        {"push_turns": None},
        {"email_turns": True, "language": "es"},
        {"unknown": 1},
        [True],
        "email_turns",
    ],
)
def test_settings_take_only_booleans_of_their_two_fields(
    make_player: Callable[..., Player], body: Any
) -> None:
    player = make_player()
    assert_error(player.client.patch(SETTINGS, body, format="json"), 400, "invalid")
    assert player.client.get(SETTINGS).json() == {"email_turns": True, "push_turns": False}


def test_signed_out_calls_are_401() -> None:
    anonymous = APIClient()
    assert_error(anonymous.get(SETTINGS), 401, "not_authenticated")
    assert_error(anonymous.patch(SETTINGS, {}, format="json"), 401, "not_authenticated")
    assert_error(
        anonymous.post(SUBSCRIPTIONS, subscription(), format="json"), 401, "not_authenticated"
    )
    assert_error(
        anonymous.delete(SUBSCRIPTIONS, {"endpoint": ENDPOINT}, format="json"),
        401,
        "not_authenticated",
    )


def test_subscribing_stores_the_keys_turns_push_on_and_deleting_forgets_them(
    make_player: Callable[..., Player],
) -> None:
    player, other = make_player(), make_player()
    body = subscription()
    response = player.client.post(SUBSCRIPTIONS, body, format="json")
    assert response.status_code == 201 and response.content == b""
    row = PushSubscription.objects.get()
    assert (row.user_id, row.endpoint, row.p256dh, row.auth) == (
        player.user_id,
        ENDPOINT,
        body["keys"]["p256dh"],
        body["keys"]["auth"],
    )
    assert player.client.get(SETTINGS).json()["push_turns"] is True
    # The same browser subscribing again (with all of PushSubscription.toJSON()) updates its
    # keys; still one row.
    again = {**subscription(), "expirationTime": None}
    assert player.client.post(SUBSCRIPTIONS, again, format="json").status_code == 201
    assert PushSubscription.objects.get().p256dh == again["keys"]["p256dh"]
    # Someone else cannot delete it.
    gone = other.client.delete(SUBSCRIPTIONS, {"endpoint": ENDPOINT}, format="json")
    assert gone.status_code == 204 and PushSubscription.objects.count() == 1
    gone = player.client.delete(SUBSCRIPTIONS, {"endpoint": ENDPOINT}, format="json")
    assert gone.status_code == 204 and PushSubscription.objects.count() == 0


P256DH = BrowserKeys.new().p256dh
AUTH = b64url(b"0123456789abcdef")


@pytest.mark.parametrize(
    "body",
    [
        subscription("http://fcm.googleapis.com/x"),  # not https
        subscription("https://"),
        subscription("javascript:alert(1)"),
        subscription("https://user:pw@fcm.googleapis.com/x"),
        subscription("https://fcm.googleapis.com:99999/x"),
        subscription("https://fcm.googleapis.com/a b"),
        subscription("https://fcm.googleapis.com/\x00"),
        subscription("https://[::1/x"),
        subscription("https://fcm.googleapis.com/" + "a" * 1000),
        subscription(12345),  # type: ignore[arg-type]
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": "not base64!"}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": b64url(b"short")}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": AUTH, "auth": AUTH}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH * 4, "auth": AUTH}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": 1, "auth": AUTH}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": AUTH, "extra": "x"}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": AUTH}, "expirationTime": "soon"},
        {"endpoint": ENDPOINT, "keys": [P256DH, AUTH]},
        {"endpoint": ENDPOINT},
        [ENDPOINT],
    ],
)
def test_hostile_subscriptions_are_400_and_store_nothing(
    make_player: Callable[..., Player], body: Any
) -> None:
    player = make_player()
    assert_error(player.client.post(SUBSCRIPTIONS, body, format="json"), 400, "invalid")
    assert PushSubscription.objects.count() == 0
    assert player.client.get(SETTINGS).json()["push_turns"] is False


@pytest.mark.parametrize(
    "body", [{}, {"endpoint": "http://x.example/y"}, {"endpoint": ENDPOINT, "keys": {}}, [1]]
)
def test_a_delete_without_a_proper_endpoint_is_400(
    make_player: Callable[..., Player], body: Any
) -> None:
    assert_error(make_player().client.delete(SUBSCRIPTIONS, body, format="json"), 400, "invalid")
