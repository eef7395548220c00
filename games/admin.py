"""Admin: games with their seats, and their event rows read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event, Game, Seat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_kind", "final_score", "place")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EventInline(admin.TabularInline):  # type: ignore[type-arg]
    """The game's full history; rows are append-only, so nothing here can be changed."""

    model = Event
    extra = 0
    fields = ("seq", "type", "seat", "auto", "payload", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "status", "seats", "bots", "created_by", "created_at", "finished_at")
    list_filter = ("status", "seats", "hook_rule", "blind_first_round", "created_at")
    search_fields = ("seat_set__user__username", "created_by__username")
    date_hierarchy = "created_at"
    readonly_fields = (
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
        "seq",
        "to_act",
        "deadline",
    )
    exclude = ("seed", "state")  # the seed stays secret while a game runs
    inlines = [SeatInline, EventInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "number", "user", "bot_kind", "final_score", "place")
    list_select_related = ("game", "user")
    search_fields = ("user__username",)
    readonly_fields = ("game", "number", "user", "bot_kind", "final_score", "place", "joined_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
