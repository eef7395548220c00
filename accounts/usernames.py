"""Which usernames may be taken: ASCII letters, digits, "_" and "-", 2 to 30 of them."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from core import limits

username_validator = RegexValidator(
    rf"\A{limits.USERNAME_PATTERN}\Z",
    _("Use only the letters A–Z and a–z, digits, “_” and “-”."),
    code="invalid_username",
)
