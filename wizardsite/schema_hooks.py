"""The OpenAPI schema's last steps: components no path reaches, such as the socket messages, and
the refusals every operation may answer before its view runs."""

from __future__ import annotations

from typing import Any

from apikit.api import Pagination
from apikit.schema import Schema, components
from games.push import SOCKET_MESSAGES
from tournaments.selectors import TournamentSocketMessage


def add_components(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: the TypedDict components, the socket messages'
    included (the API contract, "WebSocket"; no path describes them)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components([*SOCKET_MESSAGES, TournamentSocketMessage]).items():
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


def _components_under(node: Any, schemas: dict[str, Schema], found: set[str]) -> None:
    """The names of the components `node` refers to, directly or through others, into `found`."""
    if isinstance(node, list):
        for item in node:
            _components_under(item, schemas, found)
    elif isinstance(node, dict):
        name = node.get("$ref", "").rpartition("/")[2]
        if name and name not in found:
            found.add(name)
            _components_under(schemas[name], schemas, found)
        for key, value in node.items():
            if key != "discriminator":  # its mapping repeats the oneOf's references
                _components_under(value, schemas, found)


def _has_required_fields(schema: Schema, schemas: dict[str, Schema]) -> bool:
    while "$ref" in schema:
        schema = schemas[schema["$ref"].rpartition("/")[2]]
    if "oneOf" in schema:
        return all(_has_required_fields(option, schemas) for option in schema["oneOf"])
    return bool(schema.get("required"))


def close_request_bodies(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: every object a request body is made of says
    `additionalProperties: false`, as the server refuses unknown fields
    (apikit.serializers.StrictSerializer); a body with required fields is itself required
    (drf-spectacular leaves a oneOf body optional)."""
    schemas = result.get("components", {}).get("schemas", {})
    bodies: set[str] = set()
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody")
            if body is None:
                continue
            _components_under(body, schemas, bodies)
            if all(
                _has_required_fields(media["schema"], schemas) for media in body["content"].values()
            ):
                body["required"] = True
    for name in bodies:
        if "properties" in schemas[name]:
            schemas[name]["additionalProperties"] = False
    return result


# The bounds the server checks on these query parameters (apikit.api, games.api), wherever they
# are taken.
_QUERY_BOUNDS: dict[str, Schema] = {
    Pagination.page_query_param: {"minimum": 1},
    Pagination.page_size_query_param: {
        "minimum": 1,
        "maximum": Pagination.max_page_size,
        "default": Pagination.page_size,
    },
    "after": {"minimum": 0},
}


def bound_query_parameters(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: the pages' and `after`'s integer parameters say
    their bounds; a page past the last is 404."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                bounds = _QUERY_BOUNDS.get(parameter["name"])
                if parameter["in"] == "query" and bounds is not None:
                    parameter["schema"].update(bounds)
                if parameter["name"] == Pagination.page_query_param:
                    responses = operation["responses"]
                    responses.setdefault(
                        "404", {"description": "not_found: no such page.", "content": error}
                    )
                    operation["responses"] = dict(sorted(responses.items()))
    return result
