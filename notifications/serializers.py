"""Input validation for the notifications API: strict, unknown fields refused."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from apikit.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from apikit.schema import whole_text
from apikit.serializers import StrictSerializer
from notifications import endpoints
from notifications.notices import KEPT

ENDPOINT_MAX_LENGTH = 1000
KEY_MAX_LENGTH = 200
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class NotificationSettingsSerializer(StrictSerializer):
    email_turns = StrictBooleanField(
        required=False, help_text="E-mail when it is your turn at a table of an hour or more."
    )
    push_turns = StrictBooleanField(
        required=False, help_text="Web Push to your subscribed browsers and apps."
    )


def _decoded_length(value: str) -> int:
    """The byte length of a base64url value (padding optional); ValidationError otherwise."""
    if not _BASE64URL.fullmatch(value):
        raise serializers.ValidationError("not base64url")
    try:
        digits = value.rstrip("=")
        return len(base64.urlsafe_b64decode(digits + "=" * (-len(digits) % 4)))
    except (binascii.Error, ValueError) as error:
        raise serializers.ValidationError("not base64url") from error


class Base64UrlKey(StrictCharField):
    """A key as browsers give it: base64url of exactly `size` bytes."""

    def __init__(self, *, size: int, **kwargs: Any) -> None:
        self.size = size
        # For the schema: the base64url characters of `size` bytes, padded or not.
        characters = -(-size * 4 // 3)
        pattern = whole_text(rf"[A-Za-z0-9_-]{{{characters}}}={{0,2}}")
        super().__init__(max_length=KEY_MAX_LENGTH, validators=[RegexValidator(pattern)], **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if _decoded_length(value) != self.size:
            raise serializers.ValidationError(f"must be {self.size} bytes, base64url")
        return value


class PushKeysSerializer(StrictSerializer):
    p256dh = Base64UrlKey(size=65, help_text="The subscription's P-256 public key (65 bytes).")
    auth = Base64UrlKey(size=16, help_text="The subscription's auth secret (16 bytes).")


def _push_endpoint(value: str) -> None:
    problem = endpoints.refusal(value)
    if problem is not None:
        raise serializers.ValidationError(problem)


@extend_schema_field(
    {"type": "string", "maxLength": ENDPOINT_MAX_LENGTH, "pattern": endpoints.url_pattern()}
)
class PushEndpointField(StrictCharField):
    """An endpoint URL; the schema's pattern is WEB_PUSH_HOSTS', the check `_push_endpoint`."""


class PushEndpointSerializer(StrictSerializer):
    endpoint = PushEndpointField(
        max_length=ENDPOINT_MAX_LENGTH,
        validators=[_push_endpoint],
        help_text=(
            "The push service's https URL for this subscription: on a push service's own "
            "host (FCM, Mozilla, Apple, Windows), port 443."
        ),
    )


class PushSubscriptionSerializer(PushEndpointSerializer):
    keys = PushKeysSerializer()
    expirationTime = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="As PushSubscription.toJSON() gives it; not used.",
    )


# A device token as the platforms give them: FCM's registration tokens (letters, digits, `-`,
# `_` and `:`), APNs' hexadecimal ones. A token its service does not know is deleted at the
# first notice (notifications.native).
DEVICE_TOKEN_MAX_LENGTH = 512
_DEVICE_TOKEN = whole_text(r"[A-Za-z0-9_:-]{16,512}")


class DeviceTokenSerializer(StrictSerializer):
    token = StrictCharField(
        max_length=DEVICE_TOKEN_MAX_LENGTH,
        validators=[RegexValidator(_DEVICE_TOKEN)],
        help_text="The token the platform's push service gave the app.",
    )


class DeviceSerializer(DeviceTokenSerializer):
    platform = serializers.ChoiceField(
        choices=["fcm", "apns"],
        help_text="`fcm`: Firebase Cloud Messaging (Android); `apns`: Apple's (iOS).",
    )


def _notice_ids(*, required: bool) -> serializers.ListField:
    return serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=2**63 - 1),
        required=required,
        min_length=1,
        max_length=KEPT,
        help_text="The notices to mark read (ids that are not yours change nothing).",
    )


@extend_schema_field({"type": "boolean", "enum": [True]})
class OnlyTrueField(StrictBooleanField):
    """`true`, and nothing else (false is 400 `invalid`)."""

    def to_internal_value(self, data: Any) -> bool:
        if data is not True:
            self.fail("invalid")
        return True


class NoticesReadSerializer(StrictSerializer):
    """Either `ids` (the caller's notices to mark read) or `all: true` (exactly one)."""

    ids = _notice_ids(required=False)
    all = OnlyTrueField(required=False, help_text="Mark every notice read.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("ids" in attrs) == ("all" in attrs):
            raise serializers.ValidationError({"ids": ["Send either ids or all."]})
        return attrs


class NoticesReadIdsSerializer(StrictSerializer):
    ids = _notice_ids(required=True)


class NoticesReadAllSerializer(StrictSerializer):
    all = OnlyTrueField(required=True, help_text="Mark every notice read.")


NOTICES_READ_BODY = PolymorphicProxySerializer(
    component_name="NoticesRead",
    serializers=[NoticesReadIdsSerializer, NoticesReadAllSerializer],
    resource_type_field_name=None,
)
"""The schema of a notices-read body (NoticesReadSerializer parses it): some ids, or all."""
