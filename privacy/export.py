"""The export of a player's own data (DataExport), written piece by piece: a player of
thousands of games never makes the server hold them all at once."""

from __future__ import annotations

import threading
import weakref
from collections.abc import AsyncIterator, Generator, Iterator
from functools import cache
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from accounts.models import Block, Follow
from accounts.selectors import email_verified
from core.fastjson import dumps
from games import engine
from games.engine import events as ev
from games.engine.views import DealShown
from games.models import ChatMessage, Event, Game, GameStatus, Seat
from games.selectors import event_view, iso
from league.models import LeagueGame, Pool, Rating, RatingChange
from league.ratings import display
from moderation.models import Report, ReportCategory, ReportStatus
from notifications.models import Device, NotificationSettings, PushSubscription
from notifications.notices import notice_views, notices_of
from notifications.services import settings_view
from privacy.document import (
    ExportedAccount,
    ExportedChatMessage,
    ExportedDevice,
    ExportedEntry,
    ExportedGame,
    ExportedHand,
    ExportedPushSubscription,
    ExportedRating,
    ExportedRatingChange,
    ExportedReport,
)
from tournaments.models import Entry, Status


class ExportStream:
    """An export as it is sent, holding one of this process's EXPORTS_AT_ONCE places until
    the server closes the answer (Django calls `close` of a streamed content): however many
    players ask, at most that many exports are made at once, however slowly their clients
    read."""

    def __init__(self, user: User, places: threading.BoundedSemaphore) -> None:
        self.chunks = export_chunks(user)
        # Its place is given back once, whichever comes first: the last piece sent, the answer
        # closed, or the answer dropped unread by a client that never closes it.
        self.release = weakref.finalize(self, places.release)

    @classmethod
    def open(cls, user: User) -> ExportStream | None:
        """An export of `user`'s data, or None while every place is taken."""
        places = _places(settings.EXPORTS_AT_ONCE)
        return cls(user, places) if places.acquire(blocking=False) else None

    def __iter__(self) -> Iterator[str]:
        try:
            yield from self.chunks
        finally:
            self.release()

    async def __aiter__(self) -> AsyncIterator[str]:
        """The same pieces for the ASGI server (Django streams what iterates asynchronously,
        and would first gather a plain iterator whole): each made in Django's thread for sync
        code, where its queries belong."""
        piece = sync_to_async(_next_piece)
        try:
            while (chunk := await piece(self.chunks)) is not None:
                yield chunk
        finally:
            self.release()

    def close(self) -> None:
        self.chunks.close()
        self.release()


def _next_piece(chunks: Iterator[str]) -> str | None:
    return next(chunks, None)


@cache
def _places(most: int) -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(max(1, most))


def export_chunks(user: User) -> Generator[str, None, None]:
    """The DataExport of `user` as JSON text in pieces: everything but the games, then each
    game of theirs on its own."""
    head = dumps(_head(user))
    yield head[: -len("}")] + ',"games":['
    for number, seat in enumerate(_seats(user).iterator(chunk_size=100)):
        yield ("," if number else "") + dumps(game_export(seat))
    yield "]}"


def _seats(user: User) -> QuerySet[Seat]:
    """The player's seats with their games, each game's players, rows and league entry: a few
    queries for each hundred games, not three for each."""
    return (
        Seat.objects.filter(user=user)
        .select_related("game", "game__league_entry")
        .prefetch_related(
            Prefetch("game__seat_set", Seat.objects.select_related("user").order_by("number")),
            Prefetch("game__events", Event.objects.order_by("seq")),
        )
        .order_by("game_id")
    )


def _head(user: User) -> dict[str, Any]:
    """Every key of DataExport but `games`."""
    document: dict[str, Any] = {
        "exported_at": iso(timezone.now()),
        "account": account_export(user),
        "notifications": settings_view(user),
        "push_subscriptions": [
            ExportedPushSubscription(endpoint=row.endpoint, created=iso(row.created))
            for row in PushSubscription.objects.filter(user=user).order_by("pk")
        ],
        "devices": [
            ExportedDevice(platform=row.platform, token=row.token, created=iso(row.created))
            for row in Device.objects.filter(user=user).order_by("pk")
        ],
        "notices": notice_views(notices_of(user.pk)),
        "following": _names(Follow.objects.filter(follower=user), "followed__username"),
        "followers": _names(Follow.objects.filter(followed=user), "follower__username"),
        "blocked": _names(Block.objects.filter(blocker=user), "blocked__username"),
        "chat_messages": [
            _chat(message) for message in ChatMessage.objects.filter(user=user).order_by("pk")
        ],
        "reports": [_report(report) for report in _reports(user)],
        "tournaments": [_entry(entry) for entry in _entries(user)],
        "ratings": [_rating(row) for row in Rating.objects.filter(user=user).order_by("pool")],
        "rating_changes": [
            _change(row) for row in RatingChange.objects.filter(user=user).order_by("order")
        ],
    }
    return document


def account_export(user: User) -> ExportedAccount:
    settings = NotificationSettings.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "email": user.email,
        "email_verified": email_verified(user),
        "date_joined": iso(user.date_joined),
        "last_login": iso(user.last_login) if user.last_login else None,
        "language": settings.language if settings is not None else "",
    }


def _names(follows: Any, field: str) -> list[str]:
    return sorted(follows.values_list(field, flat=True))


def game_export(seat: Seat) -> ExportedGame:
    """One game as the player's seat saw it: their hands (R9's blind round hides a running
    game's), their own moves, and the seed only once the game is over, as its view shows."""
    game = seat.game
    players, rows = game.seat_set.all(), game.events.all()  # as _seats fetched them
    league: LeagueGame | None = getattr(game, "league_entry", None)  # none: never rated
    return {
        "id": game.pk,
        "status": GameStatus(game.status),
        "created_at": iso(game.created_at),
        "started_at": iso(game.started_at) if game.started_at else None,
        "finished_at": iso(game.finished_at) if game.finished_at else None,
        "players": [other.display_name for other in players],
        "seat": seat.number,
        "final_score": seat.final_score,
        "place": seat.place,
        "exact_bids": seat.exact_bids,
        "away": seat.away,
        "resigned": seat.resigned,
        "league": league is not None and league.counts,
        "shuffle_commitment": game.commitment,
        "shuffle_seed": game.seed if game.is_over else None,
        "hands": [_hand(game, row, seat.number) for row in rows if row.type == ev.DEAL],
        "moves": [event_view(game, row, seat.number) for row in rows if row.seat == seat.number],
    }


def _hand(game: Game, row: Event, seat: int) -> ExportedHand:
    """The seat's own hand of a deal, never another's."""
    if game.is_over:
        return {"round": row.payload["round"], "hand": engine.sort_hand(row.payload["hands"][seat])}
    shown = engine.event_view(row.payload, seat, blind_first_round=game.blind_first_round)
    return {"round": row.payload["round"], "hand": cast(DealShown, shown)["hand"]}


def _chat(message: ChatMessage) -> ExportedChatMessage:
    return {
        "game": message.game_id,
        "text": message.text,
        "preset": message.preset or None,
        "at": iso(message.created_at),
        "hidden": message.hidden,
    }


def _reports(user: User) -> Any:
    return Report.objects.filter(reporter=user).select_related("reported").order_by("pk")


def _report(report: Report) -> ExportedReport:
    return {
        "reported": report.reported.get_username(),
        "message": report.message_id,
        "category": ReportCategory(report.category),
        "reason": report.reason,
        "status": ReportStatus(report.status),
        "created_at": iso(report.created_at),
    }


def _entries(user: User) -> Any:
    return Entry.objects.filter(user=user).select_related("tournament").order_by("pk")


def _entry(entry: Entry) -> ExportedEntry:
    return {
        "tournament": entry.tournament_id,
        "name": entry.tournament.name,
        "status": Status(entry.tournament.status),
        "joined_at": iso(entry.joined_at),
        "withdrawn": entry.withdrawn,
        "points": entry.points,
        "wizard_points": entry.wizard_points,
        "exact_bids": entry.exact_bids,
        "games": entry.games,
    }


def _rating(row: Rating) -> ExportedRating:
    return {
        "pool": Pool(row.pool),
        "rating": display(row.ordinal),
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "wins": row.wins,
        "points": row.points,
    }


def _change(row: RatingChange) -> ExportedRatingChange:
    return {
        "game": row.game_id,
        "pool": Pool(row.pool),
        "at": iso(row.at),
        "place": row.place,
        "score": row.score,
        "rating": display(row.ordinal),
    }
