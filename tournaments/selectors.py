"""Reads of tournaments: the view the API, the page and the socket share, and the lists."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet

from core.errors import Invalid, InviteRequired, NotFound
from games.models import Visibility
from games.selectors import iso
from tournaments.models import Entry, Status, Tournament, TournamentTable
from tournaments.seating import shared_ranks, standings_key

AnyUser = User | AnonymousUser


class TournamentOptions(TypedDict):
    """The options every table of the tournament is played with (T1)."""

    turn_seconds: int
    hook_rule: bool
    blind_first_round: bool
    rounds_format: str | int  # R19: "full", "odd" or a number of rounds
    special_cards: list[str]  # R20: the API's names
    visibility: Literal["public", "private"]


class StandingRow(TypedDict):
    rank: int  # equal standings share a rank (T2)
    username: str
    points: int  # place points (T2)
    wizard_points: int
    exact_bids: int
    games: int
    withdrawn: bool


class TableRow(TypedDict):
    round: int  # the Swiss round; an arena numbers its tables in order
    game: int
    seats: list[str]
    status: Literal["open", "active", "finished", "aborted"]


class TournamentSummary(TypedDict):
    """A tournament in a list; `players`: those still in (T5) and those who played a game
    before they withdrew."""

    id: int
    name: str
    format: Literal["swiss", "arena"]
    status: Literal["upcoming", "running", "finished", "cancelled"]
    starts_at: str
    ends_at: str | None
    table_size: int
    players: int
    featured: bool


class TournamentView(TournamentSummary):
    """The whole tournament, as its page and socket show it."""

    rounds: int | None  # a Swiss's rounds (T3)
    minutes: int | None  # an arena's duration (T4)
    round: int | None  # the Swiss round in play
    options: TournamentOptions
    creator: str
    standings: list[StandingRow]
    tables: list[TableRow]
    invite: str | None  # a private tournament's code, for its creator and players


class TournamentSocketMessage(TypedDict):
    """`ws/tournaments/{id}/`: the tournament's view, on connect and after every change."""

    type: Literal["tournament"]
    tournament: TournamentView


def tournament_get(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def is_insider(tournament: Tournament, user: AnyUser) -> bool:
    """Its creator or one of its players."""
    if not user.is_authenticated:
        return False
    return tournament.created_by_id == user.pk or tournament.entries.filter(user=user).exists()


def ensure_visible(tournament: Tournament, user: AnyUser, invite: str | None) -> None:
    """A private tournament shows itself to its creator and players, and to the holder of its
    invitation code; InviteRequired for anyone else."""
    if tournament.visibility != Visibility.PRIVATE or is_insider(tournament, user):
        return
    if invite != tournament.invite_code:
        raise InviteRequired("This tournament is private: open it with its invitation link.")


class AudienceViews(NamedTuple):
    """A tournament's view as anyone sees it and, for a private one, as its insiders do (its
    creator and players: with its invitation code), and who those are; read once, for every
    reader."""

    public: TournamentView
    insiders_view: TournamentView | None  # None: a public tournament, one view for all
    insiders: frozenset[int]


def tournament_view(tournament: Tournament, user: AnyUser) -> TournamentView:
    views = audience_views(tournament)
    if views.insiders_view is not None and user.pk in views.insiders:
        return views.insiders_view
    return views.public


def audience_views(tournament: Tournament) -> AudienceViews:
    entries = list(tournament.entries.select_related("user"))
    tables = list(tournament.tables.select_related("game").prefetch_related("game__seat_set__user"))
    players = sum(not entry.withdrawn or entry.games > 0 for entry in entries)
    public: TournamentView = {
        **_summary(tournament, players),
        "rounds": tournament.rounds,
        "minutes": tournament.minutes,
        "round": tournament.round,
        "options": options_of(tournament),
        "creator": tournament.created_by.username,
        "standings": standings(entries),
        "tables": [table_row(table) for table in tables],
        "invite": None,
    }
    insiders = frozenset({tournament.created_by_id, *(entry.user_id for entry in entries)})
    if tournament.visibility != Visibility.PRIVATE:
        return AudienceViews(public, None, insiders)
    return AudienceViews(public, {**public, "invite": tournament.invite_code}, insiders)


def options_of(tournament: Tournament) -> TournamentOptions:
    stored = tournament.rounds_format
    return {
        "turn_seconds": tournament.turn_seconds,
        "hook_rule": tournament.hook_rule,
        "blind_first_round": tournament.blind_first_round,
        "rounds_format": int(stored) if stored.isdigit() else stored,
        "special_cards": list(tournament.special_cards),
        "visibility": tournament.visibility,  # type: ignore[typeddict-item]  # a Visibility
    }


def standings(entries: list[Entry]) -> list[StandingRow]:
    """T2: place points, then Wizard points, then exact bids; equal rows share a rank."""
    ordered = sorted(entries, key=standing_key)
    ranks = shared_ranks([standing_key(entry)[:-1] for entry in ordered])
    return [
        {
            "rank": rank,
            "username": entry.user.username,
            "points": entry.points,
            "wizard_points": entry.wizard_points,
            "exact_bids": entry.exact_bids,
            "games": entry.games,
            "withdrawn": entry.withdrawn,
        }
        for rank, entry in zip(ranks, ordered, strict=True)
    ]


def table_row(table: TournamentTable) -> TableRow:
    seats = sorted(table.game.seat_set.all(), key=lambda seat: seat.number)
    return {
        "round": table.round,
        "game": table.game_id,
        "seats": [seat.user.username if seat.user else "" for seat in seats],
        "status": table.game.status,  # type: ignore[typeddict-item]  # a GameStatus value
    }


def standing_key(entry: Entry) -> tuple[int, int, int, int]:
    """T2's order of entries (then the first to join)."""
    return (*standings_key(entry.points, entry.wizard_points, entry.exact_bids), entry.pk)


def tournament_list(user: AnyUser, status: str | None) -> QuerySet[Tournament]:
    """Public tournaments, and the private ones the user created or plays in; by `status`."""
    if status is not None and status not in Status.values:
        raise Invalid(
            f"'status' is one of {', '.join(Status.values)}.", fields={"status": Status.values}
        )
    shown = Q(visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        shown |= Q(created_by=user) | Q(entries__user=user)
    found = Tournament.objects.filter(shown).distinct()
    if status is not None:
        found = found.filter(status=status)
    order = "-starts_at" if status in (Status.FINISHED, Status.CANCELLED) else "starts_at"
    return found.order_by(order, "pk")


def tournament_summaries(tournaments: list[Tournament]) -> list[TournamentSummary]:
    counts = dict(
        Entry.objects.filter(Q(withdrawn=False) | Q(games__gt=0), tournament__in=tournaments)
        .values_list("tournament")
        .annotate(n=Count("pk"))
    )
    return [_summary(tournament, counts.get(tournament.pk, 0)) for tournament in tournaments]


def _summary(tournament: Tournament, players: int) -> TournamentSummary:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": tournament.format,  # type: ignore[typeddict-item]  # a Format value
        "status": tournament.status,  # type: ignore[typeddict-item]  # a Status value
        "starts_at": iso(tournament.starts_at),
        "ends_at": iso(tournament.ends_at) if tournament.ends_at else None,
        "table_size": tournament.table_size,
        "players": players,
        "featured": tournament.featured,
    }


def featured(limit: int = 3) -> list[TournamentSummary]:
    """The public tournaments staff feature on the home page, upcoming or running, soonest
    first."""
    found = Tournament.objects.filter(
        featured=True,
        visibility=Visibility.PUBLIC,
        status__in=[Status.UPCOMING, Status.RUNNING],
    ).order_by("starts_at", "pk")[:limit]
    return tournament_summaries(list(found))
