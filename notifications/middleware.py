"""Remember the language a signed-in player uses on the site, for their mails and pushes."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import SESSION_KEY as SIGNED_IN
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

from notifications import services

_SESSION_KEY = "notifications_language"


def remember_language(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """After LocaleMiddleware: stores the request's language when it differs from the one this
    session stored last (one write per session and language, not one per request)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        # Browsers only (a session that signed in): an app's token request has no page language.
        if user is None or session is None or not user.is_authenticated or SIGNED_IN not in session:
            return response
        language = getattr(request, "LANGUAGE_CODE", None) or get_language()
        if language and session.get(_SESSION_KEY) != language:
            services.language_remember(user_id=user.pk, language=language)
            session[_SESSION_KEY] = language
        return response

    return middleware
