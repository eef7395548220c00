"""Browser pages: lobby, table, my games, replay. Writes go through services like the API."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import selectors as account_selectors
from apikit import throttles
from apikit.errors_text import ERROR_TEXT, act, error_text
from core import limits
from core.errors import NotAPlayer, NotFound, TooMany, error_body
from games import chat_presets, guide, presence, selectors, services
from games.forms import TableForm
from games.models import Game, GameStatus

P = ParamSpec("P")


def lobby(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        if form.is_valid():
            # The API's `table_create` rate counts the lobby's tables too (one count a user).
            wait = throttles.hit("table_create", str(request.user.pk))
            if wait is not None:
                form.add_error(None, _("You have created many tables this hour: wait a while."))
                response = _lobby_page(request, form, status=429)
                response["Retry-After"] = str(wait)
                return response
            try:
                game = services.game_create(user=_user(request), **form.cleaned_data).game
            except TooMany as refusal:
                form.add_error(None, error_text(refusal.code, refusal.message))
                return _lobby_page(request, form, status=409)
            return redirect("table", game_id=game.pk)
    return _lobby_page(request, form)


def _lobby_page(request: HttpRequest, form: TableForm, status: int = 200) -> HttpResponse:
    newcomer = request.user.is_authenticated and not selectors.has_sat(request.user)
    context = {"form": form, "newcomer": newcomer, **_lobby_tables(request)}
    if request.user.is_authenticated:
        context["friends_panel"] = _friends_panel(_user(request))
    return render(request, "games/lobby.html", context, status=status)


def lobby_tables(request: HttpRequest) -> HttpResponse:
    """The open and running tables, as the lobby page refreshes them live."""
    return render(request, "games/_tables.html", _lobby_tables(request))


FINISHED = (GameStatus.FINISHED, GameStatus.ABORTED)
FOUND_PER_PAGE = 20  # players a search of the friends page lists at once
WATCH_LISTED = 10  # games to watch in the lobby and on the home page


def running_games(request: HttpRequest) -> dict[str, Any]:
    """The signed-in player's running games (`my_tables`; live and correspondence ones apart,
    `my_live` and `my_correspondence`), those where they are to act first, soonest deadline
    first; `my_turns`: the ids of those."""
    if not request.user.is_authenticated:
        return {"my_tables": [], "my_turns": set(), "my_live": [], "my_correspondence": []}
    user = request.user
    waiting = selectors.game_list(user=user, status=None, mine=False, my_turn=True)
    turns = list(waiting.values_list("pk", flat=True)[:20])
    mine = selectors.game_summaries(
        selectors.game_list(user=user, status=GameStatus.ACTIVE, mine=True)[:20]
    )
    first = sorted(mine, key=lambda t: turns.index(t["id"]) if t["id"] in turns else len(turns))
    return {
        "my_tables": first,
        "my_turns": set(turns),
        # Live tables and correspondence tables (a limit of an hour or more) are listed apart.
        "my_live": [t for t in first if not _correspondence(t)],
        "my_correspondence": [t for t in first if _correspondence(t)],
    }


def games_to_watch(request: HttpRequest) -> list[selectors.GameSummary]:
    return selectors.game_summaries(selectors.games_to_watch(request.user)[:WATCH_LISTED])


def _lobby_tables(request: HttpRequest) -> dict[str, Any]:
    open_games = selectors.game_list(user=request.user, status=GameStatus.OPEN, mine=False)[:50]
    open_tables = selectors.game_summaries(open_games)
    return {
        **running_games(request),
        "open_tables": open_tables,
        "watch_tables": games_to_watch(request),
        "open_live": [t for t in open_tables if not _correspondence(t)],
        "open_correspondence": [t for t in open_tables if _correspondence(t)],
    }


def _correspondence(summary: selectors.GameSummary) -> bool:
    return summary["turn_seconds"] >= limits.CORRESPONDENCE_SECONDS


MY_GAMES_SHOWN = 100
MY_GAMES_FILTERS = ("all", "won", "people", "bots")


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games: running ones (their turn first), and finished ones newest first
    with their date and the player's place, filtered to the won ones, the ones with people
    only or the ones with bots."""
    shown = request.GET.get("show", "all")
    shown = shown if shown in MY_GAMES_FILTERS else "all"
    user = _user(request)
    games = list(selectors.game_list(user=user, status=None, mine=True)[:MY_GAMES_SHOWN])
    ended = {game.pk: game.finished_at or game.created_at for game in games}
    places = {s.game_id: s.place for g in games for s in g.seat_set.all() if s.user_id == user.pk}
    rows = []
    for summary in selectors.game_summaries(g for g in games if g.status in FINISHED):
        place = places[summary["id"]]  # R15's, stored at the end (none for a stopped game)
        won = place == 1
        bots = summary["bots"] > 0
        keep = {"all": True, "won": won, "people": not bots, "bots": bots}[shown]
        if keep:
            rows.append({"game": summary, "ended": ended[summary["id"]], "place": place})
    return render(
        request,
        "games/my_games.html",
        {
            **running_games(request),
            "finished": rows,
            "shown": shown,
            "filters": MY_GAMES_FILTERS,
        },
    )


@login_required
@require_POST
def guided(request: HttpRequest) -> HttpResponse:
    """A guided game against bots (games.guide), for learning; a refusal (too many games with
    bots) shows on the lobby."""
    if throttles.hit("table_create", str(request.user.pk)) is not None:
        messages.error(request, _("You have created many tables this hour: wait a while."))
        return redirect("lobby")
    outcome = act(request, lambda: services.guided_game_start(user=_user(request)))
    return redirect("table", game_id=outcome.game.pk) if outcome else redirect("lobby")


def json_refusals(view: Callable[P, JsonResponse]) -> Callable[P, JsonResponse]:
    """For the JSON a table's page reads: a missing game is the contract's 404 `not_found`,
    a table closed to the caller its 403 `not_a_player` (never an HTML page)."""

    @wraps(view)
    def answer(*args: P.args, **kwargs: P.kwargs) -> JsonResponse:
        try:
            return view(*args, **kwargs)
        except (NotFound, NotAPlayer) as refusal:
            status = 404 if isinstance(refusal, NotFound) else 403
            return JsonResponse(error_body(refusal.code, refusal.message), status=status)

    return answer


@login_required
@json_refusals
def hint(request: HttpRequest, game_id: int) -> JsonResponse:
    """The hint for the caller's decision at their guided game, as JSON for its table page."""
    wait = throttles.hit("hint", str(request.user.pk))
    if wait is not None:
        message = f"Too many hints: wait {wait} s."
        response = JsonResponse(error_body("rate_limited", message), status=429)
        response["Retry-After"] = str(wait)
        return response
    return JsonResponse(guide.hint(selectors.game_get(game_id), _user(request)))


@json_refusals
def table_presence(request: HttpRequest, game_id: int) -> JsonResponse:
    """For the table's page: how many sockets watch it without a seat, which seats' players
    have no socket open (the page's marks are right again here should a pushed view have been
    lost or overtaken), and since when each has been away (where known), as seconds ago. Only
    for those who may see the table."""
    game = selectors.game_get(game_id)
    seats = selectors.seats_of(game)
    selectors.ensure_may_watch(game, seats, request.user)
    people = {seat.user_id: seat.number for seat in seats if seat.user_id is not None}
    offline = set(people) - presence.online(people)
    now = time.time()
    return JsonResponse(
        {
            "spectators": presence.watchers(game.pk),
            "offline": sorted(people[user_id] for user_id in offline),
            "offline_for": {
                str(people[user_id]): max(0, round(now - moment))
                for user_id, moment in presence.last_seen(offline).items()
            },
        }
    )


def closed_as_403(
    page: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """A table page the visitor may not see (its players chose who may watch) answers the 403
    page: a refusal, which Django logs in one line (a raised PermissionDenied would log its
    whole traceback with every such request)."""

    @wraps(page)
    def answer(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            return page(request, *args, **kwargs)
        except NotAPlayer:
            return render(request, "403.html", status=403)

    return answer


@closed_as_403
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(game_id)
    view = selectors.game_view(game, request.user)
    texts = {code: str(text) for code, text in ERROR_TEXT.items()}
    context = {
        "game": game,
        "view": view,
        "error_texts": texts,
        "chat_presets": chat_presets.presets(),
    }
    if view["you"] is not None and game.status == GameStatus.OPEN:
        context["friends_panel"] = _friends_panel(_user(request))
        if game.rematch_of_id is not None:
            context["rematch_missing"] = _rematch_missing(game, _user(request))
    return render(request, "games/table.html", context)


def _rematch_missing(rematch: Game, user: User) -> list[dict[str, Any]]:
    """The last game's people not seated at its rematch yet, each with whether a block between
    them and `user` keeps them out (they were not invited)."""
    last = rematch.rematch_of
    if last is None:
        return []
    seated = {seat.user_id for seat in selectors.seats_of(rematch)}
    blocked = account_selectors.blocked_ids(user.pk)
    return [
        {"name": seat.display_name, "blocked": seat.user_id in blocked}
        for seat in selectors.seats_of(last)
        if seat.user_id is not None and seat.user_id not in seated
    ]


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    invite = request.POST.get("invite") or None  # from the invitation page of a private table
    act(request, lambda: services.game_join(game_id=game_id, user=_user(request), invite=invite))
    return redirect("table", game_id=game_id)


def invitation(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation link `/i/<code>/`: the table, and a join button (or sign up / log in,
    which bring the visitor back here). A player already seated goes straight to the table."""
    game = Game.objects.filter(invite_code=code).select_related("created_by").first()
    if game is None:
        raise Http404
    seats = selectors.seats_of(game)
    if selectors.seat_of(seats, request.user) is not None:
        return redirect("table", game_id=game.pk)
    summary = selectors.game_summaries([game])[0]
    return render(request, "games/invitation.html", {"game": game, "table": summary, "code": code})


@login_required
@require_POST
def add_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    """The waiting room's "Give a seat to a bot" (the table's creator)."""
    act(request, lambda: services.game_add_bot(game_id=game_id, user=_user(request)))
    return redirect("table", game_id=game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    if act(request, lambda: services.game_leave(game_id=game_id, user=_user(request))):
        return redirect("lobby")
    return redirect("table", game_id=game_id)


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    outcome = act(request, lambda: services.game_rematch(game_id=game_id, user=_user(request)))
    return redirect("table", game_id=outcome.game.pk if outcome else game_id)


def game_or_404(game_id: int) -> Any:
    try:
        return selectors.game_get(game_id)
    except NotFound as error:
        raise Http404 from error


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    """The player's friends, online or not, with the tables they sit at; the follows not yet
    returned and the players they blocked."""
    user = _user(request)
    wanted = request.GET.get("find", "").strip()
    context: dict[str, Any] = {}
    if wanted:
        # Names starting with what was typed, any case, 20 a page; an exact name opens at once.
        found = User.objects.filter(is_active=True, username__istartswith=wanted)
        exact = found.filter(username__iexact=wanted).first()
        if exact is not None and not request.GET.get("page"):
            return redirect("profile", username=exact.username)
        page = Paginator(found.order_by("username"), FOUND_PER_PAGE).get_page(
            request.GET.get("page")
        )
        if not page.object_list:
            messages.error(request, _("There is no player %(name)s.") % {"name": wanted})
        context = {"found": page, "wanted": wanted}
    context |= {
        "friends_panel": _friends_panel(user),
        "circle": account_selectors.circle(user),
        "friends_page": True,
    }
    return render(request, "games/friends.html", context)


def _friends_panel(user: User) -> dict[str, Any]:
    """What the friends panel shows (lobby and friends page): each friend, and the tables of
    the player's own they may be invited to."""
    return {"friends": selectors.friends_of(user), "tables": selectors.tables_to_invite_to(user)}


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user
