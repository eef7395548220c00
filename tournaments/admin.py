"""Moderators see tournaments, their players and tables; staff feature one on the home page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from apikit.admin_guard import SecretFieldsAdmin
from tournaments.models import Entry, Tournament, TournamentTable


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    fields = ("user", "withdrawn", "points", "wizard_points", "exact_bids", "games")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(SecretFieldsAdmin):
    list_display = ["name", "format", "status", "starts_at", "table_size", "featured"]
    list_filter = ["format", "status", "featured", "visibility"]
    search_fields = ["name", "created_by__username"]
    list_editable = ["featured"]
    readonly_fields = ["status", "round", "ends_at", "created_by"]
    inlines = [EntryInline]


@admin.register(TournamentTable)
class TournamentTableAdmin(SecretFieldsAdmin):
    list_display = ["tournament", "round", "game", "counted"]
    list_filter = ["counted"]
    readonly_fields = ["tournament", "round", "game", "counted"]
