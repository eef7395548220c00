"""The only code that writes a tournament (T1–T6): create, join, withdraw, start, and the
scheduler's sweep that starts, seats, counts and ends them. Each write runs in one transaction
with the tournament row locked, so two workers never seat a round twice."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.selectors import blocked_ids, blocked_pairs
from accounts.standing import is_suspended_id, lock_active
from core.errors import (
    Blocked,
    Forbidden,
    InviteRequired,
    NotFound,
    TournamentFull,
    TournamentNotOpen,
)
from games.models import Game, GameStatus, Seat, Visibility
from games.outcome import Outcome
from games.services import seated_game
from games.services.tables import check_options
from notifications.receivers import tables_ready
from tournaments import seating
from tournaments.metrics import step_failures
from tournaments.models import Entry, Format, Status, Tournament, TournamentTable
from tournaments.notify import tournament_changed
from tournaments.selectors import standing_key

log = logging.getLogger(__name__)

MIN_PLAYERS = 3  # T6
MAX_PLAYERS = 1000
ARENA_WAIT = 30.0  # T4: seconds after which 3 waiting players get a table


def tournament_create(
    *,
    user: User,
    name: str,
    format: str,
    starts_at: datetime,
    table_size: int = 4,
    rounds: int | None = None,
    minutes: int | None = None,
    turn_seconds: int | None = None,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    rounds_format: str | int = "full",
    special_cards: Sequence[str] = (),
    visibility: str = Visibility.PUBLIC,
) -> Tournament:
    """A new tournament (the API contract's checks are the serializer's); its creator plays
    only if they join too. Under the lock of the creator's row, as a new table: an account
    deleted while the request was on its way creates nothing (401)."""
    largest = min(6, table_size + 1)  # T3: a table may seat one more than the chosen size
    options = check_options(
        seats=largest,
        turn_seconds=turn_seconds,
        hook_rule=hook_rule,
        blind_first_round=blind_first_round,
        rounds=rounds_format,
        special_cards=special_cards,
    )
    with transaction.atomic(durable=True):
        lock_active(user)
        tournament = Tournament.objects.create(
            name=name,
            format=Format(format),
            created_by=user,
            starts_at=starts_at,
            table_size=table_size,
            rounds=rounds if format == Format.SWISS else None,
            minutes=minutes if format == Format.ARENA else None,
            turn_seconds=options.turn_seconds,
            hook_rule=hook_rule,
            blind_first_round=blind_first_round,
            rounds_format=options.rounds,
            special_cards=list(options.special_cards),
            visibility=Visibility(visibility),
        )
    tournament_changed(tournament.pk)
    return tournament


def tournament_join(*, tournament_id: int, user: User, invite: str | None = None) -> Tournament:
    """T5: a player joins an upcoming tournament (or a running arena), or rejoins one they
    withdrew from; a private one asks for its invitation code. Nobody joins one where a
    player they blocked, or who blocked them, is in (a block made later: seating parts them)."""
    with transaction.atomic(durable=True):
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        private = tournament.visibility == Visibility.PRIVATE
        if entry is None and private and invite != tournament.invite_code:
            raise InviteRequired("A private tournament is joined with its invitation code.")
        if _players(tournament).filter(user_id__in=blocked_ids(user.pk)).exists():
            raise Blocked("A player of this tournament blocked you, or you blocked them.")
        if not _open_to(tournament, rejoining=entry is not None):
            raise TournamentNotOpen("This tournament takes no more players.")
        if entry is None:
            if tournament.entries.count() >= MAX_PLAYERS:
                raise TournamentFull(f"A tournament holds {MAX_PLAYERS} players.")
            entry = Entry.objects.create(tournament=tournament, user=user)
        entry.withdrawn = False
        running_arena = tournament.status == Status.RUNNING and tournament.format == Format.ARENA
        if running_arena and not _is_playing(tournament, user.pk):
            entry.waiting_since = entry.waiting_since or timezone.now()
        entry.save(update_fields=["withdrawn", "waiting_since"])
        if running_arena:
            _pair_arena(tournament)
    tournament_changed(tournament.pk)
    return tournament


def tournament_withdraw(*, tournament_id: int, user: User) -> Tournament:
    """T5: out of the next rounds or tables; a running game is played out (R18)."""
    with transaction.atomic(durable=True):
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise NotFound("You have not joined this tournament.")
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentNotOpen("This tournament is over.")
        entry.withdrawn, entry.waiting_since = True, None
        entry.save(update_fields=["withdrawn", "waiting_since"])
    tournament_changed(tournament.pk)
    return tournament


def tournaments_leave(*, user: User) -> list[int]:
    """In the caller's transaction, for a deleted account: T5 at every tournament not over;
    an upcoming one it created is cancelled, as T6 cancels (nobody may start it now), while a
    running one goes on, its players mid-game. Each locked in turn, in order of id. Returns
    their ids, to tell after the commit (tournament_changed), as a cancellation is told."""
    current = Entry.objects.filter(
        user=user, withdrawn=False, tournament__status__in=(Status.UPCOMING, Status.RUNNING)
    )
    created = Tournament.objects.filter(created_by=user, status=Status.UPCOMING)
    tournament_ids = sorted(
        {*current.values_list("tournament_id", flat=True), *created.values_list("pk", flat=True)}
    )
    for tournament_id in tournament_ids:
        tournament = _lock(tournament_id)
        current.filter(tournament_id=tournament_id).update(withdrawn=True, waiting_since=None)
        if tournament.created_by_id == user.pk and tournament.status == Status.UPCOMING:
            _cancel(tournament, timezone.now())
    return tournament_ids


def tournament_start(*, tournament_id: int, user: User) -> Tournament:
    """Its creator starts an upcoming tournament before its time (T6: at least 3 players)."""
    with transaction.atomic(durable=True):
        tournament = _lock(tournament_id)
        if tournament.created_by_id != user.pk:
            raise Forbidden("Only the tournament's creator may start it.")
        if tournament.status != Status.UPCOMING:
            raise TournamentNotOpen("This tournament has started or is over.")
        if _players(tournament).count() < MIN_PLAYERS:
            raise TournamentNotOpen(f"A tournament starts with at least {MIN_PLAYERS} players.")
        _begin(tournament)
    tournament_changed(tournament.pk)
    return tournament


def tournaments_sweep(now: datetime | None = None) -> int:
    """The scheduler's pass (Celery beat): start or cancel what is due (T6), count the games
    that ended, seat the next Swiss round, form arena tables, end what is over. Idempotent;
    returns how many tournaments it changed."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Status.UPCOMING, starts_at__lte=now)
    running = Tournament.objects.filter(status=Status.RUNNING)
    changed = 0
    for tournament_id in [*due.values_list("pk", flat=True), *running.values_list("pk", flat=True)]:
        try:
            changed += tournament_step(tournament_id=tournament_id, now=now)
        except Exception:  # one tournament's fault never stops every other's schedule
            log.exception("The scheduler could not step tournament %s", tournament_id)
            step_failures.inc()
    return changed


def tournament_step(*, tournament_id: int, now: datetime | None = None) -> bool:
    """One tournament's due work, under its lock; whether anything changed."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        tournament = _lock(tournament_id)
        before = (tournament.status, tournament.round)
        outcomes: list[Outcome] = []
        counted = False
        if tournament.status == Status.UPCOMING and tournament.starts_at <= now:
            if _players(tournament).count() < MIN_PLAYERS:  # T6
                _cancel(tournament, now)
            else:
                outcomes = _begin(tournament, now)
        elif tournament.status == Status.RUNNING:
            counted = _count_ended(tournament, now)
            outcomes = _advance(tournament, now)
    changed = counted or bool(outcomes) or before != (tournament.status, tournament.round)
    if changed:
        tournament_changed(tournament.pk)
    return changed


# -- inside the lock ----------------------------------------------------------------------------
def _lock(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def _cancel(tournament: Tournament, now: datetime) -> None:
    tournament.status, tournament.ends_at = Status.CANCELLED, now
    tournament.save(update_fields=["status", "ends_at"])


def _open_to(tournament: Tournament, *, rejoining: bool) -> bool:
    if tournament.status == Status.UPCOMING:
        return True
    if tournament.status != Status.RUNNING:
        return False
    return rejoining or tournament.format == Format.ARENA


def _players(tournament: Tournament) -> QuerySet[Entry]:
    """The entries still in (T5)."""
    return tournament.entries.filter(withdrawn=False).select_related("user")


def _begin(tournament: Tournament, now: datetime | None = None) -> list[Outcome]:
    now = now or timezone.now()
    tournament.status = Status.RUNNING
    # Started early by its creator, it started now; the scheduler's start keeps its time.
    tournament.starts_at = min(tournament.starts_at, now)
    if tournament.format == Format.ARENA:
        assert tournament.minutes is not None
        tournament.ends_at = now + timedelta(minutes=tournament.minutes)
        tournament.save(update_fields=["status", "starts_at", "ends_at"])
        _players(tournament).update(waiting_since=now)
        return _pair_arena(tournament, now)
    tournament.round = 0
    tournament.save(update_fields=["status", "starts_at", "round"])
    return _seat_swiss_round(tournament, now)


def _advance(tournament: Tournament, now: datetime) -> list[Outcome]:
    """After games ended: the next Swiss round once every game of this one has (T3), new
    arena tables while time is left (T4); the end when nothing is left to play."""
    playing = tournament.tables.filter(counted=False).exists()
    if tournament.format == Format.SWISS:
        if playing:
            return []
        if (tournament.round or 0) < (tournament.rounds or 0):
            return _seat_swiss_round(tournament, now)
        _finish(tournament, now)
        return []
    assert tournament.ends_at is not None
    if now < tournament.ends_at:
        return _pair_arena(tournament, now)
    if not playing:  # T4: games still running finish and count
        _finish(tournament, now)
    return []


def _seat_swiss_round(tournament: Tournament, now: datetime) -> list[Outcome]:
    """T3: everyone still in, leaders together, repeats of earlier table-mates avoided."""
    entries = _ready(list(_players(tournament)))
    if len(entries) < MIN_PLAYERS:
        _finish(tournament, now)
        return []
    ranked = [entry.user for entry in sorted(entries, key=standing_key)]
    met = _met_pairs(tournament)
    apart = _apart(ranked)
    tables = seating.swiss_tables(ranked, tournament.table_size, met, apart)
    if not tables:  # too few left once blocked pairs are parted
        _finish(tournament, now)
        return []
    tournament.round = (tournament.round or 0) + 1
    tournament.save(update_fields=["round"])
    return [_open_table(tournament, tournament.round, users) for users in tables]


def _pair_arena(tournament: Tournament, now: datetime | None = None) -> list[Outcome]:
    """T4: tables from the waiting players closest in arena score, while time is left."""
    now = now or timezone.now()
    assert tournament.ends_at is not None
    if now >= tournament.ends_at:
        return []
    waiting = _ready(list(_players(tournament).filter(waiting_since__isnull=False)))
    by_user = {entry.user_id: entry for entry in waiting}
    queue = [
        seating.Waiting(
            player=entry.user_id,
            score=entry.points,
            since=entry.waiting_since.timestamp() if entry.waiting_since else now.timestamp(),
            last_mates=frozenset(entry.last_mates),
        )
        for entry in waiting
    ]
    apart = blocked_pairs(by_user)
    tables = seating.arena_tables(
        queue, tournament.table_size, now.timestamp(), ARENA_WAIT, apart=apart
    )
    number = tournament.tables.count()
    outcomes = []
    for offset, user_ids in enumerate(tables, start=1):
        Entry.objects.filter(pk__in=[by_user[u].pk for u in user_ids]).update(waiting_since=None)
        users = [by_user[u].user for u in user_ids]
        outcomes.append(_open_table(tournament, number + offset, users))
    return outcomes


def _ready(entries: list[Entry]) -> list[Entry]:
    """Entries whose player may be seated now: not suspended (a suspended one is withdrawn)."""
    barred = [entry for entry in entries if is_suspended_id(entry.user_id)]
    for entry in barred:
        entry.withdrawn, entry.waiting_since = True, None
        entry.save(update_fields=["withdrawn", "waiting_since"])
    return [entry for entry in entries if entry not in barred]


def _open_table(tournament: Tournament, number: int, users: Sequence[User]) -> Outcome:
    outcome = seated_game(
        users=users,
        turn_seconds=tournament.turn_seconds,
        hook_rule=tournament.hook_rule,
        blind_first_round=tournament.blind_first_round,
        rounds=tournament.rounds_format,
        special_cards=tournament.special_cards,
        visibility=tournament.visibility,
    )
    TournamentTable.objects.create(tournament=tournament, round=number, game=outcome.game)
    # The notices are written with the table, so a page that hears of it finds its notice.
    tables_ready(
        game_id=outcome.game.pk,
        user_ids=[seat.user_id for seat in outcome.seats if seat.user_id is not None],
        tournament=tournament.name,
        round_number=number if tournament.format == Format.SWISS else None,
    )
    return outcome


def _apart(users: list[User]) -> set[frozenset[User]]:
    """The pairs of these players one of whom blocked the other: never at one table."""
    by_id = {user.pk: user for user in users}
    return {frozenset(by_id[i] for i in pair) for pair in blocked_pairs(by_id)}


def _met_pairs(tournament: Tournament) -> set[frozenset[User]]:
    """T3: the pairs of players who shared a table in an earlier round."""
    seats = Seat.objects.filter(game__tournament_table__tournament=tournament, user__isnull=False)
    by_game: dict[int, list[User]] = {}
    for seat in seats.select_related("user"):
        assert seat.user is not None
        by_game.setdefault(seat.game_id, []).append(seat.user)
    return {
        frozenset((a, b))
        for players in by_game.values()
        for i, a in enumerate(players)
        for b in players[i + 1 :]
    }


def _count_ended(tournament: Tournament, now: datetime) -> bool:
    """T2, T4, T5: each ended game's places into the standings, once."""
    ended = tournament.tables.filter(
        counted=False, game__status__in=[GameStatus.FINISHED, GameStatus.ABORTED]
    ).select_related("game")
    counted = False
    for table in ended:
        _count(tournament, table.game, now)
        table.counted = True
        table.save(update_fields=["counted"])
        counted = True
    return counted


def _count(tournament: Tournament, game: Game, now: datetime) -> None:
    seats = list(game.seat_set.order_by("number"))
    entries = {entry.user_id: entry for entry in tournament.entries.filter(_of_seats(seats))}
    finished = game.status == GameStatus.FINISHED and not game.voided
    places = seating.place_points([seat.final_score or 0 for seat in seats]) if finished else None
    arena = tournament.format == Format.ARENA
    for seat in seats:
        entry = entries.get(seat.user_id) if seat.user_id is not None else None
        if entry is None:
            continue
        if places is not None:
            first = seat.place == 1
            points = places[seat.number]
            if arena:
                points = seating.arena_place_points(points, first, entry.firsts_in_row)
            entry.points += points
            entry.firsts_in_row = seating.first_place_run(first, entry.firsts_in_row)
            entry.wizard_points += seat.final_score or 0
            entry.exact_bids += seat.exact_bids or 0
            entry.games += 1
        if seat.away:  # T5: away at the end of their game, out until they rejoin
            entry.withdrawn = True
        if arena and not entry.withdrawn and tournament.ends_at and now < tournament.ends_at:
            entry.waiting_since = now
        entry.last_mates = [s.user_id for s in seats if s.user_id not in (None, seat.user_id)]
        entry.save()


def _of_seats(seats: list[Seat]) -> Q:
    return Q(user_id__in=[seat.user_id for seat in seats if seat.user_id is not None])


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Status.FINISHED
    tournament.ends_at = tournament.ends_at if tournament.format == Format.ARENA else now
    tournament.save(update_fields=["status", "ends_at"])
    tournament.entries.update(waiting_since=None)


def _is_playing(tournament: Tournament, user_id: int) -> bool:
    return tournament.tables.filter(
        counted=False, game__seat_set__user_id=user_id, game__status=GameStatus.ACTIVE
    ).exists()
