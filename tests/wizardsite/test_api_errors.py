"""Answers schemathesis found undocumented: a page that is not one of the list's, and a POST
to an address outside the API."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import API, Player, assert_error, seat_players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["0", "-1", "2", "x", "99999999999999999999"])
def test_a_page_that_is_not_one_of_the_lists_is_invalid(
    make_player: Callable[..., Player], page: str
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    for url in (
        f"{API}/games/",
        f"{API}/games/{game_id}/events/",
        f"{API}/games/{game_id}/chat/",
        f"{API}/league/leaderboard/",
    ):
        error = assert_error(
            players[0].client.get(f"{url}?page={page}&page_size=1000"), 400, "invalid"
        )
        assert set(error["fields"]) == {"page"}


def test_the_first_page_of_an_empty_list_is_fine(make_player: Callable[..., Player]) -> None:
    response = make_player().client.get(f"{API}/games/?page=1")
    assert response.status_code == 200 and response.json()["results"] == []


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_writing_to_an_unknown_api_address_is_a_json_404(method: str) -> None:
    client = APIClient(enforce_csrf_checks=True)
    response = getattr(client, method)(f"{API}/games/null,null/join/")
    assert_error(response, 404, "not_found")
