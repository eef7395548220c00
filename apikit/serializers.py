"""The base of every request body's serializer: a JSON object with only the declared fields."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A JSON object with only these fields: any other is 400 `invalid`."""

    # The schema says so of every request body: wizardsite.schema_hooks.close_request_bodies.

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["unknown field"] for name in unknown})
        return super().to_internal_value(data)
