"""Forms of the account pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label=_("New e-mail address"))
    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(render_value=False)
    )
