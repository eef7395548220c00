"""Stand-ins on loopback for Firebase Cloud Messaging (its OAuth token endpoint and HTTP v1
send) and for APNs: each checks the credentials the way the real service does, records what
reached it and answers with the statuses a test queues (then success)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

PROJECT = "wizard-test"
TEAM_ID = "TEAM123456"
KEY_ID = "KEY1234567"
TOPIC = "online.wizard.app"
GOOGLE_TOKEN = "https://oauth2.googleapis.com/token"  # a grant's audience, whatever token_uri


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class StandIn:
    url: str = ""
    answers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # then success
    received: list[Received] = field(default_factory=list)  # the notices that reached it
    tokens_issued: list[str] = field(default_factory=list)  # FCM's OAuth tokens

    def answer(self, default: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.answers.pop(0) if self.answers else (200, default)


def _pem(key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


@contextmanager
def _serve(handle: Any) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length).decode()
            headers = {key.lower(): value for key, value in self.headers.items()}
            status, body = handle(self.path, headers, raw)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def fcm() -> Iterator[tuple[StandIn, str]]:
    """FCM and Google's token endpoint; yields the stand-in and the service account's JSON key
    (its `token_uri` on the stand-in), as FCM_CREDENTIALS takes it."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    service = StandIn()

    def handle(path: str, headers: dict[str, str], raw: str) -> tuple[int, dict[str, Any]]:
        if path == "/token":
            form = {name: values[0] for name, values in parse_qs(raw).items()}
            assert form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
            claims = jwt.decode(
                form["assertion"], key.public_key(), algorithms=["RS256"], audience=GOOGLE_TOKEN
            )
            assert claims["scope"] == "https://www.googleapis.com/auth/firebase.messaging"
            service.tokens_issued.append(f"access-{len(service.tokens_issued)}")
            return 200, {"access_token": service.tokens_issued[-1], "expires_in": 3600}
        if path != f"/v1/projects/{PROJECT}/messages:send":
            return 404, {"error": {"code": 404, "status": "NOT_FOUND"}}
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme != "Bearer" or token not in service.tokens_issued:
            return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}}
        service.received.append(Received(path, headers, json.loads(raw)))
        return service.answer({"name": f"projects/{PROJECT}/messages/{len(service.received)}"})

    with _serve(handle) as url:
        service.url = url
        account = {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "key-1",
            "private_key": _pem(key),
            "client_email": f"push@{PROJECT}.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": f"{url}/token",
        }
        yield service, json.dumps(account)


def fcm_error(status: int, code: str) -> tuple[int, dict[str, Any]]:
    """FCM's error body: the status, with the FCM error code in its details."""
    details = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}]
    return status, {"error": {"code": status, "status": code, "details": details}}


@contextmanager
def apns() -> Iterator[tuple[StandIn, str]]:
    """APNs; yields the stand-in and the team's signing key (.p8 PEM) as APNS_KEY takes it.
    A provider token is checked as Apple does: ES256 with the team's key, its `kid` and `iss`."""
    key = ec.generate_private_key(ec.SECP256R1())
    service = StandIn()

    def handle(path: str, headers: dict[str, str], raw: str) -> tuple[int, dict[str, Any]]:
        if not path.startswith("/3/device/"):
            return 404, {"reason": "BadPath"}
        scheme, _, token = headers.get("authorization", "").partition(" ")
        try:
            claims = jwt.decode(token, key.public_key(), algorithms=["ES256"])
        except jwt.InvalidTokenError:
            return 403, {"reason": "InvalidProviderToken"}
        if scheme != "bearer" or claims["iss"] != TEAM_ID:
            return 403, {"reason": "InvalidProviderToken"}
        if jwt.get_unverified_header(token)["kid"] != KEY_ID:
            return 403, {"reason": "InvalidProviderToken"}
        if headers.get("apns-topic") != TOPIC:
            return 400, {"reason": "TopicDisallowed"}
        service.received.append(Received(path, headers, json.loads(raw)))
        return service.answer({})

    with _serve(handle) as url:
        service.url = url
        yield service, _pem(key)
