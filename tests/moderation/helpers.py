"""Helpers for the moderation tests: admin actions as a browser posts them, audit rows,
league games finished the way games/services.py finishes them, chat and report calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.selectors import counts_for_league
from moderation.models import AuditLog
from tests.games.helpers import API, Player, game_url

CHANGELISTS = {
    "game": "/admin/games/game/",
    "chatmessage": "/admin/games/chatmessage/",
    "report": "/admin/moderation/report/",
    "suspension": "/admin/accounts/suspension/",
    "auditlog": "/admin/moderation/auditlog/",
    "user": "/admin/auth/user/",
}


def run_action(
    client: Client,
    changelist: str,
    action: str,
    ids: Sequence[int],
    *,
    reason: str | None = None,
    apply: bool = True,
) -> HttpResponse:
    """POST an admin action the way the reason page submits it: action, the selected ids,
    apply=1 and the reason (leave out `reason` or `apply` to see the page itself)."""
    data: dict[str, Any] = {
        "action": action,
        "_selected_action": [str(pk) for pk in ids],
    }
    if apply:
        data["apply"] = "1"
    if reason is not None:
        data["reason"] = reason
    return client.post(CHANGELISTS[changelist], data)


def audit_rows(**filters: Any) -> list[tuple[Any, ...]]:
    """(moderator id, action, target type, target id, reason) of the matching audit rows."""
    return list(
        AuditLog.objects.filter(**filters)
        .order_by("pk")
        .values_list("moderator_id", "action", "target_type", "target_id", "reason")
    )


def user_of(player: Player) -> User:
    return User.objects.get(pk=player.user_id)


def chat_url(game_id: int) -> str:
    return game_url(game_id, "chat")


def chat(player: Player, game_id: int, text: Any) -> HttpResponse:
    return player.client.post(chat_url(game_id), {"text": text}, format="json")


def report(player: Player, **body: Any) -> HttpResponse:
    return player.client.post(f"{API}/reports/", body, format="json")


def chat_texts(player: Player, game_id: int, **params: Any) -> list[str]:
    response = player.client.get(chat_url(game_id), params)
    assert response.status_code == 200, response.content
    return [message["text"] for message in response.json()["results"]]


def finish_league_game(users: Sequence[User], scores: Sequence[int]) -> Game:
    """An all-human game that ends with these final scores, recorded as games.services records
    a game's end (seat results with R15 places), then rated as the league's task rates it."""
    with transaction.atomic():
        game = Game.objects.create(
            created_by=users[0],
            seats=len(users),
            status=GameStatus.ACTIVE,
            seed="0" * 64,
            commitment="0" * 64,
        )
        places = engine.places(list(scores))
        Seat.objects.bulk_create(
            Seat(game=game, number=n, user=user, final_score=scores[n], place=places[n])
            for n, user in enumerate(users)
        )
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
    league_services.games_rate()  # as the league's task does after the commit
    assert counts(game)
    return game


def counts(game: Game) -> bool:
    """Whether the league counted the game (R17), as stored."""
    return counts_for_league(Game.objects.get(pk=game.pk))
