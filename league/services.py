"""The league's writes: rate finished games one at a time, re-rate after a game's membership
changed, and rebuild everything.

Rating runs in Celery tasks after the game's last move has committed, never inside it. Each
game is rated in its own transaction under the one-row league lock, in the order the league
first saw the games (`LeagueGame.id`), so a retry or a second worker rates nothing twice and a
rebuild in that order gives exactly the incremental result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from league.eligibility import is_league_game
from league.models import (
    LeagueGame,
    LeagueLock,
    Pool,
    Rating,
    RatingChange,
    SeasonStanding,
    pool_of,
)
from league.ratings import Skill, initial_skill, rate


def season_of(moment: datetime) -> str:
    """The season (calendar month, UTC) a game belongs to."""
    return moment.astimezone(UTC).strftime("%Y-%m")


def games_rate() -> int:
    """Rate every finished game the league has not seen, and finish any pending replay; one
    game per transaction. Returns the number of games rated or re-rated."""
    done = 0
    while _rate_next():
        done += 1
    return done


def game_recheck(*, game_id: int) -> bool:
    """After a moderator voided or restored a game: if that changes whether it counts (R17),
    re-rate from it onwards (see games_rate); otherwise nothing changes."""
    with transaction.atomic():
        lock = _lock()
        entry = LeagueGame.objects.select_related("game").filter(game_id=game_id).first()
        if entry is None:
            return False  # not rated yet: it will be, as it now stands
        counts = is_league_game(entry.game, list(entry.game.seat_set.all()))
        if counts == entry.counts:
            return False
        entry.counts = counts
        entry.save(update_fields=["counts"])
        if lock.replay_from is None or entry.pk < lock.replay_from:
            lock.replay_from = entry.pk
            lock.save(update_fields=["replay_from"])
    games_rate()
    return True


def _lock() -> LeagueLock:
    return LeagueLock.objects.select_for_update().get_or_create(pk=1)[0]  # made by a migration


def _rate_next() -> bool:
    """One step, in one transaction: the next game of a pending replay, else the next
    finished game the league has not seen. False when there is nothing to do."""
    with transaction.atomic():
        lock = _lock()
        if lock.replay_from is not None:
            entry = (
                LeagueGame.objects.select_related("game")
                .filter(pk__gte=lock.replay_from)
                .order_by("pk")
                .first()
            )
            lock.replay_from = entry.pk + 1 if entry is not None else None
            lock.save(update_fields=["replay_from"])
            if entry is not None:
                _rate(entry)
            return True
        game = (
            Game.objects.filter(status=GameStatus.FINISHED, league_entry__isnull=True)
            .order_by("finished_at", "pk")
            .first()
        )
        if game is None:
            return False
        seats = list(game.seat_set.all())
        entry = LeagueGame.objects.create(game=game, counts=is_league_game(game, seats))
        _rate(entry, seats)
        return True


def _rate(entry: LeagueGame, seats: list[Seat] | None = None) -> None:
    """(Re)write one game's rating changes from its players' ratings in its pool (R27) just
    before it, then refresh their ratings and season standings there from their changes."""
    game = entry.game
    assert game.finished_at is not None
    pool = pool_of(game)
    seats = sorted(seats if seats is not None else game.seat_set.all(), key=lambda s: s.number)
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    RatingChange.objects.filter(game=game).delete()
    if entry.counts:
        before = [_skill_before(user, pool, entry.pk) for user in users]
        after = rate(before, [seat.place or 0 for seat in seats])
        RatingChange.objects.bulk_create(
            _change(entry.pk, game, seat, old, new)
            for seat, old, new in zip(seats, before, after, strict=True)
        )
    season = season_of(game.finished_at)
    for user in users:
        _refresh_rating(user, pool)
        _refresh_season(user, season, pool)


def _skill_before(user: int, pool: Pool, order: int) -> Skill:
    earlier = RatingChange.objects.filter(user_id=user, pool=pool, order__lt=order)
    previous = earlier.order_by("-order").first()
    return Skill(previous.mu, previous.sigma) if previous is not None else initial_skill()


def _change(order: int, game: Game, seat: Seat, old: Skill, new: Skill) -> RatingChange:
    assert seat.user_id is not None and game.finished_at is not None
    return RatingChange(
        game_id=game.pk,
        user_id=seat.user_id,
        order=order,
        pool=pool_of(game),
        at=game.finished_at,
        place=seat.place or 0,
        score=seat.final_score or 0,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu=new.mu,
        sigma=new.sigma,
        ordinal=new.ordinal,
    )


_TOTALS = {"games": Count("pk"), "wins": Count("pk", filter=Q(place=1)), "points": Sum("score")}


def _refresh_rating(user: int, pool: Pool) -> None:
    changes = RatingChange.objects.filter(user_id=user, pool=pool)
    latest = changes.order_by("-order").first()
    if latest is None:
        Rating.objects.filter(user_id=user, pool=pool).delete()
        return
    totals = changes.aggregate(**_TOTALS)
    Rating.objects.update_or_create(
        user_id=user,
        pool=pool,
        defaults={
            "mu": latest.mu,
            "sigma": latest.sigma,
            "ordinal": latest.ordinal,
            "games": totals["games"],
            "wins": totals["wins"],
            "points": totals["points"] or 0,
        },
    )


def _refresh_season(user: int, season: str, pool: Pool) -> None:
    year, month = (int(part) for part in season.split("-"))
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    changes = RatingChange.objects.filter(user_id=user, pool=pool, at__gte=start, at__lt=end)
    latest = changes.order_by("-order").first()
    if latest is None:
        SeasonStanding.objects.filter(user_id=user, season=season, pool=pool).delete()
        return
    totals = changes.aggregate(**_TOTALS)
    SeasonStanding.objects.update_or_create(
        user_id=user,
        season=season,
        pool=pool,
        defaults={
            "ordinal": latest.ordinal,
            "games": totals["games"],
            "wins": totals["wins"],
            "points": totals["points"] or 0,
        },
    )


def ratings_rebuild() -> int:
    """Recompute every rating and standing from the counted games in rating order, in one
    transaction (an operator's command); returns the number of games. It equals the
    incremental result exactly (tested)."""
    with transaction.atomic():
        lock = _lock()
        lock.replay_from = None
        lock.save(update_fields=["replay_from"])
        RatingChange.objects.all().delete()
        SeasonStanding.objects.all().delete()
        Rating.objects.all().delete()
        ledger = _Ledger()
        entries = (
            LeagueGame.objects.filter(counts=True)
            .order_by("pk")
            .select_related("game")
            .prefetch_related("game__seat_set")
        )
        count = 0
        for entry in entries.iterator(chunk_size=2000):
            ledger.apply(entry.pk, entry.game, list(entry.game.seat_set.all()))
            count += 1
        ledger.save()
    return count


@dataclass
class _Ledger:
    """Ratings and standings in memory, applied game by game, then written in bulk."""

    ratings: dict[tuple[Pool, int], Rating] = field(default_factory=dict)
    seasons: dict[tuple[str, Pool, int], SeasonStanding] = field(default_factory=dict)
    changes: list[RatingChange] = field(default_factory=list)

    def apply(self, order: int, game: Game, seats: list[Seat]) -> None:
        assert game.finished_at is not None
        pool = pool_of(game)
        seats = sorted(seats, key=lambda seat: seat.number)
        users = [seat.user_id for seat in seats if seat.user_id is not None]
        before = [self._skill(pool, user) for user in users]
        after = rate(before, [seat.place or 0 for seat in seats])
        season = season_of(game.finished_at)
        for seat, old, new in zip(seats, before, after, strict=True):
            assert seat.user_id is not None
            won = int(seat.place == 1)
            score = seat.final_score or 0
            rating = self.ratings.get((pool, seat.user_id))
            if rating is None:
                rating = Rating(user_id=seat.user_id, pool=pool, ordinal=0)
                self.ratings[(pool, seat.user_id)] = rating
            rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.ordinal
            rating.games += 1
            rating.wins += won
            rating.points += score
            standing = self.seasons.get((season, pool, seat.user_id))
            if standing is None:
                standing = SeasonStanding(
                    season=season, pool=pool, user_id=seat.user_id, ordinal=new.ordinal
                )
                self.seasons[(season, pool, seat.user_id)] = standing
            standing.games += 1
            standing.wins += won
            standing.points += score
            standing.ordinal = new.ordinal
            self.changes.append(_change(order, game, seat, old, new))

    def save(self) -> None:
        now = timezone.now()
        for rating in self.ratings.values():
            rating.updated_at = now
        Rating.objects.bulk_create(list(self.ratings.values()), batch_size=1000)
        SeasonStanding.objects.bulk_create(list(self.seasons.values()), batch_size=1000)
        RatingChange.objects.bulk_create(self.changes, batch_size=1000)

    def _skill(self, pool: Pool, user: int) -> Skill:
        rating = self.ratings.get((pool, user))
        return Skill(rating.mu, rating.sigma) if rating is not None else initial_skill()
