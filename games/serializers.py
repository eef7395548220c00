"""Input validation for the games API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from apikit.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from apikit.serializers import StrictSerializer
from core import limits
from games import chat_presets, engine
from games.difficulty import DIFFICULTIES, difficulty_of
from games.engine.moves import TRUMP_CHOICES
from games.models import Spectators, Visibility

MAX_CARDS = engine.rounds_for(limits.MIN_SEATS)  # the most cards a round deals (R2, R4)


class DifficultyField(serializers.ChoiceField):
    """easy, medium or hard; the engine kinds accepted before difficulties existed (`random`,
    `heuristic`, `expert`) still work, for the apps that send them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(DIFFICULTIES), **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data in engine.BOTS:
            return data  # an older app's engine kind
        return super().to_internal_value(data)


def rounds_schema(most: int) -> dict[str, Any]:
    """R19 in JSON Schema: "full", "odd" or a number of rounds up to `most`."""
    return {
        "oneOf": [
            {"type": "string", "enum": ["full", "odd"]},
            {"type": "integer", "minimum": 1, "maximum": most},
        ],
        "description": "R19: every round (full), the odd rounds only, or rounds 1 to N.",
    }


class RoundsField(serializers.Field):  # type: ignore[type-arg]
    """R19's round format: "full", "odd" or a whole number (checked against the seats by the
    service); a number sent as a string is refused."""

    default_error_messages = {"invalid": "full, odd or a number of rounds."}

    def to_internal_value(self, data: Any) -> str | int:
        if data in ("full", "odd") or (isinstance(data, int) and not isinstance(data, bool)):
            return data  # type: ignore[no-any-return]
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


def rounds_field(most: int) -> RoundsField:
    """A RoundsField whose schema allows up to `most` rounds (one class each: the schema is
    the class's)."""
    documented = type(f"Rounds{most}Field", (RoundsField,), {})
    return extend_schema_field(rounds_schema(most))(documented)(default="full")  # type: ignore[no-any-return]


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(engine.SPECIAL_OPTIONS)},
        "uniqueItems": True,
        "description": "R20: the special cards shuffled into the deck (dragon_fairy is both).",
    }
)
class SpecialCardsField(serializers.Field):  # type: ignore[type-arg]
    """R20's special cards by the API's names, each at most once; given back in R20's order."""

    default_error_messages = {"invalid": "A list of special cards, each at most once."}

    def to_internal_value(self, data: Any) -> list[str]:
        try:
            return engine.special_options(engine.special_cards(data))
        except engine.Invalid:
            self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


class GameCreateSerializer(StrictSerializer):
    seats = StrictIntegerField(min_value=limits.MIN_SEATS, max_value=limits.MAX_SEATS)
    bots = StrictIntegerField(
        min_value=limits.MIN_BOTS,
        max_value=limits.max_bots(limits.MAX_SEATS),
        default=0,
        help_text="Fewer than seats: a table needs one person.",
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
    visibility = serializers.ChoiceField(
        choices=Visibility.values,
        default=Visibility.PUBLIC.value,
        help_text="private: listed to its players only, joined with its invitation code.",
    )
    spectators = serializers.ChoiceField(
        choices=Spectators.values,
        default=Spectators.EVERYONE.value,
        help_text="Who may watch: everyone, friends of a seated player, or the players only.",
    )
    rounds = rounds_field(engine.rounds_for(limits.MIN_SEATS))
    special_cards = SpecialCardsField(default=list)
    min_reliability = StrictIntegerField(
        min_value=0,
        max_value=100,
        default=0,
        help_text="Only players of at least this reliability (%) may join; unknown counts as 80.",
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        seats, bots = attrs["seats"], attrs.get("bots", 0)
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots > limits.max_bots(seats):
            raise serializers.ValidationError({"bots": [f"At most {limits.max_bots(seats)} bots."]})
        try:  # R19 for these seats: refused here, before the request counts against a rate
            engine.round_numbers(seats, attrs.get("rounds", "full"))  # type: ignore[arg-type]
        except ValueError as error:
            raise serializers.ValidationError({"rounds": [str(error)]}) from None
        return attrs


class GameJoinSerializer(StrictSerializer):
    invite = StrictCharField(
        required=False,
        max_length=64,
        help_text="The table's invitation code: required to join a private table.",
    )


class GameInviteSerializer(StrictSerializer):
    username = StrictCharField(max_length=150, help_text="The friend to invite.")


def _table_of(seats: int) -> type[GameCreateSerializer]:
    """The body of a table of exactly `seats` seats, for the schema: JSON Schema cannot compare
    two fields, so `bots < seats` is one object per number of seats."""
    fields = {
        "seats": StrictIntegerField(min_value=seats, max_value=seats),
        "bots": StrictIntegerField(
            min_value=limits.MIN_BOTS,
            max_value=limits.max_bots(seats),
            default=0,
            help_text="Fewer than seats: a table needs one person.",
        ),
        "rounds": rounds_field(engine.rounds_for(seats)),
    }
    return type(f"GameCreate{seats}Seats", (GameCreateSerializer,), fields)


GAME_CREATE_BODY = PolymorphicProxySerializer(
    component_name="GameCreate",
    serializers=[_table_of(seats) for seats in range(limits.MIN_SEATS, limits.MAX_SEATS + 1)],
    resource_type_field_name=None,
)
"""The schema of POST /games/: one of the tables of 3 to 6 seats (GameCreateSerializer parses
it)."""


# The schema gives a bid's and a card's whole range; outside it the engine answers, with the
# rules' own refusal (illegal_bid, illegal_card), as it does for a bid or card this turn forbids.
@extend_schema_field({"type": "integer", "minimum": 0, "maximum": MAX_CARDS})
class BidField(StrictIntegerField):
    pass


@extend_schema_field({"type": "string", "enum": list(engine.CARDS)})
class CardField(StrictCharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_blank=True, trim_whitespace=False, **kwargs)


class _MoveSerializer(StrictSerializer):
    seq = StrictIntegerField(
        required=False, allow_null=True, help_text="The last event seq seen; stale → 409."
    )


class BidSerializer(_MoveSerializer):
    type = serializers.ChoiceField(choices=["bid"])
    bid = BidField(help_text="0…the round's cards (R7, R8).")


class DeclaredField(serializers.Field):  # type: ignore[type-arg]
    """A Juggler's or Cloud's suit, a Shapeshifter's shape: taken as sent, so that the engine
    refuses a missing or wrong one with its own `illegal_card` (R24, R25)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, allow_null=True, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"type": "string", "enum": list(engine.SUITS), "nullable": True})
class NamedSuitField(DeclaredField):
    pass


@extend_schema_field({"type": "string", "enum": ["wizard", "jester"], "nullable": True})
class ShapeField(DeclaredField):
    pass


# "as" is a keyword, hence the call syntax (the metaclass reads the fields from the dict).
PlaySerializer = type(
    "PlaySerializer",
    (_MoveSerializer,),
    {
        "type": serializers.ChoiceField(choices=["play"]),
        "card": CardField(help_text="A card code (R1, R20)."),
        "suit": NamedSuitField(help_text="The suit named for a Juggler or a Cloud (R24)."),
        "as": ShapeField(help_text="A Shapeshifter's shape (R25)."),
    },
)


class TrumpSerializer(_MoveSerializer):
    type = serializers.ChoiceField(choices=["trump"])
    suit = serializers.ChoiceField(
        choices=list(TRUMP_CHOICES),
        help_text="R5; 'none' (no trump) only for the Werewolf's holder (R23).",
    )


class PassSerializer(_MoveSerializer):
    type = serializers.ChoiceField(choices=["pass"])
    card = CardField(help_text="The card passed to the player on the left (R24).")


@extend_schema_field({"type": "integer", "enum": [-1, 1]})
class DeltaField(StrictIntegerField):
    pass


class AdjustSerializer(_MoveSerializer):
    type = serializers.ChoiceField(choices=["adjust"])
    delta = DeltaField(help_text="The Cloud's change of bid, +1 or -1 (R24).")


MOVES: dict[str, type[serializers.Serializer]] = {  # type: ignore[type-arg]
    "bid": BidSerializer,
    "play": PlaySerializer,
    "trump": TrumpSerializer,
    "pass": PassSerializer,
    "adjust": AdjustSerializer,
}
MOVE_BODY = PolymorphicProxySerializer(
    component_name="Move",
    serializers=dict(MOVES),
    resource_type_field_name="type",
)
"""The schema of a move body: one of the decisions, told apart by `type`. The schema only: the
engine reads the body (games.engine.parse_move), on both doors."""


def _chat_text(*, required: bool) -> StrictCharField:
    return StrictCharField(
        required=required,
        max_length=limits.CHAT_MAX_LENGTH,
        help_text=f"1–{limits.CHAT_MAX_LENGTH} characters after trimming; shown as plain text.",
    )


def _chat_preset(*, required: bool) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        required=required,
        choices=list(chat_presets.PRESETS),
        help_text="A preset's key (GET /api/v1/chat/presets/): each reader sees its text in "
        "their own language.",
    )


class ChatPostSerializer(StrictSerializer):
    """A chat message: its `text`, or a `preset` (exactly one of them)."""

    text = _chat_text(required=False)
    preset = _chat_preset(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("preset" in attrs):
            raise serializers.ValidationError({"text": ["Send either text or preset."]})
        return attrs


class ChatTextSerializer(StrictSerializer):
    text = _chat_text(required=True)


class ChatPresetSerializer(StrictSerializer):
    preset = _chat_preset(required=True)


CHAT_POST_BODY = PolymorphicProxySerializer(
    component_name="ChatPost",
    serializers=[ChatTextSerializer, ChatPresetSerializer],
    resource_type_field_name=None,
)
"""The schema of a chat message (ChatPostSerializer parses it): JSON Schema says "exactly one
of text and preset" as one object each."""
