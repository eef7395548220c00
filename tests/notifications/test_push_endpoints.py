"""Push endpoints reach the push services and nothing else (SSRF): on subscribe, only https on
port 443 of a host of WEB_PUSH_HOSTS, named by its DNS name (no address in any spelling); at
send time, the name is resolved and every address it has must be public, and the push
connects to the address that was checked; a redirect is never followed; a push service that
accepts and never answers costs one try the short timeouts, then a retry later."""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from requests.adapters import HTTPAdapter

from notifications import endpoints, tasks, webpush
from notifications.models import PushSubscription
from tests.games.helpers import API, Player, assert_error
from tests.notifications.push_server import BrowserKeys, PushService, push_service

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIPTIONS = f"{API}/accounts/me/push-subscriptions/"
PAYLOAD = json.dumps({"title": "t", "body": "b", "url": "/", "tag": "x", "ttl": 60})

# The addresses of the report, and the other spellings a resolver or URL parser accepts.
ADDRESS_FORMS = [
    "https://127.0.0.1:6396/redis",
    "https://127.0.0.1/redis",
    "https://169.254.169.254/latest/meta-data/",
    "https://[::1]:22/",
    "https://[::1]/",
    "https://[0:0:0:0:0:0:0:1]/",
    "https://0x7f000001:6379/",
    "https://0x7f000001/",
    "https://0x7f.0.0.1/",
    "https://2130706433:6379/",
    "https://2130706433/",
    "https://0177.0.0.1/",
    "https://017700000001/",
    "https://127.1/",
    "https://127.0.1/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:7f00:1]/",
    "https://[fe80::1%25eth0]/",
    "https://0.0.0.0/",
    "https://0/",
    "https://10.0.0.8/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",
    "https://8.8.8.8/",  # public, but an address all the same
    "https://localhost/",
]
OTHER_REFUSALS = [
    "http://fcm.googleapis.com/fcm/send/x",  # not https
    "https://fcm.googleapis.com:8443/fcm/send/x",  # a port other than 443
    "https://fcm.googleapis.com:80/fcm/send/x",
    "https://fcm.googleapis.com./fcm/send/x",  # a trailing dot: another name to a resolver
    "https://fcm.googleapis.com.evil.example/x",
    "https://evil.example/fcm.googleapis.com",
    "https://evil.example#@fcm.googleapis.com/",
    "https://fcm.googleapis.com@evil.example/",
    "https://evilfcm.googleapis.com/x",
    "https://xpush.apple.com/x",
    "https://push.apple.com/x",  # `*.push.apple.com` is the names under it
    "https://127.0.0.1.nip.io/x",
    "https://fcm.googleapis.com%2eevil.example/x",
]
ALLOWED = [
    "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bHun4MxP5",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
    "https://web.push.apple.com/QGuQyavXutnMZA3g",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAADx",
    "https://fcm.googleapis.com:443/fcm/send/explicit-port",
    "https://FCM.googleapis.com/fcm/send/upper-case",
]


def body(endpoint: str) -> dict[str, Any]:
    keys = BrowserKeys.new()
    return {"endpoint": endpoint, "keys": {"p256dh": keys.p256dh, "auth": keys.auth}}


@pytest.mark.parametrize("endpoint", ADDRESS_FORMS + OTHER_REFUSALS)
def test_an_endpoint_off_the_push_services_hosts_is_refused_on_subscribe(
    make_player: Callable[..., Player], endpoint: str
) -> None:
    player = make_player()
    response = player.client.post(SUBSCRIPTIONS, body(endpoint), format="json")
    assert_error(response, 400, "invalid")
    assert "endpoint" in response.json()["error"]["fields"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", ALLOWED)
def test_the_push_services_own_endpoints_are_accepted(
    make_player: Callable[..., Player], endpoint: str
) -> None:
    player = make_player()
    assert player.client.post(SUBSCRIPTIONS, body(endpoint), format="json").status_code == 201
    assert PushSubscription.objects.get().endpoint == endpoint


def test_the_allowed_hosts_come_from_settings(
    make_player: Callable[..., Player], settings: Any
) -> None:
    settings.WEB_PUSH_HOSTS = ["push.example.net"]
    player = make_player()
    ok = player.client.post(SUBSCRIPTIONS, body("https://push.example.net/a"), format="json")
    assert ok.status_code == 201
    refused = player.client.post(SUBSCRIPTIONS, body(ALLOWED[0]), format="json")
    assert_error(refused, 400, "invalid")


def test_no_origin_is_exempt_from_the_checks_unless_a_test_says_so() -> None:
    from wizardsite.settings import base

    assert base.WEB_PUSH_TEST_ORIGINS == []
    assert endpoints.refusal("http://127.0.0.1:8000/push") is not None


# Sending.


@pytest.fixture
def subscriber() -> User:
    return User.objects.create_user("subscriber", password="a-long-enough-password-1")


def stored(user: User, endpoint: str) -> PushSubscription:
    """A subscription row as an older release may have stored it (no check on the way in)."""
    keys = BrowserKeys.new()
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth
    )


class Connections:
    """Every request the push sessions would send (none leaves this process): the adapter that
    would send it, the request and the send's keyword arguments; answered 201."""

    def __init__(self) -> None:
        self.sent: list[tuple[HTTPAdapter, requests.PreparedRequest, dict[str, Any]]] = []

    def send(
        self, adapter: HTTPAdapter, request: requests.PreparedRequest, **kwargs: Any
    ) -> requests.Response:
        self.sent.append((adapter, request, kwargs))
        response = requests.Response()
        response.status_code = 201
        response.request = request
        return response


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Connections:
    recorded = Connections()

    def send(adapter: HTTPAdapter, request: requests.PreparedRequest, **kwargs: Any) -> Any:
        return recorded.send(adapter, request, **kwargs)

    monkeypatch.setattr(HTTPAdapter, "send", send)
    return recorded


class Resolver:
    """getaddrinfo for the push services' names: the addresses the test sets, in turn."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answers: list[list[str]] = []
        self.asked: list[str] = []
        real = socket.getaddrinfo

        def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
            if not endpoints.host_allowed(str(host)):
                return real(host, port, *args, **kwargs)
            self.asked.append(str(host))
            if not self.answers:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            addresses = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
            return [
                (
                    socket.AF_INET6 if ":" in address else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (address, port, 0, 0) if ":" in address else (address, port),
                )
                for address in addresses
            ]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    return Resolver(monkeypatch)


@pytest.mark.parametrize("endpoint", ADDRESS_FORMS + OTHER_REFUSALS)
def test_a_stored_endpoint_off_the_push_services_hosts_is_never_contacted_and_is_deleted(
    subscriber: User,
    connections: Connections,
    resolver: Resolver,
    retries: list[BaseException],
    endpoint: str,
) -> None:
    subscription = stored(subscriber, endpoint)
    tasks.push_send.apply((subscription.pk, PAYLOAD), throw=True)
    assert connections.sent == [] and resolver.asked == [] and retries == []
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["127.8.9.10"],
        ["10.1.2.3"],
        ["172.16.0.1"],
        ["192.168.0.10"],
        ["169.254.169.254"],
        ["100.64.0.1"],
        ["0.0.0.0"],
        ["224.0.0.1"],
        ["240.0.0.1"],
        ["255.255.255.255"],
        ["::1"],
        ["::"],
        ["::ffff:127.0.0.1"],
        ["::ffff:169.254.169.254"],
        ["fe80::1%2"],
        ["fc00::1"],
        ["ff02::1"],
        ["2002:7f00:1::1"],  # 6to4 of 127.0.0.1
        ["2001:db8::1"],
        ["142.250.74.10", "127.0.0.1"],  # one bad address among good ones refuses the name
    ],
)
def test_a_push_services_name_resolving_to_a_non_public_address_is_refused_at_send(
    subscriber: User,
    connections: Connections,
    resolver: Resolver,
    retries: list[BaseException],
    addresses: list[str],
) -> None:
    subscription = stored(subscriber, "https://fcm.googleapis.com/fcm/send/abc")
    resolver.answers = [addresses]
    with pytest.raises(webpush.PushRefused):
        webpush.deliver(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=PAYLOAD,
        )
    tasks.push_send.apply((subscription.pk, PAYLOAD), throw=True)
    assert resolver.asked == ["fcm.googleapis.com"] * 2
    assert connections.sent == [] and retries == []  # refused, not tried again
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_a_name_that_does_not_resolve_now_is_tried_again_later(
    subscriber: User, connections: Connections, resolver: Resolver
) -> None:
    subscription = stored(subscriber, "https://fcm.googleapis.com/fcm/send/abc")
    with pytest.raises(webpush.PushFailed):
        webpush.deliver(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=PAYLOAD,
        )
    assert connections.sent == []


def test_the_push_connects_to_the_address_it_checked_never_resolving_the_name_again(
    subscriber: User, connections: Connections, resolver: Resolver
) -> None:
    """DNS rebinding: the name resolves to a public address for the check and to loopback
    after it; the connection goes to the checked address, with the name as the Host, the TLS
    server name and the certificate's name, and the short timeouts."""
    endpoint = "https://updates.push.services.mozilla.com/wpush/v2/gAAAA?x=1"
    subscription = stored(subscriber, endpoint)
    resolver.answers = [["63.245.208.195"], ["127.0.0.1"]]
    tasks.push_send.apply((subscription.pk, PAYLOAD), throw=True)
    assert resolver.asked == ["updates.push.services.mozilla.com"]
    [(adapter, request, kwargs)] = connections.sent
    assert request.url == "https://63.245.208.195:443/wpush/v2/gAAAA?x=1"
    assert request.headers["Host"] == "updates.push.services.mozilla.com"
    assert isinstance(adapter, webpush.PinnedTLSAdapter)
    pool = adapter.poolmanager.connection_pool_kw
    assert pool["server_hostname"] == pool["assert_hostname"] == "updates.push.services.mozilla.com"
    assert kwargs["timeout"] == (webpush.CONNECT_TIMEOUT, webpush.READ_TIMEOUT)
    assert kwargs["proxies"] == {}  # nothing from the environment
    # The VAPID audience is the push service's origin, not the address.
    token = request.headers["Authorization"].split("t=", 1)[1].split(",", 1)[0]
    claims_b64 = token.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(claims_b64 + "=" * (-len(claims_b64) % 4)))
    assert claims["aud"] == "https://updates.push.services.mozilla.com"


@pytest.fixture
def two_services(settings: Any) -> Iterator[tuple[PushService, PushService]]:
    with push_service() as service, push_service() as internal:
        settings.WEB_PUSH_TEST_ORIGINS = [service.url, internal.url]
        yield service, internal


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_never_followed_nor_retried(
    subscriber: User,
    two_services: tuple[PushService, PushService],
    retries: list[BaseException],
    status: int,
) -> None:
    service, internal = two_services
    service.statuses = [status]
    service.location = f"{internal.url}/internal/admin?cmd=flushall"
    subscription = stored(subscriber, f"{service.url}/push/abc")
    tasks.push_send.apply((subscription.pk, PAYLOAD), throw=True)
    assert [request.path for request in service.received] == ["/push/abc"]
    assert internal.received == [] and retries == []
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


@pytest.fixture
def hung_service(settings: Any) -> Iterator[str]:
    """A push service that accepts connections and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    settings.WEB_PUSH_TEST_ORIGINS = [url]
    try:
        yield url
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
        for connection in held:
            connection.close()


def test_a_push_service_that_never_answers_costs_a_try_the_short_timeouts(
    subscriber: User, hung_service: str
) -> None:
    subscription = stored(subscriber, f"{hung_service}/push/abc")
    started = time.monotonic()
    with pytest.raises(webpush.PushFailed):
        webpush.deliver(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=PAYLOAD,
        )
    assert time.monotonic() - started < webpush.CONNECT_TIMEOUT + webpush.READ_TIMEOUT + 5
