"""The replay page: a finished game's frames and, beside each of the viewer's own decisions, the
hard bot's second opinion once the review is stored (a note says it is on its way before)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games import replays, selectors
from games.views import closed_as_403, game_or_404
from review.selectors import ReviewedDecisionView, seat_opinions


@closed_as_403
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game step by step, every hand shown; the viewer's decisions reviewed."""
    game = game_or_404(game_id)
    if not game.is_over:
        messages.info(request, _("The replay opens when the game is over."))
        return redirect("table", game_id=game_id)
    view = selectors.game_view(game, request.user)  # as who may watch the table
    frames = replays.replay_frames(game)
    opinions = seat_opinions(game.pk, view["you"]) if game.status == "finished" else {}
    for frame in frames:
        if opinions and frame["seq"] in opinions:
            frame["opinion"] = opinions[frame["seq"]]
    context = {
        "game": game,
        "view": view,
        "frames": frames,
        "review_pending": opinions is None and view["you"] is not None,
        "review": _summary(list(opinions.values())) if opinions else None,
    }
    return render(request, "games/replay.html", context)


def _summary(opinions: list[ReviewedDecisionView]) -> dict[str, int]:
    """The viewer's game in one line: decisions as the expert's, points it expects were left."""
    return {
        "matched": sum(opinion["matched"] for opinion in opinions),
        "decisions": len(opinions),
        "points": round(sum(opinion["points"] for opinion in opinions)),
    }
