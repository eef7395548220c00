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
from core.errors import Refusal
from moderation import services


@login_required
@require_POST
def report(request: HttpRequest, username: str) -> HttpResponse:
    """A player reports another from their profile page."""
    assert isinstance(request.user, User)
    try:
        services.report_create(
            reporter=request.user, username=username, reason=request.POST.get("reason", "")
        )
    except Refusal as error:
        messages.error(request, error_text(error.code, error.message))
    else:
        messages.success(request, _("Thank you: a moderator will look at it."))
    return redirect("profile", username=username)
