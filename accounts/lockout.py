"""What a locked-out log-in gets (django-axes): the API's error shape under /api/, a page
elsewhere; 429 with Retry-After either way."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from core.errors import error_body


def locked_out(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Too many wrong passwords for this name from this address: wait, then try again."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    message = "Too many wrong passwords: try again later."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("rate_limited", message), status=429)
    else:
        page = render_to_string(
            "registration/locked_out.html", {"minutes": seconds // 60}, request=request
        )
        response = HttpResponse(page, status=429)
    response["Retry-After"] = str(seconds)
    return response
