"""The served OpenAPI schema documents every endpoint of the API contract implemented so far, and
agrees with what the endpoints answer."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.games.helpers import API

ENDPOINTS = {
    f"{API}/accounts/register/": {"post"},
    f"{API}/accounts/token/": {"post"},
    f"{API}/accounts/me/": {"get"},
    f"{API}/games/": {"get", "post"},
    f"{API}/games/{{game_id}}/": {"get"},
    f"{API}/games/{{game_id}}/join/": {"post"},
    f"{API}/games/{{game_id}}/leave/": {"post"},
    f"{API}/games/{{game_id}}/moves/": {"post"},
    f"{API}/games/{{game_id}}/events/": {"get"},
}
GAME_VIEW_FIELDS = {
    "id", "status", "seats", "turn_seconds", "hook_rule", "blind_first_round", "seq",
    "players", "you", "round", "hand", "visible_hands", "to_act", "deadline", "legal",
    "scores", "winners", "shuffle_commitment", "shuffle_seed", "rematch",
}  # fmt: skip
ROUND_FIELDS = {
    "number", "cards", "dealer", "trump_card", "trump", "phase", "bids", "tricks_won",
    "trick", "last_trick",
}  # fmt: skip


@pytest.fixture
def schema(db: None) -> dict[str, Any]:
    response = APIClient().get(f"{API}/schema/")
    assert response.status_code == 200
    # YAML by default (drf-spectacular's media type for it is application/vnd.oai.openapi).
    assert response["Content-Type"].startswith("application/vnd.oai.openapi;")
    assert response.content.startswith(b"openapi: ")
    return yaml.safe_load(response.content)


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow `$ref`s (and the one-item `allOf` a nullable reference is written as)."""
    while "$ref" in node or "allOf" in node:
        if "allOf" in node:
            (node,) = node["allOf"]
        else:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def response_schema(schema: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    content = schema["paths"][path][method]["responses"][status]["content"]
    return resolve(schema, content["application/json"]["schema"])


def test_schema_lists_every_endpoint_with_its_methods(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    for path, methods in ENDPOINTS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), (path, set(schema["paths"][path]))


def test_schema_is_also_served_as_json(db: None) -> None:
    response = APIClient().get(f"{API}/schema/?format=json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert set(ENDPOINTS) <= set(response.json()["paths"])


def test_docs_page_is_served(db: None) -> None:
    response = APIClient().get(f"{API}/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.parametrize("page", ["docs", "redoc"])
def test_docs_pages_load_nothing_from_another_host(db: None, page: str) -> None:
    """Swagger UI and ReDoc come from this site (the sidecar's static files), so the docs work
    without the internet."""
    html = APIClient().get(f"{API}/{page}/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, html
    assert not [url for url in sources if "//" in url], sources
    assert "/static/drf_spectacular_sidecar/" in html


def test_schema_describes_the_events_of_a_push(schema: dict[str, Any]) -> None:
    assert '"events"' in schema["info"]["description"]


def test_schema_documents_the_game_view_and_errors(schema: dict[str, Any]) -> None:
    view = response_schema(schema, f"{API}/games/{{game_id}}/", "get", "200")
    assert set(view["properties"]) >= GAME_VIEW_FIELDS
    assert set(resolve(schema, view["properties"]["round"])["properties"]) >= ROUND_FIELDS
    registered = response_schema(schema, f"{API}/accounts/register/", "post", "201")
    assert {"id", "username"} <= set(registered["properties"])
    token = response_schema(schema, f"{API}/accounts/token/", "post", "200")
    assert set(token["properties"]) == {"token"}
    for status in ["400", "401", "403", "404", "409"]:
        error = response_schema(schema, f"{API}/games/{{game_id}}/moves/", "post", status)
        assert set(resolve(schema, error["properties"]["error"])["properties"]) >= {
            "code",
            "message",
        }


@pytest.mark.parametrize("path", [f"{API}/games/", f"{API}/games/{{game_id}}/events/"])
def test_schema_documents_lists_as_pages(schema: dict[str, Any], path: str) -> None:
    """The API contract: lists are paginated `{"count", "next", "previous", "results"}` — the served
    schema must say so, as the endpoints answer that way."""
    page = response_schema(schema, path, "get", "200")
    assert page.get("type") == "object", page
    assert {"count", "next", "previous", "results"} <= set(page.get("properties", {}))


def test_components_say_which_keys_are_optional_and_which_may_be_null(
    schema: dict[str, Any],
) -> None:
    """The components come from TypedDicts: NotRequired keys are optional (Python 3.11 reads
    them as required under postponed annotations), `X | None` is nullable, a nested TypedDict
    is a reference to its own component."""
    components = schema["components"]["schemas"]
    assert "auto" not in components["BidMade"]["required"]
    assert "fields" not in components["ErrorDetail"]["required"]
    view = components["GameView"]
    assert set(view["required"]) == set(view["properties"])
    assert view["properties"]["rematch"] == {"type": "integer", "nullable": True}
    assert view["properties"]["round"] == {
        "allOf": [{"$ref": "#/components/schemas/RoundView"}],
        "nullable": True,
    }
    legal = view["properties"]["legal"]
    assert legal["nullable"] is True
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in legal["oneOf"]] == [
        "LegalBids",
        "LegalCards",
        "LegalSuits",
    ]


def test_socket_messages_are_documented_as_components(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    kinds = {
        name: components[name]["properties"]["type"]["enum"]
        for name in [
            "StateSocketMessage",
            "ErrorSocketMessage",
            "ChatSocketMessage",
            "ChatHiddenSocketMessage",
            "LobbySocketMessage",
        ]
    }
    assert sorted(kind for (kind,) in kinds.values()) == [
        "chat",
        "chat_hidden",
        "error",
        "lobby",
        "state",
    ]
