"""REST endpoint for players' reports."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.api import player
from apikit.schema import errors
from moderation import services
from moderation.serializers import ReportCreatedSerializer, ReportSerializer


class Reports(APIView):
    @extend_schema(
        operation_id="reports_create",
        request=ReportSerializer,
        responses={201: ReportCreatedSerializer, **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = ReportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        report = services.report_create(
            reporter=player(request),
            username=data["username"],
            reason=data["reason"],
            message_id=data.get("message_id"),
        )
        return Response({"id": report.pk, "status": report.status}, status=status.HTTP_201_CREATED)
