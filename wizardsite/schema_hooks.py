"""The OpenAPI schema's last steps: components no path reaches, such as the socket messages, and
the refusals every operation may answer before its view runs."""

from __future__ import annotations

from typing import Any

from apikit.schema import Schema, components
from games.push import SOCKET_MESSAGES


def add_components(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: the TypedDict components, the socket messages'
    included (the API contract, "WebSocket"; no path describes them)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components(list(SOCKET_MESSAGES)).items():
        if schemas.setdefault(name, schema) != schema:
            raise TypeError(f"The OpenAPI component {name!r} is made twice.")
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result


# wizardsite.middleware answers these for any API request, before its view runs (503: or
# while it runs).
_ANY_REQUEST = {
    "400": "invalid: a malformed request (NUL in the address, a cookie or a header; a bad "
    "Content-Length).",
    "413": "invalid: the request body is larger than the API accepts.",
    "503": "unavailable: the database cannot be reached just now; nothing was changed. Send "
    "the same request again after the Retry-After header's seconds.",
}


def add_request_refusals(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: every operation documents 400, 413 and 503 as
    errors."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status, description in _ANY_REQUEST.items():
                responses.setdefault(status, {"description": description, "content": error})
            operation["responses"] = dict(sorted(responses.items()))
    return result
