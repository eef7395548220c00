"""The profile page's notification settings, as one tag (`{% notification_settings %}`)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from notifications import services, webpush

register = template.Library()


@register.inclusion_tag("notifications/_settings.html")
def notification_settings(user: User) -> dict[str, Any]:
    """The signed-in player's settings form and the Web Push opt-in button."""
    return {"settings": services.settings_of(user), "vapid_public_key": webpush.public_key()}
