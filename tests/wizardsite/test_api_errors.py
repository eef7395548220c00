"""Answers schemathesis found undocumented: a page that is not one of the list's, and a POST
to an address outside the API."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import API, Player, assert_error, seat_players

pytestmark = pytest.mark.django_db


LISTS = ["games/", "games/{game_id}/events/", "games/{game_id}/chat/", "league/leaderboard/"]


@pytest.mark.parametrize(
    "query", ["page=0", "page=-1", "page=x", "page=1.0", "page_size=0", "page_size=1001"]
)
def test_a_page_number_or_size_out_of_the_schemas_bounds_is_invalid(
    make_player: Callable[..., Player], query: str
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    for url in LISTS:
        response = players[0].client.get(f"{API}/{url.format(game_id=game_id)}?{query}")
        error = assert_error(response, 400, "invalid")
        assert set(error["fields"]) == {query.partition("=")[0]}


@pytest.mark.parametrize("page", ["2", "99999999999999999999"])
def test_a_page_past_the_last_is_not_found(make_player: Callable[..., Player], page: str) -> None:
    """The schema allows any page from 1: one past the list's end is absent, not malformed."""
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    for url in LISTS:
        response = players[0].client.get(
            f"{API}/{url.format(game_id=game_id)}?page={page}&page_size=1000"
        )
        assert_error(response, 404, "not_found")


def test_the_first_page_of_an_empty_list_is_fine(make_player: Callable[..., Player]) -> None:
    response = make_player().client.get(f"{API}/games/?page=1")
    assert response.status_code == 200 and response.json()["results"] == []


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_writing_to_an_unknown_api_address_is_a_json_404(method: str) -> None:
    client = APIClient(enforce_csrf_checks=True)
    response = getattr(client, method)(f"{API}/games/null,null/join/")
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("query", ["mine=maybe", "my_turn=", "mine=true&mine=false", "status="])
def test_a_game_list_filter_the_schema_does_not_allow_is_invalid(
    make_player: Callable[..., Player], query: str
) -> None:
    response = make_player().client.get(f"{API}/games/?{query}")
    error = assert_error(response, 400, "invalid")
    assert set(error["fields"]) == {query.partition("=")[0]}


@pytest.mark.parametrize("query", ["mine=true", "mine=false", "my_turn=true&mine=1"])
def test_a_game_list_filter_of_true_or_false_is_read(
    make_player: Callable[..., Player], query: str
) -> None:
    assert make_player().client.get(f"{API}/games/?{query}").status_code == 200
