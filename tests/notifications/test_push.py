"""Web Push against a push service on loopback: the payload decrypts with the subscription's
own keys (RFC 8291), the VAPID header's JWT verifies with the site's public key and names the
service as its audience (RFC 8292); a 410 deletes the subscription, a 5xx is retried; nothing
is pushed for a live table while the player has a socket open."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import http_ece
import pytest
from celery.signals import task_retry
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings

from games import presence
from notifications import services, tasks, webpush
from notifications.models import PushSubscription
from tests.games.elsewhere import open_elsewhere
from tests.games.helpers import Player, game_row, seat_players
from tests.notifications.helpers import DAY, to_act
from tests.notifications.push_server import (
    BrowserKeys,
    PushService,
    Received,
    push_service,
    unb64url,
)
from tests.tournaments.helpers import create_tournament, join, tournament_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    with push_service() as running:
        # A push service on loopback: exempt from the endpoint checks, for these tests only.
        settings.WEB_PUSH_TEST_ORIGINS = [running.url]
        yield running


def subscribe_all(people: list[Player], service: PushService) -> dict[int, tuple[BrowserKeys, str]]:
    """Each player's browser subscribes (through the service: the API takes https only)."""
    subscribed = {}
    for player in people:
        keys = BrowserKeys.new()
        endpoint = f"{service.url}/push/{player.username}"
        from django.contrib.auth.models import User

        services.push_subscription_add(
            user=User.objects.get(pk=player.user_id),
            endpoint=endpoint,
            p256dh=keys.p256dh,
            auth=keys.auth,
        )
        subscribed[player.user_id] = (keys, endpoint)
    return subscribed


def start_table(
    make_player: Callable[..., Player], service: PushService, turn_seconds: int
) -> tuple[int, list[Player], dict[int, tuple[BrowserKeys, str]]]:
    people = [make_player() for _ in range(3)]
    subscribed = subscribe_all(people, service)
    game_id = seat_players(people, turn_seconds=turn_seconds, blind_first_round=False)
    return game_id, people, subscribed


def decrypt(request: Received, keys: BrowserKeys) -> dict[str, object]:
    assert request.headers["content-encoding"] == "aes128gcm"
    clear = http_ece.decrypt(
        request.body, private_key=keys.private, auth_secret=keys.auth_secret, version="aes128gcm"
    )
    payload: dict[str, object] = json.loads(clear)
    return payload


def verify_vapid(request: Received, audience: str) -> dict[str, object]:
    """The JWT of `Authorization: vapid t=…,k=…` is signed (ES256) by the site's key."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == webpush.public_key()
    header_b64, claims_b64, signature_b64 = fields["t"].split(".")
    assert json.loads(unb64url(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    signature = unb64url(signature_b64)
    assert len(signature) == 64
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # and the check would catch a forged claim
        public.verify(der, f"{header_b64}.{claims_b64}x".encode(), ec.ECDSA(hashes.SHA256()))
    claims: dict[str, object] = json.loads(unb64url(claims_b64))
    assert claims["aud"] == audience
    assert claims["sub"] == settings.VAPID_SUBJECT
    assert isinstance(claims["exp"], int) and time.time() < claims["exp"] <= time.time() + 86400
    return claims


def test_a_turn_is_pushed_encrypted_for_that_browser_and_signed_by_the_site(
    make_player: Callable[..., Player], service: PushService
) -> None:
    game_id, people, subscribed = start_table(make_player, service, 60)
    player = to_act(game_id, people)
    keys, _ = subscribed[player.user_id]
    assert [request.path for request in service.received] == [f"/push/{player.username}"]
    request = service.received[0]
    payload = decrypt(request, keys)
    assert payload["url"] == f"/games/{game_id}/" and payload["tag"] == f"game-{game_id}"
    assert str(game_id) in str(payload["title"])
    assert 0 < int(request.headers["ttl"]) <= 60
    verify_vapid(request, service.url)
    # Another browser's keys cannot read it.
    with pytest.raises(Exception):  # noqa: B017 (http_ece raises a bare decryption error)
        decrypt(request, BrowserKeys.new())


def test_a_subscription_the_push_service_reports_gone_is_deleted(
    make_player: Callable[..., Player], service: PushService
) -> None:
    service.statuses = [410]
    game_id, people, _ = start_table(make_player, service, 60)
    player = to_act(game_id, people)
    assert len(service.received) == 1
    assert not PushSubscription.objects.filter(user_id=player.user_id).exists()
    assert PushSubscription.objects.count() == 2  # the others' stay


def test_a_failing_or_unreachable_push_service_is_tried_again_with_backoff(
    make_player: Callable[..., Player], service: PushService, settings: Any
) -> None:
    game_id, people, subscribed = start_table(make_player, service, 60)
    player = to_act(game_id, people)
    subscription = PushSubscription.objects.get(user_id=player.user_id)
    payload = webpush.turn_payload(game_row(game_id), "en")
    retries: list[BaseException] = []

    def on_retry(sender: object, reason: BaseException, **_: object) -> None:
        retries.append(reason)

    task_retry.connect(on_retry, weak=False)
    try:
        service.statuses = [503]
        tasks.push_send.apply((subscription.pk, payload), throw=False)
        # Eager tasks run their retry at once: the 503, then the retry's delivery.
        assert len(service.received) == 3 and len(retries) == 1
        decrypt(service.received[-1], subscribed[player.user_id][0])
    finally:
        task_retry.disconnect(on_retry)
    assert isinstance(getattr(retries[0], "exc", None), webpush.PushFailed)
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()
    # An unreachable service is a failure to retry too, not a gone subscription.
    settings.WEB_PUSH_TEST_ORIGINS = [*settings.WEB_PUSH_TEST_ORIGINS, "http://127.0.0.1:9"]
    with pytest.raises(webpush.PushFailed):
        webpush.deliver(
            endpoint="http://127.0.0.1:9/nobody-listens",
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=payload,
        )
    assert tasks.push_send.autoretry_for == (webpush.PushFailed,)
    assert tasks.push_send.retry_backoff and tasks.push_send.max_retries


def test_nothing_is_pushed_for_a_live_table_while_the_player_is_connected(
    make_player: Callable[..., Player], service: PushService
) -> None:
    people = [make_player() for _ in range(3)]
    subscribe_all(people, service)
    with open_elsewhere(*(player.user_id for player in people)):  # a socket of theirs is open
        seat_players(people, turn_seconds=60, blind_first_round=False)
        assert service.received == []
        # A correspondence table is pushed all the same (the player may be elsewhere).
        game_id = seat_players(people, turn_seconds=DAY, blind_first_round=False)
        assert [r.path for r in service.received] == [f"/push/{to_act(game_id, people).username}"]
    assert not any(presence.is_connected(player.user_id) for player in people)


def test_push_off_sends_nothing(make_player: Callable[..., Player], service: PushService) -> None:
    people = [make_player() for _ in range(3)]
    subscribe_all(people, service)
    for player in people:
        player.client.patch(
            "/api/v1/accounts/me/notifications/", {"push_turns": False}, format="json"
        )
    seat_players(people, turn_seconds=60, blind_first_round=False)
    assert service.received == []


def test_a_friends_invitation_is_pushed_to_a_player_with_no_socket_open(
    make_player: Callable[..., Player], service: PushService
) -> None:
    host, friend = make_player("inviter"), make_player("invited")
    (keys, _endpoint) = subscribe_all([friend], service)[friend.user_id]
    for one, other in ((host, friend), (friend, host)):
        assert one.client.post(f"/api/v1/players/{other.username}/follow/").status_code == 204
    game_id = host.client.post("/api/v1/games/", {"seats": 3}, format="json").json()["id"]
    answer = host.client.post(
        f"/api/v1/games/{game_id}/invite/", {"username": "invited"}, format="json"
    )
    assert answer.status_code == 204, answer.content
    assert [request.path for request in service.received] == ["/push/invited"]
    payload = decrypt(service.received[0], keys)
    assert payload["url"] == f"/games/{game_id}/" and "inviter" in str(payload["title"])


def test_a_tournaments_new_table_is_pushed_to_its_players_with_no_socket_open(
    make_player: Callable[..., Player], service: PushService
) -> None:
    people = [make_player(f"entrant{n}") for n in range(3)]
    subscribed = subscribe_all(people, service)
    created = create_tournament(people[0], table_size=3, rounds=1)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    with open_elsewhere(people[2].user_id):  # this one has the site open: no push
        started = people[0].client.post(tournament_url(created["id"], "start"))
        assert started.status_code == 200
    (table,) = started.json()["tables"]
    told = {}
    for request in service.received:
        owner = next(p for p in people if request.path == f"/push/{p.username}")
        payload = decrypt(request, subscribed[owner.user_id][0])
        if payload["tag"] == f"table-{table['game']}":
            told[owner.username] = payload
    assert sorted(told) == ["entrant0", "entrant1"]
    assert told["entrant0"]["url"] == f"/games/{table['game']}/"
    assert "Friday night" in str(told["entrant0"]["title"])
