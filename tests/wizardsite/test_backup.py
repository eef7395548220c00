"""`make backup` and `make restore` round trip on PostgreSQL: the restored database holds every
game where its moves left it (`check_games` replays each one) and the same ratings."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from games import engine
from games.management.commands.check_games import mismatched_games
from games.models import Game
from league.models import Rating
from tests.games.helpers import Player, play_auto, seat_players

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
RATINGS_SQL = (
    "SELECT u.username, r.pool, r.mu, r.sigma, r.games, r.points FROM league_rating r"
    " JOIN auth_user u ON u.id = r.user_id ORDER BY u.username, r.pool"
)


def _url(name: str) -> str:
    settings = connection.settings_dict
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgresql://{settings['USER']}@{host}:{port}/{name}"


@pytest.fixture
def restored_database() -> Iterator[str]:
    """An empty database beside the test database, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    yield _url(name)
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _make(target: str, database_url: str, backup: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        ["make", "--no-print-directory", target, f"BACKUP={backup}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _ratings(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as db:
        return db.execute(RATINGS_SQL).fetchall()


def test_a_backup_restores_every_game_and_rating(
    make_player: Callable[..., Player],
    restored_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people = [make_player() for _ in range(4)]
    finished = seat_players(people[:3], rounds=3, blind_first_round=False)
    play_auto(finished, people[:3])
    running = seat_players(people[1:], rounds=5)
    game = Game.objects.get(pk=running)
    state = game.engine_state()
    assert state is not None and state.to_act is not None
    moved = people[1:][state.to_act].move(running, engine.auto_move(state).to_json())
    assert moved.status_code == 200, moved.content
    assert Rating.objects.exists(), "the finished league game was not rated"
    assert mismatched_games() == (2, [])

    backup = tmp_path / "wizard.dump"
    made = _make("backup", _url(connection.settings_dict["NAME"]), backup)
    assert made.returncode == 0, made.stdout + made.stderr
    restored = _make("restore", restored_database, backup)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "2 games replay to their stored state" in restored.stdout

    assert _ratings(restored_database) == _ratings(_url(connection.settings_dict["NAME"]))
    with psycopg.connect(restored_database) as db:
        seqs = db.execute("SELECT id, seq FROM games_game ORDER BY id").fetchall()
    assert seqs == list(Game.objects.order_by("id").values_list("id", "seq"))


def test_check_games_finds_a_game_that_lost_a_move(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, rounds=3, blind_first_round=False)
    play_auto(game_id, people)
    Game.objects.filter(pk=game_id).update(seq=Game.objects.get(pk=game_id).seq + 1)
    assert mismatched_games() == (1, [game_id])


def test_restore_without_a_file_says_what_it_needs(tmp_path: Path) -> None:
    result = _make("restore", "postgresql://nobody@127.0.0.1:1/none", tmp_path / "missing")
    assert result.returncode != 0
    assert "BACKUP=" in result.stdout + result.stderr
