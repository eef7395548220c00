"""Helpers for the league tests: league games finished the way games/services.py finishes
them (fast, from chosen scores), real games played through the services, and snapshots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine, services
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.models import Rating, RatingChange, SeasonStanding
from league.selectors import counts_for_league


class Clock:
    """Stands in for django.utils.timezone where games end in these tests: each now() is one
    minute after the previous one, so games finish in a known, strictly increasing order."""

    def __init__(self, start: datetime) -> None:
        self.moment = start
        self.step = timedelta(minutes=1)

    def set(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        moment = self.moment
        self.moment += self.step
        return moment


def finish_game(
    users: Sequence[User | None],
    scores: Sequence[int],
    *,
    exact_bids: Sequence[int] | None = None,
    voided: bool = False,
    at: datetime | None = None,
    special_cards: Sequence[str] = (),
) -> Game:
    """A table of these seats (None = a bot) that ends with these final scores; with
    `special_cards` (R20) it rates into the anniversary pool (R27)."""
    game = seat_table(users, voided=voided, special_cards=special_cards)
    return record_end(game, scores, exact_bids=exact_bids, at=at)


def seat_table(
    users: Sequence[User | None], *, voided: bool = False, special_cards: Sequence[str] = ()
) -> Game:
    """A running game with these seats (None = a bot), its rows written directly."""
    creator = next(user for user in users if user is not None)
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            seats=len(users),
            bots=sum(user is None for user in users),
            status=GameStatus.ACTIVE,
            seed="0" * 64,
            commitment="0" * 64,
            voided=voided,
            special_cards=list(special_cards),
        )
        Seat.objects.bulk_create(
            Seat(game=game, number=n, user=user, bot_kind="" if user else "heuristic")
            for n, user in enumerate(users)
        )
    return game


def record_end(
    game: Game,
    scores: Sequence[int],
    *,
    exact_bids: Sequence[int] | None = None,
    at: datetime | None = None,
) -> Game:
    """End a running game with these final scores as games.services records a game's end
    (status, finishing time, seat results with R15 places), then let the league rate it as its
    task does after the commit. `at`: the finishing time (default: the helpers' clock)."""
    with transaction.atomic():
        seats = list(game.seat_set.order_by("number"))
        assert len(seats) == len(scores)
        places = engine.places(list(scores))
        for seat in seats:
            seat.final_score = scores[seat.number]
            seat.place = places[seat.number]
            seat.exact_bids = exact_bids[seat.number] if exact_bids else 0
        Seat.objects.bulk_update(seats, ["final_score", "place", "exact_bids"])
        game.status = GameStatus.FINISHED
        game.finished_at = at or timezone.now()
        game.save(update_fields=["status", "finished_at"])
    league_services.games_rate()
    return game


def counts(game: Game) -> bool:
    """Whether the league counted the game (R17), as stored."""
    return counts_for_league(Game.objects.get(pk=game.pk))


def play_out(game_id: int, rng: random.Random) -> Game:
    """Play an active game to its end through games.services.move_apply, each human decision a
    random legal move (the bots reply in their own tasks, eager in tests, once each move has
    committed, so the game is read again after it); then the league rates, as its task does
    once the last move has committed."""
    game = Game.objects.get(pk=game_id)
    seat_users = {seat.number: seat.user for seat in game.seat_set.select_related("user")}
    while game.status == GameStatus.ACTIVE:
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        user = seat_users[state.to_act]
        assert user is not None, "the bots have replied"
        move = rng.choice(engine.legal_moves(state))
        services.move_apply(game_id=game_id, user=user, body=move.to_json())
        game = Game.objects.get(pk=game_id)
    league_services.games_rate()
    return game


class _TimerAtEachDeadline:
    """The timer's clock when it finds every turn exactly at its deadline: it reads the game's
    running deadline (inside the timer's transaction too), for `count` turns, and then
    stands still at the last of them."""

    def __init__(self, game_id: int, count: int) -> None:
        self.game_id, self.left = game_id, count
        self.moment: datetime | None = None

    def now(self) -> datetime:
        deadline = Game.objects.values_list("deadline", flat=True).get(pk=self.game_id)
        if deadline is not None and deadline != self.moment and self.left > 0:
            self.left -= 1
            self.moment = deadline
        assert self.moment is not None
        return self.moment


def decisions_left(game: Game) -> int:
    """How many decisions the game still needs if every one is the R16 auto-move (played out
    on the pure engine, which is what the timer will do)."""
    state = game.engine_state()
    assert state is not None
    count = 0
    while not state.is_over:
        assert state.to_act is not None
        state, _ = engine.take_turn(
            state, state.to_act, engine.auto_move(state), seed=game.seed, auto=True
        )
        count += 1
    return count


def expire_turns(game_id: int, count: int) -> Game:
    """R16: let the next `count` turns of an all-human game run out, each found by the timer
    at its deadline (the timer's task, games.services.turn_expire, makes the auto-moves under
    one lock); each next turn's limit counts from the auto-move before it."""
    clock = _TimerAtEachDeadline(game_id, count)
    seq = Game.objects.values_list("seq", flat=True).get(pk=game_id)
    with mock.patch.object(services.moves, "timezone", clock):
        applied = services.turn_expire(game_id=game_id, seq=seq)
    assert applied == count, "the game ended first"
    return Game.objects.get(pk=game_id)


def play_to_last_card(game_id: int) -> Game:
    """Every decision but the game's very last card made by the turn timer (R16)."""
    game = Game.objects.get(pk=game_id)
    game = expire_turns(game_id, decisions_left(game) - 1)
    state = game.engine_state()
    assert game.status == GameStatus.ACTIVE and state is not None and is_last_card(state)
    return game


def is_last_card(state: engine.State) -> bool:
    """The next card is the last of the last trick of the last round."""
    rounds = engine.rounds_for(state.players)
    return (
        state.round == rounds
        and state.phase == "playing"
        and sum(state.tricks_won) == rounds - 1
        and len(state.trick) == state.players - 1
    )


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every league row, exact floats included, in a stable order."""
    return {
        "ratings": list(
            Rating.objects.order_by("user_id", "pool").values_list(
                "user_id", "mu", "sigma", "ordinal", "games", "wins", "points", "pool"
            )
        ),
        "changes": list(
            RatingChange.objects.order_by("game_id", "user_id").values_list(
                "game_id",
                "user_id",
                "at",
                "place",
                "score",
                "mu_before",
                "sigma_before",
                "mu",
                "sigma",
                "ordinal",
                "pool",
            )
        ),
        "standings": list(
            SeasonStanding.objects.order_by("season", "user_id", "pool").values_list(
                "season", "user_id", "games", "wins", "points", "ordinal", "pool"
            )
        ),
    }


def human_table(users: Sequence[User]) -> Game:
    """An all-human table created and filled through the services (it starts when full)."""
    game = services.game_create(user=users[0], seats=len(users)).game
    for user in users[1:]:
        game = services.game_join(game_id=game.pk, user=user).game
    assert game.status == GameStatus.ACTIVE
    return game
