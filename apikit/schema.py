"""OpenAPI helpers: the error object and the error responses of each endpoint."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField(help_text="Machine code, e.g. not_your_turn.")
    message = serializers.CharField(help_text="Human text.")
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per-field problems."
    )


class ErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    error = ErrorDetailSerializer()


_STATUS_CODES = {
    400: "invalid, illegal_card, illegal_bid, hook_rule",
    401: "not_authenticated",
    403: "not_a_player, suspended, forbidden",
    404: "not_found",
    409: "not_your_turn, stale_state, game_full, game_not_active",
    429: "rate_limited",
}


def errors(*statuses: int, **descriptions: str) -> dict[int, OpenApiResponse]:
    """Error responses for extend_schema; `descriptions` override by status, e.g. s409=…"""
    return {
        status: OpenApiResponse(
            ErrorSerializer,
            description=descriptions.get(f"s{status}", _STATUS_CODES.get(status, "")),
        )
        for status in statuses
    }


def page_of(item: type[serializers.Serializer]) -> type[serializers.Serializer]:  # type: ignore[type-arg]
    """The schema of a paginated list of `item`: {"count", "next", "previous", "results"}."""
    name = item.__name__.removesuffix("Serializer")
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(f"Paginated{name}ListSerializer", (serializers.Serializer,), fields)
