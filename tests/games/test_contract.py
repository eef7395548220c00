"""The served OpenAPI schema is the contract (API.md): a whole game is played through REST and
the websocket, and every response body and every pushed message is checked strictly against
the schema — no field it does not name, every required field present, types right, and no
HTTP status the operation does not list."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

from games import engine, services
from games.engine.cards import CARDS
from games.models import Game
from tests.games.helpers import API, PASSWORD, SPECIAL_SEED, Player, choose_move
from tests.live.helpers import QUIET, Socket, Sockets, db
from wizardsite.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# The socket messages of API.md "WebSocket", by `type`, and their components in the schema.
SOCKET_COMPONENTS = {
    "state": "StateSocketMessage",
    "error": "ErrorSocketMessage",
    "chat": "ChatSocketMessage",
    "chat_hidden": "ChatHiddenSocketMessage",
    "lobby": "LobbySocketMessage",
    "turn": "TurnSocketMessage",
    "games": "GamesSocketMessage",
    "invite": "InviteSocketMessage",
    "tournament": "TournamentSocketMessage",
    "seated": "SeatedSocketMessage",
}
PLAYERS = 3
# The whole game is R19's first rounds only: every phase, refusal and event of a classic game
# comes in them (the seed below turns up a Wizard in one), in a tenth of the full game's moves.
ROUNDS = 6
NO_GAME = 10**6
# Paths as the schema writes them.
REGISTER, TOKEN, ME = (f"{API}/accounts/{name}/" for name in ("register", "token", "me"))
GAMES = f"{API}/games/"
GAME = f"{API}/games/{{game_id}}/"
REPORTS = f"{API}/reports/"
LEADERBOARD = f"{API}/league/leaderboard/"
PROFILE = f"{API}/players/{{username}}/"
NOTIFICATIONS = f"{API}/accounts/me/notifications/"
PUSH_SUBSCRIPTIONS = f"{API}/accounts/me/push-subscriptions/"
DEVICES = f"{API}/accounts/me/devices/"
VERIFY_EMAIL = f"{API}/accounts/verify-email/"
RESEND_VERIFICATION = f"{API}/accounts/me/verify-email/resend/"
ME_EMAIL = f"{API}/accounts/me/email/"

FORMATS = FormatChecker()
# The events only special cards cause (R23, R24).
SPECIAL_EVENTS = {"werewolf", "pass", "cards_passed", "adjust"}


@FORMATS.checks("date-time", raises=ValueError)
def _is_a_utc_time(value: object) -> bool:
    # jsonschema checks date-time only with an optional package: check the contract's form.
    return not isinstance(value, str) or (
        value.endswith("Z") and datetime.fromisoformat(value).tzinfo is not None
    )


def strict(node: Any) -> Any:
    """OpenAPI 3.0 schema → JSON Schema: `nullable` as a union with null, references into
    `$defs`, and objects closed to fields the schema does not name."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: strict(value) for key, value in node.items() if key != "nullable"}
    if "$ref" in converted:
        converted["$ref"] = converted["$ref"].replace("#/components/schemas/", "#/$defs/")
    if "properties" in converted:
        converted.setdefault("additionalProperties", False)
    return {"anyOf": [converted, {"type": "null"}]} if node.get("nullable") else converted


class Contract:
    """The served schema as strict validators of responses and socket messages."""

    def __init__(self, openapi: dict[str, Any]) -> None:
        self.openapi = openapi
        self.defs = {name: strict(node) for name, node in openapi["components"]["schemas"].items()}
        self.checked: dict[str, int] = {}  # what was validated, to show the test saw it all

    def validate(self, body: Any, schema: dict[str, Any], what: str) -> None:
        validator = Draft202012Validator(
            {**strict(schema), "$defs": self.defs}, format_checker=FORMATS
        )
        problems = [
            f"{'/'.join(map(str, error.absolute_path)) or '(body)'}: {error.message}"
            for error in validator.iter_errors(body)
        ]
        assert not problems, f"{what} breaks the schema:\n" + "\n".join(problems)
        self.checked[what] = self.checked.get(what, 0) + 1

    def response(self, response: Any, method: str, path: str) -> Any:
        """The body of a response to `method path` (a path of the schema), once checked."""
        operation = self.openapi["paths"][path][method]
        status = str(response.status_code)
        assert status in operation["responses"], (
            f"{method.upper()} {path} answered {status}, which the schema does not list: "
            f"{response.content[:300]!r}"
        )
        content = operation["responses"][status].get("content")
        if content is None:
            assert not response.content
            what = f"{method} {path} {status}"
            self.checked[what] = self.checked.get(what, 0) + 1
            return None
        assert response["Content-Type"].startswith("application/json")
        # A long document (the data export) is streamed: the same JSON, read piece by piece.
        body = json.loads(b"".join(response.streaming_content)) if response.streaming else None
        body = response.json() if not response.streaming else body
        self.validate(body, content["application/json"]["schema"], f"{method} {path} {status}")
        return body

    def message(self, message: Any) -> dict[str, Any]:
        """A socket message, once checked against the component of its `type`."""
        assert isinstance(message, dict) and message.get("type") in SOCKET_COMPONENTS, message
        name = SOCKET_COMPONENTS[message["type"]]
        self.validate(message, {"$ref": f"#/components/schemas/{name}"}, f"socket {name}")
        return message


@pytest.fixture
def _fresh_layer(settings: Any) -> None:
    # A fresh in-memory layer per test: no push is left over from another test's event loop.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest_asyncio.fixture
async def sockets(_fresh_layer: None) -> AsyncIterator[Sockets]:
    opened = Sockets()
    try:
        yield opened
    finally:
        await opened.close_all()


@pytest_asyncio.fixture
async def contract() -> Contract:
    response = await db(APIClient().get, f"{API}/schema/?format=json")
    assert response.status_code == 200
    openapi = response.json()
    assert set(SOCKET_COMPONENTS.values()) <= set(openapi["components"]["schemas"])
    return Contract(openapi)


def seed_with_a_wizard_turned_up() -> str:
    """A seed whose deal turns up a Wizard after the blind round, so the dealer chooses trump
    (R5) in a round played with hands in view."""
    for number in itertools.count():
        seed = f"contract-{number}"
        dealer = engine.first_dealer(seed, PLAYERS)
        for round_number in range(1, ROUNDS + 1):
            _, turned_up = engine.deal_round(seed, round_number, PLAYERS, dealer)
            if round_number > 1 and turned_up is not None and CARDS[turned_up].is_wizard:
                return seed
            dealer = (dealer + 1) % PLAYERS
    raise AssertionError("unreachable")


def _read_whole(send: Any, path: str, body: Any) -> Any:
    """A request, with a streamed answer read here, where the database may be used."""
    response = send(path, body, format="json")
    if response.streaming:
        response.streaming_content = [b"".join(response.streaming_content)]
    return response


class Rest:
    """REST calls whose every answer is checked against the schema."""

    def __init__(self, contract: Contract) -> None:
        self.contract = contract

    async def call(
        self, client: APIClient, method: str, path: str, body: Any = None, **params: Any
    ) -> tuple[int, Any]:
        """`method` on `path` (as the schema writes it; `params` fill it in, `query` is added)."""
        query = params.pop("query", "")
        send = getattr(client, method)
        response = await db(_read_whole, send, path.format(**params) + query, body)
        answer = self.contract.response(response, method, path)
        request_body = self.contract.openapi["paths"][path][method].get("requestBody")
        sent = body is not None or (request_body or {}).get("required", False)
        if request_body is not None and sent and response.status_code < 300:
            # What the server accepted, the schema allows: a client built from it can send it
            # (an optional body, such as a public table's join, may also be left out).
            schema = request_body["content"]["application/json"]["schema"]
            self.contract.validate(body, schema, f"{method} {path} request")
        return response.status_code, answer

    async def status(self, *args: Any, **params: Any) -> int:
        return (await self.call(*args, **params))[0]

    async def register(self, username: str) -> Player:
        """A new account through register, and its token asked for again through token."""
        client = APIClient()
        credentials = {"username": username, "password": PASSWORD}
        status, body = await self.call(
            client, "post", REGISTER, {**credentials, "email": f"{username}@example.com"}
        )
        assert status == 201
        status, token = await self.call(APIClient(), "post", TOKEN, credentials)
        assert status == 200 and token["token"] == body["token"]
        client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        return Player(username=username, user_id=body["id"], token=body["token"], client=client)

    async def view(self, player: Player, game_id: int) -> dict[str, Any]:
        status, view = await self.call(player.client, "get", GAME, game_id=game_id)
        assert status == 200
        return view  # type: ignore[no-any-return]

    async def move(self, player: Player, game_id: int, move: Any) -> tuple[int, Any]:
        return await self.call(player.client, "post", GAME + "moves/", move, game_id=game_id)

    async def refused(self, player: Player, game_id: int, move: Any) -> tuple[int, str]:
        """The status and error code of a move that must be refused."""
        status, body = await self.move(player, game_id, move)
        return status, body["error"]["code"]

    async def events(self, player: Player, game_id: int) -> list[dict[str, Any]]:
        """Every event the player may see, page by page."""
        found: list[dict[str, Any]] = []
        for page_number in itertools.count(1):
            query = f"?after=0&page_size=40&page={page_number}"
            status, page = await self.call(
                player.client, "get", GAME + "events/", game_id=game_id, query=query
            )
            assert status == 200
            found.extend(page["results"])
            if page["next"] is None:
                return found
        raise AssertionError("unreachable")


async def refusals(rest: Rest, people: list[Player], stranger: Player, game_id: int) -> None:
    """Who may move and when: each refusal has its status and the contract's error object; a
    refused move changes nothing, so no push follows."""
    seat = (await rest.view(people[0], game_id))["to_act"]
    mine = await rest.view(people[seat], game_id)
    move = {**choose_move(mine["legal"], None), "seq": mine["seq"]}
    other = people[(seat + 1) % PLAYERS]
    anonymous = Player(username="", user_id=0, token="", client=APIClient())
    assert await rest.refused(other, game_id, move) == (409, "not_your_turn")
    stale = {**move, "seq": mine["seq"] - 1}
    assert await rest.refused(people[seat], game_id, stale) == (409, "stale_state")
    assert await rest.refused(stranger, game_id, move) == (403, "not_a_player")
    assert await rest.refused(anonymous, game_id, move) == (401, "not_authenticated")
    for malformed in ({"type": "dance"}, ["not", "an", "object"]):
        assert await rest.refused(people[seat], game_id, malformed) == (400, "invalid")


async def rule_refusals(
    rest: Rest, player: Player, game_id: int, view: dict[str, Any], seen: set[str]
) -> None:
    """The rules' refusals this decision allows, each tried once per game: the dealer's
    forbidden bid (R8), a bid out of range (R7), a card that does not follow suit (R12)."""
    round_view, legal = view["round"], view["legal"]
    tries = []
    if "bids" in legal:
        forbidden = round_view["cards"] - sum(bid or 0 for bid in round_view["bids"])
        if view["you"] == round_view["dealer"] and 0 <= forbidden <= round_view["cards"]:
            tries.append(("hook_rule", {"type": "bid", "bid": forbidden}))
        tries.append(("illegal_bid", {"type": "bid", "bid": 99}))
    if "cards" in legal:
        tries += [
            ("illegal_card", {"type": "play", "card": card})
            for card in sorted(set(view["hand"] or []) - set(legal["cards"]))[:1]
        ]
    for code, move in tries:
        if code not in seen:
            assert await rest.refused(player, game_id, move) == (400, code)
            seen.add(code)


async def everyone_gets(
    contract: Contract, sockets: list[Socket], kind: str
) -> list[dict[str, Any]]:
    """The next message of every socket, each of `kind`, once checked."""
    found = [contract.message(await socket.message()) for socket in sockets]
    assert all(message["type"] == kind for message in found), found
    return found


async def test_a_whole_game_through_rest_and_sockets_keeps_to_the_served_schema(
    contract: Contract, sockets: Sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    rest = Rest(contract)
    people = [await rest.register(f"seat{seat}") for seat in range(PLAYERS)]
    stranger = await rest.register("watcher")
    anonymous = APIClient()

    # -- accounts and tables, with their refusals -------------------------------------------
    taken = {"username": "seat0", "password": PASSWORD, "email": "x@example.com"}
    assert await rest.status(anonymous, "post", REGISTER, taken) == 400
    wrong = {"username": "seat0", "password": "wrong"}
    assert await rest.status(anonymous, "post", TOKEN, wrong) in (400, 401)
    assert await rest.status(people[0].client, "get", ME) == 200
    assert await rest.status(anonymous, "get", ME) == 401
    assert await rest.status(stranger.client, "get", GAMES, query="?status=x") == 400
    assert await rest.status(people[0].client, "post", GAMES, {"seats": 9}) == 400
    assert await rest.status(anonymous, "post", GAMES, {"seats": 3}) == 401

    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    sockets.communicators.append(lobby)
    assert (await lobby.connect())[0]
    me = WebsocketCommunicator(application, f"/ws/me/?token={people[0].token}")
    sockets.communicators.append(me)
    assert (await me.connect())[0]

    status, left = await rest.call(stranger.client, "post", GAMES, {"seats": 3})
    assert status == 201
    assert await rest.status(stranger.client, "post", GAME + "resign/", game_id=left["id"]) == 409
    assert await rest.status(stranger.client, "post", GAME + "leave/", game_id=left["id"]) == 200
    # Alone with bots, resigning aborts the game (R18).
    status, solo = await rest.call(stranger.client, "post", GAMES, {"seats": 3, "bots": 2})
    assert status == 201 and solo["status"] == "active"
    status, resigned = await rest.call(
        stranger.client, "post", GAME + "resign/", game_id=solo["id"]
    )
    assert status == 200 and resigned["status"] == "aborted"

    monkeypatch.setattr(engine, "new_seed", seed_with_a_wizard_turned_up)
    options = {"seats": PLAYERS, "hook_rule": True, "blind_first_round": True, "rounds": ROUNDS}
    status, created = await rest.call(people[0].client, "post", GAMES, options)
    assert status == 201 and created["status"] == "open"
    game_id = created["id"]
    seat_sockets = [await sockets.open(game_id, token=player.token) for player in people]
    every = [*seat_sockets, await sockets.open(game_id, token=stranger.token)]
    await everyone_gets(contract, every, "state")  # the view on connect
    assert created["invite"] and created["visibility"] == "public"
    for player in people[1:]:  # the last with the invitation code, which a public table takes
        body = {"invite": created["invite"]} if player is people[-1] else None
        status = await rest.status(player.client, "post", GAME + "join/", body, game_id=game_id)
        assert status == 200
        await everyone_gets(contract, every, "state")
    assert await rest.status(stranger.client, "post", GAME + "join/", game_id=game_id) == 409
    assert await rest.status(stranger.client, "post", GAME + "join/", game_id=NO_GAME) == 404
    assert await rest.status(people[1].client, "post", GAME + "leave/", game_id=game_id) == 409
    assert await rest.status(stranger.client, "get", GAME, game_id=NO_GAME) == 404
    status, watched = await rest.call(anonymous, "get", GAME, game_id=game_id)
    assert status == 200 and watched["you"] is None and watched["hand"] is None
    status, listed = await rest.call(people[0].client, "get", GAMES, query="?mine=true")
    assert status == 200 and game_id in [game["id"] for game in listed["results"]]

    # -- the game: odd rounds through REST, even rounds through the sockets -----------------
    await refusals(rest, people, stranger, game_id)
    rng = random.Random(7)
    phases: set[str] = set()
    refused: set[str] = set()
    view = await rest.view(stranger, game_id)
    while view["status"] == "active":
        seat = view["to_act"]
        mine = await rest.view(people[seat], game_id)
        phases.add(mine["round"]["phase"])
        await rule_refusals(rest, people[seat], game_id, mine, refused)
        move = {**choose_move(mine["legal"], rng), "seq": mine["seq"]}
        if mine["round"]["number"] % 2:
            status, body = await rest.move(people[seat], game_id, move)
            assert status == 200 and body["seq"] > mine["seq"], body
        else:
            await seat_sockets[seat].send({"type": "move", "move": move})
        pushed = await everyone_gets(contract, every, "state")
        assert len({message["state"]["seq"] for message in pushed}) == 1
        view = pushed[-1]["state"]
        if view["round"]["number"] == 2 and "chat" not in phases:
            phases.add("chat")
            # R18: sitting out and coming back; each tells every socket of the table.
            status, away = await rest.call(
                people[0].client, "post", GAME + "sit-out/", **at(game_id)
            )
            assert status == 200 and [p["away"] for p in away["players"]].count(True) == 1
            await everyone_gets(contract, every, "state")
            status, back = await rest.call(people[0].client, "post", GAME + "back/", **at(game_id))
            assert status == 200 and not any(player["away"] for player in back["players"])
            await everyone_gets(contract, every, "state")
            assert (
                await rest.status(stranger.client, "post", GAME + "sit-out/", **at(game_id)) == 403
            )
            assert await rest.status(stranger.client, "post", GAME + "back/", **at(game_id)) == 403
            await talk(rest, contract, people, stranger, every, game_id)
            await socket_refusals(contract, seat_sockets, view)
    assert phases == {"choosing_trump", "bidding", "playing", "chat"}, phases
    assert refused == {"hook_rule", "illegal_bid", "illegal_card"}, refused
    assert view["status"] == "finished" and view["shuffle_seed"] and view["winners"]

    # -- after the game: events, rematch, league, profile -----------------------------------
    for player in (*people, stranger):
        events = await rest.events(player, game_id)
        assert [event["seq"] for event in events] == list(range(1, view["seq"] + 1))
        assert {event["type"] for event in events} == set(engine.EVENT_TYPES) - SPECIAL_EVENTS
    assert await rest.status(people[1].client, "post", GAME + "back/", **at(game_id)) == 409
    assert await rest.status(people[1].client, "post", GAME + "sit-out/", **at(game_id)) == 409
    # The review ran after the last commit (an eager task here): each player sees their own.
    status, analysis = await rest.call(people[1].client, "get", GAME + "analysis/", **at(game_id))
    assert status == 200 and analysis["seat"] == 1 and analysis["decisions"]
    assert await rest.status(stranger.client, "get", GAME + "analysis/", **at(game_id)) == 403
    bad_after = {"game_id": game_id, "query": "?after=x"}
    assert await rest.status(people[0].client, "get", GAME + "events/", **bad_after) == 400
    await db(_rematch, people[0], game_id)
    rematch = (await everyone_gets(contract, every, "state"))[0]["state"]["rematch"]
    assert isinstance(rematch, int) and (await rest.view(people[0], game_id))["rematch"] == rematch

    status, board = await rest.call(stranger.client, "get", LEADERBOARD)
    assert status == 200 and set(board) == {"count", "next", "previous", "results"}
    assert await rest.status(anonymous, "get", LEADERBOARD, query="?season=2026-13") == 400
    status, profile = await rest.call(anonymous, "get", PROFILE, username="seat0")
    assert status == 200 and profile["games_played"] == 1 and profile["recent_games"]
    assert await rest.status(anonymous, "get", PROFILE, username="nobody") == 404
    assert (await rest.call(people[0].client, "get", ME))[1]["games_played"] == 1

    lobby_messages = []
    while not await lobby.receive_nothing(QUIET):
        lobby_messages.append(contract.message(await lobby.receive_json_from()))
    assert {message["type"] for message in lobby_messages} == {"lobby"}
    assert {"open", "active", "finished"} <= {message["status"] for message in lobby_messages}
    mine = []
    while not await me.receive_nothing(QUIET):
        mine.append(contract.message(await me.receive_json_from()))
    assert {message["type"] for message in mine} == {"games", "turn"}
    assert {message["game"] for message in mine if message["type"] == "turn"} == {game_id}
    for socket in every:
        assert await socket.nothing()

    # Notification settings and a push subscription, as an app sets them.
    client = people[0].client
    status, settings = await rest.call(client, "get", NOTIFICATIONS)
    assert status == 200 and settings == {"email_turns": True, "push_turns": False}
    status, settings = await rest.call(client, "patch", NOTIFICATIONS, {"email_turns": False})
    assert status == 200 and settings == {"email_turns": False, "push_turns": False}
    assert await rest.status(client, "patch", NOTIFICATIONS, {"email_turns": "no"}) == 400
    endpoint = "https://fcm.googleapis.com/fcm/send/contract"
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}  # 65 and 16 bytes of base64url
    subscription = {"endpoint": endpoint, "keys": keys}
    assert await rest.status(client, "post", PUSH_SUBSCRIPTIONS, subscription) == 201
    assert (await rest.call(client, "get", NOTIFICATIONS))[1]["push_turns"] is True
    assert await rest.status(client, "delete", PUSH_SUBSCRIPTIONS, {"endpoint": endpoint}) == 204
    device = {"platform": "apns", "token": "c0" * 32}
    assert await rest.status(client, "post", DEVICES, device) == 201
    assert await rest.status(client, "delete", DEVICES, {"token": device["token"]}) == 204

    # The address: verified with the token of the mailed link, changed (unverified again), and
    # the link sent once more.
    address = f"{people[0].username}@example.com"
    (link,) = [m.body for m in mail.outbox if m.to == [address] and "/accounts/verify/" in m.body]
    verify_token = link.split("/accounts/verify/", 1)[1].split("/", 1)[0]
    assert (await rest.call(client, "get", ME))[1]["email_verified"] is False
    status, verified = await rest.call(APIClient(), "post", VERIFY_EMAIL, {"token": verify_token})
    assert status == 200 and verified["email_verified"] is True
    assert (await rest.call(client, "get", ME))[1]["email_verified"] is True
    change = {"email": "moved@example.org", "password": PASSWORD}
    status, me_view = await rest.call(client, "post", ME_EMAIL, change)
    assert status == 200 and me_view["email_verified"] is False
    assert await rest.status(APIClient(), "post", VERIFY_EMAIL, {"token": "forged"}) == 400
    assert await rest.status(client, "post", RESEND_VERIFICATION) == 202

    # Friends: follows both ways, the friends list, a block and its lift.
    follow, block = f"{API}/players/{{username}}/follow/", f"{API}/players/{{username}}/block/"
    ana, ben = people[0], people[1]
    for one, other in ((ana, ben), (ben, ana)):
        assert await rest.status(one.client, "post", follow, username=other.username) == 204
    status, friends = await rest.call(ana.client, "get", f"{API}/accounts/me/friends/")
    assert status == 200 and [friend["username"] for friend in friends] == [ben.username]
    status, private = await rest.call(
        ben.client, "post", GAMES, {"seats": 3, "visibility": "private"}
    )
    assert status == 201 and private["visibility"] == "private"
    invite = {"username": ana.username}
    assert (
        await rest.status(ben.client, "post", GAME + "invite/", invite, game_id=private["id"])
        == 204
    )
    invited = contract.message(await me.receive_json_from(timeout=5))  # ana's ws/me/
    assert invited == {"type": "invite", "game": private["id"], "from": ben.username}
    outsider = {"username": stranger.username}
    assert (
        await rest.status(ben.client, "post", GAME + "invite/", outsider, game_id=private["id"])
        == 403
    )
    assert await rest.status(ana.client, "delete", follow, username=ben.username) == 204
    assert await rest.status(stranger.client, "post", block, username=ana.username) == 204
    assert await rest.status(ana.client, "post", follow, username=stranger.username) == 403
    assert await rest.status(stranger.client, "delete", block, username=ana.username) == 204
    assert await rest.status(ana.client, "post", follow, username="nobody-here") == 404

    # Notices: the follow and the invitation above left theirs; read one, then all.
    notices = f"{API}/notices/"
    status, page = await rest.call(ana.client, "get", notices, query="?unread=true")
    assert status == 200 and {n["kind"] for n in page["results"]} >= {"follow", "invite"}
    read = {"ids": [page["results"][0]["id"]]}
    assert await rest.status(ana.client, "post", notices + "read/", read) == 204
    assert await rest.status(ana.client, "post", notices + "read/", {"all": True}) == 204
    status, page = await rest.call(ana.client, "get", notices, query="?unread=true")
    assert status == 200 and page["count"] == 0
    watchable = "?status=active&watchable=true"
    status, watch = await rest.call(APIClient(), "get", GAMES, query=watchable)
    assert status == 200 and set(watch) == {"count", "next", "previous", "results"}

    await seek_calls(rest, contract, me, people)
    await tournament_calls(rest, contract, sockets, people)

    # A player's own data, downloaded; an account deleted (its seat stays, renamed).
    status, document = await rest.call(people[1].client, "get", f"{API}/accounts/me/export/")
    assert status == 200 and document["account"]["username"] == people[1].username
    assert game_id in [game["id"] for game in document["games"]]
    gone = people[2].client
    assert await rest.status(gone, "delete", ME, {"password": "not-the-password"}) == 400
    assert await rest.status(gone, "delete", ME, {"password": PASSWORD}) == 204
    assert await rest.status(gone, "get", ME) == 401

    # A revoked token stops working at once.
    leaving = people[0].client
    assert await rest.status(leaving, "delete", TOKEN) == 204
    assert await rest.status(leaving, "get", ME) == 401

    # Every operation of the schema and every socket message was checked at least once.
    operations = {
        f"{method} {path}" for path, item in contract.openapi["paths"].items() for method in item
    }
    checked = {what.rsplit(" ", 1)[0] for what in contract.checked}
    assert operations <= checked, operations - checked
    bodies = {
        f"{method} {path} request"
        for path, item in contract.openapi["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    }
    assert bodies <= set(contract.checked), bodies - set(contract.checked)
    assert {f"socket {name}" for name in SOCKET_COMPONENTS.values()} <= set(contract.checked)


TOURNAMENTS = f"{API}/tournaments/"
TOURNAMENT = f"{API}/tournaments/{{tournament_id}}/"


SEEKS = f"{API}/seeks/"
MY_SEEK = f"{API}/seeks/mine/"


async def seek_calls(
    rest: Rest, contract: Contract, me: WebsocketCommunicator, people: list[Player]
) -> None:
    """Play now (R28): seeks counted, asked, read, cancelled and asked again until three sit
    at a table, which the first player's `ws/me/` hears."""
    body = {"turn_seconds": 60, "sizes": [3], "deck": "classic", "bots_after": None}
    assert await rest.status(people[0].client, "post", SEEKS, {**body, "sizes": [7]}) == 400
    assert await rest.status(people[0].client, "get", MY_SEEK) == 404
    status, asked = await rest.call(people[0].client, "post", SEEKS, body)
    assert status == 201 and asked["game"] is None
    status, counts = await rest.call(APIClient(), "get", SEEKS)
    assert status == 200 and sum(count["waiting"] for count in counts) == 1
    assert await rest.status(people[0].client, "delete", MY_SEEK) == 204
    assert await rest.status(people[0].client, "delete", MY_SEEK) == 404
    for player in people:
        status, asked = await rest.call(player.client, "post", SEEKS, body)
        assert status == 201
    status, mine = await rest.call(people[0].client, "get", MY_SEEK)
    assert status == 200 and mine["game"] == asked["game"] is not None
    assert await rest.status(people[0].client, "delete", MY_SEEK) == 409
    heard = []
    while not await me.receive_nothing(0.2):
        message = await me.receive_json_from(timeout=5)
        contract.message(message)
        heard.append(message["type"])
    assert "seated" in heard, heard


async def tournament_calls(
    rest: Rest, contract: Contract, sockets: Sockets, people: list[Player]
) -> None:
    """A tournament created, listed, read, its socket, joined, left and rejoined, started."""
    starts = (timezone.now() + timedelta(hours=1)).isoformat().replace("+00:00", "Z")
    body = {"name": "Evening Swiss", "format": "swiss", "rounds": 2, "starts_at": starts}
    host = people[0]
    assert await rest.status(host.client, "post", TOURNAMENTS, {**body, "table_size": 9}) == 400
    status, made = await rest.call(host.client, "post", TOURNAMENTS, {**body, "table_size": 3})
    assert status == 201 and made["status"] == "upcoming"
    ids = {"tournament_id": made["id"]}
    status, listed = await rest.call(APIClient(), "get", TOURNAMENTS, query="?status=upcoming")
    assert status == 200 and [t["id"] for t in listed["results"]] == [made["id"]]
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{made['id']}/")
    sockets.communicators.append(socket)
    assert (await socket.connect())[0]
    contract.message(await socket.receive_json_from(timeout=5))
    for player in people:
        assert await rest.status(player.client, "post", TOURNAMENT + "join/", {}, **ids) == 200
    assert await rest.status(host.client, "post", TOURNAMENT + "withdraw/", **ids) == 200
    assert await rest.status(host.client, "post", TOURNAMENT + "start/", **ids) == 409  # 2 left
    assert await rest.status(host.client, "post", TOURNAMENT + "join/", **ids) == 200
    status, started = await rest.call(host.client, "post", TOURNAMENT + "start/", **ids)
    assert status == 200 and started["status"] == "running" and started["round"] == 1
    status, shown = await rest.call(APIClient(), "get", TOURNAMENT, **ids)
    assert status == 200 and shown["tables"][0]["seats"] == started["tables"][0]["seats"]
    while not await socket.receive_nothing(0.2):
        contract.message(await socket.receive_json_from(timeout=5))
    assert await rest.status(APIClient(), "get", TOURNAMENT, tournament_id=10**6) == 404


async def talk(
    rest: Rest,
    contract: Contract,
    people: list[Player],
    stranger: Player,
    every: list[Socket],
    game_id: int,
) -> None:
    """Chat at the table: a message reaches every player's socket (the stranger's gets none), a
    report names it, a hidden one is withdrawn; refusals keep the error shape."""
    chat_path, at_table = GAME + "chat/", {"game_id": game_id}
    every, watcher = every[:-1], every[-1]
    status, said = await rest.call(people[1].client, "post", chat_path, {"text": "gl"}, **at_table)
    assert status == 201
    assert [m["message"] for m in await everyone_gets(contract, every, "chat")] == [said] * 3
    assert await watcher.nothing()
    status, page = await rest.call(people[0].client, "get", chat_path, **at_table)
    assert status == 200 and page["results"] == [said]
    reader = people[0].client
    assert await rest.status(reader, "get", chat_path, **at_table, query="?after=x") == 400
    assert await rest.status(stranger.client, "post", chat_path, {"text": "hi"}, **at_table) == 403
    assert await rest.status(stranger.client, "get", chat_path, **at_table) == 403
    assert await rest.status(reader, "post", chat_path, {"text": " "}, **at_table) == 400
    assert await rest.status(APIClient(), "get", chat_path, game_id=NO_GAME) == 401

    # A preset: its key travels with it, each reader's text in their own language.
    status, presets = await rest.call(APIClient(), "get", f"{API}/chat/presets/")
    assert status == 200 and {"key": "good_luck", "text": "Good luck!"} in presets
    status, wished = await rest.call(reader, "post", chat_path, {"preset": "good_luck"}, **at_table)
    assert status == 201 and (wished["preset"], wished["text"]) == ("good_luck", "Good luck!")
    assert [m["message"] for m in await everyone_gets(contract, every, "chat")] == [wished] * 3
    unknown = {"preset": "insult"}
    assert await rest.status(reader, "post", chat_path, unknown, **at_table) == 400
    both = {"preset": "oops", "text": "oops"}
    assert await rest.status(reader, "post", chat_path, both, **at_table) == 400

    report = {"username": people[1].username, "message_id": said["id"], "reason": "rude"}
    status, filed = await rest.call(people[0].client, "post", REPORTS, report)
    assert status == 201 and filed["status"] == "open"
    assert await rest.status(people[0].client, "post", REPORTS, {"reason": "x"}) == 400
    nobody = {"username": "nobody", "reason": "x"}
    assert await rest.status(people[0].client, "post", REPORTS, nobody) == 404

    await db(_hide, said["id"])
    hidden = await everyone_gets(contract, every, "chat_hidden")
    assert {message["id"] for message in hidden} == {said["id"]}

    for _ in range(5):  # at most 5 messages in 10 seconds (games.chat), then 429
        writer = people[2].client
        assert await rest.status(writer, "post", chat_path, {"text": "hurry"}, **at_table) == 201
        await everyone_gets(contract, every, "chat")
    assert await rest.status(writer, "post", chat_path, {"text": "hurry"}, **at_table) == 429
    assert await watcher.nothing()


async def socket_refusals(contract: Contract, seat_sockets: list[Socket], view: Any) -> None:
    """Malformed messages and refused moves come back as `error` on that socket only."""
    socket = seat_sockets[(view["to_act"] + 1) % PLAYERS]  # not the seat to act
    await socket.send_text("{not json")
    await socket.send({"type": "dance"})
    await socket.send({"type": "move", "bid": 0, "seq": view["seq"]})
    for code in ("invalid", "invalid", "not_your_turn"):
        error = contract.message(await socket.message())
        assert error["type"] == "error" and error["error"]["code"] == code, error
    await socket.send({"type": "sync"})
    assert contract.message(await socket.message())["state"]["seq"] == view["seq"]
    for other in seat_sockets:
        assert await other.nothing()


def at(game_id: int) -> dict[str, int]:
    return {"game_id": game_id}


def _hide(message_id: int) -> None:
    moderator = User.objects.create_superuser("moderator", "mod@example.com", "x")
    services.chat_hide(message_id=message_id, moderator=moderator)


def _rematch(player: Player, game_id: int) -> None:
    services.game_rematch(game_id=game_id, user=User.objects.get(pk=player.user_id))


async def test_a_game_with_every_special_card_keeps_to_the_served_schema(
    contract: Contract, sockets: Sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R20–R26: the new moves (a named suit, a pass, a Cloud's change, no trump) through REST
    and the socket, and every view, pushed message and event row they cause, by the schema."""
    rest = Rest(contract)
    people = [await rest.register(f"special{seat}") for seat in range(PLAYERS)]
    monkeypatch.setattr(engine, "new_seed", lambda: SPECIAL_SEED)
    options = {
        "seats": PLAYERS,
        "rounds": 5,
        "blind_first_round": False,
        "special_cards": list(engine.SPECIAL_OPTIONS),
    }
    status, created = await rest.call(people[0].client, "post", GAMES, options)
    assert status == 201 and created["special_cards"] == list(engine.SPECIAL_OPTIONS)
    game_id = created["id"]
    for player in people[1:]:
        assert await rest.status(player.client, "post", GAME + "join/", game_id=game_id) == 200
    seat_sockets = [await sockets.open(game_id, token=player.token) for player in people]
    await everyone_gets(contract, seat_sockets, "state")
    moves: set[str] = set()
    view = await rest.view(people[0], game_id)
    for count in itertools.count():
        if view["status"] != "active":
            break
        seat = view["to_act"]
        mine = await rest.view(people[seat], game_id)
        state = await db(_engine_state, game_id)
        move = {**engine.auto_move(state).to_json(), "seq": mine["seq"]}
        declared = move["type"] == "play" and bool({"suit", "as"} & set(move))
        moves.add(move["type"] + ("+" if declared else ""))
        if count % 2:
            status, body = await rest.move(people[seat], game_id, move)
            assert status == 200, body
        else:
            await seat_sockets[seat].send({"type": "move", "move": move})
        pushed = await everyone_gets(contract, seat_sockets, "state")
        view = pushed[-1]["state"]
    assert moves >= {"trump", "bid", "play", "play+", "pass", "adjust"}, moves
    for player in people:
        events = await rest.events(player, game_id)
        assert {event["type"] for event in events} >= SPECIAL_EVENTS
        won = [event["payload"] for event in events if event["type"] == "trick_won"]
        assert any(payload["winner"] is None for payload in won)  # R22


def _engine_state(game_id: int) -> engine.State:
    state = Game.objects.get(pk=game_id).engine_state()
    assert state is not None
    return state
