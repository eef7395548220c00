"""Forms of the account pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.standing import suspension_at_login, suspension_text


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label=_("New e-mail address"))
    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(render_value=False)
    )


class LoginForm(AuthenticationForm):
    """Django's log-in form, but the right password of a suspended or banned player is told
    why and until when (accounts.standing.suspension_text), not that it is wrong."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            username = self.cleaned_data.get("username") or ""
            password = self.cleaned_data.get("password") or ""
            suspension = (
                suspension_at_login(self.request, username, password)
                if self.request is not None
                else None
            )
            if suspension is None:
                raise
            raise ValidationError(suspension_text(suspension), code="suspended") from None
