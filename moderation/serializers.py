"""Input validation of the reports endpoint (its answer is documented by a TypedDict)."""

from __future__ import annotations

from rest_framework import serializers

from apikit.fields import StrictCharField
from core import limits


class ReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(help_text="The player reported.")
    message_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="One of that player's chat messages."
    )
    reason = StrictCharField(
        max_length=limits.REASON_MAX_LENGTH,
        help_text=f"Why (1–{limits.REASON_MAX_LENGTH} characters).",
    )
