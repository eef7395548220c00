"""Input validation of the reports endpoint (its answer is documented by a TypedDict)."""

from __future__ import annotations

from rest_framework import serializers

from apikit.fields import StrictCharField, StrictIntegerField
from apikit.serializers import StrictSerializer
from core import limits
from moderation.models import ReportCategory


class ReportSerializer(StrictSerializer):
    username = StrictCharField(help_text="The player reported.")
    message_id = StrictIntegerField(
        required=False, allow_null=True, help_text="One of that player's chat messages."
    )
    category = serializers.ChoiceField(
        choices=ReportCategory.choices,
        default=ReportCategory.OTHER,
        help_text="What the report is about (`other` when left out, as older clients do).",
    )
    reason = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=limits.REASON_MAX_LENGTH,
        help_text=f"A note for the moderators, optional (at most {limits.REASON_MAX_LENGTH}"
        " characters).",
    )
