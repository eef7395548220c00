"""Shapes of the league API for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers


class StandingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField(help_text="Equal ratings share a rank.")
    username = serializers.CharField()
    rating = serializers.FloatField(help_text="Conservative rating: mu − 3σ (openskill).")
    games = serializers.IntegerField(help_text="League games (R17).")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_points = serializers.FloatField()
    provisional = serializers.BooleanField(help_text="Fewer than 5 league games so far.")


class RatingPointSerializer(serializers.Serializer):  # type: ignore[type-arg]
    at = serializers.DateTimeField()
    rating = serializers.FloatField()


class RecentGameSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    players = serializers.IntegerField()
    league = serializers.BooleanField()
    score = serializers.IntegerField()
    place = serializers.IntegerField()


class PlayerProfileSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = serializers.CharField()
    rating = serializers.FloatField(allow_null=True, help_text="Null before any league game.")
    provisional = serializers.BooleanField()
    league_games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="League games won (shared wins count, R15).")
    casual_games = serializers.IntegerField(help_text="Finished games that are not league games.")
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    average_points = serializers.FloatField(allow_null=True)
    bid_accuracy = serializers.FloatField(allow_null=True, help_text="Share of exact bids.")
    rating_history = RatingPointSerializer(many=True)
    recent_games = RecentGameSerializer(many=True)


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
