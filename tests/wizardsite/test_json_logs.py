"""JSON log lines (LOG_FORMAT=json): each names its request and game, and while a whole game
is played through the API no line holds a token, a password or a card of any hand."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from pythonjsonlogger.json import JsonFormatter

from tests.games.helpers import PASSWORD, Player, play_to_end, seat_players
from wizardsite.logs import ContextFilter, RedactFilter, logging_config, mask


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Every record of every logger at DEBUG, formatted as production formats it."""
    options = dict(logging_config(json_lines=True, level="DEBUG")["formatters"]["line"])
    options.pop("()")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter(**options))
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactFilter())
    loggers = [logging.getLogger(), logging.getLogger("django")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


def records(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def shows(text: str, code: str) -> bool:
    """The card code as a word of its own (R7 is not inside R17 nor a hex request id)."""
    return re.search(rf"(?<![\w:]){re.escape(code)}(?![\w:])", text) is not None


@pytest.mark.django_db
def test_a_whole_game_logs_no_token_password_or_card_of_a_hand(
    json_lines: io.StringIO, make_player: Callable[..., Player], client: Client
) -> None:
    people = [make_player() for _ in range(3)]
    client.post(  # a refused log-in: logged by Django and axes
        "/accounts/login/", {"username": people[0].username, "password": PASSWORD + "x"}
    )
    game_id = seat_players(people, rounds=3, blind_first_round=False)
    seen: dict[int, set[str]] = {}
    logged_while_running: list[str] = []

    def on_view(seat: int, view: dict[str, Any]) -> None:
        seen.setdefault(view["seq"], set()).update(view["hand"])
        logged_while_running.append(json_lines.getvalue())
        # A refused move of a card in hand (its body is the card) is logged as a 4xx.
        people[seat].move(game_id, {"type": "play", "card": view["hand"][0], "seq": -1})

    play_to_end(game_id, people, on_view=on_view)
    text = json_lines.getvalue()
    assert records(json_lines), "nothing was logged: the test would prove nothing"
    for person in people:
        assert person.token not in text
    assert PASSWORD not in text
    # Every card some hand held is absent from every line written while it could be held.
    for snapshot in logged_while_running:
        for cards in seen.values():
            assert not [code for code in cards if shows(snapshot, code)]


@pytest.mark.django_db
def test_each_line_names_its_request_and_game(
    json_lines: io.StringIO, make_player: Callable[..., Player]
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, rounds=1, blind_first_round=False)
    answer = people[0].client.get(
        f"/api/v1/games/{game_id}/nothing-here/", HTTP_X_REQUEST_ID="lb-42"
    )
    assert answer["X-Request-ID"] == "lb-42"
    refused = people[0].move(game_id, {"type": "bid", "bid": 99}, HTTP_X_REQUEST_ID="lb-43")
    assert refused.status_code in (400, 409) and refused["X-Request-ID"] == "lb-43"
    lines = [line for line in records(json_lines) if line.get("request_id") == "lb-43"]
    assert lines and all(line["game_id"] == game_id for line in lines)
    assert {"time", "level", "logger", "message"} <= set(lines[0])


def test_an_unsafe_request_id_is_replaced(client: Client, db: None) -> None:
    answer = client.get("/healthz", HTTP_X_REQUEST_ID="x" * 500)
    assert re.fullmatch(r"[0-9a-f]{32}", answer["X-Request-ID"])
    answer = client.get("/healthz", HTTP_X_REQUEST_ID="a b\tc")
    assert re.fullmatch(r"[0-9a-f]{32}", answer["X-Request-ID"])


def test_the_filter_masks_secrets_and_cards_wherever_they_are(json_lines: io.StringIO) -> None:
    log = logging.getLogger("tests.logs")
    log.warning("socket frame %s", {"type": "play", "card": "G12", "seq": 4})
    log.warning("hand of seat 1: hand=['W2', 'Y11'] then")
    log.warning("header Authorization: Token 0123456789abcdef0123456789abcdef01234567")
    log.warning("login", extra={"password": "hunter2", "token": "abc123"})
    try:
        raise ValueError("bad move body={'type': 'play', 'card': 'B9'}")
    except ValueError:
        log.exception("move refused")
    text = json_lines.getvalue()
    for secret in ["G12", "W2", "Y11", "0123456789abcdef", "hunter2", "abc123", "B9"]:
        assert secret not in text, secret
    assert len(records(json_lines)) == 5
    assert "Traceback" in text  # the traceback is kept, masked


def test_mask_keeps_what_is_not_secret() -> None:
    assert mask("push to subscription 5 not sent: 410") == "push to subscription 5 not sent: 410"
    assert mask('{"card": "R7", "seq": 3}') == '{"card": ***, "seq": 3}'


def test_uvicorns_lines_and_a_requests_query_are_masked_too() -> None:
    """uvicorn names a websocket's URL (an app's `?token=`) and django.request passes the
    request, whose repr holds the query: both go through the masking handler."""
    loggers = logging_config(json_lines=True, level="INFO")["loggers"]
    assert loggers["uvicorn"] == {"handlers": ["console"], "propagate": False}
    assert loggers["uvicorn.access"] == {"handlers": ["console"], "propagate": False}
    key = "0123456789abcdef0123456789abcdef01234567"
    line = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1,
        '%s - "WebSocket %s" [accepted]', ("127.0.0.1:5000", f"/ws/games/3/?token={key}"), None,
    )  # fmt: skip
    line.request = f"<ASGIRequest: GET '/tournaments/1/?invite=x&token={key}'>"
    RedactFilter().filter(line)
    assert key not in line.getMessage() and key not in str(line.request)
    assert "/ws/games/3/" in line.getMessage()
