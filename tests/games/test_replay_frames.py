"""The replay page's frames: built on the server from the engine's replay, one per event, so
the browser draws them and derives no rule."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from django.test import Client

from games import replays
from games.engine import replay
from tests.games.helpers import (
    Player,
    event_rows,
    game_row,
    play_to_end,
    seat_players,
)


def _finished_game(make_player: Callable[..., Player]) -> int:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players, rounds=5)  # R19: a whole game, of its first five rounds
    play_to_end(game_id, players, random.Random(5))
    return game_id


def test_one_frame_per_event_ending_on_the_final_totals(
    make_player: Callable[..., Player],
) -> None:
    game_id = _finished_game(make_player)
    game = game_row(game_id)
    rows = event_rows(game_id)
    frames = replays.replay_frames(game)
    assert [frame["event"]["type"] for frame in frames] == [row.type for row in rows]
    final = replay(row.payload for row in rows)
    assert frames[-1]["table"]["totals"] == final.totals
    for frame, row in zip(frames, rows, strict=True):
        table = frame["table"]
        if row.type == "trick_won":  # the won trick stays shown, with its winner
            assert table["trick_winner"] == row.payload["seat"]
            assert len(table["trick"]) == 3
        if row.type == "deal":  # every hand is shown: the game is over
            assert [len(hand) for hand in table["hands"]] == [row.payload["round"]] * 3
            assert table["trick"] == [] and table["trick_winner"] is None


def test_replay_page_carries_the_frames_and_no_inline_code(
    make_player: Callable[..., Player],
) -> None:
    game_id = _finished_game(make_player)
    html = Client().get(f"/games/{game_id}/replay/").content.decode()
    frames = json.loads(
        re.search(r'<script id="frames" type="application/json">(.*?)</script>', html, re.S)[1]
    )
    assert len(frames) == len(event_rows(game_id))
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    for attributes, body in scripts:
        assert "src=" in attributes or 'type="application/json"' in attributes, attributes
        assert "src=" not in attributes or not body.strip()
    assert "⏮" not in html and "⏭" not in html  # icons are inline SVG, not font glyphs


def test_a_game_with_special_cards_replays_with_declared_cards_and_bombed_tricks(
    special_game: tuple[int, list[Player]],
) -> None:
    game_id, _ = special_game
    frames = replays.replay_frames(game_row(game_id))
    tricks = [card for frame in frames for card in frame["table"]["trick"]]
    assert all(":" not in card["card"] for card in tricks)  # a face is shown as card + suit/as
    assert any("suit" in card or "as" in card for card in tricks)
    bombed = [f for f in frames if f["event"]["type"] == "trick_won" and f["event"]["seat"] is None]
    assert bombed and all(f["table"]["trick_winner"] is None for f in bombed)
    assert Client().get(f"/games/{game_id}/replay/").status_code == 200
