"""Input validation of the reports endpoint (its answer is documented by a TypedDict)."""

from __future__ import annotations

from apikit.fields import StrictCharField, StrictIntegerField
from apikit.serializers import StrictSerializer
from core import limits


class ReportSerializer(StrictSerializer):
    username = StrictCharField(help_text="The player reported.")
    message_id = StrictIntegerField(
        required=False, allow_null=True, help_text="One of that player's chat messages."
    )
    reason = StrictCharField(
        max_length=limits.REASON_MAX_LENGTH,
        help_text=f"Why (1–{limits.REASON_MAX_LENGTH} characters).",
    )
