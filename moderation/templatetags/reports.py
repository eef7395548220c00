"""A report's fields as one tag (`{% report_fields "prefix" %}`): the table's report dialog and
the profile's report form ask the same things. And for the moderators' admin: the queue's
count on its index, a sanction in words."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import Suspension
from accounts.standing import moment_text
from core import limits
from moderation.models import Report, ReportCategory, ReportStatus

register = template.Library()


@register.inclusion_tag("moderation/_report_fields.html")
def report_fields(prefix: str) -> dict[str, Any]:
    """The categories (one required) and the optional note, with ids under `prefix`."""
    return {
        "prefix": prefix,
        "categories": ReportCategory.choices,
        "max_length": limits.REASON_MAX_LENGTH,
    }


@register.simple_tag
def open_report_count(user: Any) -> int | None:
    """How many reports wait for a moderator; None for staff who may not read them."""
    if not user.has_perm("moderation.view_report"):
        return None
    return Report.objects.filter(status=ReportStatus.OPEN).count()


@register.simple_tag
def sanction_text(suspension: Suspension) -> str:
    """A suspension as a moderator reads it: banned, or until when (in the active time zone)."""
    if suspension.banned:
        return f"banned: {suspension.reason}"
    assert suspension.until is not None
    return f"suspended until {moment_text(suspension.until)}: {suspension.reason}"
