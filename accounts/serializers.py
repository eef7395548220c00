"""Input validation for the accounts API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.usernames import username_validator
from apikit.fields import StrictCharField
from core import limits


class RegisterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(
        min_length=limits.USERNAME_MIN_LENGTH,
        max_length=limits.USERNAME_MAX_LENGTH,
        validators=[username_validator],
        help_text="ASCII letters, digits, _ and -; unique regardless of case.",
    )
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
    email = serializers.EmailField(
        help_text="A link to verify it is mailed to it; turn mails wait for that."
    )


class CredentialsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, write_only=True)


class VerifyEmailSerializer(serializers.Serializer):  # type: ignore[type-arg]
    token = StrictCharField(max_length=500, help_text="The token of the link mailed.")


class EmailChangeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    email = serializers.EmailField(help_text="The new address; it needs verifying again.")
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
