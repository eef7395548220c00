"""A database that cannot be reached is no bug of the request: it is answered as the contract's
`unavailable` refusal (503 with Retry-After over HTTP, an `error` message on a socket)."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

from core.errors import UNAVAILABLE_MESSAGE, Error, Unavailable, error_body, refusal_body

log = logging.getLogger(__name__)


def is_unavailable(exc: BaseException) -> bool:
    """A database fault that says nothing about the request: the server is down or restarting,
    a pooled connection died, the pool timed out (psycopg_pool.PoolTimeout reaches Django as
    an OperationalError) or a lock wait gave up. Retrying later is the answer."""
    return isinstance(exc, Unavailable | OperationalError | InterfaceError)


def unavailable_body() -> Error:
    """The driver's message may name hosts and users: clients get the contract's own."""
    return error_body(Unavailable.code, UNAVAILABLE_MESSAGE)


def refusal_or_unavailable(exc: Exception) -> Error | None:
    """The error object of a refusal (core.errors.refusal_body) or of a database that cannot
    be reached; None for anything else (a bug: a 500, a socket closed with 1011)."""
    body = refusal_body(exc)
    if body is None and is_unavailable(exc):
        log.warning("database unavailable: %r", exc)
        body = unavailable_body()
    return body
