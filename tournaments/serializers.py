"""The request bodies of the tournaments' API (API.md "Tournaments"), checked strictly."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import serializers

from apikit.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from apikit.serializers import StrictSerializer
from core import limits
from games import engine
from games.models import Visibility
from games.serializers import SpecialCardsField, rounds_field
from tournaments.models import Format

MOST_AHEAD = timedelta(days=60)  # how far ahead a tournament may be scheduled
LATE = timedelta(minutes=1)  # a start "now" may reach the server a little late
# R19's rounds 1 to N at every table: its tables seat up to 6 (T3), whose game has 10 rounds.
MOST_ROUNDS = engine.rounds_for(limits.MAX_SEATS)


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(min_length=1, max_length=80)
    format = serializers.ChoiceField(choices=Format.values)
    starts_at = serializers.DateTimeField(help_text="ISO 8601; at most 60 days ahead.")
    table_size = StrictIntegerField(min_value=3, max_value=6, default=4)
    rounds = StrictIntegerField(
        min_value=1, max_value=15, default=5, help_text="Swiss: the number of rounds (T3)."
    )
    minutes = StrictIntegerField(
        min_value=10, max_value=1440, default=60, help_text="Arena: its duration (T4)."
    )
    turn_seconds = StrictIntegerField(
        min_value=limits.MIN_TURN_SECONDS, max_value=limits.MAX_TURN_SECONDS, required=False
    )
    hook_rule = StrictBooleanField(default=True)
    blind_first_round = StrictBooleanField(default=True)
    rounds_format = rounds_field(MOST_ROUNDS)
    special_cards = SpecialCardsField(default=list)
    visibility = serializers.ChoiceField(
        choices=Visibility.values,
        default=Visibility.PUBLIC.value,
        help_text="private: listed to its players only, joined with its invitation code.",
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        starts_at = attrs["starts_at"]
        assert isinstance(starts_at, type(timezone.now()))
        now = timezone.now()
        if not now - LATE <= starts_at <= now + MOST_AHEAD:
            raise serializers.ValidationError({"starts_at": ["From now to 60 days ahead."]})
        return attrs

    def validate_rounds_format(self, value: str | int) -> str | int:
        if isinstance(value, int) and not 1 <= value <= MOST_ROUNDS:
            raise serializers.ValidationError(f"full, odd or 1 to {MOST_ROUNDS}.")
        return value


class TournamentJoinSerializer(StrictSerializer):
    invite = StrictCharField(
        required=False,
        max_length=64,
        help_text="The tournament's invitation code: required to join a private one.",
    )
