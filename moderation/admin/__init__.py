"""The moderators' admin (Django finds this module): players, reports and games, and the
libraries' admins with the same refusals of secret fields."""

from moderation.admin import games, libraries, players, reports

__all__ = ["games", "libraries", "players", "reports"]
