"""The served OpenAPI schema documents every endpoint of the API contract implemented so far, and
agrees with what the endpoints answer."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from games.engine.moves import FIELDS
from tests.games.helpers import API, assert_error, seat_players

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


def test_docs_page_loads_nothing_from_another_host(db: None) -> None:
    """Swagger UI comes from this site (the sidecar's static files), so the docs work
    without the internet."""
    html = APIClient().get(f"{API}/docs/").content.decode()
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
        "LegalPasses",
        "LegalAdjustments",
    ]
    trick_card = components["TrickCard"]
    assert set(trick_card["required"]) == {"seat", "card"}  # R24, R25: suit or as when declared
    assert set(trick_card["properties"]) == {"seat", "card", "suit", "as"}
    assert components["LastTrick"]["properties"]["winner"] == {"type": "integer", "nullable": True}
    assert components["RoundView"]["properties"]["werewolf"] == {
        "type": "integer",
        "nullable": True,
    }


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


def walk(node: Any) -> Any:
    """Every schema object under `node`, `node` included."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def request_objects(schema: dict[str, Any], path: str, method: str) -> list[dict[str, Any]]:
    """The objects (with properties) a request body is made of, through references and oneOf."""
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    found, pending = [], [body]
    while pending:
        node = resolve(schema, pending.pop())
        pending.extend(node.get("oneOf", []))
        if "properties" in node:
            found.append(node)
            pending.extend(
                value
                for value in node["properties"].values()
                if "$ref" in value or "allOf" in value
            )
    return found


BODIES = [
    (f"{API}/accounts/register/", "post"),
    (f"{API}/accounts/token/", "post"),
    (f"{API}/accounts/verify-email/", "post"),
    (f"{API}/accounts/me/email/", "post"),
    (f"{API}/accounts/me/", "delete"),
    (f"{API}/accounts/me/notifications/", "patch"),
    (f"{API}/accounts/me/push-subscriptions/", "post"),
    (f"{API}/accounts/me/push-subscriptions/", "delete"),
    (f"{API}/accounts/me/devices/", "post"),
    (f"{API}/accounts/me/devices/", "delete"),
    (f"{API}/games/", "post"),
    (f"{API}/games/{{game_id}}/join/", "post"),
    (f"{API}/games/{{game_id}}/invite/", "post"),
    (f"{API}/games/{{game_id}}/moves/", "post"),
    (f"{API}/games/{{game_id}}/chat/", "post"),
    (f"{API}/reports/", "post"),
    (f"{API}/notices/read/", "post"),
    (f"{API}/seeks/", "post"),
    (f"{API}/tournaments/", "post"),
    (f"{API}/tournaments/{{tournament_id}}/join/", "post"),
]


def test_every_request_body_is_closed_to_other_fields(schema: dict[str, Any]) -> None:
    bodies = {
        (path, method)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    }
    assert bodies == set(BODIES)
    for path, method in BODIES:
        objects = request_objects(schema, path, method)
        assert objects, path
        for node in objects:
            assert node["additionalProperties"] is False, (path, node)


def test_the_move_body_is_one_of_five_decisions_told_apart_by_type(
    schema: dict[str, Any],
) -> None:
    body = schema["paths"][f"{API}/games/{{game_id}}/moves/"]["post"]["requestBody"]
    assert body["required"] is True
    move = resolve(schema, body["content"]["application/json"]["schema"])
    assert move["discriminator"]["propertyName"] == "type"
    decisions = {
        kind: resolve(schema, {"$ref": ref})
        for kind, ref in move["discriminator"]["mapping"].items()
    }
    assert [{"$ref": ref} for ref in move["discriminator"]["mapping"].values()] == move["oneOf"]
    fields = {
        "bid": {"bid"},
        "play": {"card", "suit", "as"},  # a Juggler's or Cloud's suit, a Shapeshifter's shape
        "trump": {"suit"},
        "pass": {"card"},
        "adjust": {"delta"},
    }
    assert set(decisions) == set(fields)
    for kind, decision in decisions.items():
        assert set(decision["properties"]) == {"type", "seq", *fields[kind]}
        assert {"type", *fields[kind]} == FIELDS[kind]  # what parse_move reads
        required = {"type", *fields[kind]} - {"suit", "as"} if kind == "play" else fields[kind]
        assert set(decision["required"]) == {"type", *required}
        assert resolve(schema, decision["properties"]["type"])["enum"] == [kind]
    assert resolve(schema, decisions["trump"]["properties"]["suit"])["enum"][-1] == "none"
    assert resolve(schema, decisions["adjust"]["properties"]["delta"])["enum"] == [-1, 1]
    assert decisions["bid"]["properties"]["bid"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 20,
        "description": "0…the round's cards (R7, R8).",
    }
    cards = resolve(schema, decisions["play"]["properties"]["card"])["enum"]
    assert len(cards) == 67 and {"W1", "J4", "R13", "Y1", "DR", "SH"} <= set(cards)


def test_a_table_has_fewer_bots_than_seats_for_each_number_of_seats(
    schema: dict[str, Any],
) -> None:
    body = schema["paths"][f"{API}/games/"]["post"]["requestBody"]
    assert body["required"] is True
    tables = resolve(schema, body["content"]["application/json"]["schema"])["oneOf"]
    limits = {}
    for table in (resolve(schema, option) for option in tables):
        seats = table["properties"]["seats"]
        assert seats["minimum"] == seats["maximum"]
        assert table["properties"]["bots"]["minimum"] == 0
        limits[seats["minimum"]] = table["properties"]["bots"]["maximum"]
        assert table["required"] == ["seats"]
    assert limits == {3: 2, 4: 3, 5: 4, 6: 5}


@pytest.mark.parametrize(
    "path",
    [
        f"{API}/games/",
        f"{API}/games/{{game_id}}/events/",
        f"{API}/games/{{game_id}}/chat/",
        f"{API}/league/leaderboard/",
    ],
)
def test_page_parameters_say_their_bounds(schema: dict[str, Any], path: str) -> None:
    operation = schema["paths"][path]["get"]
    parameters = {parameter["name"]: parameter["schema"] for parameter in operation["parameters"]}
    assert parameters["page"] == {"type": "integer", "minimum": 1}
    assert parameters["page_size"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
        "default": 50,
    }
    assert parameters.get("after", {"minimum": 0})["minimum"] == 0
    assert "404" in operation["responses"]  # a page past the last


def test_every_enum_that_may_be_null_lists_null(schema: dict[str, Any]) -> None:
    """OpenAPI 3.0.3: `nullable` does not extend an enum; generated clients refuse a null that
    the enum does not list (the player entry's `difficulty` of a person)."""
    nullable_enums = [node for node in walk(schema) if "enum" in node and node.get("nullable")]
    assert nullable_enums
    for node in nullable_enums:
        assert None in node["enum"], node
    difficulty = schema["components"]["schemas"]["PlayerEntry"]["properties"]["difficulty"]
    assert difficulty["enum"] == ["easy", "medium", "hard", None]


P256DH = "B" + "A" * 86  # base64url of 65 bytes, as browsers send it (unpadded)
AUTH = "A" * 22  # 16 bytes
VALID_BODIES = {
    (f"{API}/accounts/register/", "post"): {
        "username": "newcomer",
        "password": "plenty-of-Entropy-42",
        "email": "newcomer@example.com",
    },
    (f"{API}/accounts/token/", "post"): {"username": "player1", "password": "x"},
    (f"{API}/accounts/me/notifications/", "patch"): {"email_turns": False},
    (f"{API}/accounts/me/push-subscriptions/", "post"): {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": P256DH, "auth": AUTH},
    },
    (f"{API}/accounts/me/push-subscriptions/", "delete"): {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc"
    },
    (f"{API}/accounts/me/devices/", "post"): {"platform": "fcm", "token": "f" * 64},
    (f"{API}/accounts/me/devices/", "delete"): {"token": "f" * 64},
    (f"{API}/games/", "post"): {"seats": 3},
    (f"{API}/games/{{game_id}}/moves/", "post"): {"type": "bid", "bid": 0},
    (f"{API}/games/{{game_id}}/chat/", "post"): {"text": "hello"},
    (f"{API}/reports/", "post"): {"username": "player1", "reason": "rude"},
    (f"{API}/notices/read/", "post"): {"all": True},
}


@pytest.mark.parametrize("operation", list(VALID_BODIES), ids=lambda op: f"{op[1]} {op[0]}")
def test_the_server_refuses_a_field_the_schema_does_not_name(
    make_player: Any, operation: tuple[str, str]
) -> None:
    """Each body the schema closes (additionalProperties: false) is refused with 400 `invalid`
    when it carries another field, before anything is looked up or changed."""
    path, method = operation
    player = make_player()
    url = path.format(game_id=10**6)
    body = {**VALID_BODIES[operation], "colour": "blue"}
    response = getattr(player.client, method)(url, body, format="json")
    error = assert_error(response, 400, "invalid")
    assert set(error["fields"]) == {"colour"}
    assert (path, method) in BODIES


def test_a_nested_body_object_is_closed_too(make_player: Any) -> None:
    body = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": P256DH, "auth": AUTH, "colour": "blue"},
    }
    response = make_player().client.post(
        f"{API}/accounts/me/push-subscriptions/", body, format="json"
    )
    assert assert_error(response, 400, "invalid")["fields"] == {
        "keys": {"colour": ["unknown field"]}
    }


@pytest.mark.parametrize(
    "body",
    [
        {"type": "bid", "bid": 1, "card": "R1", "suit": "red"},
        {"type": "play", "card": "R1", "bid": 0},
        {"type": "trump", "suit": "red", "card": "R1"},
        {"type": "pass"},
        {"bid": 1},
    ],
)
def test_a_move_body_mixing_decisions_is_invalid(make_player: Any, body: dict[str, Any]) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    before = players[0].view(game_id)["seq"]
    for player in players:
        assert_error(player.move(game_id, body), 400, "invalid")
    assert players[0].view(game_id)["seq"] == before


@pytest.mark.parametrize(("seats", "bots"), [(3, 3), (4, 4), (6, 6), (3, 5)])
def test_a_table_with_as_many_bots_as_seats_is_invalid(
    make_player: Any, seats: int, bots: int
) -> None:
    response = make_player().client.post(
        f"{API}/games/", {"seats": seats, "bots": bots}, format="json"
    )
    assert set(assert_error(response, 400, "invalid")["fields"]) == {"bots"}
