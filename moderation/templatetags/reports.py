"""A report's fields as one tag (`{% report_fields "prefix" %}`): the table's report dialog and
the profile's report form ask the same things."""

from __future__ import annotations

from typing import Any

from django import template

from core import limits
from moderation.models import ReportCategory

register = template.Library()


@register.inclusion_tag("moderation/_report_fields.html")
def report_fields(prefix: str) -> dict[str, Any]:
    """The categories (one required) and the optional note, with ids under `prefix`."""
    return {
        "prefix": prefix,
        "categories": ReportCategory.choices,
        "max_length": limits.REASON_MAX_LENGTH,
    }
