"""Input validation for the accounts API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from wizardsite.fields import StrictCharField


class RegisterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
    email = serializers.EmailField()


class CredentialsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, write_only=True)


class ReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(help_text="The player reported.")
    message_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="One of that player's chat messages."
    )
    reason = StrictCharField(max_length=1000, help_text="Why (1–1000 characters).")
