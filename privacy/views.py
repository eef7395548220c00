"""The browser's page for deleting one's account: it says what goes and what stays, and asks
for the password."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from accounts.retirement import deleted_name
from apikit import throttles
from core.errors import Invalid
from privacy import services


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(render_value=False)
    )


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """GET: what deleting the account means; POST with the password: it is done, and the
    browser is signed out."""
    user = request.user
    assert isinstance(user, User)
    form = AccountDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if throttles.hit("token", f"delete:{user.pk}") is not None:  # the API's count too
            form.add_error("password", _("Too many attempts: try again later."))
            return render(request, "accounts/delete.html", _context(user, form), status=429)
        try:
            services.account_delete(user=user, password=form.cleaned_data["password"])
        except Invalid:
            form.add_error("password", _("That is not your password."))
        else:
            logout(request)
            messages.info(request, _("Your account is deleted."))
            return redirect("home")
    return render(request, "accounts/delete.html", _context(user, form))


def _context(user: User, form: AccountDeleteForm) -> dict[str, object]:
    return {"form": form, "deleted_name": deleted_name(user)}
