"""REST endpoints for accounts (the API contract, "Accounts")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict, TypeVar

from django.http import HttpRequest
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.serializers import (
    CredentialsSerializer,
    RegisterSerializer,
    VerifyEmailSerializer,
)
from accounts.standing import ensure_can_play, suspension_at_login
from apikit.api import player
from apikit.schema import errors, ref
from core.errors import NotAuthenticated


def _ensure_not_suspended(request: HttpRequest, username: str, password: str) -> None:
    """A refused log-in with the right password of a suspended or banned user: 403 `suspended`
    says so (suspension_at_login)."""
    suspension = suspension_at_login(request, username, password)
    if suspension is not None:
        ensure_can_play(suspension.user)


class Registered(TypedDict):
    """The new account, with an API token so a new client can start at once."""

    id: int
    username: str
    token: str


class IssuedToken(TypedDict):
    token: str


class VerifiedAddress(TypedDict):
    """The address the token verified."""

    username: str
    email: str
    email_verified: bool


class Register(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_scope = "register"

    @extend_schema(
        operation_id="accounts_register",
        request=RegisterSerializer,
        responses={201: ref(Registered), **errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_register(**serializer.validated_data)
        token, _ = Token.objects.get_or_create(user=user)
        body: Registered = {"id": user.pk, "username": user.get_username(), "token": token.key}
        return Response(body, status=status.HTTP_201_CREATED)


class ObtainToken(APIView):
    """POST: a token for credentials (no authentication needed); DELETE: revoke the token in
    use."""

    throttle_scope = "token"
    django_request: HttpRequest  # django-axes marks a locked-out log-in on Django's request

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        self.django_request = request
        return super().initialize_request(request, *args, **kwargs)

    def get_authenticators(self) -> list[Any]:
        if getattr(self.request, "method", None) == "DELETE":
            return super().get_authenticators()
        return []  # a stale token header must not stop a log-in

    def get_permissions(self) -> list[Any]:
        if getattr(self.request, "method", None) == "DELETE":
            return list(super().get_permissions())
        return [AllowAny()]

    @extend_schema(
        operation_id="accounts_token",
        request=CredentialsSerializer,
        responses={200: ref(IssuedToken), **errors(400, 401, 403, 429)},
        description="403 `suspended`: the password is right but the account is suspended or "
        "banned. A wrong password is 401, suspended or not.",
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token = services.token_for_credentials(
                request=self.django_request, **serializer.validated_data
            )
        except NotAuthenticated:
            _ensure_not_suspended(self.django_request, **serializer.validated_data)
            raise
        body: IssuedToken = {"token": token.key}
        return Response(body)

    @extend_schema(
        operation_id="accounts_token_revoke",
        request=None,
        responses={204: None, **errors(401)},
        description="The token this request was sent with stops working.",
    )
    def delete(self, request: Request) -> Response:
        services.token_revoke(user=player(request), key=getattr(request.auth, "key", None))
        return Response(status=status.HTTP_204_NO_CONTENT)


class VerifyEmail(APIView):
    """The token of the verification mail's link, posted by an app: it is the proof, so no
    authentication is needed."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_scope = "verify_email"

    @extend_schema(
        operation_id="accounts_verify_email",
        request=VerifyEmailSerializer,
        responses={
            200: ref(VerifiedAddress),
            **errors(
                400,
                409,
                429,
                s400="invalid: the token is not ours, has expired, or the address changed since",
                s409="email_taken: another account verified this address already",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = VerifyEmailSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.email_verify(token=serializer.validated_data["token"])
        body: VerifiedAddress = {
            "username": user.get_username(),
            "email": user.email,
            "email_verified": True,
        }
        return Response(body)


class VerificationResend(APIView):
    """Another verification mail to the caller's address."""

    throttle_scope = "verify_mail"

    @extend_schema(
        operation_id="accounts_verify_email_resend",
        request=None,
        responses={202: None, **errors(400, 401, 429)},
        description=(
            "Mails a new verification link to the caller's address, unless it is verified "
            "already (by this account or another: the answer is the same). A few an hour."
        ),
    )
    def post(self, request: Request) -> Response:
        services.verification_mail_send(user=player(request))
        return Response(status=status.HTTP_202_ACCEPTED)


View = TypeVar("View", bound=Callable[..., Response])


def _relation(verb: str, what: str) -> Callable[[View], View]:
    """The schema of a follow or block endpoint: no body, 204, the contract's refusals."""
    return extend_schema(
        operation_id=f"players_{verb}",
        request=None,
        responses={
            204: None,
            **errors(400, 401, 403, 404, s400="invalid: that is you.", s403=what),
        },
    )


class Follow(APIView):
    """Follow a player (friends are mutual follows), or stop."""

    @_relation("follow", "blocked: one of you blocked the other.")
    def post(self, request: Request, username: str) -> Response:
        services.follow(user=player(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @_relation("unfollow", "suspended: the caller may not play.")
    def delete(self, request: Request, username: str) -> Response:
        services.unfollow(user=player(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Block(APIView):
    """Block a player (neither meets the other at a table, follows or invites), or lift it."""

    @_relation("block", "suspended: the caller may not play.")
    def post(self, request: Request, username: str) -> Response:
        services.block(user=player(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @_relation("unblock", "suspended: the caller may not play.")
    def delete(self, request: Request, username: str) -> Response:
        services.unblock(user=player(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
