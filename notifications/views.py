"""Pages of the notifications: one-click unsubscribe, the profile's settings form, the
notices page, and the service worker that shows pushes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import mail, notices, services


@csrf_exempt  # the signed token is the credential; mail clients post without a CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (a link checker must not unsubscribe anyone); POST, from that page
    or a mail client's one-click (RFC 8058 List-Unsubscribe-Post), turns turn mails off."""
    user_id = mail.unsubscribe_user_id(token)
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        raise BadRequest("This unsubscribe link is not valid.")
    done = request.method == "POST"
    if done:
        services.settings_update(user=user, email_turns=False)
    return render(request, "notifications/unsubscribe.html", {"done": done, "token": token})


@login_required
@require_http_methods(["GET", "POST"])
def settings_form(request: HttpRequest) -> HttpResponse:
    """The profile page's form: both settings as checkboxes (opened, it shows that form)."""
    assert isinstance(request.user, User)
    if request.method == "GET":
        url = reverse("profile", kwargs={"username": request.user.get_username()})
        return redirect(url + "#notifications")
    services.settings_update(
        user=request.user,
        email_turns=request.POST.get("email_turns") == "on",
        push_turns=request.POST.get("push_turns") == "on",
    )
    messages.success(request, _("Your notification settings are saved."))
    return redirect("profile", username=request.user.get_username())


def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so its scope is the whole site."""
    response = render(request, "notifications/sw.js", content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


NOTICES_SHOWN = 50


@login_required
@require_http_methods(["GET", "POST"])
def notices_page(request: HttpRequest) -> HttpResponse:
    """The player's notices, newest first, unread ones marked; POST marks them all read."""
    assert isinstance(request.user, User)
    if request.method == "POST":
        notices.notices_read(user_id=request.user.pk, ids=None)
        return redirect("notices")
    shown = notices.notices_of(request.user.pk)[:NOTICES_SHOWN]
    return render(
        request,
        "notifications/notices.html",
        {"notices": notices.notice_views(shown), "unread": notices.unread_count(request.user.pk)},
    )


@login_required
def notice_open(request: HttpRequest, notice_id: int) -> HttpResponse:
    """One of the player's notices, marked read, opens where it points."""
    assert isinstance(request.user, User)
    notice = notices.notices_of(request.user.pk).filter(pk=notice_id).first()
    if notice is None:
        raise Http404("No such notice.")
    notices.notices_read(user_id=request.user.pk, ids=[notice.pk])
    return redirect(notice.url)
