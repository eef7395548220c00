"""REST endpoints of Play now (API.md "Play now (R28)")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import throttles
from apikit.api import player
from apikit.schema import errors, ref
from core.errors import NotFound
from seeks import selectors, services
from seeks.models import Seek
from seeks.selectors import SeekCount, SeekView
from seeks.serializers import SeekCreateSerializer


class SeekListCreate(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else list(super().get_permissions())

    @extend_schema(
        operation_id="seeks_list",
        responses={200: {"type": "array", "items": ref(SeekCount)}},
        description="How many seeks wait at each speed and deck (every pair, zero included).",
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.seek_counts())

    @extend_schema(
        operation_id="seeks_create",
        request=SeekCreateSerializer,
        responses={201: ref(SeekView), **errors(400, 401, 403, 429, s403="suspended")},
        description="R28: seat me with others. Replaces your earlier seek; matched at once "
        "(`game` is set when seated at once), else in the sweep every second. `ws/me/` "
        'sends `{"type": "seated", "game", "seek"}` when it is seated.',
    )
    def post(self, request: Request) -> Response:
        serializer = SeekCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = player(request)
        throttles.ensure_allowed("seek", str(user.pk))
        seek = services.seek_create(user=user, **serializer.validated_data)
        return Response(selectors.seek_view(seek), status=status.HTTP_201_CREATED)


class SeekMine(APIView):
    @extend_schema(
        operation_id="seeks_mine",
        responses={200: ref(SeekView), **errors(401, 404, s404="not_found: you have no seek.")},
        description="Your seek; once seated its `game`, for 10 minutes. A live seek (under an "
        "hour a turn) ends 30 s after your last socket of the site closed.",
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.seek_view(_mine(request)))

    @extend_schema(
        operation_id="seeks_cancel",
        request=None,
        responses={
            204: None,
            **errors(
                401,
                404,
                409,
                s404="not_found: you have no seek.",
                s409="already_seated: it was seated; its table is waiting for you.",
            ),
        },
    )
    def delete(self, request: Request) -> Response:
        services.seek_cancel(user=player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _mine(request: Request) -> Seek:
    seek = selectors.seek_of(player(request).pk)
    if seek is None:
        raise NotFound("You have no seek.")
    return seek
