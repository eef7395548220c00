"""Input refused before any view runs: over-large API bodies (413) and NUL characters in the
path, query string, cookies or Authorization header (400), in the contract's JSON error shape
under /api/; and 503 while the database cannot be reached."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from apikit.unavailable import is_unavailable, unavailable_body
from core.errors import UNAVAILABLE_RETRY_AFTER, error_body
from core.text import has_refused_characters


def too_large() -> JsonResponse:
    """413 in the contract's error shape."""
    limit = settings.API_MAX_BODY_BYTES
    message = f"The request body is larger than {limit} bytes."
    return JsonResponse(error_body("invalid", message), status=413)


def malformed(message: str) -> JsonResponse:
    """400 `invalid` in the contract's error shape."""
    return JsonResponse(error_body("invalid", message), status=400)


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After while the database cannot be reached: the contract's JSON error
    under /api/, a plain page elsewhere (one that needs no query: no user, no session)."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(unavailable_body(), status=503)
    else:
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """A view that fails because the database is down answers 503, not 500 (errors raised by
    middleware before the view reach wizardsite.views.server_error, which does the same)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            return unavailable(request)
        return None


class RequestInputMiddleware:
    """Checks the size of API bodies (with or without Content-Length) and the text of every
    path, query string, cookie and Authorization header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith("/api/")
        if api:
            refused = self._body_refusal(request)
            if refused is not None:
                return refused
        if _has_refused_text(request):
            message = "The request holds a NUL or an unpaired surrogate character."
            if api:
                return malformed(message)
            raise BadRequest(message)
        return self.get_response(request)

    def _body_refusal(self, request: HttpRequest) -> HttpResponse | None:
        limit: int = settings.API_MAX_BODY_BYTES
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared:
            if not (declared.isascii() and declared.isdigit()):
                return malformed("Content-Length is not a number.")
            return too_large() if int(declared) > limit else None
        # No Content-Length (a chunked body over ASGI): measure what was sent, and say it, since
        # DRF reads a body only as long as its Content-Length.
        try:
            size = len(request.body)
        except RequestDataTooBig:
            return too_large()
        if size > limit:
            return too_large()
        request.META["CONTENT_LENGTH"] = str(size)
        return None


def _has_refused_text(request: HttpRequest) -> bool:
    """NUL or unpaired surrogates in the path, the query string, a cookie (the session key is
    looked up) or the Authorization header (the token is looked up)."""
    texts = [request.path, request.META.get("HTTP_AUTHORIZATION", "")]
    texts.extend(request.COOKIES.values())
    for key, values in request.GET.lists():
        texts.extend([key, *values])
    return any(has_refused_characters(text) for text in texts)
