"""The OpenAPI schema's last step: components no path reaches, such as the socket messages."""

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
