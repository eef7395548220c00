"""Records people read: a voided game says so (its page's ratings, the player's profile), and
the admin's games show their players and, on a game's page, a link to watch it: the replay once
it is over, else its table; the raw event rows are folded away."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from moderation import services as moderation
from tests.games.helpers import Player, create_game
from tests.moderation.helpers import finish_league_game

pytestmark = pytest.mark.django_db


def users_of(players: list[Player]) -> list[User]:
    return [User.objects.get(pk=player.user_id) for player in players]


def ratings(client: Client, game_id: int) -> dict[str, object]:
    response = client.get(f"/games/{game_id}/ratings/")
    assert response.status_code == 200, response.content
    answer: dict[str, object] = response.json()
    return answer


def test_a_voided_game_says_why_it_did_not_count(
    mod_client: Client,
    moderator: User,
    players: list[Player],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = finish_league_game(users_of(players), [30, 20, 10])
    browser = Client()
    browser.force_login(users_of(players)[0])
    assert ratings(browser, game.pk)["not_counted"] is None

    with django_capture_on_commit_callbacks(execute=True):  # the league re-rates after it
        moderation.game_void(moderator=moderator, game_id=game.pk, reason="collusion")

    answer = ratings(browser, game.pk)
    assert (answer["league"], answer["not_counted"]) == (False, "voided")
    profile = browser.get(f"/players/{players[0].username}/").content.decode()
    assert "A moderator voided this game" in profile


def test_the_admins_games_show_their_players_and_a_link_to_watch(
    mod_client: Client, running: Game, players: list[Player]
) -> None:
    with_bots = create_game(players[0], seats=3, bots=2)["id"]
    listed = mod_client.get("/admin/games/game/").content.decode()
    for player in players:
        assert f'<a href="/players/{player.username}/">{player.username}</a>' in listed
    assert "medium bot" in listed or "bot" in listed

    page = mod_client.get(f"/admin/games/game/{running.pk}/change/").content.decode()
    assert f'<a href="/games/{running.pk}/">the table</a>' in page  # running: no replay yet
    assert "replay/" not in page and running.seed not in page
    assert "collapse" in page  # the raw rows folded away
    finished = finish_league_game(users_of(players), [30, 20, 10])
    page = mod_client.get(f"/admin/games/game/{finished.pk}/change/").content.decode()
    assert f'<a href="/games/{finished.pk}/replay/">the replay</a>' in page
    assert mod_client.get(f"/admin/games/game/{with_bots}/change/").status_code == 200
