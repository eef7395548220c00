"""REST endpoint of the review: a finished game's second opinion for one of its players."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.schema import errors, ref
from review import selectors
from review.selectors import GameAnalysis


class GameAnalysisDetail(APIView):
    @extend_schema(
        operation_id="games_analysis",
        responses={
            200: ref(GameAnalysis),
            **errors(
                401,
                403,
                404,
                s403="not_a_player: only the game's players see its review.",
                s404="not_found: no such game, or its review is not stored yet.",
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The caller's decisions in a finished game, each with the hard bot's choice and the
        points it expects that choice to gain (404 until the review is stored)."""
        return Response(selectors.game_analysis(game_id, request.user))
