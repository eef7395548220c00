"""The tournament's socket group (`ws/tournaments/{id}/`): told after every change, it sends
each socket the tournament's view."""

from __future__ import annotations

from games import push


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """After a commit: every socket watching the tournament reads its view anew."""
    push.send(tournament_group(tournament_id), {"type": "tournament.changed"})
