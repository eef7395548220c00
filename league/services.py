"""The league's writes: rate a finished game in its own transaction, and rebuild everything."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from league.eligibility import is_league_game, league_games
from league.models import LeagueLock, Rating, RatingChange, SeasonStanding
from league.ratings import Skill, initial_skill, rate


def season_of(moment: datetime) -> str:
    """The season (calendar month, UTC) a game belongs to."""
    return moment.astimezone(UTC).strftime("%Y-%m")


def game_finished(*, game: Game, seats: list[Seat]) -> None:
    """Called in the transaction that records a game's last row: store the R17 decision and,
    for a league game, update its players' ratings and standings before the commit."""
    game.league = is_league_game(game, seats)
    if not game.league:
        return
    # One game at a time, and stamped while holding the lock: the finishing order is the
    # rating order, so a rebuild in finishing order gives exactly the same numbers.
    LeagueLock.objects.select_for_update().get_or_create(pk=1)  # made by a migration
    game.finished_at = timezone.now()
    ledger = _Ledger.load([seat.user_id for seat in seats if seat.user_id is not None])
    ledger.apply(game, seats)
    ledger.save()


def ratings_rebuild() -> int:
    """Recompute every rating and standing from the league games in order; returns the number
    of games. The result equals the incremental one exactly (tested)."""
    with transaction.atomic():
        LeagueLock.objects.select_for_update().get_or_create(pk=1)  # made by a migration
        RatingChange.objects.all().delete()
        SeasonStanding.objects.all().delete()
        Rating.objects.all().delete()
        ledger = _Ledger()
        games = league_games().prefetch_related("seat_set")
        count = 0
        for game in games.iterator(chunk_size=2000):
            ledger.apply(game, list(game.seat_set.all()))
            count += 1
        ledger.save()
    return count


def game_eligibility_changed(*, game: Game) -> None:
    """After a moderator voids a game (or anything else changes its R17 standing)."""
    seats = list(game.seat_set.all())
    game.league = is_league_game(game, seats)
    game.save(update_fields=["league", "voided"])
    ratings_rebuild()


@dataclass
class _Ledger:
    """Ratings and standings in memory, applied game by game, then written in bulk."""

    ratings: dict[int, Rating] = field(default_factory=dict)
    seasons: dict[tuple[str, int], SeasonStanding] = field(default_factory=dict)
    changes: list[RatingChange] = field(default_factory=list)
    from_database: bool = False  # False: starting from nothing (a rebuild)

    @classmethod
    def load(cls, users: list[int]) -> _Ledger:
        """A ledger holding these players' current ratings, for rating one game."""
        ledger = cls(from_database=True)
        for rating in Rating.objects.filter(user_id__in=users):
            ledger.ratings[rating.user_id] = rating
        return ledger

    def apply(self, game: Game, seats: list[Seat]) -> None:
        assert game.finished_at is not None
        seats = sorted(seats, key=lambda seat: seat.number)
        users = [seat.user_id for seat in seats if seat.user_id is not None]
        before = [self._skill(user) for user in users]
        after = rate(before, [seat.place or 0 for seat in seats])
        season = season_of(game.finished_at)
        if self.from_database:
            for stored in SeasonStanding.objects.filter(season=season, user_id__in=users):
                self.seasons.setdefault((season, stored.user_id), stored)
        for seat, old, new in zip(seats, before, after, strict=True):
            assert seat.user_id is not None
            won = int(seat.place == 1)
            score = seat.final_score or 0
            rating = self.ratings.get(seat.user_id)
            if rating is None:
                rating = self.ratings[seat.user_id] = Rating(user_id=seat.user_id, ordinal=0)
            rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.ordinal
            rating.games += 1
            rating.wins += won
            rating.points += score
            found = self.seasons.get((season, seat.user_id))
            if found is not None:
                standing = found
            else:
                standing = SeasonStanding(season=season, user_id=seat.user_id, ordinal=new.ordinal)
                self.seasons[(season, seat.user_id)] = standing
            standing.games += 1
            standing.wins += won
            standing.points += score
            standing.ordinal = new.ordinal
            self.changes.append(
                RatingChange(
                    game_id=game.pk,
                    user_id=seat.user_id,
                    at=game.finished_at,
                    place=seat.place or 0,
                    score=score,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    ordinal=new.ordinal,
                )
            )

    def save(self) -> None:
        fields = ["mu", "sigma", "ordinal", "games", "wins", "points"]
        Rating.objects.bulk_create(
            list(self.ratings.values()),
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=fields,
            batch_size=1000,
        )
        SeasonStanding.objects.bulk_create(
            list(self.seasons.values()),
            update_conflicts=True,
            unique_fields=["season", "user"],
            update_fields=["games", "wins", "points", "ordinal"],
            batch_size=1000,
        )
        RatingChange.objects.bulk_create(self.changes, batch_size=1000)

    def _skill(self, user: int) -> Skill:
        rating = self.ratings.get(user)
        return Skill(rating.mu, rating.sigma) if rating is not None else initial_skill()
