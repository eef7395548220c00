"""Input validation for the accounts API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.usernames import username_validator
from apikit.fields import StrictCharField
from apikit.serializers import StrictSerializer
from core import limits


class RegisterSerializer(StrictSerializer):
    username = StrictCharField(
        min_length=limits.USERNAME_MIN_LENGTH,
        max_length=limits.USERNAME_MAX_LENGTH,
        validators=[username_validator],
        help_text="ASCII letters, digits, _ and -; unique regardless of case.",
    )
    password = StrictCharField(
        min_length=8,  # MinimumLengthValidator's default (AUTH_PASSWORD_VALIDATORS)
        max_length=128,
        trim_whitespace=False,
        write_only=True,
        help_text="Not too common, not all digits, not like the username.",
    )
    email = serializers.EmailField(
        help_text="A link to verify it is mailed to it; turn mails wait for that."
    )


class CredentialsSerializer(StrictSerializer):
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, write_only=True)


class VerifyEmailSerializer(StrictSerializer):
    token = StrictCharField(max_length=500, help_text="The token of the link mailed.")


class EmailChangeSerializer(StrictSerializer):
    email = serializers.EmailField(help_text="The new address; it needs verifying again.")
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
