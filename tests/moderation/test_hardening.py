"""What moderators may see and do: no hand of a running game in the admin (not even a seated
moderator's own blind card), staff sanctioned by superusers only, and chat reports only from
the table's own players."""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import Suspension
from core.errors import Forbidden
from games import services
from games.models import Event as EventRow
from games.models import Game
from moderation import services as moderation
from tests.games.helpers import Player, assert_error, play_to_end, seat_players
from tests.moderation.helpers import chat, report, run_action

pytestmark = pytest.mark.django_db


def dealt_cards(game: Game) -> set[str]:
    deal = EventRow.objects.filter(game=game, type="deal").order_by("seq").first()
    assert deal is not None
    return {card for hand in deal.payload["hands"] for card in hand}


def test_the_admin_shows_no_hand_while_the_game_runs_even_to_a_seated_moderator(
    moderator: User, mod_client: Client, make_player: Callable[..., Player]
) -> None:
    # The moderator plays in the blind first round: their own card is hidden from them too.
    game = Game.objects.get(pk=seat_players([make_player() for _ in range(2)], seats=3))
    services.game_join(game_id=game.pk, user=moderator)
    game.refresh_from_db()
    assert game.status == "active"
    page = html.unescape(mod_client.get(f"/admin/games/game/{game.pk}/change/").content.decode())
    for card in dealt_cards(game):
        assert json.dumps(card) not in page, card


def test_the_admin_shows_every_hand_once_the_game_has_ended(
    mod_client: Client, make_player: Callable[..., Player]
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, rounds=3)
    play_to_end(game_id, people, random.Random(1))
    game = Game.objects.get(pk=game_id)
    page = html.unescape(mod_client.get(f"/admin/games/game/{game_id}/change/").content.decode())
    assert all(json.dumps(card) in page for card in dealt_cards(game))


def test_a_moderator_cannot_sanction_staff_and_a_superuser_can(
    moderator: User, mod_client: Client, superuser: User
) -> None:
    colleague = User.objects.create_user("colleague", is_staff=True)
    until = timezone.now() + timedelta(days=1)
    with pytest.raises(Forbidden):
        moderation.user_suspend(moderator=moderator, user=colleague, reason="x", until=until)
    with pytest.raises(Forbidden):
        moderation.user_suspend(moderator=moderator, user=superuser, reason="x", banned=True)
    run_action(mod_client, "user", "ban", [colleague.pk], reason="power grab")
    assert not Suspension.objects.exists()

    moderation.user_suspend(moderator=superuser, user=colleague, reason="x", until=until)
    assert Suspension.objects.get(user=colleague).until == until


def test_only_a_player_of_that_table_may_report_its_chat(
    running: Game, players: list[Player], make_player: Callable[..., Player]
) -> None:
    said = chat(players[1], running.pk, "rude words").json()
    outsider = make_player()
    body = {"username": players[1].username, "reason": "rude", "message_id": said["id"]}
    assert_error(report(outsider, **body), 404, "not_found")
    assert report(players[0], **body).status_code == 201
