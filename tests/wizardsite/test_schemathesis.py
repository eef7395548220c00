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
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from core import limits
from tests.games.helpers import Player, seat_players
from wizardsite.wsgi import application

# Every request refuses NUL and unpaired surrogates in its JSON text (apikit.parsers: 400, as
# each operation documents); JSON Schema cannot say so of every string, so none are generated.
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/schema/",
    application,
    config=schemathesis.Config.from_dict({"generation": {"allow-x00": False, "codec": "utf-8"}}),
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
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


# Refusals of a schema-valid request that depend on the state, not the request's form: the
# rules of the game in this deal (the hand, the round's cards: 400 as API.md says), a username
# someone has, a password Django's validators find too common or too like the username, a
# password that is not the account's, a verification token the site never signed.
RULE_CODES = {"illegal_bid", "illegal_card", "hook_rule"}
STATEFUL_FIELDS = {
    "accounts_register": {"username", "password"},
    "accounts_me_email": {"password"},
    "accounts_me_delete": {"password"},  # a generated password is never the account's
    "accounts_verify_email": {"token"},
    "tournaments_create": {"starts_at"},  # from now to 60 days ahead: the clock's state
}


# The part of a player's `legal` that offers each kind of move: a move of a kind it does not
# offer now (a pass outside R24's passing, a trump with no Wizard turned) is refused for the
# game's state, whatever the body.
LEGAL_OF_MOVE = {
    "bid": "bids",
    "play": "cards",
    "trump": "suits",
    "pass": "passes",
    "adjust": "adjust",
}


def refused_for_the_state(
    case: schemathesis.Case, response: schemathesis.Response, headers: dict[str, str] | None
) -> bool:
    """Whether a 400 refuses the request for the state it met rather than for its form."""
    if response.status_code != 400:
        return False
    operation = case.operation.definition.raw["operationId"]
    error = response.json()["error"]
    fields = set(error.get("fields", {}))
    if operation == "games_move" and not fields and isinstance(case.body, dict):
        offered = LEGAL_OF_MOVE.get(str(case.body.get("type")))
        if offered is not None and offered not in _legal_now(case, headers):
            return True
    return error["code"] in RULE_CODES or bool(
        fields and fields <= STATEFUL_FIELDS.get(operation, set())
    )


def _legal_now(case: schemathesis.Case, headers: dict[str, str] | None) -> dict[str, object]:
    """The caller's `legal` in the game the move was sent to (a refused move changed nothing)."""
    view = Client().get(f"/api/v1/games/{case.path_parameters['game_id']}/", headers=headers)
    legal: dict[str, object] = view.json().get("legal") or {}
    return legal


def call_and_check(case: schemathesis.Case, headers: dict[str, str] | None = None) -> None:
    response = case.call(headers=headers)
    checks = CHECKS
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and refused_for_the_state(case, response, headers):
        checks = [check for check in CHECKS if check is not positive_data_acceptance]
    case.validate_response(response, checks=checks, headers=headers)


@pytest.mark.django_db
@schema.parametrize()
@EXAMPLES
def test_signed_in(case: schemathesis.Case, tables: Tables) -> None:
    tables.use_real_ids(case)
    with one_connection():
        call_and_check(case, headers={"Authorization": f"Token {tables.token}"})


@pytest.mark.django_db
@anonymous_schema.parametrize()
@EXAMPLES
def test_anonymous(case: schemathesis.Case, tables: Tables) -> None:
    tables.use_real_ids(case)
    with one_connection():
        call_and_check(case)


def test_the_anonymous_operations_are_the_public_ones() -> None:
    assert sorted(ANONYMOUS) == [
        "accounts_register",
        "accounts_token",
        "accounts_verify_email",
        "chat_presets",
        "games_events",
        "games_list",  # the games to watch (watchable=true); the rest needs a sign-in
        "games_retrieve",
        "league_leaderboard",
        "players_retrieve",
        "seeks_list",  # how many wait at each speed (R28)
        "tournaments_list",
        "tournaments_retrieve",
    ]


def test_every_operation_documents_the_refusals_of_any_request() -> None:
    for operations in schema.raw_schema["paths"].values():
        for operation in operations.values():
            assert {"400", "413"} <= set(operation["responses"]), operation["operationId"]
