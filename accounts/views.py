"""Browser pages for accounts: sign-up (log-in, log-out and passwords are Django's own views
with our templates)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from accounts import services
from core.errors import Invalid


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(label=_("E-mail"), help_text=_("Only used to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except Invalid as refusal:  # e.g. a concurrent sign-up took the name first
            for field, problems in (refusal.fields or {}).items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            login(request, user, backend="accounts.authentication.PlayerBackend")
            return redirect(request.GET.get("next") or "lobby")
    return render(request, "registration/signup.html", {"form": form})
