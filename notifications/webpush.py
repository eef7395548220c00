"""Web Push (RFC 8030, encrypted per RFC 8291, signed with VAPID per RFC 8292) via pywebpush.

Keys: VAPID_PRIVATE_KEY (a raw 32-byte P-256 key in base64url, as `web-push
generate-vapid-keys` prints it, or the DER key in base64: the body of the `private_key.pem`
that `vapid --gen` writes, on one line) and VAPID_PUBLIC_KEY (the uncompressed point in
base64url, which browsers subscribe with; always the private key's own, checked if set).
Without VAPID_PRIVATE_KEY, development and tests derive a key pair from SECRET_KEY
(VAPID_DERIVE_FROM_SECRET, off in production, where push stays off until the keys are set).
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from functools import cache
from typing import Any

import requests
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter

from games.models import Game
from notifications import endpoints, metrics

log = logging.getLogger(__name__)

# A push service answers in well under a second; these bound what one that hangs can cost a
# thread of the notifications worker (retries come later, with backoff).
CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 5.0
MAX_TTL = 28 * 24 * 3600  # push services keep a message at most about four weeks
_P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class PushGone(Exception):
    """The push service no longer knows the subscription (404 or 410): delete it."""


class PushFailed(Exception):
    """The push service failed or could not be reached: try again later."""


class PushRefused(Exception):
    """Not sent, and sending again won't help: the endpoint's name resolves to an address the
    site never connects to, or the push service answered with a redirect (never followed)."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@cache
def _vapid() -> Vapid | None:
    private = settings.VAPID_PRIVATE_KEY
    if private:
        return Vapid.from_string(private_key=private)
    if not settings.VAPID_DERIVE_FROM_SECRET:
        return None
    from cryptography.hazmat.primitives.asymmetric import ec

    digest = hashlib.sha256(f"vapid:{settings.SECRET_KEY}".encode()).digest()
    scalar = int.from_bytes(digest, "big") % (_P256_ORDER - 1) + 1
    return Vapid(ec.derive_private_key(scalar, ec.SECP256R1()))


def public_key() -> str | None:
    """The application server key browsers subscribe with (base64url), or None: push is off.
    Always the private key's own point: a VAPID_PUBLIC_KEY that differs is a mistake (every
    push would be refused), logged and not used."""
    vapid = _vapid()
    if vapid is None:
        return None
    from cryptography.hazmat.primitives import serialization

    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    derived = _b64url(point)
    configured = str(settings.VAPID_PUBLIC_KEY).rstrip("=")
    if configured and configured != derived:
        log.error("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: using the latter's")
    return derived


def turn_payload(game: Game, language: str, *, reminder: bool = False) -> str:
    """The notification's JSON, in the player's language (the service worker shows it): the
    turn, or an hour left for it (the reminder replaces the turn's notice: the same tag)."""
    known = {code for code, _ in settings.LANGUAGES}
    with translation.override(language if language in known else settings.LANGUAGE_CODE):
        if reminder:
            title = gettext("An hour left at table %(id)s") % {"id": game.pk}
            body = gettext("Your move is still waiting: at the deadline it is made for you.")
        else:
            title = gettext("Your turn at table %(id)s") % {"id": game.pk}
            body = gettext("The other players are waiting for your move.")
    ttl = MAX_TTL
    if game.deadline is not None:
        ttl = max(0, min(MAX_TTL, int((game.deadline - timezone.now()).total_seconds())))
    return json.dumps(
        {
            "title": title,
            "body": body,
            "url": reverse("table", args=[game.pk]),
            "tag": f"game-{game.pk}",
            "ttl": ttl,
        }
    )


def invite_payload(game_id: int, inviter: str, language: str) -> str:
    """A friend's invitation to a table, as the service worker shows it."""
    known = {code for code, _ in settings.LANGUAGES}
    with translation.override(language if language in known else settings.LANGUAGE_CODE):
        title = gettext("%(name)s invites you to table %(id)s") % {"name": inviter, "id": game_id}
        body = gettext("Open the table to join or watch.")
    url = reverse("table", args=[game_id])
    return json.dumps({"title": title, "body": body, "url": url, "tag": f"invite-{game_id}"})


def table_payload(game_id: int, tournament: str, language: str) -> str:
    """A tournament's new table for the player (T3, T4), as the service worker shows it."""
    known = {code for code, _ in settings.LANGUAGES}
    with translation.override(language if language in known else settings.LANGUAGE_CODE):
        title = gettext("Your table is ready: %(name)s") % {"name": tournament}
        body = gettext("Open table %(id)s to play your tournament game.") % {"id": game_id}
    url = reverse("table", args=[game_id])
    return json.dumps({"title": title, "body": body, "url": url, "tag": f"table-{game_id}"})


def deliver(*, endpoint: str, p256dh: str, auth: str, payload: str) -> None:
    """Encrypt and send one message to the address its endpoint's name resolves to now;
    PushGone, PushFailed or PushRefused when it could not be delivered (any other refusal by
    the push service is logged and dropped: sending again won't help)."""
    vapid = _vapid()
    if vapid is None:
        log.info("push not sent: no VAPID key configured")
        return
    checked = endpoints.parse(endpoint)
    if checked is None:  # stored before endpoints were checked: it can never be used
        raise PushGone("endpoint not on a push service")
    try:
        address = endpoints.resolve(checked)
    except endpoints.AddressRefused as error:
        raise PushRefused(str(error)) from error
    except OSError as error:  # the name does not resolve just now
        raise PushFailed(repr(error)) from error
    shown = f"[{address}]" if ":" in address else address
    ttl = int(json.loads(payload).get("ttl", MAX_TTL))
    with PushSession(checked) as session:
        try:
            webpush(
                subscription_info={
                    "endpoint": f"{checked.scheme}://{shown}:{checked.port}{checked.target}",
                    "keys": {"p256dh": p256dh, "auth": auth},
                },
                data=payload,
                vapid_private_key=vapid,
                vapid_claims={"sub": settings.VAPID_SUBJECT, "aud": checked.origin},
                headers={"Host": checked.authority},
                ttl=ttl,
                requests_session=session,
            )
            metrics.notice_sent("webpush")
        except WebPushException as error:
            code = getattr(error.response, "status_code", None)
            if code in (404, 410):
                raise PushGone(str(code)) from error
            if code is not None and 300 <= code < 400:
                raise PushRefused(f"{checked.host} answered {code}: not followed") from error
            if code is None or code == 429 or code >= 500:
                raise PushFailed(str(code)) from error
            log.warning("push refused by %s: %s", checked.host, code)
        except requests.TooManyRedirects as error:
            raise PushRefused(f"{checked.host} redirected: not followed") from error
        except requests.RequestException as error:
            raise PushFailed(repr(error)) from error


class PinnedTLSAdapter(HTTPAdapter):
    """TLS to the address that was checked, with the endpoint's name in the handshake (SNI)
    and checked against the certificate: the connection never resolves the name again."""

    def __init__(self, host: str) -> None:
        self.host = host  # init_poolmanager, called by HTTPAdapter's __init__, needs it
        super().__init__()

    def init_poolmanager(
        self, connections: int, maxsize: int, block: bool = False, **pool_kwargs: Any
    ) -> None:
        pool_kwargs.update(server_hostname=self.host, assert_hostname=self.host)
        super().init_poolmanager(connections, maxsize, block, **pool_kwargs)


class PushSession(requests.Session):
    """One push's HTTP session: no redirect followed (a 3xx is the answer), short timeouts,
    nothing taken from the environment (no proxy, no .netrc)."""

    def __init__(self, endpoint: endpoints.Endpoint) -> None:
        super().__init__()
        self.max_redirects = 0
        self.trust_env = False
        if endpoint.scheme == "https":
            self.mount("https://", PinnedTLSAdapter(endpoint.host))

    def request(
        self, method: str, url: str | bytes, *args: Any, **kwargs: Any
    ) -> requests.Response:
        kwargs["allow_redirects"] = False
        kwargs["timeout"] = (CONNECT_TIMEOUT, READ_TIMEOUT)
        return super().request(method, url, *args, **kwargs)
