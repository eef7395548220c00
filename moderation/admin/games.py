"""The moderators' admin of games: seats and read-only event rows, abort and void, the chat."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join

from apikit.admin_guard import SecretFieldsAdmin
from games import selectors
from games.models import ChatMessage, Event, Game, GameStatus, Seat
from league import selectors as league_selectors
from moderation import services
from moderation.admin.actions import moderator_of, with_reason


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_kind", "final_score", "place")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EventInline(admin.TabularInline):  # type: ignore[type-arg]
    """The game's history, folded away under the replay's link; rows are append-only, so
    nothing here can be changed. While the game runs, deals show no hand (a moderator may be
    seated there); all once it has ended."""

    model = Event
    verbose_name_plural = "event rows (the replay shows them as the table did)"
    classes = ["collapse"]
    extra = 0
    fields = ("seq", "type", "seat", "auto", "shown", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    @admin.display(description="payload")
    def shown(self, row: Event) -> str:
        return json.dumps(selectors.event_view(row.game, row, None)["payload"])

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class LeagueFilter(admin.SimpleListFilter):
    """Whether the league counted the game (R17), as it last decided."""

    title = "league"
    parameter_name = "league"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "league"), ("no", "casual")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "yes":
            return queryset.filter(league_entry__counts=True)
        if self.value() == "no":
            return queryset.exclude(league_entry__counts=True)
        return queryset


class WithBotsFilter(admin.SimpleListFilter):
    title = "bots"
    parameter_name = "with_bots"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "with bots"), ("no", "humans only")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "yes":
            return queryset.filter(bots__gt=0)
        if self.value() == "no":
            return queryset.filter(bots=0)
        return queryset


@admin.register(Game)
class GameAdmin(SecretFieldsAdmin):
    list_display = (
        "id",
        "status",
        "counts_for_league",
        "voided",
        "seats",
        "bots",
        "players",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", LeagueFilter, WithBotsFilter, "voided", "created_at")
    search_fields = ("seat_set__user__username", "created_by__username")
    actions = ["abort", "void"]
    date_hierarchy = "created_at"
    readonly_fields = (
        "players",
        "replay",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "status",
        "seats",
        "bots",
        "turn_seconds",
        "hook_rule",
        "blind_first_round",
        "commitment",
        "counts_for_league",
        "voided",
        "seq",
        "to_act",
        "deadline",
    )
    inlines = [SeatInline, EventInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        rows = super().get_queryset(request).select_related("created_by", "league_entry")
        return rows.prefetch_related("seat_set__user").distinct()

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        """Who sits where, each a link to their profile; a bot by its level."""
        seats = sorted(game.seat_set.all(), key=lambda seat: seat.number)
        return (
            format_html_join(
                ", ",
                "{}: {}",
                (
                    (
                        seat.number,
                        format_html('<a href="/players/{}/">{}</a>', seat.user.username, seat.user)
                        if seat.user is not None
                        else f"{seat.bot_kind or 'medium'} bot",
                    )
                    for seat in seats
                ),
            )
            or "nobody yet"
        )

    @admin.display(description="watch")
    def replay(self, game: Game) -> str:
        """The replay once the game is over (every hand shown then), else its table as a
        spectator sees it (no hidden card, no seed)."""
        if game.status == GameStatus.FINISHED:
            return format_html('<a href="/games/{}/replay/">the replay</a>', game.pk)
        return format_html('<a href="/games/{}/">the table</a>', game.pk)

    @admin.display(description="league", boolean=True)
    def counts_for_league(self, game: Game) -> bool:
        return league_selectors.counts_for_league(game)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.abort_game")

    def has_void_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.void_game")

    @admin.action(description="Abort the selected running games", permissions=["abort"])
    def abort(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        running = queryset.filter(status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
        return with_reason(
            self,
            request,
            running,
            "Abort games",
            lambda game, reason: services.game_abort(
                moderator=moderator_of(request), game_id=game.pk, reason=reason
            ),
        )

    @admin.action(description="Void the selected finished games (league)", permissions=["void"])
    def void(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        finished = queryset.filter(status=GameStatus.FINISHED, voided=False)
        return with_reason(
            self,
            request,
            finished,
            "Void games",
            lambda game, reason: services.game_void(
                moderator=moderator_of(request), game_id=game.pk, reason=reason
            ),
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(SecretFieldsAdmin):
    list_display = ("id", "game", "user", "text", "created_at", "hidden")
    list_filter = ("hidden", "created_at")
    search_fields = ("text", "user__username")
    readonly_fields = (
        "game",
        "user",
        "seat",
        "text",
        "created_at",
        "hidden",
        "hidden_at",
        "hidden_by",
    )
    actions = ["hide"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # hidden messages stay stored for review

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.hide_chatmessage")

    @admin.action(description="Hide the selected messages for everyone", permissions=["hide"])
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset.filter(hidden=False),
            "Hide messages",
            lambda message, reason: services.chat_hide(
                moderator=moderator_of(request), message=message, reason=reason
            ),
        )


@admin.register(Seat)
class SeatAdmin(SecretFieldsAdmin):
    list_display = ("game", "number", "user", "bot_kind", "final_score", "place")
    list_select_related = ("game", "user")
    search_fields = ("user__username",)
    readonly_fields = ("game", "number", "user", "bot_kind", "final_score", "place", "joined_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
