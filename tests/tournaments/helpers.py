"""Plain helpers for the tournaments' tests: tournaments through the API, their games played
by the seated people themselves (R16's and R26's choices, sent as their own moves)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import engine
from games.models import Game, GameStatus
from tests.games.helpers import API, Player
from tournaments.models import TournamentTable

TOURNAMENTS = f"{API}/tournaments/"


def tournament_url(tournament_id: int, action: str = "") -> str:
    return f"{TOURNAMENTS}{tournament_id}/" + (f"{action}/" if action else "")


def create_tournament(creator: Player, **options: Any) -> dict[str, Any]:
    """A tournament starting in an hour; short games (one round each) unless told otherwise
    (an option given as None is left out)."""
    body = {
        "name": "Friday night",
        "format": "swiss",
        "rounds": 3,
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        "rounds_format": 1,
        "blind_first_round": False,
        **options,
    }
    body = {key: value for key, value in body.items() if value is not None}
    response = creator.client.post(TOURNAMENTS, body, format="json")
    assert response.status_code == 201, response.content
    created: dict[str, Any] = response.json()
    return created


def join(player: Player, tournament_id: int, **body: Any) -> Any:
    return player.client.post(tournament_url(tournament_id, "join"), body, format="json")


def view(player: Player, tournament_id: int) -> dict[str, Any]:
    response = player.client.get(tournament_url(tournament_id))
    assert response.status_code == 200, response.content
    found: dict[str, Any] = response.json()
    return found


def running_games(tournament_id: int) -> list[Game]:
    tables = TournamentTable.objects.filter(tournament_id=tournament_id)
    return list(Game.objects.filter(tournament_table__in=tables, status=GameStatus.ACTIVE))


def play_game(game: Game, players: dict[int, Player]) -> None:
    """Each seated person sends the move R16 or R26 would make, until the game ends."""
    while (game := Game.objects.get(pk=game.pk)).status == GameStatus.ACTIVE:
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        seat = game.seat_set.get(number=state.to_act)
        assert seat.user_id is not None
        move = {**engine.auto_move(state).to_json(), "seq": game.seq}
        response = players[seat.user_id].move(game.pk, move)
        assert response.status_code == 200, response.content
