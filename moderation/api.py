"""REST endpoint for players' reports."""

from __future__ import annotations

from typing import TypedDict

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.api import player
from apikit.schema import errors, ref
from moderation import services
from moderation.models import ReportCategory, ReportStatus
from moderation.serializers import ReportSerializer


class ReportCreated(TypedDict):
    id: int
    status: ReportStatus


class Reports(APIView):
    @extend_schema(
        operation_id="reports_create",
        request=ReportSerializer,
        responses={201: ref(ReportCreated), **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = ReportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        report = services.report_create(
            reporter=player(request),
            username=data["username"],
            category=ReportCategory(data["category"]),
            reason=data.get("reason", ""),
            message_id=data.get("message_id"),
        )
        body: ReportCreated = {"id": report.pk, "status": ReportStatus(report.status)}
        return Response(body, status=status.HTTP_201_CREATED)
