"""Input validation for the games API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from apikit.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from core import limits
from games import engine
from games.difficulty import DIFFICULTIES, difficulty_of


class DifficultyField(serializers.ChoiceField):
    """easy, medium or hard; the engine kinds accepted before difficulties existed (`random`,
    `heuristic`, `expert`) still work, for the apps that send them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(DIFFICULTIES), **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data in engine.BOTS:
            return data  # an older app's engine kind
        return super().to_internal_value(data)


class GameCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seats = StrictIntegerField(min_value=limits.MIN_SEATS, max_value=limits.MAX_SEATS)
    bots = StrictIntegerField(
        min_value=limits.MIN_BOTS, max_value=limits.max_bots(limits.MAX_SEATS), default=0
    )
    turn_seconds = StrictIntegerField(
        min_value=limits.MIN_TURN_SECONDS, max_value=limits.MAX_TURN_SECONDS, required=False
    )
    hook_rule = StrictBooleanField(default=True)
    blind_first_round = StrictBooleanField(default=True)
    bot_kind = DifficultyField(
        required=False,
        help_text="Bot difficulty: easy, medium (the default: "
        + (difficulty_of(settings.DEFAULT_BOT) or settings.DEFAULT_BOT)
        + ") or hard (a searching bot).",
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        seats, bots = attrs["seats"], attrs.get("bots", 0)
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots > limits.max_bots(seats):
            raise serializers.ValidationError({"bots": [f"At most {limits.max_bots(seats)} bots."]})
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
    text = StrictCharField(
        help_text=f"1–{limits.CHAT_MAX_LENGTH} characters after trimming; shown as plain text."
    )
