"""The body of `POST /api/v1/seeks/` (R28)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apikit.fields import StrictIntegerField
from apikit.serializers import StrictSerializer
from seeks.models import SIZES, SPEEDS, Deck

BOTS_AFTER = (10, 600)  # R28: seconds before bots may fill the table


class NumberChoiceField(serializers.ChoiceField):
    """One of these whole numbers, as a JSON number (never a string of one)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class SeekCreateSerializer(StrictSerializer):
    turn_seconds = NumberChoiceField(choices=SPEEDS, help_text="R28: 30, 60, 300 or 86400.")
    sizes = serializers.ListField(
        child=NumberChoiceField(choices=SIZES),
        min_length=1,
        max_length=len(SIZES),
        help_text="The table sizes you accept: one or more of 3 to 6.",
    )
    deck = serializers.ChoiceField(choices=Deck.choices, help_text="classic, or anniversary (R20).")
    bots_after = StrictIntegerField(
        min_value=BOTS_AFTER[0],
        max_value=BOTS_AFTER[1],
        allow_null=True,
        required=False,
        default=None,
        help_text="Seconds after which medium bots may fill the table (then not a league game, "
        "R17); null: people only.",
    )

    def validate_sizes(self, sizes: list[int]) -> list[int]:
        return sorted(set(sizes))  # a size named twice is still that size
