"""Template context every page gets."""

from __future__ import annotations

from django.http import HttpRequest

from core import limits


def game_limits(request: HttpRequest) -> dict[str, dict[str, int]]:
    """The limits the browser checks before sending (rendered with json_script in base.html)."""
    return {"limits": limits.for_clients()}
