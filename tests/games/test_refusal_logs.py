"""A refusal is an answer, not a failure: a table page closed to the visitor (its view and
its replay) is the 403 page, logged in one line at most, never with a traceback."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game, Spectators
from tests.games.helpers import Player, create_game, play_auto, seat_players

pytestmark = pytest.mark.django_db


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def request_log() -> Iterator[list[logging.LogRecord]]:
    """What Django writes about each request (django.request), as the site's handlers get it."""
    kept, logger = Kept(), logging.getLogger("django.request")
    logger.addHandler(kept)
    try:
        yield kept.records
    finally:
        logger.removeHandler(kept)


def lines(records: list[logging.LogRecord]) -> list[str]:
    formatter = logging.Formatter("%(levelname)s %(name)s %(message)s")
    return [line for record in records for line in formatter.format(record).splitlines()]


@pytest.mark.parametrize("page", ["", "replay/"])
def test_a_closed_table_page_is_a_403_logged_in_one_line(
    make_player: Callable[..., Player],
    request_log: list[logging.LogRecord],
    page: str,
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, spectators=Spectators.PLAYERS, rounds=1)
    play_auto(game_id, people)
    stranger = make_player("stranger")
    browser = Client()
    browser.force_login(User.objects.get(pk=stranger.user_id))
    request_log.clear()
    response = browser.get(f"/games/{game_id}/{page}")
    assert response.status_code == 403
    assert b'data-testid="forbidden"' in response.content  # the site's 403 page
    assert len(lines(request_log)) <= 1, lines(request_log)
    assert Game.objects.get(pk=game_id).is_over


def test_an_open_table_page_logs_nothing(
    make_player: Callable[..., Player], request_log: list[logging.LogRecord]
) -> None:
    game_id = create_game(make_player(), seats=3)["id"]
    assert Client().get(f"/games/{game_id}/").status_code == 200
    assert lines(request_log) == []
