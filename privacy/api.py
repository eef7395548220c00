"""REST endpoints of a player's own data (the API contract, "Your account and the service")."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import throttles
from apikit.api import player
from apikit.fields import StrictCharField
from apikit.schema import errors, ref
from apikit.serializers import StrictSerializer
from core.errors import RateLimited
from league import api as league_api
from privacy import export, services
from privacy.document import DataExport


class AccountDeleteSerializer(StrictSerializer):
    password = StrictCharField(
        max_length=128,
        trim_whitespace=False,
        write_only=True,
        help_text="The account's password: proof that its owner asks.",
    )


class Me(league_api.Me):
    """`GET`: the signed-in player (league.api.Me); `DELETE`: their account is deleted."""

    @extend_schema(
        operation_id="accounts_me_delete",
        request=AccountDeleteSerializer,
        responses={
            204: None,
            **errors(400, 401, 429, s400="invalid: the password is missing or wrong."),
        },
        description=(
            "Deletes the caller's account. Running games treat the seat as resigned (R18) and "
            "open tables are left; finished games, tournaments and the league keep the seat "
            "under `deleted-<n>`. The e-mail address, tokens, sessions, push subscriptions, "
            "follows, blocks, invitations and chat text are gone (a line under an open report "
            "keeps its text, for the moderators only, until the report is closed); the name "
            "is never given out again."
        ),
    )
    def delete(self, request: Request) -> Response:
        user = player(request)
        wait = throttles.hit("token", f"delete:{user.pk}")  # password guesses, as at log-in
        if wait is not None:
            raise RateLimited("Too many attempts.", retry_after=wait)
        serializer = AccountDeleteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.account_delete(user=user, password=serializer.validated_data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


EXPORT_BUSY_RETRY_SECONDS = 10


class Export(APIView):
    throttle_scope = "export"  # per player: the heaviest answer the site makes

    @extend_schema(
        operation_id="accounts_me_export",
        responses={200: ref(DataExport), **errors(401, 429)},
        description=(
            "Everything the site holds about the caller, as one JSON document sent as a "
            "download (`wizard-<username>.json`). Each game holds only what the caller's seat "
            "may see: their own hands and moves, and the seed once the game is over."
        ),
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        user = player(request)
        stream = export.ExportStream.open(user)
        if stream is None:
            raise RateLimited(
                "Exports are being made for other players: try again shortly.",
                retry_after=EXPORT_BUSY_RETRY_SECONDS,
            )
        response = StreamingHttpResponse(stream, content_type="application/json")
        filename = f"wizard-{user.get_username()}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
