"""Browser pages for accounts: sign-up and profiles (log-in, log-out and passwords are
Django's own views with our templates)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import moderation
from league.charts import rating_chart
from league.selectors import player_stats
from wizardsite.api import ApplicationError
from wizardsite.errors_text import error_text


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(label=_("E-mail"), help_text=_("Only used to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.authentication.PlayerBackend")
        return redirect(request.GET.get("next") or "lobby")
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's statistics (league and casual apart), rating chart and recent games."""
    player = get_object_or_404(User, username=username)
    stats = player_stats(player)
    chart = rating_chart(stats["rating_history"], str(_("Rating after each league game")))
    return render(
        request, "accounts/profile.html", {"player": player, "stats": stats, "chart": chart}
    )


@login_required
@require_POST
def report(request: HttpRequest, username: str) -> HttpResponse:
    """A player reports another from their profile page."""
    assert isinstance(request.user, User)
    try:
        moderation.report_create(
            reporter=request.user, username=username, reason=request.POST.get("reason", "")
        )
    except ApplicationError as error:
        messages.error(request, error_text(error.code, error.message))
    else:
        messages.success(request, _("Thank you: a moderator will look at it."))
    return redirect("profile", username=username)
