"""League pages: the leaderboard with its season picker, and players' profiles."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from accounts.selectors import relation
from core.errors import Invalid
from games import selectors as game_selectors
from games.views import json_refusals
from league import selectors
from league.charts import rating_chart
from league.models import Pool
from review.selectors import review_stats


def leaderboard(request: HttpRequest) -> HttpResponse:
    try:
        season = selectors.parse_season(request.GET.get("season"))
    except Invalid:
        season = None
    try:
        pool = selectors.parse_pool(request.GET.get("pool"))
    except Invalid:
        pool = Pool.CLASSIC
    page = Paginator(selectors.leaderboard(season, pool), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "league/leaderboard.html",
        {
            "season": season,
            "pool": pool,
            "pools": Pool.choices,
            "seasons": selectors.seasons(),
            "page": page,
            "rows": [selectors.standing_row(row) for row in page],
        },
    )


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's statistics (league and casual apart), rating chart and recent games."""
    player = get_object_or_404(User, username=username, is_active=True)  # a deleted account: 404
    stats = selectors.player_stats(player, request.user)
    chart = rating_chart(stats["rating_history"], str(_("Rating after each league game")))
    context = {"player": player, "stats": stats, "chart": chart, "review": review_stats(player)}
    if isinstance(request.user, User) and request.user != player:
        context["relation"] = relation(request.user, player)
    return render(request, "league/profile.html", context)


@json_refusals
def game_ratings(request: HttpRequest, game_id: int) -> JsonResponse:
    """A finished game's rating changes as JSON for its game-end screen, for whoever may see
    the table (as its view)."""
    game = game_selectors.game_get(game_id)
    game_selectors.ensure_may_watch(game, game_selectors.seats_of(game), request.user)
    return JsonResponse(selectors.game_ratings(game))
