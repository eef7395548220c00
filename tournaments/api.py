"""REST endpoints of the tournaments (API.md "Tournaments")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import throttles
from apikit.api import paginate, player
from apikit.schema import errors, page_of, ref
from tournaments import selectors, services
from tournaments.models import Status, Tournament
from tournaments.selectors import TournamentSummary, TournamentView
from tournaments.serializers import TournamentCreateSerializer, TournamentJoinSerializer


def _view(request: Request, tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
    fresh = selectors.tournament_get(tournament.pk)
    return Response(selectors.tournament_view(fresh, request.user), status=code)


class TournamentListCreate(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else list(super().get_permissions())

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[
            OpenApiParameter("status", str, enum=Status.values),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: page_of(TournamentSummary), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        found = selectors.tournament_list(request.user, request.query_params.get("status"))
        return paginate(request, found, self, present=selectors.tournament_summaries)

    @extend_schema(
        operation_id="tournaments_create",
        request=TournamentCreateSerializer,
        responses={201: ref(TournamentView), **errors(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = player(request)
        # The tables' hourly rate (the page's too) counts only a valid request.
        throttles.ensure_allowed("table_create", str(user.pk))
        created = services.tournament_create(user=user, **serializer.validated_data)
        return _view(request, created, status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_retrieve",
        parameters=[OpenApiParameter("invite", str, description="A private one's code.")],
        responses={
            200: ref(TournamentView),
            **errors(403, 404, s403="invite_required: a private tournament, without its code."),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id)
        selectors.ensure_visible(tournament, request.user, request.query_params.get("invite"))
        return _view(request, tournament)


class TournamentJoin(APIView):
    @extend_schema(
        operation_id="tournaments_join",
        request=TournamentJoinSerializer,
        responses={
            200: ref(TournamentView),
            **errors(
                400,
                401,
                403,
                404,
                409,
                s403="invite_required: a private tournament, without its code or with a wrong one; "
                "blocked: a player in it blocked the caller, or the caller blocked them.",
                s409="tournament_not_open: it has started (a Swiss) or ended; "
                "tournament_full: it holds as many players as one may.",
            ),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        selectors.tournament_get(tournament_id)  # an unknown one is 404 whatever the body
        serializer = TournamentJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invite = serializer.validated_data.get("invite")
        joined = services.tournament_join(
            tournament_id=tournament_id, user=player(request), invite=invite
        )
        return _view(request, joined)


class TournamentWithdraw(APIView):
    @extend_schema(
        operation_id="tournaments_withdraw",
        request=None,
        responses={
            200: ref(TournamentView),
            **errors(401, 404, 409, s409="tournament_not_open: it is over."),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        user = player(request)
        return _view(request, services.tournament_withdraw(tournament_id=tournament_id, user=user))


class TournamentStart(APIView):
    @extend_schema(
        operation_id="tournaments_start",
        request=None,
        responses={
            200: ref(TournamentView),
            **errors(
                401,
                403,
                404,
                409,
                s403="forbidden: only its creator starts it early.",
                s409="tournament_not_open: it has started or ended, or has fewer than 3 players.",
            ),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        user = player(request)
        return _view(request, services.tournament_start(tournament_id=tournament_id, user=user))
