"""Who may open a game socket (the API contract, "WebSocket"): a token in the query or a session
cookie from an allowed Origin, or nothing at all (a signed-out visitor watches); a token that
opens no account, unknown games and other sites are turned away."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.live.helpers import ALLOWED_ORIGIN, Sockets, db, session_cookie, table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

FOREIGN_ORIGIN = b"http://evil.example"


async def test_a_token_in_the_query_opens_the_players_own_view(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    socket = await sockets.open(game_id, token=people[1].token)  # no Origin: a mobile app
    state = await socket.state()
    assert state["you"] == 1 and state["hand"]
    assert state == await db(people[1].view, game_id)


async def test_a_session_cookie_from_an_allowed_origin_opens_the_players_own_view(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    cookie = await db(session_cookie, people[2])
    socket = await sockets.open(game_id, headers=[(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)])
    state = await socket.state()
    assert state["you"] == 2 and state["hand"]
    assert state == await db(people[2].view, game_id)


async def test_a_token_that_opens_no_account_is_closed_with_4401(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    assert await sockets.refused(game_id, token="not-a-token") == 4401
    # A deactivated account's token no longer opens anything.
    await db(User.objects.filter(pk=people[0].user_id).update, is_active=False)
    assert await sockets.refused(game_id, token=people[0].token) == 4401


@pytest.mark.parametrize(
    "headers",
    [[(b"origin", ALLOWED_ORIGIN)], [(b"cookie", b"sessionid=forged")], []],
    ids=["no-credentials", "forged-session", "app-without-token"],
)
async def test_a_signed_out_socket_watches_the_public_view(
    sockets: Sockets, headers: list[tuple[bytes, bytes]]
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    socket = await sockets.open(game_id, headers=headers)
    state = await socket.state()
    assert state["you"] is None and state["hand"] is None and state["visible_hands"] == {}
    assert state["legal"] is None and state["shuffle_seed"] is None
    assert state["seq"] == (await db(people[0].view, game_id))["seq"]


async def test_a_socket_for_an_unknown_game_is_closed_with_4404(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    assert await sockets.refused(game_id + 1000, token=people[0].token) == 4404


async def test_a_foreign_origin_is_refused_even_with_valid_credentials(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    cookie = await db(session_cookie, people[0])
    # The same credentials open a socket from the site itself, so only the Origin differs.
    allowed = await sockets.open(
        game_id, headers=[(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)]
    )
    assert (await allowed.state())["you"] == 0
    foreign = [(b"cookie", cookie), (b"origin", FOREIGN_ORIGIN)]
    assert await sockets.refused(game_id, headers=foreign) == 4403
    origin_only = [(b"origin", FOREIGN_ORIGIN)]
    assert await sockets.refused(game_id, token=people[0].token, headers=origin_only) == 4403
    lookalike = [(b"cookie", cookie), (b"origin", b"http://testserver.evil.example")]
    assert await sockets.refused(game_id, headers=lookalike) == 4403


async def test_a_page_on_another_port_of_the_same_host_is_refused(
    sockets: Sockets, settings: Any
) -> None:
    game_id, people = await db(table, 3)
    cookie = await db(session_cookie, people[0])
    other_port = [(b"cookie", cookie), (b"origin", b"http://testserver:6666")]
    other_scheme = [(b"cookie", cookie), (b"origin", b"https://testserver")]
    assert await sockets.refused(game_id, headers=other_port) == 4403
    assert await sockets.refused(game_id, headers=other_scheme) == 4403

    # An origin the site trusts explicitly (e.g. behind a TLS proxy) is let in.
    settings.CSRF_TRUSTED_ORIGINS = ["http://testserver:6666"]
    assert (await (await sockets.open(game_id, headers=other_port)).state())["you"] == 0


async def test_an_app_with_a_token_and_no_origin_keeps_working(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    socket = await sockets.open(game_id, token=people[1].token)
    assert (await socket.state())["you"] == 1
