"""REST endpoints of the notifications: the player's settings, push subscriptions and devices."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.api import flag, paginate, player
from apikit.schema import errors, page_of, ref
from core.errors import Invalid
from notifications import notices, services
from notifications.models import NoticeKind
from notifications.notices import NoticeView
from notifications.serializers import (
    NOTICES_READ_BODY,
    DeviceSerializer,
    DeviceTokenSerializer,
    NoticesReadSerializer,
    NotificationSettingsSerializer,
    PushEndpointSerializer,
    PushSubscriptionSerializer,
)
from notifications.services import SettingsView


class NotificationSettings(APIView):
    @extend_schema(
        operation_id="accounts_me_notifications",
        responses={200: ref(SettingsView), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(services.settings_view(player(request)))

    @extend_schema(
        operation_id="accounts_me_notifications_update",
        request=NotificationSettingsSerializer,
        responses={200: ref(SettingsView), **errors(400, 401)},
        description="Change either setting or both; unknown fields and non-booleans are 400.",
    )
    def patch(self, request: Request) -> Response:
        serializer = NotificationSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(services.settings_update(user=player(request), **serializer.validated_data))


class PushSubscriptions(APIView):
    @extend_schema(
        operation_id="accounts_me_push_subscriptions_create",
        request=PushSubscriptionSerializer,
        responses={201: None, **errors(400, 401)},
        description=(
            "Subscribe this browser or app to Web Push (the fields of the browser's "
            "PushSubscription.toJSON()); subscribing turns push_turns on. The endpoint must be "
            "on a push service's own host (400 `invalid` otherwise). At most 10 a player: an "
            "11th replaces the oldest. The player's own endpoint posted again takes the new "
            "keys; an endpoint another account holds is 400 `invalid` and stays theirs."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = PushSubscriptionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.push_subscription_add(
            user=player(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response(status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="accounts_me_push_subscriptions_delete",
        request=PushEndpointSerializer,
        responses={204: None, **errors(400, 401)},
        description="Forget the subscription at this endpoint (204 also when there was none).",
    )
    def delete(self, request: Request) -> Response:
        serializer = PushEndpointSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.push_subscription_remove(
            user=player(request), endpoint=serializer.validated_data["endpoint"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class Devices(APIView):
    @extend_schema(
        operation_id="accounts_me_devices_create",
        request=DeviceSerializer,
        responses={201: None, **errors(400, 401)},
        description=(
            "Register this phone app for native push: the turn, reminder, invitation and "
            "tournament notices that browsers get by Web Push, with the table's link in "
            "`data.url` (FCM) or `url` (APNs). Registering turns push_turns on. At most 10 a "
            "player: an 11th replaces the oldest. A token another account registered moves "
            "to this one (the phone signed in again)."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = DeviceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.device_add(user=player(request), **serializer.validated_data)
        return Response(status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="accounts_me_devices_delete",
        request=DeviceTokenSerializer,
        responses={204: None, **errors(400, 401)},
        description="Forget the device with this token (204 also when there was none).",
    )
    def delete(self, request: Request) -> Response:
        serializer = DeviceTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.device_remove(user=player(request), token=serializer.validated_data["token"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class Notices(APIView):
    @extend_schema(
        operation_id="notices_list",
        summary="Your notices, newest first",
        parameters=[
            OpenApiParameter("unread", bool, description="Only those not marked read yet."),
            OpenApiParameter(
                "kind", str, enum=NoticeKind.values, description="Only notices of this kind."
            ),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: page_of(NoticeView), **errors(400, 401)},
        description=(
            "What follows, invitations, rematches, tournament tables and lifted suspensions "
            "told you (as a toast, on `ws/me/` or by push), kept for you: each with its text in "
            "your language, its link and whether you have read it. Your 200 newest are kept."
        ),
    )
    def get(self, request: Request) -> Response:
        user = player(request)
        kind = request.query_params.get("kind")
        if kind is not None and kind not in NoticeKind.values:
            raise Invalid(
                f"'kind' is one of {', '.join(NoticeKind.values)}.",
                fields={"kind": NoticeKind.values},
            )
        found = notices.notices_of(user.pk, unread=flag(request, "unread"), kind=kind)
        return paginate(request, found, self, present=notices.notice_views)


class NoticesRead(APIView):
    @extend_schema(
        operation_id="notices_read",
        summary="Mark notices read",
        request=NOTICES_READ_BODY,
        responses={204: None, **errors(400, 401)},
        description=(
            "Mark these of your notices read (`ids`), or all of them (`all: true`). Ids that "
            "are not your notices change nothing."
        ),
    )
    def post(self, request: Request) -> Response:
        user = player(request)
        serializer = NoticesReadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        notices.notices_read(user_id=user.pk, ids=serializer.validated_data.get("ids"))
        return Response(status=status.HTTP_204_NO_CONTENT)
