"""The moderators' admin (Django finds this module): players and games."""

from moderation.admin import games, players

__all__ = ["games", "players"]
