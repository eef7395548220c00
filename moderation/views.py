"""Browser pages for moderation: a player reports another from their profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from apikit.errors_text import error_text
from core.errors import Invalid, Refusal
from moderation import services
from moderation.models import ReportCategory


@login_required
@require_POST
def report(request: HttpRequest, username: str) -> HttpResponse:
    """A player reports another from their profile page."""
    assert isinstance(request.user, User)
    category = request.POST.get("category", ReportCategory.OTHER)
    try:
        if category not in ReportCategory.values:
            raise Invalid("Choose what the report is about.", fields={"category": ["choice"]})
        services.report_create(
            reporter=request.user,
            username=username,
            category=ReportCategory(category),
            reason=request.POST.get("reason", ""),
        )
    except Refusal as error:
        messages.error(request, error_text(error.code, error.message))
    else:
        messages.success(request, _("Thank you: a moderator will look at it."))
    return redirect("profile", username=username)
