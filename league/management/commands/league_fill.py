"""Fill the database with a realistic league history, quickly, then rate it with the real code.

    manage.py league_fill --players 10000 --games 100000 [--seed N] [--clear]

Creates `--players` users named `fill-…` (unusable passwords, nobody can sign in as them) and
`--games` finished league games between them over the last ~12 months, with their seats (final
score, place with ties sharing per R15, exact bids), all with bulk inserts. Every player has a
hidden strength (how often they bid exactly) and an activity (how often they play), so the
leaderboard spreads out as a real one would. Then `ratings_rebuild()` derives Rating,
RatingChange and SeasonStanding exactly as the application does.

Filled games are history only: no event rows, `state` null, `seq` 0. `--clear` first deletes
what an earlier fill created (the `fill-` users and every game one of them sat in) and nothing
else. The same `--seed` gives the same history, relative to the moment it runs.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.engine import places
from games.models import Game, GameStatus, Seat
from league.models import LeagueGame, Rating, RatingChange, SeasonStanding
from league.services import ratings_rebuild

PREFIX = "fill-"
DAYS = 365  # the history spans this many days, ending now
CHUNK = 5000  # games (and their seats) per transaction
TABLE_SIZES = (3, 4, 5, 6)
TABLE_WEIGHTS = (0.22, 0.38, 0.24, 0.16)  # four at a table is the usual game
# When games end (UTC hour): mostly evenings.
HOUR_WEIGHTS = (2, 1, 1, 1, 1, 1, 1, 2, 3, 3, 4, 4, 5, 5, 5, 6, 7, 9, 11, 13, 14, 12, 8, 4)


@dataclass
class Player:
    strength: float  # hidden: standard normal
    activity: float  # relative rate of play
    joins: float  # fraction of the span at which the player starts playing (0: from the start)
    index: int = 0


@dataclass
class PlannedGame:
    finished_at: datetime
    players: list[int]  # indexes into the player list, in seat order
    scores: list[int]
    places: list[int]
    exact: list[int]
    hook_rule: bool
    blind_first_round: bool


@contextmanager
def historic_timestamps() -> Iterator[None]:
    """Let bulk inserts keep the planned `created_at`/`joined_at` instead of now: both fields
    are auto_now_add, which overwrites any value on insert."""
    fields = [Game._meta.get_field("created_at"), Seat._meta.get_field("joined_at")]
    dated = [field for field in fields if isinstance(field, models.DateField)]
    saved = [(field, field.auto_now_add) for field in dated]
    for field in dated:
        field.auto_now_add = False
    try:
        yield
    finally:
        for field, value in saved:
            field.auto_now_add = value


def filled_games() -> QuerySet[Game]:
    """Every game a filled user created or sat in."""
    sat_in = Seat.objects.filter(user__username__startswith=PREFIX).values("game_id")
    return Game.objects.filter(Q(created_by__username__startswith=PREFIX) | Q(pk__in=sat_in))


def make_players(rng: random.Random, count: int) -> list[Player]:
    players = []
    for index in range(count):
        # A third play from the start; the others join during the year (fewer late ones).
        joins = 0.0 if rng.random() < 0.35 else rng.random() ** 1.3
        players.append(
            Player(
                strength=rng.gauss(0.0, 1.0),
                activity=rng.lognormvariate(0.0, 1.1),
                joins=joins,
                index=index,
            )
        )
    players.sort(key=lambda player: player.joins)  # joined-so-far players are a prefix
    for index, player in enumerate(players):
        player.index = index
    return players


def play_out(rng: random.Random, strengths: list[float]) -> tuple[list[int], list[int]]:
    """Final totals (R14) and exact bids of one game: each round a player bids exactly with a
    probability that grows with strength and falls as hands grow; stronger players also take
    more tricks, and misses grow with the hand."""
    table = len(strengths)
    rounds = 60 // table  # R2
    odds = [min(0.8, max(0.25, 0.6 + 0.07 * strength)) for strength in strengths]
    edge = [1.0 + 0.1 * strength for strength in strengths]
    scores = [0] * table
    exact = [0] * table
    random_ = rng.random
    for cards in range(1, rounds + 1):
        share = cards / table
        harder = 1.0 - 0.35 * cards / rounds
        for seat in range(table):
            if random_() < odds[seat] * harder:
                tricks = min(cards, max(0, int(random_() * 2.0 * share * edge[seat] + 0.5)))
                scores[seat] += 20 + 10 * tricks
                exact[seat] += 1
            else:
                scores[seat] -= 10 * (1 + int(random_() * random_() * cards * 0.5))
    return scores, exact


def plan_games(
    rng: random.Random, players: list[Player], count: int, end: datetime
) -> list[PlannedGame]:
    """`count` games in finishing order; players are drawn by activity among those who have
    joined by then."""
    joined = [player.joins for player in players]
    cumulative = list(itertools.accumulate(player.activity for player in players))
    sizes = [size for size in TABLE_SIZES if size <= len(players)]
    weights = TABLE_WEIGHTS[: len(sizes)]
    # More games as the league grows: density rises over the span.
    moments = sorted(rng.random() ** 0.7 for _ in range(count))
    start = end - timedelta(days=DAYS)
    hours = list(range(24))
    games = []
    for moment in moments:
        day = math.floor(moment * DAYS)
        hour = rng.choices(hours, HOUR_WEIGHTS)[0]
        finished_at = start + timedelta(days=day, hours=hour, seconds=rng.random() * 3600)
        if finished_at > end:
            finished_at = end - timedelta(seconds=rng.random() * 3600)
        size = rng.choices(sizes, weights)[0]
        # Players who have joined by this moment: at least a full table.
        pool = max(bisect.bisect_right(joined, moment), size)
        total = cumulative[pool - 1]
        seated: list[int] = []
        while len(seated) < size:
            chosen = bisect.bisect_right(cumulative, rng.random() * total, 0, pool - 1)
            if chosen not in seated:
                seated.append(chosen)
        scores, exact = play_out(rng, [players[index].strength for index in seated])
        games.append(
            PlannedGame(
                finished_at=finished_at,
                players=seated,
                scores=scores,
                places=places(scores),
                exact=exact,
                hook_rule=rng.random() < 0.9,
                blind_first_round=rng.random() < 0.8,
            )
        )
    games.sort(key=lambda game: game.finished_at)
    return games


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=10000, help="users to create")
        parser.add_argument("--games", type=int, default=100000, help="league games to create")
        parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        parser.add_argument(
            "--clear", action="store_true", help="delete what an earlier fill created first"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players_wanted: int = options["players"]
        games_wanted: int = options["games"]
        if players_wanted < 0 or games_wanted < 0:
            raise CommandError("--players and --games cannot be negative.")
        if games_wanted and players_wanted < min(TABLE_SIZES):
            raise CommandError(f"A game needs at least {min(TABLE_SIZES)} players.")
        if not connection.features.can_return_rows_from_bulk_insert:
            raise CommandError("This database cannot return ids from bulk inserts.")
        started = time.perf_counter()
        if options["clear"]:
            self.clear()
        elif User.objects.filter(username__startswith=PREFIX).exists():
            raise CommandError(f"There are {PREFIX}… users already: add --clear to replace them.")

        rng = random.Random(options["seed"])
        end = timezone.now().replace(microsecond=0)
        with self.step("planned {games} games of {players} players") as facts:
            players = make_players(rng, players_wanted)
            planned = plan_games(rng, players, games_wanted, end) if games_wanted else []
            facts.update(games=len(planned), players=len(players))
        with self.step("created {users} users") as facts:
            users = self.create_users(rng, players, planned, end)
            facts.update(users=len(users))
        with self.step("created {games} games and {seats} seats ({rate} games/s)") as facts:
            clock = time.perf_counter()
            seats = self.create_games(rng, planned, users)
            rate = len(planned) / (time.perf_counter() - clock or 1e-9)
            facts.update(games=len(planned), seats=seats, rate=f"{rate:.0f}")
        with self.step("rebuilt ratings from {games} league games ({rate} games/s)") as facts:
            clock = time.perf_counter()
            rated = ratings_rebuild()
            rate = rated / (time.perf_counter() - clock or 1e-9)
            facts.update(games=rated, rate=f"{rate:.0f}")
        self.stdout.write(
            f"league_fill: {Rating.objects.count()} ratings, {RatingChange.objects.count()} rating"
            f" changes, {SeasonStanding.objects.count()} season standings"
            f" ({SeasonStanding.objects.values('season').distinct().count()} seasons);"
            f" filled in {time.perf_counter() - started:.1f} s"
        )

    @contextmanager
    def step(self, message: str) -> Iterator[dict[str, Any]]:
        """Time one step and print `message` filled with the facts the step gathered."""
        facts: dict[str, Any] = {}
        clock = time.perf_counter()
        yield facts
        elapsed = time.perf_counter() - clock
        self.stdout.write(f"league_fill: {message.format(**facts)} in {elapsed:.1f} s")

    def clear(self) -> None:
        message = "cleared {games} games and {users} users of an earlier fill"
        with self.step(message) as facts, transaction.atomic():
            games = filled_games()
            ids = list(games.values_list("pk", flat=True))
            # Children first, in bulk, so deleting the games collects nothing per row.
            RatingChange.objects.filter(game_id__in=games.values("pk")).delete()
            LeagueGame.objects.filter(game_id__in=games.values("pk")).delete()
            Seat.objects.filter(game_id__in=games.values("pk")).delete()
            removed = 0
            for start in range(0, len(ids), CHUNK):
                deleted = Game.objects.filter(pk__in=ids[start : start + CHUNK]).delete()
                removed += deleted[1].get("games.Game", 0)
            users = User.objects.filter(username__startswith=PREFIX)
            RatingChange.objects.filter(user__in=users).delete()
            SeasonStanding.objects.filter(user__in=users).delete()
            Rating.objects.filter(user__in=users).delete()
            facts.update(games=removed, users=users.delete()[1].get("auth.User", 0))

    def create_users(
        self, rng: random.Random, players: list[Player], planned: list[PlannedGame], end: datetime
    ) -> list[User]:
        """One user per player, joined a little before their first game."""
        first: dict[int, datetime] = {}
        for game in planned:
            for index in game.players:
                first.setdefault(index, game.finished_at)
        width = max(5, len(str(len(players))))
        users = []
        for player in players:
            before = first.get(player.index, end - timedelta(days=DAYS * (1 - player.joins)))
            users.append(
                User(
                    username=f"{PREFIX}{player.index:0{width}d}",
                    password=make_password(None),  # unusable: no hashing, no sign-in
                    date_joined=before - timedelta(hours=1 + rng.random() * 24 * 14),
                )
            )
        with transaction.atomic():
            created = User.objects.bulk_create(users, batch_size=CHUNK)
        assert all(user.pk is not None for user in created)
        return created

    def create_games(
        self, rng: random.Random, planned: list[PlannedGame], users: list[User]
    ) -> int:
        """The games and their seats, CHUNK games per transaction; returns the seats made."""
        seat_count = 0
        with historic_timestamps():
            for start in range(0, len(planned), CHUNK):
                batch = planned[start : start + CHUNK]
                games = []
                for plan in batch:
                    # About 20–40 s a decision, a few decisions per player and round.
                    rounds = 60 // len(plan.players)
                    playing = timedelta(seconds=rounds * len(plan.players) * rng.uniform(20, 40))
                    started_at = plan.finished_at - playing
                    seed = f"{rng.getrandbits(256):064x}"
                    games.append(
                        Game(
                            created_by=users[plan.players[0]],
                            created_at=started_at - timedelta(seconds=rng.uniform(20, 600)),
                            started_at=started_at,
                            finished_at=plan.finished_at,
                            status=GameStatus.FINISHED,
                            seats=len(plan.players),
                            bots=0,
                            turn_seconds=60,
                            hook_rule=plan.hook_rule,
                            blind_first_round=plan.blind_first_round,
                            seed=seed,
                            commitment=hashlib.sha256(seed.encode()).hexdigest(),
                            seq=0,
                            state=None,
                        )
                    )
                with transaction.atomic():
                    Game.objects.bulk_create(games, batch_size=CHUNK)
                    seats = [
                        Seat(
                            game=game,
                            number=number,
                            user=users[index],
                            joined_at=game.created_at + timedelta(seconds=5 * number),
                            final_score=plan.scores[number],
                            place=plan.places[number],
                            exact_bids=plan.exact[number],
                        )
                        for game, plan in zip(games, batch, strict=True)
                        for number, index in enumerate(plan.players)
                    ]
                    Seat.objects.bulk_create(seats, batch_size=CHUNK)
                    # Rated in the order they finished, as the league's task would have.
                    LeagueGame.objects.bulk_create(
                        [
                            LeagueGame(game=game, counts=True)
                            for game in sorted(games, key=lambda g: (g.finished_at, g.pk))
                        ],
                        batch_size=CHUNK,
                    )
                seat_count += len(seats)
        return seat_count
