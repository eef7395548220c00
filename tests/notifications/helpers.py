"""Helpers for the notification tests: tables whose turns announce themselves after commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from unittest import mock

from django.core import mail

from games.models import Game
from notifications import turns
from tests.games.helpers import Player, choose_move, game_row, seat_players

DAY = 24 * 3600


class Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment


def at(moment: datetime) -> mock._patch[Clock]:
    """The notifications' clock at `moment` (the game's own timer keeps the real one)."""
    return mock.patch.object(turns, "timezone", Clock(moment))


def table(make_player: Callable[..., Player], turn_seconds: int) -> tuple[int, list[Player]]:
    """Three people at a started table (open first round: a person decides first)."""
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, turn_seconds=turn_seconds, blind_first_round=False)
    return game_id, people


def to_act(game_id: int, people: list[Player]) -> Player:
    game = game_row(game_id)
    assert game.to_act is not None
    return people[game.to_act]


def move(game_id: int, people: list[Player]) -> Player:
    """The player to act makes their first legal move; returns who moved."""
    player = to_act(game_id, people)
    mine = player.view(game_id)
    response = player.move(game_id, {**choose_move(mine["legal"], None), "seq": mine["seq"]})
    assert response.status_code == 200, response.content
    return player


def recipients() -> list[str]:
    return [address for message in mail.outbox for address in message.to]


def deadline_of(game_id: int) -> datetime:
    game: Game = game_row(game_id)
    assert game.deadline is not None
    return game.deadline
