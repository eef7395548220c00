"""Browser pages for accounts: sign-up and profiles (log-in, log-out and passwords are
Django's own views with our templates)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from league.charts import rating_chart
from league.selectors import player_stats


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(label=_("E-mail"), help_text=_("Only used to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
