"""Input validation for the accounts API (responses are documented by their TypedDicts)."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from apikit.fields import StrictCharField


class RegisterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
    email = serializers.EmailField()


class CredentialsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, write_only=True)
