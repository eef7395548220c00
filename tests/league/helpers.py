"""Helpers for the league tests: league games finished the way games/services.py finishes
them (fast, from chosen scores), real games played through the services, and snapshots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine, services
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.models import Rating, RatingChange, SeasonStanding
from league.selectors import counts_for_league
from tests.games.helpers import services_clock_at


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


def timer_plays(game_id: int, until: Callable[[Game], bool]) -> Game:
    """Nobody moves: the timer finds each turn at its deadline (R16's auto-move, or for an away
    seat, R18, the medium bot's step, eager in tests) until `until(game)`; each next turn's
    limit counts from the decision before it."""
    game = Game.objects.get(pk=game_id)
    while not until(game):
        assert game.status == GameStatus.ACTIVE and game.deadline is not None, "it ended first"
        with services_clock_at(game.deadline):
            services.turn_expire(game_id=game_id, seq=game.seq)
        after = Game.objects.get(pk=game_id)
        assert after.seq > game.seq, "the timer moved nothing"
        game = after
    return game


def play_to_last_card(game_id: int) -> Game:
    """Every decision but the game's very last card made by the turn timer (R16, R18)."""
    game = timer_plays(game_id, lambda game: is_last_card(_state(game)))
    assert game.status == GameStatus.ACTIVE
    return game


def _state(game: Game) -> engine.State:
    state = game.engine_state()
    assert state is not None
    return state


def is_last_card(state: engine.State) -> bool:
    """The next card is the last of the last trick of the table's last round (R19)."""
    return (
        state.is_last_round
        and state.phase == "playing"
        and sum(state.tricks_won) == state.round - 1
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


def human_table(users: Sequence[User], rounds: str | int = "full") -> Game:
    """An all-human table created and filled through the services (it starts when full)."""
    game = services.game_create(user=users[0], seats=len(users), rounds=rounds).game
    for user in users[1:]:
        game = services.game_join(game_id=game.pk, user=user).game
    assert game.status == GameStatus.ACTIVE
    return game
