"""REST endpoints of the league (the API contract, "League"): public, read-only."""

from __future__ import annotations

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services as account_services
from accounts.serializers import EmailChangeSerializer
from apikit.api import paginate, player
from apikit.schema import errors, page_of, ref, whole_text
from core.errors import NotFound
from league import selectors
from league.selectors import Me as MeView
from league.selectors import PlayerProfile, Standing


class Leaderboard(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="league_leaderboard",
        parameters=[
            OpenApiParameter(
                "season",
                str,
                pattern=whole_text(f"({selectors.SEASON.pattern})?"),
                description="A month, YYYY-MM; all-time without.",
            ),
            OpenApiParameter(
                "pool",
                str,
                enum=["classic", "anniversary"],
                description="R27: classic (no special card, the default) or anniversary.",
            ),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: page_of(Standing), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        season = selectors.parse_season(request.query_params.get("season"))
        pool = selectors.parse_pool(request.query_params.get("pool"))
        rows = selectors.leaderboard(season, pool)
        return paginate(
            request, rows, self, present=lambda page: [selectors.standing_row(row) for row in page]
        )


class PlayerDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_retrieve", responses={200: ref(PlayerProfile), **errors(404)}
    )
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username=username, is_active=True).first()
        if user is None:  # never was, or deleted their account (as the profile page)
            raise NotFound(f"There is no player {username!r}.")
        return Response(selectors.player_stats(user, request.user))


class Me(APIView):
    @extend_schema(operation_id="accounts_me", responses={200: ref(MeView), **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(selectors.user_summary(player(request)))


class MeEmail(APIView):
    throttle_scope = "verify_mail"  # a change of address mails a link: as many as resends

    @extend_schema(
        operation_id="accounts_me_email",
        request=EmailChangeSerializer,
        responses={200: ref(MeView), **errors(400, 401, 429)},
        description=(
            "A new e-mail address (the password proves the caller owns the account). It is "
            "unverified until the link mailed to it is followed: `email_verified` is false and "
            "no turn mail is sent meanwhile."
        ),
    )
    def post(self, request: Request) -> Response:
        user = player(request)
        serializer = EmailChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        account_services.email_change(user=user, **serializer.validated_data)
        return Response(selectors.user_summary(user))
