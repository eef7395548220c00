"""Tournament pages: the list, the creation form and a tournament's own page with its join,
withdraw and start buttons. Writes go through the services, as the API's do."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from apikit import throttles
from apikit.errors_text import error_text
from core.errors import InviteRequired, NotFound, Refusal
from tournaments import selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Status, Tournament
from tournaments.selectors import TableRow, TournamentView

T = TypeVar("T")

LISTED = 50  # a section of the list shows this many
# The services' refusals worded for a tournament (the shared texts speak of tables).
WORDING = {
    "invite_required": _("This tournament is private: join it with its invitation link."),
    "forbidden": _("Only the tournament's creator may start it."),
    "not_found": _("You have not joined this tournament."),
    "tournament_not_open": _(
        "This tournament does not take that step now: it has started or is over, or it has"
        " fewer than 3 players."
    ),
}


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished (or cancelled) tournaments: the public ones and the
    viewer's own."""
    sections = []
    for status, title in (
        (Status.UPCOMING, pgettext_lazy("tournament", "Upcoming")),
        (Status.RUNNING, pgettext_lazy("tournament", "Running")),
        (Status.FINISHED, pgettext_lazy("tournament", "Finished")),
    ):
        found = list(selectors.tournament_list(request.user, status)[:LISTED])
        if status == Status.FINISHED:  # the cancelled ones (T6) among them, latest first
            found += selectors.tournament_list(request.user, Status.CANCELLED)[:LISTED]
            found = sorted(found, key=lambda t: (t.starts_at, t.pk), reverse=True)[:LISTED]
        summaries = selectors.tournament_summaries(found)
        sections.append({"status": str(status), "title": title, "tournaments": summaries})
    return render(request, "tournaments/list.html", {"sections": sections})


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The API's creation rate counts the page's tournaments too (one count a user).
        wait = throttles.hit("table_create", str(request.user.pk))
        if wait is not None:
            form.add_error(None, _("You have created many tables this hour: wait a while."))
            response = render(request, "tournaments/new.html", {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
        try:
            created = services.tournament_create(user=_user(request), **form.cleaned_data)
        except Refusal as refusal:
            form.add_error(None, error_text(refusal.code, refusal.message))
        else:
            return redirect("tournament", tournament_id=created.pk)
    return render(request, "tournaments/new.html", {"form": form})


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament as its socket shows it, drawn on the server first; a private one asks
    for its invitation code (`?invite=`) from anyone but its creator and players."""
    tournament = _tournament_or_404(tournament_id)
    invite = request.GET.get("invite") or None
    try:
        selectors.ensure_visible(tournament, request.user, invite)
    except InviteRequired:
        return render(request, "tournaments/forbidden.html", status=403)
    view = selectors.tournament_view(tournament, request.user)
    return render(request, "tournaments/page.html", _page_context(request, view, invite))


def _page_context(request: HttpRequest, view: TournamentView, invite: str | None) -> dict[str, Any]:
    username = request.user.get_username() if request.user.is_authenticated else ""
    mine = next((row for row in view["standings"] if row["username"] == username), None)
    joined = mine is not None and not mine["withdrawn"]
    status = view["status"]
    arena = view["format"] == "arena"
    current, past = split_tables(view)
    invite_link = None
    if view["invite"]:
        path = (
            reverse("tournament", args=[view["id"]]) + "?" + urlencode({"invite": view["invite"]})
        )
        invite_link = request.build_absolute_uri(path)
    return {
        "t": view,
        "me": username,
        "joined": joined,
        "withdrawn": mine is not None and mine["withdrawn"],
        "is_creator": bool(username) and view["creator"] == username,
        "may_join": not joined
        and (status == "upcoming" or (status == "running" and (arena or mine))),
        "may_withdraw": joined and status in ("upcoming", "running"),
        "current_tables": current,
        "past_rounds": past,
        "podium": view["standings"][:3] if status == "finished" else [],
        "invite": invite,
        "invite_link": invite_link,
    }


def split_tables(view: TournamentView) -> tuple[list[TableRow], list[tuple[int, list[TableRow]]]]:
    """This round's tables (a Swiss's round in play; an arena's unfinished games) and the
    earlier ones by round, latest first."""
    if view["status"] != "running":
        current: list[TableRow] = []
    elif view["format"] == "swiss":
        current = [table for table in view["tables"] if table["round"] == view["round"]]
    else:
        current = [table for table in view["tables"] if table["status"] in ("open", "active")]
    rest = sorted(
        (table for table in view["tables"] if table not in current),
        key=lambda table: -table["round"],
    )
    past = [(number, list(tables)) for number, tables in groupby(rest, lambda t: t["round"])]
    return current, past


@login_required
@require_POST
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    invite = request.POST.get("invite") or None
    user = _user(request)
    _act(
        request,
        lambda: services.tournament_join(tournament_id=tournament_id, user=user, invite=invite),
    )
    return _back(tournament_id, invite)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    _act(request, lambda: services.tournament_withdraw(tournament_id=tournament_id, user=user))
    return _back(tournament_id, None)


@login_required
@require_POST
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    _act(request, lambda: services.tournament_start(tournament_id=tournament_id, user=user))
    return _back(tournament_id, None)


def _act(request: HttpRequest, action: Callable[[], T]) -> T | None:
    """apikit's act() with the refusals worded for a tournament."""
    try:
        return action()
    except Refusal as refusal:
        worded = WORDING.get(refusal.code)
        text = str(worded) if worded else error_text(refusal.code, refusal.message)
        messages.error(request, text)
        return None


def _back(tournament_id: int, invite: str | None) -> HttpResponse:
    path = reverse("tournament", args=[tournament_id])
    return redirect(path + ("?" + urlencode({"invite": invite}) if invite else ""))


def _tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return selectors.tournament_get(tournament_id)
    except NotFound as error:
        raise Http404 from error


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user
