"""The moderators' admin (Django finds this module): players and games, and the libraries'
admins with the same refusals of secret fields."""

from moderation.admin import games, libraries, players

__all__ = ["games", "libraries", "players"]
