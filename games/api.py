"""REST endpoints for games (the API contract, "Games"): parse input, call a service or selector."""

from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import throttles
from apikit.api import flag, paginate, player, whole_number
from apikit.schema import errors, page_of, ref
from core.errors import Invalid, NotAPlayer
from games import chat_presets, selectors, services
from games.models import GameStatus
from games.move_input import move_request
from games.outcome import Outcome
from games.selectors import ChatMessageView, EventRow, Friend, GameSummary, GameView
from games.serializers import (
    CHAT_POST_BODY,
    GAME_CREATE_BODY,
    MOVE_BODY,
    ChatPostSerializer,
    GameCreateSerializer,
    GameInviteSerializer,
    GameJoinSerializer,
)


def _answer(request: Request, outcome: Outcome, http_status: int = status.HTTP_200_OK) -> Response:
    """The caller's view of the game as the change left it."""
    return Response(outcome.view_for(request.user.pk), status=http_status)


class GameListCreate(APIView):
    def get_permissions(self) -> Sequence[BasePermission]:
        """Signed out, the list answers the games to watch; creating a table needs a sign-in."""
        if self.request.method == "GET":
            return [AllowAny()]
        return [IsAuthenticated()]

    @extend_schema(
        operation_id="games_list",
        parameters=[
            OpenApiParameter("status", str, enum=[s.value for s in GameStatus]),
            OpenApiParameter("mine", bool, description="Only tables you sit at."),
            OpenApiParameter(
                "my_turn",
                bool,
                description="Only your running games where you are to act, soonest deadline first.",
            ),
            OpenApiParameter(
                "watchable",
                bool,
                description=(
                    "Only running public tables the caller may watch and does not play at "
                    "(their spectators setting admits them), liveliest first: the most people "
                    "seated, then the fastest turns, then the latest to start. Signed out too."
                ),
            ),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: page_of(GameSummary), **errors(400, 401)},
        description=(
            "Tables newest first: public ones and the caller's own. Signed in only, except "
            "with `watchable=true`."
        ),
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in GameStatus.values:
            raise Invalid(
                f"'status' is one of {', '.join(GameStatus.values)}.",
                fields={"status": GameStatus.values},
            )
        mine, my_turn = flag(request, "mine"), flag(request, "my_turn")
        if flag(request, "watchable"):
            games = selectors.games_to_watch(request.user)
            if wanted is not None:
                games = games.filter(status=wanted)
        else:
            if not request.user.is_authenticated:  # 401 as any view that needs a sign-in
                self.permission_denied(request)
            user = player(request)
            games = selectors.game_list(user=user, status=wanted, mine=mine, my_turn=my_turn)
        return paginate(request, games, self, present=selectors.game_summaries)

    @extend_schema(
        operation_id="games_create",
        request=GAME_CREATE_BODY,
        responses={201: ref(GameView), **errors(400, 401, 403, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        user = player(request)  # 401 before anything is read of the body
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # The hour's `table_create` rate (the lobby's too) counts only a valid request.
        throttles.ensure_allowed("table_create", str(user.pk))
        outcome = services.game_create(user=user, **serializer.validated_data)
        return _answer(request, outcome, status.HTTP_201_CREATED)


class GameDetail(APIView):
    permission_classes = [AllowAny]  # signed out: the public view (API.md "Games")

    @extend_schema(
        operation_id="games_retrieve",
        responses={
            200: ref(GameView),
            **errors(403, 404, s403="not_a_player: the table's players chose who may watch."),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_view(selectors.game_get(game_id), request.user))


class GameJoin(APIView):
    @extend_schema(
        operation_id="games_join",
        request=GameJoinSerializer,
        responses={
            200: ref(GameView),
            **errors(
                400,
                401,
                403,
                404,
                409,
                s403="invite_required: a private table, joined without its invitation code or "
                "with a wrong one; blocked: a player at the table blocked the caller, or the "
                "caller blocked them.",
                s409="game_full: the table has started, ended or is full; "
                "too_many_open_tables: the caller sits at as many open tables as one may.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        selectors.game_get(game_id)  # an unknown table is 404 whatever the body
        serializer = GameJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invite = serializer.validated_data.get("invite")
        joined = services.game_join(game_id=game_id, user=player(request), invite=invite)
        return _answer(request, joined)


class GameLeave(APIView):
    @extend_schema(
        operation_id="games_leave",
        request=None,
        responses={
            200: ref(GameView),
            **errors(401, 403, 404, 409, s409="game_not_active: the game has started."),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        return _answer(request, services.game_leave(game_id=game_id, user=player(request)))


class GameMoves(APIView):
    throttle_scope = "moves"

    @extend_schema(
        operation_id="games_move",
        request=MOVE_BODY,
        responses={200: ref(GameView), **errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        body, seq = move_request(request.data)
        outcome = services.move_apply(
            game_id=game_id, user=player(request), body=body, expected_seq=seq
        )
        return _answer(request, outcome)


class GameEvents(APIView):
    permission_classes = [AllowAny]  # signed out: the rows as the public view shows them

    @extend_schema(
        operation_id="games_events",
        parameters=[
            OpenApiParameter("after", int, description="Only events with a greater seq."),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={
            200: page_of(EventRow),
            **errors(400, 403, 404, s403="not_a_player: the table's players chose who may watch."),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id)
        after = whole_number(request, "after", 0) or 0
        seats = selectors.seats_of(game)
        selectors.ensure_may_watch(game, seats, request.user)
        you = selectors.seat_of(seats, request.user)
        return paginate(
            request,
            selectors.game_events(game, after),
            self,
            present=lambda rows: [selectors.event_view(game, row, you) for row in rows],
        )


class GameChat(APIView):
    @extend_schema(
        operation_id="games_chat_list",
        parameters=[
            OpenApiParameter("after", int, description="Only messages with a greater id."),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: page_of(ChatMessageView), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id)
        after = whole_number(request, "after", 0) or 0
        if selectors.seat_of(selectors.seats_of(game), request.user) is None:
            raise NotAPlayer("A table's chat belongs to its players.")
        messages = selectors.chat_list(game, after, request.user)
        return paginate(
            request, messages, self, present=lambda rows: [selectors.chat_view(m) for m in rows]
        )

    @extend_schema(
        operation_id="games_chat_post",
        request=CHAT_POST_BODY,
        responses={201: ref(ChatMessageView), **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        message = services.chat_post(
            game_id=game_id,
            user=player(request),
            text=serializer.validated_data.get("text"),
            preset=serializer.validated_data.get("preset"),
        )
        return Response(selectors.chat_view(message), status=status.HTTP_201_CREATED)


class ChatPresets(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="chat_presets",
        responses={200: {"type": "array", "items": ref(chat_presets.ChatPreset)}},
        description="The preset chat phrases in the caller's language (Accept-Language).",
    )
    def get(self, request: Request) -> Response:
        return Response(chat_presets.presets())


class GameBack(APIView):
    @extend_schema(
        operation_id="games_back",
        request=None,
        responses={
            200: ref(GameView),
            **errors(
                401,
                403,
                404,
                409,
                s409="game_not_active: the game is not running, or you resigned it.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """R18: you are no longer away; a decision of yours now pending gets the full limit."""
        outcome, _ = services.seat_back(game_id=game_id, user=player(request))
        return _answer(request, outcome)


class GameSitOut(APIView):
    @extend_schema(
        operation_id="games_sit_out",
        request=None,
        responses={
            200: ref(GameView),
            **errors(401, 403, 404, 409, s409="game_not_active: the game is not running."),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """R18: you are away at once; the medium bot makes each of your decisions within 5
        seconds (or the table's limit, if shorter) until you are back (`back/`, or a move)."""
        outcome, _ = services.seat_sit_out(game_id=game_id, user=player(request))
        return _answer(request, outcome)


class GameResign(APIView):
    @extend_schema(
        operation_id="games_resign",
        request=None,
        responses={
            200: ref(GameView),
            **errors(401, 403, 404, 409, s409="game_not_active: the game is not running."),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Give up: with one human seat the game is aborted, else your seat is away to the end
        (R18); it still counts for the league with your final place (R17)."""
        return _answer(request, services.seat_resign(game_id=game_id, user=player(request)))


class GameInvite(APIView):
    throttle_scope = "invite"

    @extend_schema(
        operation_id="games_invite",
        request=GameInviteSerializer,
        responses={
            204: None,
            **errors(
                400,
                401,
                403,
                404,
                409,
                429,
                s403="not_a_player: only the table's players invite; not_a_friend: the "
                "invited player is not the caller's friend (a mutual follow).",
                s409="game_not_active: the game is over.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = GameInviteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        username = serializer.validated_data["username"]
        services.game_invite(game_id=game_id, user=player(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Friends(APIView):
    @extend_schema(
        operation_id="accounts_me_friends",
        responses={200: {"type": "array", "items": ref(Friend)}, **errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.friends_of(player(request)))
