"""R18 amended: a player may sit out, and while away the medium bot decides for them, from
their seat's view, within 5 seconds: sensible bids and cards, not R16's fixed choice, which
stays for a single expired decision. Coming back is theirs at any moment, and a bot step that
finds them back moves nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games import engine, services
from games.difficulty import make_seat_bot
from games.engine import Move
from games.models import Event, Game, GameStatus, Seat
from tests.games.helpers import (
    Player,
    assert_error,
    choose_move,
    game_row,
    game_url,
    seat_players,
    services_clock_at,
)

AWAY_SECONDS = 5
SEED = "sit-out-1"  # its first three rounds give the away seat decisions where the two differ
SECOND_EXPIRY_SEED = "sit-out-3"  # a second expiry in round 2 where the two differ


def table(
    make_player: Callable[..., Player], turn_seconds: int = 30, seed: str = SEED
) -> tuple[int, list[Player]]:
    """Three players at a table of rounds 1 to 3, dealt from `seed`."""
    people = [make_player() for _ in range(3)]
    with mock.patch("games.services.tables.table_seed", return_value=seed):
        game_id = seat_players(people, turn_seconds=turn_seconds, blind_first_round=False, rounds=3)
    return game_id, people


def sit_out(player: Player, game_id: int) -> dict[str, Any]:
    response = player.client.post(game_url(game_id, "sit-out"))
    assert response.status_code == 200, response.content
    view: dict[str, Any] = response.json()
    return view


def medium_bot_move(game: Game, seat: int) -> Move:
    """What the medium bot decides for `seat` now, from that seat's view only."""
    state = game.engine_state()
    assert state is not None
    bot = make_seat_bot("heuristic", seed=f"{game.seed}:{seat}:{state.seq}")
    return engine.bot_move(bot, state, seat)


def decision_of(game_id: int, seq: int) -> dict[str, Any]:
    """The decision event the step after event `seq` began with."""
    row = Event.objects.get(game_id=game_id, seq=seq + 1)
    assert row.type in engine.PLAYER_DECISIONS, row.type
    payload: dict[str, Any] = row.payload
    return {**payload, "auto": row.auto}


def without_as(move: dict[str, Any]) -> dict[str, Any]:
    """A move's JSON as its event shows it (a Shapeshifter's `as` is not asked here, R20)."""
    return {key: value for key, value in move.items() if key != "as"}


def as_move_json(decision: dict[str, Any]) -> dict[str, Any]:
    kinds = {"bid": ("bid",), "play": ("card",), "trump_chosen": ("suit",)}
    kind = {"trump_chosen": "trump"}.get(decision["type"], decision["type"])
    return {"type": kind, **{key: decision[key] for key in kinds[decision["type"]]}}


def test_sitting_out_makes_a_player_away_at_once_and_everyone_sees_it(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player)
    acting = game_row(game_id).to_act
    assert acting is not None
    asked = timezone.now()
    view = sit_out(people[acting], game_id)
    assert [entry["away"] for entry in view["players"]] == [n == acting for n in range(3)]
    other = people[(acting + 1) % 3].view(game_id)
    assert other["players"][acting]["away"] is True
    # Their pending decision is now due within the away limit.
    game = game_row(game_id)
    assert game.deadline is not None
    assert game.deadline - asked <= timedelta(seconds=AWAY_SECONDS + 1)
    # Sitting out again changes nothing.
    before = game.deadline
    sit_out(people[acting], game_id)
    assert game_row(game_id).deadline == before


def test_while_away_the_medium_bot_plays_a_round_for_them_not_r16s_fixed_choice(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player)
    sitter = 1
    sit_out(people[sitter], game_id)
    differs = 0
    decided = 0
    for _ in range(200):
        game = game_row(game_id)
        if game.status != GameStatus.ACTIVE:
            break
        assert game.to_act is not None and game.deadline is not None
        if game.to_act != sitter:
            view = people[game.to_act].view(game_id)
            body = {**choose_move(view["legal"], None), "seq": view["seq"]}
            assert people[game.to_act].move(game_id, body).status_code == 200
            continue
        state = game.engine_state()
        assert state is not None
        expected = medium_bot_move(game, sitter).to_json()
        fixed = engine.auto_move(state).to_json()
        with services_clock_at(game.deadline - timedelta(milliseconds=1)):
            services.turns_expire()
        assert game_row(game_id).seq == game.seq, "decided before the away limit ran out"
        with services_clock_at(game.deadline):
            services.turns_expire()  # its step task is eager in tests
        decision = decision_of(game_id, game.seq)
        assert decision["seat"] == sitter and decision["auto"] is True
        assert as_move_json(decision) == without_as(expected)
        decided += 1
        differs += as_move_json(decision) != without_as(fixed)
    assert game_row(game_id).status == GameStatus.FINISHED
    assert decided >= 3 + 2 + 1  # a bid and a card each round at least
    assert differs >= 2, "the bot decided as R16's fixed choice would, every time"
    seat = Seat.objects.get(game_id=game_id, number=sitter)
    assert seat.away and not seat.resigned and seat.expiries == 0


def test_the_second_expiry_in_a_row_is_decided_by_the_medium_bot(
    make_player: Callable[..., Player],
) -> None:
    """R16's fixed choice for a single expired decision; the expiry that makes a player away
    is already the bot's. Round 1 is played by the players, then nobody moves in round 2 (two
    cards each: each seat's second expiry is a card with a choice)."""
    game_id, people = table(make_player, seed=SECOND_EXPIRY_SEED)
    while (game := game_row(game_id)).engine_state().round == 1:  # type: ignore[union-attr]
        assert game.to_act is not None
        view = people[game.to_act].view(game_id)
        body = {**choose_move(view["legal"], None), "seq": view["seq"]}
        assert people[game.to_act].move(game_id, body).status_code == 200
    expiries: dict[int, int] = {}
    differs = 0
    while len(expiries) < 3 or min(expiries.values()) < 2:
        game = game_row(game_id)
        assert game.to_act is not None and game.deadline is not None
        seat, state = game.to_act, game.engine_state()
        assert state is not None and state.round == 2, "round 2 ended first"
        fixed = without_as(engine.auto_move(state).to_json())
        bot = without_as(medium_bot_move(game, seat).to_json())
        with services_clock_at(game.deadline):
            services.turns_expire()
        expiries[seat] = expiries.get(seat, 0) + 1
        decision = decision_of(game_id, game.seq)
        assert decision["seat"] == seat and decision["auto"] is True
        assert as_move_json(decision) == (bot if expiries[seat] >= 2 else fixed), expiries
        assert Seat.objects.get(game_id=game_id, number=seat).away is (expiries[seat] >= 2)
        differs += expiries[seat] == 2 and bot != fixed
    assert differs >= 1, "the seed gives no second expiry where the two differ"


def test_a_bot_step_that_finds_the_player_back_moves_nothing(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player)
    acting = game_row(game_id).to_act
    assert acting is not None
    sit_out(people[acting], game_id)
    seq = game_row(game_id).seq
    asked = timezone.now()
    response = people[acting].client.post(game_url(game_id, "back"))
    assert response.status_code == 200 and response.json()["players"][acting]["away"] is False
    # The step the timer sent while they were away arrives late: their turn stays theirs.
    assert services.bot_step(game_id=game_id, seq=seq) is False
    game = game_row(game_id)
    assert (game.seq, game.to_act) == (seq, acting)
    assert game.deadline is not None
    assert game.deadline - asked >= timedelta(seconds=29)  # the full limit again


def test_sit_out_belongs_to_a_running_game_s_players(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    game_id, people = table(make_player)
    assert_error(stranger.client.post(game_url(game_id, "sit-out")), 403, "not_a_player")
    assert not Seat.objects.filter(game_id=game_id, away=True).exists()
    host = make_player()
    waiting = host.client.post("/api/v1/games/", {"seats": 3}, format="json").json()
    assert_error(host.client.post(game_url(waiting["id"], "sit-out")), 409, "game_not_active")
    assert_error(people[0].client.get(game_url(game_id, "sit-out")), 405, "method_not_allowed")


@pytest.mark.parametrize("resigned", [False, True])
def test_a_correspondence_table_s_away_seat_is_played_within_5_seconds(
    make_player: Callable[..., Player], resigned: bool
) -> None:
    game_id, people = table(make_player, turn_seconds=24 * 3600)
    acting = game_row(game_id).to_act
    assert acting is not None
    action = "resign" if resigned else "sit-out"
    assert people[acting].client.post(game_url(game_id, action)).status_code == 200
    game = game_row(game_id)
    assert game.deadline is not None
    with services_clock_at(game.deadline):
        services.turns_expire()
    after = game_row(game_id)
    assert after.seq > game.seq and after.to_act != acting
    assert decision_of(game_id, game.seq)["seat"] == acting
