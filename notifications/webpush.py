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

import requests
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.models import Game

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0  # seconds for one push service to answer
MAX_TTL = 28 * 24 * 3600  # push services keep a message at most about four weeks
_P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class PushGone(Exception):
    """The push service no longer knows the subscription (404 or 410): delete it."""


class PushFailed(Exception):
    """The push service failed or could not be reached: try again later."""


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


def turn_payload(game: Game, language: str) -> str:
    """The notification's JSON, in the player's language (the service worker shows it)."""
    known = {code for code, _ in settings.LANGUAGES}
    with translation.override(language if language in known else settings.LANGUAGE_CODE):
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


def deliver(*, endpoint: str, p256dh: str, auth: str, payload: str) -> None:
    """Encrypt and send one message; PushGone or PushFailed when it could not be delivered
    (any other refusal by the push service is logged and dropped: sending again won't help)."""
    vapid = _vapid()
    if vapid is None:
        log.info("push not sent: no VAPID key configured")
        return
    ttl = int(json.loads(payload).get("ttl", MAX_TTL))
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=payload,
            vapid_private_key=vapid,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=ttl,
            timeout=SEND_TIMEOUT,
        )
    except WebPushException as error:
        code = getattr(error.response, "status_code", None)
        if code in (404, 410):
            raise PushGone(str(code)) from error
        if code is None or code == 429 or code >= 500:
            raise PushFailed(str(code)) from error
        log.warning("push refused by %s: %s", endpoint.split("/")[2], code)
    except requests.RequestException as error:
        raise PushFailed(repr(error)) from error
