"""The moderators' admin of players: suspensions, the audit log, and suspending, banning and
lifting from the user list (the report queue: moderation/admin/reports.py).

Every change goes through moderation.services, which writes the audit row. Actions ask for a
reason on an intermediate page before they run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import Suspension
from apikit.admin_guard import SecretFieldsAdmin
from core.errors import Refusal
from moderation import services as moderation
from moderation.admin.actions import moderator_of, with_reason
from moderation.models import AuditLog


class SuspensionForm(forms.ModelForm):  # type: ignore[type-arg]
    moderator: User  # set by SuspensionAdmin.get_form

    class Meta:
        model = Suspension
        fields = ("user", "banned", "until", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        until = data.get("until")
        if not data.get("banned") and (until is None or until <= timezone.now()):
            raise forms.ValidationError("Give an end in the future, or tick 'banned'.")
        # Changing a suspension may also take it off its user (by moving it to another):
        # the rule holds for the user it had as for the one it gets.
        for user in (self.instance.user if self.instance.pk else None, data.get("user")):
            if isinstance(user, User) and not moderation.may_sanction(self.moderator, user):
                raise forms.ValidationError("Only a superuser may sanction staff.")
        return data


@admin.register(Suspension)
class SuspensionAdmin(SecretFieldsAdmin):
    list_display = ("user", "banned", "until", "reason", "created_by", "created_at")
    list_filter = ("banned",)
    search_fields = ("user__username", "reason")
    autocomplete_fields = ("user",)
    form = SuspensionForm

    def get_form(
        self, request: HttpRequest, obj: Any | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        form.moderator = moderator_of(request)  # type: ignore[attr-defined]
        return form

    def save_model(self, request: HttpRequest, obj: Suspension, form: Any, change: bool) -> None:
        obj.pk = moderation.user_suspend(
            moderator=moderator_of(request),
            user=obj.user,
            reason=obj.reason,
            until=obj.until,
            banned=obj.banned,
        ).pk

    def _may_lift(self, request: HttpRequest, obj: Suspension | None) -> bool:
        return obj is None or moderation.may_sanction(moderator_of(request), obj.user)

    def has_change_permission(self, request: HttpRequest, obj: Suspension | None = None) -> bool:
        return super().has_change_permission(request, obj) and self._may_lift(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Suspension | None = None) -> bool:
        # Deleting a suspension lifts it: only whoever may impose it (the bulk "delete
        # selected" action asks this for each row, and refuses the lot if one is refused).
        return super().has_delete_permission(request, obj) and self._may_lift(request, obj)

    def delete_model(self, request: HttpRequest, obj: Suspension) -> None:
        try:
            moderation.user_unsuspend(
                moderator=moderator_of(request), user=obj.user, reason="lifted"
            )
        except Refusal as refusal:
            self.message_user(request, f"{obj}: {refusal.message}", messages.ERROR)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Suspension]) -> None:
        for suspension in queryset:
            self.delete_model(request, suspension)


@admin.register(AuditLog)
class AuditLogAdmin(SecretFieldsAdmin):
    """Read-only: the record of every moderator action can be read, never changed or deleted."""

    list_display = ("created_at", "moderator", "action", "target", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("moderator__username", "target", "reason")
    readonly_fields = (
        "created_at",
        "moderator",
        "action",
        "target_type",
        "target_id",
        "target",
        "reason",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(SecretFieldsAdmin, UserAdmin):  # type: ignore[type-arg]
    """Django's user admin, plus suspending, banning and lifting from the list. Addresses
    (the e-mail column, search and field) are for superusers only (SecretFieldsAdmin)."""

    actions = ["suspend_for_a_day", "suspend_for_a_week", "ban", "lift"]
    list_display = ("username", "email", "date_joined", "is_staff", "suspension")

    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.add_suspension")

    def _suspend(
        self, request: HttpRequest, queryset: QuerySet[User], title: str, **how: Any
    ) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset,
            title,
            lambda user, reason: moderation.user_suspend(
                moderator=moderator_of(request), user=user, reason=reason, **how
            ),
        )

    @admin.action(description="Suspend for 1 day", permissions=["suspend"])
    def suspend_for_a_day(
        self, request: HttpRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        until = timezone.now() + timedelta(days=1)
        return self._suspend(request, queryset, "Suspend for 1 day", until=until)

    @admin.action(description="Suspend for 7 days", permissions=["suspend"])
    def suspend_for_a_week(
        self, request: HttpRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        until = timezone.now() + timedelta(days=7)
        return self._suspend(request, queryset, "Suspend for 7 days", until=until)

    @admin.action(description="Ban", permissions=["suspend"])
    def ban(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._suspend(request, queryset, "Ban", banned=True)

    @admin.action(description="Lift suspension or ban", permissions=["suspend"])
    def lift(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset,
            "Lift suspension or ban",
            lambda user, reason: moderation.user_unsuspend(
                moderator=moderator_of(request), user=user, reason=reason
            ),
        )
