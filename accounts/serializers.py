from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from wizardsite.fields import StrictCharField


class RegisterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = StrictCharField(max_length=128, trim_whitespace=False, write_only=True)
    email = serializers.EmailField()


class RegisteredSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField(help_text="An API token, so a new client can start at once.")


class CredentialsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, write_only=True)


class TokenSerializer(serializers.Serializer):  # type: ignore[type-arg]
    token = serializers.CharField()


class MeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    date_joined = serializers.DateTimeField()
    rating = serializers.FloatField(allow_null=True, help_text="League rating; null before any.")
    provisional = serializers.BooleanField()
    league_games = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_active = serializers.IntegerField()


class ReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(help_text="The player reported.")
    message_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="One of that player's chat messages."
    )
    reason = StrictCharField(max_length=1000, help_text="Why (1–1000 characters).")


class ReportCreatedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    status = serializers.CharField()
