"""Native push to phone apps: Firebase Cloud Messaging's HTTP v1 API (Android) and Apple's
APNs HTTP/2 API with a signing key (iOS).

firebase-admin and aioapns connect only to Google's and Apple's hosts; these requests go
through google-auth, requests and httpx, to FCM_URL and APNS_URL. Credentials come from the
environment (settings.FCM_* and APNS_*); a platform without them sends nothing. The notice is
the Web Push payload (`webpush.*_payload`), its link made absolute.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import jwt
import requests
from django.conf import settings
from google.auth import exceptions as google_errors
from google.auth.transport.requests import AuthorizedSession
from google.oauth2 import service_account

from notifications import metrics
from notifications.webpush import CONNECT_TIMEOUT, MAX_TTL, READ_TIMEOUT, PushFailed, PushGone

log = logging.getLogger(__name__)

FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
# Apple refuses a provider token older than an hour and one renewed more than every 20 minutes.
APNS_TOKEN_LIFETIME = 40 * 60


@dataclass(frozen=True)
class Notice:
    title: str
    body: str
    url: str  # absolute: the app opens the table it names
    tag: str  # a newer notice with the same tag replaces the older one
    ttl: int  # seconds the platform keeps it for a phone that is off


def notice_of(payload: str) -> Notice:
    fields = json.loads(payload)
    return Notice(
        title=str(fields["title"]),
        body=str(fields["body"]),
        url=urljoin(settings.SITE_URL, str(fields["url"])),
        tag=str(fields["tag"]),
        ttl=int(fields.get("ttl", MAX_TTL)),
    )


def deliver(*, platform: str, token: str, payload: str) -> None:
    """Send one notice to one device: PushGone when its service says the app is gone,
    PushFailed when the service failed or could not be reached (try again later); any other
    refusal is logged and dropped."""
    notice = notice_of(payload)
    if platform == "fcm":
        _fcm_send(token, notice)
    else:
        _apns_send(token, notice)


def _load(value: str) -> str:
    """A credential given inline or as the path of its file."""
    text = value.strip()
    return text if text.startswith(("{", "-----BEGIN")) else Path(text).read_text()


@lru_cache(maxsize=2)
def _fcm_session(credentials: str, project_id: str) -> tuple[AuthorizedSession, str]:
    """An HTTP session that signs each request with an OAuth token of the service account
    (google-auth fetches and renews it at the key's `token_uri`), and the project's id."""
    info = json.loads(_load(credentials))
    account = service_account.Credentials.from_service_account_info(info, scopes=[FCM_SCOPE])
    return AuthorizedSession(account), project_id or str(info["project_id"])


def _fcm_send(token: str, notice: Notice) -> None:
    if not settings.FCM_CREDENTIALS:
        log.info("FCM notice not sent: FCM_CREDENTIALS is not set")
        return
    session, project = _fcm_session(settings.FCM_CREDENTIALS, settings.FCM_PROJECT_ID)
    message: dict[str, Any] = {
        "token": token,
        "notification": {"title": notice.title, "body": notice.body},
        "data": {"url": notice.url, "tag": notice.tag},
        "android": {
            "priority": "high",
            "ttl": f"{notice.ttl}s",
            "collapse_key": notice.tag,
            "notification": {"tag": notice.tag},
        },
    }
    url = f"{settings.FCM_URL.rstrip('/')}/v1/projects/{project}/messages:send"
    try:
        response = session.post(
            url, json={"message": message}, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT)
        )
    except (requests.RequestException, google_errors.TransportError) as error:
        raise PushFailed(repr(error)) from error
    except google_errors.RefreshError as error:  # the token endpoint refused or failed
        if getattr(error, "retryable", False):
            raise PushFailed(repr(error)) from error
        log.error("FCM credentials refused: %s", error)
        return
    code = response.status_code
    if code == 200:
        metrics.notice_sent("fcm")
        return
    reason = _fcm_reason(response)
    if reason == "UNREGISTERED":  # not any 404: a wrong FCM_URL must not delete every phone
        raise PushGone(f"{code} {reason}")
    if code == 429 or code >= 500:
        raise PushFailed(f"{code} {reason}")
    log.warning("FCM refused the notice: %s %s", code, reason)


def _fcm_reason(response: requests.Response) -> str:
    """FCM's error code (UNREGISTERED, INVALID_ARGUMENT, …) from the error's details."""
    try:
        error = response.json()["error"]
        details = [d.get("errorCode") for d in error.get("details", []) if isinstance(d, dict)]
        return str(next((d for d in details if d), error.get("status", "")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return ""


@cache
def _http2() -> httpx.Client:
    """One HTTP/2 client a process (APNs multiplexes notices over one connection)."""
    timeout = httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT)
    return httpx.Client(http2=True, timeout=timeout, follow_redirects=False)


class ProviderToken:
    """APNs' provider token: a JWT signed (ES256) with the team's key, renewed every 40 min."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._token: tuple[tuple[str, ...], float, str] | None = None

    def get(self, key: str, key_id: str, team_id: str) -> str:
        now = time.time()
        with self._lock:
            if self._token is not None:
                made_for, issued, token = self._token
                if made_for == (key, key_id, team_id) and now - issued < APNS_TOKEN_LIFETIME:
                    return token
            claims = {"iss": team_id, "iat": int(now)}
            token = jwt.encode(claims, _load(key), algorithm="ES256", headers={"kid": key_id})
            self._token = ((key, key_id, team_id), now, token)
            return token

    def forget(self) -> None:
        with self._lock:
            self._token = None


provider_token = ProviderToken()


def _apns_send(token: str, notice: Notice) -> None:
    key, key_id, team_id = settings.APNS_KEY, settings.APNS_KEY_ID, settings.APNS_TEAM_ID
    if not (key and key_id and team_id and settings.APNS_TOPIC):
        log.info("APNs notice not sent: APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID or APNS_TOPIC unset")
        return
    headers = {
        "authorization": f"bearer {provider_token.get(key, key_id, team_id)}",
        "apns-topic": settings.APNS_TOPIC,
        "apns-push-type": "alert",
        "apns-priority": "10",
        "apns-expiration": str(int(time.time()) + notice.ttl),
        "apns-collapse-id": notice.tag[:64],
    }
    body = {
        "aps": {
            "alert": {"title": notice.title, "body": notice.body},
            "sound": "default",
            "thread-id": notice.tag,
        },
        "url": notice.url,
    }
    url = f"{settings.APNS_URL.rstrip('/')}/3/device/{token}"
    try:
        response = _http2().post(url, json=body, headers=headers)
    except httpx.HTTPError as error:
        raise PushFailed(repr(error)) from error
    code = response.status_code
    if code == 200:
        metrics.notice_sent("apns")
        return
    reason = _apns_reason(response)
    # Only Apple's word that the app is gone deletes the device: BadDeviceToken is also the
    # answer to a token of the other environment (a wrong APNS_URL), so it is only logged.
    if code == 410 or reason == "Unregistered":
        raise PushGone(f"{code} {reason}")
    if code == 403 and reason == "ExpiredProviderToken":
        provider_token.forget()
        raise PushFailed(f"{code} {reason}")  # tried again with a new token
    if code == 429 or code >= 500:
        raise PushFailed(f"{code} {reason}")
    log.warning("APNs refused the notice: %s %s", code, reason)


def _apns_reason(response: httpx.Response) -> str:
    try:
        body: Any = response.json()
        return str(body.get("reason", ""))
    except (ValueError, AttributeError):
        return ""
