"""The admin mixin every registered admin uses: no filter, search, sort, list column, filter
choice or change-page field reads a secret field (apikit.secret_fields), and an e-mail
address is for superusers only. A refused filter is Django's own 400
(DisallowedModelAdminLookup), never an answer filtered by it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from apikit.secret_fields import reaches_refused, shown_names


class SecretFieldsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A ModelAdmin (or, first among its bases, a library's admin) that refuses secret fields."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if reaches_refused(self.model, lookup, request.user):
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request: HttpRequest) -> list[str]:
        return shown_names(self.model, super().get_search_fields(request), request.user)

    def get_list_display(self, request: HttpRequest) -> Any:
        return [
            column
            for column in super().get_list_display(request)
            if not isinstance(column, str) or shown_names(self.model, [column], request.user)
        ]

    def get_list_filter(self, request: HttpRequest) -> Any:
        return [
            item
            for item in super().get_list_filter(request)
            if (path := _filtered_path(item)) is None
            or shown_names(self.model, [path], request.user)
        ]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return [
            (name, {**options, "fields": self._shown_on_form(request, options["fields"])})
            for name, options in super().get_fieldsets(request, obj)
        ]

    def _shown_on_form(self, request: HttpRequest, fields: Sequence[Any]) -> list[Any]:
        """The fieldset's fields (a tuple is one line of several) without those refused."""
        shown: list[Any] = []
        for line in fields:
            names = shown_names(
                self.model, [line] if isinstance(line, str) else line, request.user, on_form=True
            )
            if names:
                shown.append(names[0] if isinstance(line, str) else tuple(names))
        return shown


def _filtered_path(item: Any) -> str | None:
    """The field path a list_filter entry filters on (`"status"`, `("game__status", Filter)`);
    None for a SimpleListFilter, which names its own parameter and query."""
    if isinstance(item, (list, tuple)):
        item = item[0]
    if isinstance(item, str):
        return item
    name = getattr(item, "name", None)  # a model field given as itself
    return name if isinstance(name, str) else None
