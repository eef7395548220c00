"""OpenAPI from the types the code returns: each TypedDict is one named component.

Responses are documented by the same TypedDicts their producers are checked against, so the
schema cannot drift from them. drf-spectacular's own `resolve_type_hint` inlines nested
TypedDicts (no component names) and, under `from __future__ import annotations` on Python
3.11, counts NotRequired keys as required; this converter names them and reads NotRequired.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from functools import cache
from typing import Annotated, Any, NotRequired, Required, TypedDict

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_basic_type, is_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

from core.errors import Error

Schema = dict[str, Any]

DateTime = Annotated[str, OpenApiTypes.DATETIME]
"""An ISO-8601 UTC time as a string (documented as format date-time)."""


def whole_text(pattern: str) -> str:
    """A schema `pattern` (ECMA and Python regex alike) that `pattern` must match all of: in
    Python `$` also matches before a final newline, which the server's checks refuse."""
    return rf"^(?:{pattern})$(?!\n)"


_COMPONENTS = "#/components/schemas/"
_documented: dict[str, Any] = {}  # component name → the TypedDict it is made from


def ref(typed_dict: Any) -> Schema:
    """A reference to the component of `typed_dict`, which the schema hook then writes."""
    name = typed_dict.__name__
    if _documented.setdefault(name, typed_dict) is not typed_dict:
        raise TypeError(f"Two types would be the OpenAPI component {name!r}.")
    return {"$ref": _COMPONENTS + name}


def schema_of(hint: Any) -> Schema:
    """The OpenAPI 3.0 schema of a type hint; TypedDicts become references."""
    if typing.is_typeddict(hint):
        return ref(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated and isinstance(args[1], OpenApiTypes):
        return build_basic_type(args[1]) or {}
    if origin in (typing.Union, types.UnionType):
        return _union([arg for arg in args if arg is not type(None)], type(None) in args)
    if origin is list:
        return {"type": "array", "items": schema_of(args[0])}
    if origin is dict:
        return {"type": "object", "additionalProperties": _any_or(args[1])}
    if origin is typing.Literal:
        return {**(build_basic_type(type(args[0])) or {}), "enum": list(args)}
    if isinstance(hint, type) and issubclass(hint, Enum):
        return {"type": "string", "enum": [member.value for member in hint]}
    if hint is Any:
        return {}
    if is_basic_type(hint, allow_none=False):
        return build_basic_type(hint) or {}
    raise TypeError(f"No OpenAPI schema for {hint!r}.")


def _any_or(hint: Any) -> Any:
    return True if hint is Any else schema_of(hint)


def _union(options: list[Any], nullable: bool) -> Schema:
    if len(options) > 1:
        schema: Schema = {"oneOf": [schema_of(option) for option in options]}
    else:
        schema = schema_of(options[0])
        if nullable and "$ref" in schema:
            schema = {"allOf": [schema]}  # OpenAPI 3.0 ignores keywords beside a $ref
        if nullable and "enum" in schema:
            # OpenAPI 3.0.3: `nullable` does not add null to an enum; it must be listed.
            schema = {**schema, "enum": [*schema["enum"], None]}
    return {**schema, "nullable": True} if nullable else schema


def component(typed_dict: Any) -> Schema:
    """The object schema of a TypedDict: every key, required unless NotRequired."""
    properties, required = {}, []
    for key, hint in typing.get_type_hints(typed_dict, include_extras=True).items():
        origin = typing.get_origin(hint)
        if origin in (Required, NotRequired):
            (hint,) = typing.get_args(hint)
        if origin is Required or (origin is not NotRequired and typed_dict.__total__):
            required.append(key)
        properties[key] = schema_of(hint)
    schema: Schema = {"type": "object", "properties": properties, "required": required}
    doc = vars(typed_dict).get("__doc__")
    if doc:
        schema["description"] = " ".join(doc.split())
    return schema


def components(typed_dicts: list[Any]) -> dict[str, Schema]:
    """The components of these TypedDicts and of every TypedDict they reach."""
    for typed_dict in typed_dicts:
        ref(typed_dict)
    built: dict[str, Schema] = {}
    while pending := [name for name in _documented if name not in built]:
        for name in pending:
            built[name] = component(_documented[name])  # may document nested types
    return dict(sorted(built.items()))


_STATUS_CODES = {
    400: "invalid, illegal_card, illegal_bid, hook_rule",
    401: "not_authenticated",
    403: (
        "not_a_player, invite_required, not_a_friend, blocked, reliability_too_low, suspended, "
        "forbidden"
    ),
    404: "not_found",
    409: "not_your_turn, stale_state, game_full, game_not_active, too_many_open_tables, "
    "too_many_bot_games, tournament_not_open, tournament_full, already_seated",
    429: "rate_limited",
}


def errors(*statuses: int, **descriptions: str) -> dict[int, OpenApiResponse]:
    """Error responses for extend_schema; `descriptions` override by status, e.g. s409=…"""
    return {
        status: OpenApiResponse(
            ref(Error), description=descriptions.get(f"s{status}", _STATUS_CODES.get(status, ""))
        )
        for status in statuses
    }


class _Page(TypedDict):
    count: int
    next: str | None
    previous: str | None


@cache
def page_of(item: Any) -> Schema:
    """The schema of a paginated list of `item`: {"count", "next", "previous", "results"}."""
    name = f"Paginated{item.__name__}List"
    page = TypedDict(name, {**typing.get_type_hints(_Page), "results": list[item]})  # type: ignore[misc]
    return ref(page)


class BodyAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, also writing the body a DELETE view declares with
    `extend_schema(request=...)`: drf-spectacular writes bodies only for POST, PUT and PATCH,
    and OpenAPI 3.0 allows one on DELETE."""

    def get_operation(self, *args: Any, **kwargs: Any) -> Schema | None:
        operation: Schema | None = super().get_operation(*args, **kwargs)
        serializer = self.get_request_serializer() if self.method == "DELETE" else None
        if operation is not None and serializer is not None:
            body = self.resolve_serializer(serializer, "request").ref
            operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
        return operation
