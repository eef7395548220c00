"""Plain helpers for the games API tests: players behind API clients, tables, whole games."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from unittest import mock

from django.db import connection
from django.http import HttpResponse
from rest_framework.test import APIClient

from games import engine, services
from games.models import Event as EventRow
from games.models import Game

API = "/api/v1"
PASSWORD = "plenty-of-Entropy-42"


def game_url(game_id: int | str, action: str = "") -> str:
    return f"{API}/games/{game_id}/" + (f"{action}/" if action else "")


@dataclass
class Player:
    """A registered user and an API client that sends their token."""

    username: str
    user_id: int
    token: str
    client: APIClient

    def view(self, game_id: int) -> dict[str, Any]:
        response = self.client.get(game_url(game_id))
        assert response.status_code == 200, response.content
        return response.json()

    def move(self, game_id: int, body: Any, **extra: Any) -> HttpResponse:
        return self.client.post(game_url(game_id, "moves"), body, format="json", **extra)

    def join(self, game_id: int) -> HttpResponse:
        return self.client.post(game_url(game_id, "join"))

    def leave(self, game_id: int) -> HttpResponse:
        return self.client.post(game_url(game_id, "leave"))

    def events(self, game_id: int, after: int = 0) -> list[dict[str, Any]]:
        """Every event after `after` the caller may see, following the pages' `next` links."""
        found: list[dict[str, Any]] = []
        url: str | None = f"{game_url(game_id, 'events')}?after={after}&page_size=1000"
        while url is not None:
            response = self.client.get(url)
            assert response.status_code == 200, response.content
            page = response.json()
            assert set(page) == {"count", "next", "previous", "results"}
            found.extend(page["results"])
            url = page["next"]
        return found


def register_player(username: str) -> Player:
    """Sign a user up through the API and return them with a token-authenticated client."""
    client = APIClient()
    response = client.post(
        f"{API}/accounts/register/",
        {"username": username, "password": PASSWORD, "email": f"{username}@example.com"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["username"] == username
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    return Player(username=username, user_id=body["id"], token=body["token"], client=client)


def create_game(creator: Player, **options: Any) -> dict[str, Any]:
    """POST /api/v1/games/ → the creator's view of the new table."""
    response = creator.client.post(f"{API}/games/", options, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def seat_players(players: list[Player], **options: Any) -> int:
    """A table of len(players) seats (plus `bots`), creator first, the others joining in order;
    returns the game id. Player i ends up in seat i."""
    options.setdefault("seats", len(players) + options.get("bots", 0))
    game_id = create_game(players[0], **options)["id"]
    for seat, player in enumerate(players[1:], start=1):
        response = player.join(game_id)
        assert response.status_code == 200, response.content
        assert response.json()["you"] == seat
    return game_id


def choose_move(legal: dict[str, list[Any]], rng: random.Random | None) -> dict[str, Any]:
    """A move picked from a view's `legal` field: random when `rng` is given, else the first."""
    (kind, options), *rest = legal.items()
    assert not rest and options, legal
    pick = rng.choice(options) if rng is not None else options[0]
    return {"bids": {"type": "bid", "bid": pick}, "cards": {"type": "play", "card": pick}}.get(
        kind, {"type": "trump", "suit": pick}
    )


def play_to_end(
    game_id: int,
    players: list[Player],
    rng: random.Random | None = None,
    on_view: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play the game through HTTP: whoever is `to_act` fetches their own view and sends a move
    from its `legal` field with its `seq`. Returns the last mover's view of the finished game.

    A move's answer is the game as that move left it; the bots' replies (eager tasks in tests)
    come after it, so when a bot is to act in it the mover reads the game again."""
    view = players[0].view(game_id)
    while view["status"] == "active":
        seat = view["to_act"]
        assert seat is not None, view
        mine = players[seat].view(game_id)
        assert mine["you"] == seat and mine["to_act"] == seat
        if on_view is not None:
            on_view(seat, mine)
        response = players[seat].move(
            game_id, {**choose_move(mine["legal"], rng), "seq": mine["seq"]}
        )
        assert response.status_code == 200, response.content
        view = response.json()
        assert view["seq"] > mine["seq"]
        if view["status"] == "active" and view["to_act"] >= len(players):  # a bot's seat
            view = players[seat].view(game_id)
    return view


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere inside a JSON value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def assert_error(response: HttpResponse, status: int, code: str) -> dict[str, Any]:
    """The response is the contract's error object with this status and code."""
    assert response.status_code == status, (response.status_code, response.content)
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) <= {"code", "message", "fields"} and {"code", "message"} <= set(error)
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    return error


def event_rows(game_id: int) -> list[EventRow]:
    return list(EventRow.objects.filter(game_id=game_id).order_by("seq"))


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together by a barrier; their results in order."""
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(slot: int) -> None:
        try:
            barrier.wait(timeout=10)
            out[slot] = calls[slot]()
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return out


class _Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment


def services_clock_at(moment: datetime) -> AbstractContextManager[Any]:
    """The moves services' clock (the turn timer's, R16) stands at `moment`."""
    return clock_at(services.moves, moment)


def clock_at(module: object, moment: datetime) -> AbstractContextManager[Any]:
    """The clock of a module that reads `timezone.now()` stands at `moment`."""
    return mock.patch.object(module, "timezone", _Clock(moment))


def set_rate(settings: Any, scope: str, rate: str) -> None:
    """One throttle scope's rate, through pytest-django's `settings` fixture."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, scope: rate},
    }


SPECIAL_CARDS = ["dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter"]
# With every special card, three players, five rounds and the R16/R26 auto-moves, this seed
# shows a Werewolf's swap, a declared card, a pass, a Cloud's change and a bombed trick.
SPECIAL_SEED = "variants-23"


def play_auto(game_id: int, people: list[Player]) -> None:
    """Play a game to its end through REST, each decision R16's and R26's auto-move."""
    while (game := Game.objects.get(pk=game_id)).status == "active":
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        view = people[state.to_act].view(game_id)
        move = {**engine.auto_move(state).to_json(), "seq": view["seq"]}
        assert people[state.to_act].move(game_id, move).status_code == 200
