"""Input validation for the games API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from games import engine
from wizardsite.fields import StrictBooleanField, StrictCharField, StrictIntegerField


class GameCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seats = StrictIntegerField(min_value=3, max_value=6)
    bots = StrictIntegerField(min_value=0, max_value=5, default=0)
    turn_seconds = StrictIntegerField(min_value=5, max_value=600, required=False)
    hook_rule = StrictBooleanField(default=True)
    blind_first_round = StrictBooleanField(default=True)
    bot_kind = serializers.ChoiceField(
        choices=sorted(engine.BOTS), required=False, help_text="Default: " + settings.DEFAULT_BOT
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        seats, bots = attrs["seats"], attrs.get("bots", 0)
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots > seats - 1:
            raise serializers.ValidationError({"bots": [f"At most {seats - 1} bots."]})
        return attrs


class MoveSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Documents a move body; the engine parses it (`games.engine.parse_move`)."""

    type = serializers.ChoiceField(choices=["bid", "play", "trump"])
    bid = StrictIntegerField(required=False, help_text="With type=bid: 0…cards (R7, R8).")
    card = StrictCharField(required=False, help_text="With type=play: a card code (R1).")
    suit = serializers.ChoiceField(
        choices=list(engine.SUITS), required=False, help_text="With type=trump (R5)."
    )
    seq = StrictIntegerField(
        required=False, allow_null=True, help_text="The last event seq seen; stale → 409."
    )


class ChatPostSerializer(serializers.Serializer):  # type: ignore[type-arg]
    text = StrictCharField(help_text="1–300 characters after trimming; shown as plain text.")
