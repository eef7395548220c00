"""The waiting room: its creator gives a free seat to a bot (the seat that fills the table
starts it); nobody else may; and the table's chat is open before the start."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from core.errors import GameFull, NotAPlayer
from games import services
from games.models import Game, GameStatus
from tests.games.helpers import Player, create_game, game_url

pytestmark = pytest.mark.django_db


def browser(player: Player) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=player.user_id))
    return client


def test_the_creator_gives_free_seats_to_bots_until_the_game_starts(
    make_player: Callable[..., Player],
) -> None:
    host, ann = make_player(), make_player()
    game_id = create_game(host, seats=4)["id"]
    assert ann.join(game_id).status_code == 200
    page = browser(host).get(f"/games/{game_id}/").content.decode()
    assert 'data-testid="add-bot"' in page
    assert 'data-testid="add-bot"' not in browser(ann).get(f"/games/{game_id}/").content.decode()

    assert browser(host).post(f"/games/{game_id}/add-bot/").status_code == 302
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.bots) == (GameStatus.OPEN, 1)
    with pytest.raises(NotAPlayer):
        services.game_add_bot(game_id=game_id, user=User.objects.get(pk=ann.user_id))
    assert browser(host).post(f"/games/{game_id}/add-bot/").status_code == 302
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.bots) == (GameStatus.ACTIVE, 2)  # the last seat started it
    seats = {seat.number: seat for seat in game.seat_set.all()}
    assert [seats[n].user_id for n in (0, 1)] == [host.user_id, ann.user_id]
    assert seats[2].is_bot and seats[3].is_bot
    with pytest.raises(GameFull):
        services.game_add_bot(game_id=game_id, user=User.objects.get(pk=host.user_id))


def test_the_chat_is_open_in_the_waiting_room(make_player: Callable[..., Player]) -> None:
    host, ann = make_player(), make_player()
    game_id = create_game(host, seats=3)["id"]
    assert ann.join(game_id).status_code == 200
    said = host.client.post(game_url(game_id, "chat"), {"text": "hi all"}, format="json")
    assert said.status_code == 201, said.content
    page = browser(ann).get(f"/games/{game_id}/").content.decode()
    assert 'id="waiting-chat"' in page and 'id="chat"' in page
