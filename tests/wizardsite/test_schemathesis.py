"""Schemathesis against the served schema (/api/v1/schema/): for every operation, generated
requests (valid and invalid) never get a 5xx, and every answer has a documented status, content
type and body. Signed in with a token, and also anonymously where an operation allows it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from core import limits
from tests.games.helpers import Player, seat_players
from wizardsite.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
ANONYMOUS = [
    operation["operationId"]
    for operations in schema.raw_schema["paths"].values()
    for operation in operations.values()
    if {} in operation.get("security", [])
]
anonymous_schema = schema.include(operation_id=ANONYMOUS)
EXAMPLES = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Tables:
    token: str  # the signed-in player's, seated at both tables
    game_ids: list[int]

    def use_real_ids(self, case: schemathesis.Case) -> None:
        """Generated game ids below 100 become these tables, so not every call is a 404."""
        game_id = (case.path_parameters or {}).get("game_id")
        if isinstance(game_id, int) and 0 <= game_id < 100:
            case.path_parameters["game_id"] = self.game_ids[game_id % len(self.game_ids)]


@contextmanager
def one_connection() -> Iterator[None]:
    """Requests keep the test's database connection, as Django's test client does (Django
    closes a connection in an atomic block at a request's start and end: the test's)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.fixture
def tables(make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch) -> Tables:
    """A running table and an open one; the flood limits are out of the way."""
    monkeypatch.setattr(limits, "CHAT_RATE_COUNT", 10**6)
    monkeypatch.setattr(limits, "REPORTS_PER_HOUR", 10**6)
    people = [make_player() for _ in range(3)]
    running = seat_players(people, blind_first_round=False)
    waiting = seat_players(people[:1], seats=3)
    return Tables(token=people[0].token, game_ids=[running, waiting])


@pytest.mark.django_db
@schema.parametrize()
@EXAMPLES
def test_signed_in(case: schemathesis.Case, tables: Tables) -> None:
    tables.use_real_ids(case)
    with one_connection():
        case.call_and_validate(headers={"Authorization": f"Token {tables.token}"}, checks=CHECKS)


@pytest.mark.django_db
@anonymous_schema.parametrize()
@EXAMPLES
def test_anonymous(case: schemathesis.Case, tables: Tables) -> None:
    tables.use_real_ids(case)
    with one_connection():
        case.call_and_validate(checks=CHECKS)


def test_the_anonymous_operations_are_the_public_ones() -> None:
    assert sorted(ANONYMOUS) == [
        "accounts_register",
        "accounts_token",
        "accounts_verify_email",
        "league_leaderboard",
        "players_retrieve",
    ]


def test_every_operation_documents_the_refusals_of_any_request() -> None:
    for operations in schema.raw_schema["paths"].values():
        for operation in operations.values():
            assert {"400", "413"} <= set(operation["responses"]), operation["operationId"]
