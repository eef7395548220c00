"""Django's password validators' help texts, named here so our catalogs carry them where
Django's own translation lacks them (its Croatian one, since the texts took a typographic
apostrophe): our locale/ comes first in LOCALE_PATHS, so these translations are used."""

from __future__ import annotations

from django.utils.translation import gettext_noop

PASSWORD_HELP_TEXTS = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
)
