"""League reads: leaderboards (all-time and per season) and player statistics."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db.models import F, OuterRef, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Rank

from accounts.selectors import email_verified
from core.errors import Invalid
from games.engine import round_numbers
from games.models import Game, GameStatus, Seat, round_format
from games.selectors import AnyUser, games_watchable_by, reliability
from league.eligibility import NotCounted, not_counted
from league.models import LeagueGame, Pool, Rating, RatingChange, SeasonStanding, pool_of
from league.ratings import PROVISIONAL_GAMES, Skill, display

SEASON = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")


class Standing(TypedDict):
    """A leaderboard row: equal ratings share a rank; `rating` is mu − 3σ (openskill);
    `games` counts league games (R17); provisional: fewer than 5 of them so far."""

    rank: int
    username: str
    rating: float
    games: int
    wins: int
    win_rate: float
    average_points: float
    provisional: bool


class RatingPoint(TypedDict):
    at: datetime
    rating: float


class RecentGame(TypedDict):
    id: int
    finished_at: datetime | None
    players: int
    league: bool
    voided: bool  # by a moderator: it does not count (R17)
    score: int | None
    place: int | None


class PoolRating(TypedDict):
    """A player's rating in the anniversary pool (R27): null before any game counts there."""

    rating: float | None
    provisional: bool
    league_games: int
    wins: int


class PlayerProfile(TypedDict):
    """A player's public statistics: `rating` and averages are null before any game counts;
    `wins` are league games won (shared wins count, R15); bid_accuracy: share of exact bids.
    The rating and its history are the classic pool's; `anniversary` is the other (R27)."""

    username: str
    rating: float | None
    provisional: bool
    league_games: int
    wins: int
    casual_games: int
    games_played: int
    games_won: int
    average_points: float | None
    bid_accuracy: float | None
    reliability: int | None  # games.selectors.reliability: null before 5 games with people
    anniversary: PoolRating
    rating_history: list[RatingPoint]
    recent_games: list[RecentGame]


def parse_season(value: str | None) -> str | None:
    """`YYYY-MM` or None (all-time); anything else is refused."""
    if value in (None, ""):
        return None
    if not isinstance(value, str) or not SEASON.fullmatch(value):
        raise Invalid("'season' is a month written YYYY-MM.", fields={"season": ["YYYY-MM"]})
    return value


def parse_pool(value: str | None) -> Pool:
    """`classic` (also when absent) or `anniversary` (R27); anything else is refused."""
    if value is None:
        return Pool.CLASSIC
    if value not in Pool.values:
        names = " or ".join(Pool.values)
        raise Invalid(f"'pool' is {names} (R27).", fields={"pool": [names]})
    return Pool(value)


def leaderboard(season: str | None, pool: Pool = Pool.CLASSIC) -> QuerySet[Any]:
    """Standings rows of one pool (R27) with their rank (ties share a rank), best first, ready
    to paginate; each row knows its player's all-time league games there (`all_time_games`)."""
    ranked = Window(Rank(), order_by=F("ordinal").desc())
    if season is None:
        rows: QuerySet[Any] = Rating.objects.filter(games__gt=0, pool=pool)
        rows = rows.annotate(all_time_games=F("games"))
    else:
        all_time = Rating.objects.filter(user=OuterRef("user"), pool=pool).values("games")
        rows = SeasonStanding.objects.filter(season=season, pool=pool)
        rows = rows.annotate(all_time_games=Subquery(all_time[:1]))
    rows = rows.filter(user__is_active=True)  # a deleted account keeps its rating, unlisted
    ranked_rows: QuerySet[Any] = (
        rows.select_related("user").annotate(rank=ranked).order_by("-ordinal", "user_id")
    )
    return ranked_rows


def standing_row(row: Rating | SeasonStanding) -> Standing:
    """One leaderboard row as the API and the page show it."""
    all_time_games = row.all_time_games or 0  # type: ignore[union-attr]
    return {
        "rank": row.rank,  # type: ignore[union-attr]
        "username": row.user.get_username(),
        "rating": display(row.ordinal),
        "games": row.games,
        "wins": row.wins,
        "win_rate": round(row.wins / row.games, 3) if row.games else 0.0,
        "average_points": round(row.points / row.games, 1) if row.games else 0.0,
        "provisional": all_time_games < PROVISIONAL_GAMES,
    }


def seasons() -> list[str]:
    """Every season with league games, newest first."""
    return list(
        SeasonStanding.objects.order_by("-season").values_list("season", flat=True).distinct()
    )


def counts_for_league(game: Game) -> bool:
    """Whether the league counted this game (R17), as it last decided (False until rated)."""
    try:
        return game.league_entry.counts
    except LeagueGame.DoesNotExist:
        return False


def player_stats(user: User, viewer: AnyUser, recent: int = 10) -> PlayerProfile:
    """A player's public statistics: rating, league and casual games apart, bid accuracy,
    average points, rating history and recent games (those of the games `viewer` may see)."""
    rating = Rating.objects.filter(user=user, pool=Pool.CLASSIC).first()
    anniversary = Rating.objects.filter(user=user, pool=Pool.ANNIVERSARY).first()
    finished = Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
    league_seats = finished.filter(game__league_entry__counts=True)
    totals = finished.aggregate(points=Sum("final_score"), exact=Sum("exact_bids"))
    games_played = finished.count()
    rounds = sum(  # R19: the rounds each game played
        len(round_numbers(seats, round_format(kind)))
        for seats, kind in finished.values_list("game__seats", "game__rounds")
    )
    history = list(
        RatingChange.objects.filter(user=user, pool=Pool.CLASSIC)
        .order_by("order")
        .values_list("at", "ordinal")
    )
    latest = finished.filter(game__in=games_watchable_by(viewer))
    latest = latest.select_related("game", "game__league_entry").order_by(
        "-game__finished_at", "-game_id"
    )[:recent]
    return {
        "username": user.get_username(),
        "rating": display(rating.ordinal) if rating else None,
        "provisional": (rating.games if rating else 0) < PROVISIONAL_GAMES,
        "league_games": rating.games if rating else 0,
        "wins": rating.wins if rating else 0,
        "casual_games": games_played - league_seats.count(),
        "games_played": games_played,
        "games_won": finished.filter(place=1).count(),
        "average_points": round((totals["points"] or 0) / games_played, 1)
        if games_played
        else None,
        "bid_accuracy": round((totals["exact"] or 0) / rounds, 3) if rounds else None,
        "reliability": reliability(user.pk),
        "anniversary": {
            "rating": display(anniversary.ordinal) if anniversary else None,
            "provisional": (anniversary.games if anniversary else 0) < PROVISIONAL_GAMES,
            "league_games": anniversary.games if anniversary else 0,
            "wins": anniversary.wins if anniversary else 0,
        },
        "rating_history": [{"at": at, "rating": display(value)} for at, value in history],
        "recent_games": [
            {
                "id": seat.game_id,
                "finished_at": seat.game.finished_at,
                "players": seat.game.seats,
                "league": counts_for_league(seat.game),
                "voided": seat.game.voided,
                "score": seat.final_score,
                "place": seat.place,
            }
            for seat in latest
        ],
    }


class SeatRating(TypedDict):
    seat: int
    before: float
    after: float


class GameRatings(TypedDict):
    """What one game did to its players' ratings: `rated` once the league decided on it (R17),
    `league` whether it counted, `not_counted` why not (league.eligibility), `changes` one a
    seat when it did."""

    rated: bool
    league: bool
    not_counted: NotCounted | None
    changes: list[SeatRating]


def game_ratings(game: Game) -> GameRatings:
    entry = LeagueGame.objects.filter(game=game).first()
    if entry is None:
        return {"rated": False, "league": False, "not_counted": None, "changes": []}
    why = None if entry.counts else not_counted(game, list(game.seat_set.all()))
    seats = dict(game.seat_set.exclude(user=None).values_list("user_id", "number"))
    changes = RatingChange.objects.filter(game=game).order_by("user_id")
    return {
        "rated": True,
        "league": entry.counts,
        "not_counted": why,
        "changes": sorted(
            (
                {
                    "seat": seats[change.user_id],
                    "before": display(Skill(change.mu_before, change.sigma_before).ordinal),
                    "after": display(change.ordinal),
                }
                for change in changes
                if change.user_id in seats
            ),
            key=lambda row: row["seat"],
        ),
    }


class Me(TypedDict):
    """The signed-in player: rating (null before any league game) and game counts."""

    id: int
    username: str
    email: str
    email_verified: bool  # turn mails go only to a verified address
    date_joined: datetime
    rating: float | None
    provisional: bool
    league_games: int
    games_played: int
    games_won: int
    games_active: int


def user_summary(user: User) -> Me:
    """The signed-in player: identity, classic rating and game counts (`GET /accounts/me/`)."""
    rating = Rating.objects.filter(user=user, pool=Pool.CLASSIC).first()
    seats = Seat.objects.filter(user=user)
    finished = seats.filter(game__status=GameStatus.FINISHED)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "email_verified": email_verified(user),
        "date_joined": user.date_joined,
        "rating": display(rating.ordinal) if rating else None,
        "provisional": (rating.games if rating else 0) < PROVISIONAL_GAMES,
        "league_games": rating.games if rating else 0,
        "games_played": finished.count(),
        "games_won": finished.filter(place=1).count(),
        "games_active": seats.filter(game__status=GameStatus.ACTIVE).count(),
    }


def featured_game(candidates: list[Game]) -> Game | None:
    """Of these running games, the one whose seated people have the highest mean league
    rating in its pool (R27); among equals, and where nobody is rated, the first one."""
    users = {seat.user_id for game in candidates for seat in game.seat_set.all() if seat.user_id}
    rated = Rating.objects.filter(user_id__in=users, games__gt=0)
    ratings: dict[tuple[int | None, str], float] = {(r.user_id, r.pool): r.ordinal for r in rated}

    def strength(game: Game) -> float:
        pool = pool_of(game)
        known = [
            ratings[(seat.user_id, pool)]
            for seat in game.seat_set.all()
            if (seat.user_id, pool) in ratings
        ]
        return sum(known) / len(known) if known else float("-inf")

    return max(candidates, key=strength, default=None)
