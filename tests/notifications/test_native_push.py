"""Native push against stand-ins for FCM and APNs started here: a phone registers through the
API, and its turn notices and invitations reach it once, signed as each service requires, with
the table's link; a failing service is tried again; an unregistered device is deleted."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import jwt
import pytest
from django.contrib.auth.models import User
from prometheus_client import REGISTRY

from notifications import native, tasks, webpush
from notifications.models import Device
from tests.games.helpers import API, Player, assert_error, game_row, seat_players
from tests.notifications import native_services
from tests.notifications.helpers import DAY, at, to_act
from tests.notifications.native_services import StandIn, fcm_error

pytestmark = pytest.mark.django_db(transaction=True)

DEVICES = f"{API}/accounts/me/devices/"
APNS_TOKEN = "3f" * 32


def fcm_token(player: Player) -> str:
    return f"fcm-{player.username}:APA91b{'x' * 40}"


def apns_token(player: Player) -> str:
    return f"{player.user_id:064x}"


@pytest.fixture
def services(settings: Any) -> Iterator[tuple[StandIn, StandIn]]:
    """Both stand-ins, and the site's credentials for them."""
    with native_services.fcm() as (fcm, account), native_services.apns() as (apns, key):
        settings.FCM_CREDENTIALS, settings.FCM_URL = account, fcm.url
        settings.APNS_KEY, settings.APNS_URL = key, apns.url
        settings.APNS_KEY_ID = native_services.KEY_ID
        settings.APNS_TEAM_ID = native_services.TEAM_ID
        settings.APNS_TOPIC = native_services.TOPIC
        native.provider_token.forget()
        yield fcm, apns


def register(player: Player, platform: str, token: str) -> None:
    body = {"platform": platform, "token": token}
    response = player.client.post(DEVICES, body, format="json")
    assert response.status_code == 201, response.content


def phones(people: list[Player]) -> None:
    """Each player's Android phone and iPhone."""
    for player in people:
        register(player, "fcm", fcm_token(player))
        register(player, "apns", apns_token(player))


def test_a_device_registers_once_and_is_forgotten(make_player: Callable[..., Player]) -> None:
    ana, bob = make_player("ana"), make_player("bob")
    register(ana, "apns", APNS_TOKEN)
    register(ana, "apns", APNS_TOKEN)  # the app registers again at each start
    assert list(Device.objects.values_list("user__username", "platform", "token")) == [
        ("ana", "apns", APNS_TOKEN)
    ]
    assert ana.client.get(f"{API}/accounts/me/notifications/").json()["push_turns"] is True
    register(bob, "apns", APNS_TOKEN)  # the phone signed in to bob: the token is his now
    assert list(Device.objects.values_list("user__username", flat=True)) == ["bob"]
    response = ana.client.delete(DEVICES, {"token": APNS_TOKEN}, format="json")
    assert response.status_code == 204 and Device.objects.count() == 1  # not ana's to forget
    response = bob.client.delete(DEVICES, {"token": APNS_TOKEN}, format="json")
    assert response.status_code == 204 and Device.objects.count() == 0


def test_an_eleventh_device_replaces_the_oldest(make_player: Callable[..., Player]) -> None:
    ana = make_player("ana")
    tokens = [f"{n:02x}" * 32 for n in range(11)]
    for token in tokens:
        register(ana, "apns", token)
    kept = set(Device.objects.values_list("token", flat=True))
    assert kept == set(tokens[1:])


@pytest.mark.parametrize(
    "body",
    [
        {"platform": "gcm", "token": "a" * 64},
        {"platform": "apns", "token": "ab"},
        {"platform": "fcm", "token": "has spaces in it, which no token has"},
        {"platform": "fcm", "token": "x" * 513},
        {"platform": "fcm", "token": ["a" * 64]},
        {"platform": "fcm"},
        {"token": "a" * 64},
        {"platform": "fcm", "token": "a" * 64, "extra": 1},
    ],
)
def test_a_bad_registration_is_400_and_changes_nothing(
    make_player: Callable[..., Player], body: dict[str, Any]
) -> None:
    ana = make_player("ana")
    assert_error(ana.client.post(DEVICES, body, format="json"), 400, "invalid")
    assert Device.objects.count() == 0


def test_devices_need_a_signed_in_player(make_player: Callable[..., Player]) -> None:
    ana = make_player("ana")
    ana.client.credentials()
    ana.client.logout()
    body = {"platform": "fcm", "token": "a" * 64}
    assert_error(ana.client.post(DEVICES, body, format="json"), 401, "not_authenticated")
    response = ana.client.delete(DEVICES, {"token": "a" * 64}, format="json")
    assert_error(response, 401, "not_authenticated")


def test_a_turn_reaches_the_players_android_and_iphone_once(
    make_player: Callable[..., Player],
    services: tuple[StandIn, StandIn],
    settings: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    fcm, apns = services
    people = [make_player(name) for name in ("ana", "bob", "cid")]
    phones(people)
    game_id = seat_players(people, turn_seconds=60, blind_first_round=False)
    player = to_act(game_id, people)
    link = f"{settings.SITE_URL}/games/{game_id}/"

    (sent,) = fcm.received
    message = sent.body["message"]
    assert message["token"] == fcm_token(player)
    assert str(game_id) in message["notification"]["title"]
    assert message["data"] == {"url": link, "tag": f"game-{game_id}"}
    assert 0 < int(message["android"]["ttl"].rstrip("s")) <= 60
    assert sent.headers["authorization"] == f"Bearer {fcm.tokens_issued[0]}"

    (pushed,) = apns.received
    assert pushed.path == f"/3/device/{apns_token(player)}"
    assert pushed.headers["apns-push-type"] == "alert"
    assert pushed.headers["apns-collapse-id"] == f"game-{game_id}"
    assert pushed.body["url"] == link and str(game_id) in pushed.body["aps"]["alert"]["title"]
    header = jwt.get_unverified_header(pushed.headers["authorization"].split()[1])
    assert header == {"alg": "ES256", "kid": native_services.KEY_ID, "typ": "JWT"}

    # The same turn told again (a redelivered task): nothing more is sent.
    tasks.turn_notify.apply((player.user_id, game_id, game_row(game_id).seq))
    assert len(fcm.received) == 1 and len(apns.received) == 1
    # No device's token and no OAuth token in any log line.
    logged = caplog.text
    assert apns_token(player) not in logged and fcm.tokens_issued[0] not in logged
    assert fcm_token(player) not in logged


def test_an_invitation_reaches_both_phones(
    make_player: Callable[..., Player], services: tuple[StandIn, StandIn], settings: Any
) -> None:
    fcm, apns = services
    host, friend = make_player("inviter"), make_player("invited")
    phones([friend])
    for one, other in ((host, friend), (friend, host)):
        assert one.client.post(f"{API}/players/{other.username}/follow/").status_code == 204
    game_id = host.client.post(f"{API}/games/", {"seats": 3}, format="json").json()["id"]
    answer = host.client.post(
        f"{API}/games/{game_id}/invite/", {"username": "invited"}, format="json"
    )
    assert answer.status_code == 204, answer.content
    (sent,) = fcm.received
    (pushed,) = apns.received
    link = f"{settings.SITE_URL}/games/{game_id}/"
    assert sent.body["message"]["data"] == {"url": link, "tag": f"invite-{game_id}"}
    assert "inviter" in sent.body["message"]["notification"]["title"]
    assert pushed.body["url"] == link and "inviter" in pushed.body["aps"]["alert"]["title"]


def one_device(make_player: Callable[..., Player], platform: str, token: str) -> Device:
    ana = make_player("ana")
    register(ana, platform, token)
    return Device.objects.get(user_id=ana.user_id)


PAYLOAD = '{"title": "Your turn at table 7", "body": "b", "url": "/games/7/", "tag": "game-7"}'


@pytest.mark.parametrize("platform", ["fcm", "apns"])
def test_a_failing_service_is_tried_again_with_backoff(
    make_player: Callable[..., Player],
    services: tuple[StandIn, StandIn],
    retries: list[BaseException],
    platform: str,
) -> None:
    fcm, apns = services
    service = fcm if platform == "fcm" else apns
    device = one_device(make_player, platform, APNS_TOKEN)
    service.answers = [(503, {"reason": "ServiceUnavailable"})]
    tasks.device_send.apply((device.pk, PAYLOAD), throw=False)
    # Eager tasks run their retry at once: the 503, then the delivery.
    assert len(service.received) == 2 and len(retries) == 1
    assert all(isinstance(getattr(r, "exc", None), webpush.PushFailed) for r in retries)
    assert Device.objects.filter(pk=device.pk).exists()
    assert tasks.device_send.autoretry_for == (webpush.PushFailed,)
    assert tasks.device_send.retry_backoff and tasks.device_send.max_retries


@pytest.mark.parametrize(
    ("platform", "answer", "gone"),
    [
        ("fcm", fcm_error(404, "UNREGISTERED"), True),
        ("apns", (410, {"reason": "Unregistered", "timestamp": 1700000000000}), True),
        ("fcm", fcm_error(400, "INVALID_ARGUMENT"), False),
        ("fcm", (404, {}), False),  # a wrong FCM_URL or project: not the device's fault
        ("apns", (400, {"reason": "BadDeviceToken"}), False),  # or the other environment's
        ("apns", (400, {"reason": "DeviceTokenNotForTopic"}), False),
    ],
)
def test_only_a_device_its_service_reports_unregistered_is_deleted_and_none_is_retried(
    make_player: Callable[..., Player],
    services: tuple[StandIn, StandIn],
    retries: list[BaseException],
    platform: str,
    answer: tuple[int, dict[str, Any]],
    gone: bool,
) -> None:
    fcm, apns = services
    service = fcm if platform == "fcm" else apns
    device = one_device(make_player, platform, APNS_TOKEN)
    service.answers = [answer]
    tasks.device_send.apply((device.pk, PAYLOAD))
    assert len(service.received) == 1 and retries == []
    assert Device.objects.filter(pk=device.pk).exists() is not gone


def test_an_expired_provider_token_is_renewed(
    make_player: Callable[..., Player],
    services: tuple[StandIn, StandIn],
    retries: list[BaseException],
) -> None:
    _, apns = services
    device = one_device(make_player, "apns", APNS_TOKEN)
    apns.answers = [(403, {"reason": "ExpiredProviderToken"})]
    tasks.device_send.apply((device.pk, PAYLOAD), throw=False)
    first, second = (request.headers["authorization"] for request in apns.received)
    assert first != second and len(retries) == 1


def test_the_oauth_token_is_fetched_once_for_many_notices_each_counted(
    make_player: Callable[..., Player], services: tuple[StandIn, StandIn]
) -> None:
    fcm, _ = services
    device = one_device(make_player, "fcm", "a" * 64)
    before = sent("fcm")
    fcm.answers = [(503, {})]  # not taken: not counted
    tasks.device_send.apply((device.pk, PAYLOAD), throw=False)
    for _ in range(2):
        tasks.device_send.apply((device.pk, PAYLOAD))
    assert len(fcm.received) == 4 and len(fcm.tokens_issued) == 1
    assert sent("fcm") == before + 3


def sent(kind: str) -> float:
    return REGISTRY.get_sample_value("wizard_notices_sent_total", {"kind": kind}) or 0.0


def test_without_credentials_nothing_is_sent(
    make_player: Callable[..., Player], services: tuple[StandIn, StandIn], settings: Any
) -> None:
    fcm, apns = services
    settings.FCM_CREDENTIALS = ""
    settings.APNS_KEY = ""
    android = one_device(make_player, "fcm", "b" * 64)
    iphone = Device.objects.create(user=User.objects.get(pk=android.user_id), platform="apns",
                                   token=APNS_TOKEN)  # fmt: skip
    for device in (android, iphone):
        tasks.device_send.apply((device.pk, PAYLOAD))
    assert fcm.received == [] and apns.received == [] and fcm.tokens_issued == []
    assert Device.objects.count() == 2


def test_an_hour_before_the_deadline_the_reminder_reaches_the_phones_once(
    make_player: Callable[..., Player], services: tuple[StandIn, StandIn]
) -> None:
    fcm, apns = services
    people = [make_player(name) for name in ("ana", "bob", "cid")]
    phones(people)
    game_id = seat_players(people, turn_seconds=DAY, blind_first_round=False)
    player, deadline = to_act(game_id, people), game_row(game_id).deadline
    assert deadline is not None
    assert len(fcm.received) == 1 and len(apns.received) == 1  # the turn's own notice
    with at(deadline - timedelta(hours=2)):
        tasks.remind_due()
    assert len(fcm.received) == 1  # not yet
    with at(deadline - timedelta(minutes=59)):
        tasks.remind_due()
        tasks.remind_due()  # the sweep again
        tasks.turn_remind(player.user_id, game_id, game_row(game_id).seq)  # and its task
    reminders = [r.body["message"] for r in fcm.received[1:]]
    assert [m["token"] for m in reminders] == [fcm_token(player)]
    assert "hour" in reminders[0]["notification"]["title"].lower()
    assert reminders[0]["data"]["tag"] == f"game-{game_id}"  # it replaces the turn's notice
    (reminded,) = apns.received[1:]
    assert reminded.path == f"/3/device/{apns_token(player)}"
