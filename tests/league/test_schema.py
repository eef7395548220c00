"""The served OpenAPI schema (`/api/v1/schema/`) documents what the league endpoints answer
(the API contract: the schema is the full reference and must agree with the endpoints)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.games.helpers import API
from tests.league.helpers import Clock, finish_game

pytestmark = pytest.mark.django_db

BOARD = f"{API}/league/leaderboard/"
PROFILE = f"{API}/players/{{username}}/"


@pytest.fixture
def schema(db: None) -> dict[str, Any]:
    response = APIClient().get(f"{API}/schema/")
    assert response.status_code == 200
    loaded: dict[str, Any] = yaml.safe_load(response.content)
    return loaded


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def documented_fields(schema: dict[str, Any], path: str) -> set[str]:
    """The fields of the 200 answer of GET `path` (of each result, for a paginated list)."""
    content = schema["paths"][path]["get"]["responses"]["200"]["content"]
    node = resolve(schema, content["application/json"]["schema"])
    if "results" in node["properties"]:
        node = resolve(schema, node["properties"]["results"]["items"])
    return set(node["properties"])


def test_the_leaderboard_is_documented_as_answered(
    schema: dict[str, Any], make_users: Callable[..., list[User]], clock: Clock
) -> None:
    finish_game(make_users(3), [30, 20, 10])
    parameters = {p["name"] for p in schema["paths"][BOARD]["get"]["parameters"]}
    assert {"season", "page", "page_size"} <= parameters
    row = APIClient().get(BOARD).json()["results"][0]
    assert documented_fields(schema, BOARD) == set(row)


def test_the_player_profile_is_documented_as_answered(
    schema: dict[str, Any], make_users: Callable[..., list[User]], clock: Clock
) -> None:
    ann, *others = make_users(3)
    finish_game([ann, *others], [30, 20, 10])
    profile = APIClient().get(f"{API}/players/{ann.username}/").json()
    assert documented_fields(schema, PROFILE) == set(profile)


def test_me_is_documented_with_the_rating(schema: dict[str, Any]) -> None:
    assert {"rating", "provisional", "league_games"} <= documented_fields(
        schema, f"{API}/accounts/me/"
    )
