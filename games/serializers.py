"""Input validation for the games API, and the shapes the OpenAPI schema documents."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from apikit.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from core import limits
from games import engine


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
    bot_kind = serializers.ChoiceField(
        choices=sorted(engine.BOTS), required=False, help_text="Default: " + settings.DEFAULT_BOT
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


class CardPlayedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    card = serializers.CharField()


class TrickSerializer(serializers.Serializer):  # type: ignore[type-arg]
    leader = serializers.IntegerField(allow_null=True)
    lead_suit = serializers.CharField(allow_null=True)
    cards = CardPlayedSerializer(many=True)


class LastTrickSerializer(serializers.Serializer):  # type: ignore[type-arg]
    winner = serializers.IntegerField()
    cards = CardPlayedSerializer(many=True)


class RoundSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    cards = serializers.IntegerField()
    dealer = serializers.IntegerField()
    trump_card = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    phase = serializers.ChoiceField(choices=["choosing_trump", "bidding", "playing", "done"])
    bids = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    trick = TrickSerializer()
    last_trick = LastTrickSerializer(allow_null=True)


class PlayerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()
    score = serializers.IntegerField()


class ScoreSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round = serializers.IntegerField()
    bids = serializers.ListField(child=serializers.IntegerField())
    tricks = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField())


class LegalSerializer(serializers.Serializer):  # type: ignore[type-arg]
    bids = serializers.ListField(child=serializers.IntegerField(), required=False)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    suits = serializers.ListField(child=serializers.CharField(), required=False)


class TableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["open", "active", "finished", "aborted"])
    seats = serializers.IntegerField()
    bots = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    hook_rule = serializers.BooleanField()
    blind_first_round = serializers.BooleanField()
    seq = serializers.IntegerField(help_text="The seq of the game's last event.")
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    players = PlayerSerializer(many=True)
    free_seats = serializers.IntegerField()


class GameSummarySerializer(TableSerializer):
    round_number = serializers.IntegerField(allow_null=True)
    to_act = serializers.IntegerField(allow_null=True)


class GameViewSerializer(TableSerializer):
    """What one caller may see of a game (API.md, "The game view")."""

    you = serializers.IntegerField(allow_null=True)
    round = RoundSerializer(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField(), allow_null=True)
    visible_hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField())
    )
    to_act = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    legal = LegalSerializer(allow_null=True)
    scores = ScoreSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    shuffle_commitment = serializers.CharField(help_text="Hex SHA-256 of the seed's UTF-8 bytes.")
    shuffle_seed = serializers.CharField(allow_null=True, help_text="Revealed when the game ends.")


class EventSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=list(engine.EVENT_TYPES))
    seat = serializers.IntegerField(allow_null=True, help_text="The seat that decided, if any.")
    auto = serializers.BooleanField(help_text="Made for the seat (R16 timer, R9 blind trick).")
    at = serializers.DateTimeField()
    payload = serializers.DictField(help_text="The engine event as the caller may see it.")


class ChatPostSerializer(serializers.Serializer):  # type: ignore[type-arg]
    text = StrictCharField(
        help_text=f"1–{limits.CHAT_MAX_LENGTH} characters after trimming; shown as plain text."
    )


class ChatMessageSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    username = serializers.CharField()
    text = serializers.CharField()
    at = serializers.DateTimeField()
