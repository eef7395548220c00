"""Sockets while the database cannot be reached: refused cleanly, never an unhandled error
(which uvicorn answers with close code 1011)."""

from __future__ import annotations

import json
import logging
from typing import Any

from apikit.unavailable import is_unavailable, unavailable_body
from core.errors import UNAVAILABLE_RETRY_AFTER

log = logging.getLogger(__name__)

# "Try again later" (HTTP's 503 in the application range of close codes; some websocket
# libraries send no other code below 3000 than 1000, so not RFC 6455's 1013): reconnect after
# a pause, as after any close but 4401, 4403 and 4404.
CLOSE_TRY_AGAIN_LATER = 4503


class RefuseWhileDatabaseDown:
    """Wraps the websocket application. When the database fails during the handshake, a server
    that implements the ASGI `websocket.http.response` extension (uvicorn) answers 503
    `unavailable` with Retry-After, like REST; one that does not (Channels' test communicator)
    has the socket accepted and closed at once with 4503. After the handshake the socket
    closes with 4503."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        state = {"accepted": False, "closed": False}

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] in ("websocket.close", "websocket.http.response.start"):
                state["closed"] = True
            await send(message)

        try:
            return await self.app(scope, receive, watched_send)
        except Exception as error:
            if not is_unavailable(error):
                raise
            log.warning("socket %s refused, database unavailable: %r", scope.get("path"), error)
            if state["closed"]:
                return None
            if not state["accepted"] and "websocket.http.response" in scope.get("extensions", {}):
                await _deny(send)
                return None
            if not state["accepted"]:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None


async def _deny(send: Any) -> None:
    """The handshake's answer: 503 with the contract's error body."""
    body = json.dumps(unavailable_body()).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"retry-after", str(UNAVAILABLE_RETRY_AFTER).encode()),
    ]
    await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": body})
