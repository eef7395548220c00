"""League pages: the leaderboard with its season picker."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league import selectors
from wizardsite.api import Invalid


def leaderboard(request: HttpRequest) -> HttpResponse:
    try:
        season = selectors.parse_season(request.GET.get("season"))
    except Invalid:
        season = None
    page = Paginator(selectors.leaderboard(season), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "league/leaderboard.html",
        {
            "season": season,
            "seasons": selectors.seasons(),
            "page": page,
            "rows": [selectors.standing_row(row) for row in page],
        },
    )
