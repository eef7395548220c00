"""Strict serializer fields: a wrong JSON type is an error, never silently coerced."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

# A character str.strip() keeps: spelt out, since a generator's `\S` may count fewer as space
# (Hypothesis takes U+0085 for a letter) than Python and ECMAScript do.
NOT_ONLY_WHITESPACE = r"[^\s\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"


class StrictIntegerField(serializers.IntegerField):
    """Accepts JSON numbers that are whole, not strings or booleans."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """Accepts only JSON true and false."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    """Accepts only JSON strings."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.trim_whitespace and not self.allow_blank:
            # Only for the schema (its `pattern`): text of nothing but whitespace is blank once
            # trimmed, refused before any validator runs. Last: the schema keeps the first
            # pattern, so a field's own wins.
            self.validators = [*self.validators, RegexValidator(NOT_ONLY_WHITESPACE)]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
