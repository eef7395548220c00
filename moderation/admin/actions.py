"""What every moderation action shares: who the moderator is, and asking why first."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from core.errors import Refusal
from core.text import has_refused_characters


def with_reason(
    modeladmin: admin.ModelAdmin,  # type: ignore[type-arg]
    request: HttpRequest,
    queryset: QuerySet[Any],
    title: str,
    perform: Any,
) -> HttpResponse | None:
    """Show a page asking why; on submit run `perform(obj, reason)` for each selected object."""
    reason = request.POST.get("reason", "").strip()
    if has_refused_characters(reason):
        reason = ""  # asked again, like a missing reason: the audit log stores text only
    if "apply" in request.POST and reason:
        done = 0
        for obj in queryset:
            try:
                perform(obj, reason)
            except Refusal as refusal:
                modeladmin.message_user(request, f"{obj}: {refusal.message}", messages.ERROR)
            else:
                done += 1
        modeladmin.message_user(request, f"{title}: done for {done}.", messages.SUCCESS)
        return None
    return TemplateResponse(
        request,
        "admin/moderation_reason.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "objects": list(queryset),
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
            "missing_reason": "apply" in request.POST and not reason,
        },
    )


def moderator_of(request: HttpRequest) -> User:
    """The signed-in moderator of an admin request."""
    assert isinstance(request.user, User)
    return request.user
