"""A block ends what it forbids at once (API.md "Friends, invitations and who may watch"): the
invitations between the two, either way, so neither watches a table for its players only
through an old one (its view, `/events/` and socket), and every socket the block now keeps one
of them from closes with 4403; a table both sit at, or one anyone may watch, stays open."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.models import Invitation
from tests.games.helpers import API, Player, assert_error, create_game, game_url, seat_players
from tests.games.test_reliability import befriend, invite
from tests.live.helpers import Sockets, close_code, db, new_players, still_open


def block(blocker: Player, other: Player) -> None:
    response = blocker.client.post(f"{API}/players/{other.username}/block/")
    assert response.status_code == 204, response.content


def invited_to_a_players_only_table(host: Player, friend: Player) -> int:
    """A private table of `host` for its players only, to which `host` invited `friend`."""
    befriend(host, friend)
    game_id = create_game(host, seats=3, visibility="private", spectators="players")["id"]
    invite(host, game_id, friend)
    assert friend.view(game_id)["id"] == game_id
    assert friend.client.get(game_url(game_id, "events")).status_code == 200
    return game_id


@pytest.mark.django_db
@pytest.mark.parametrize("blocker", ["host", "invited"])
def test_a_block_either_way_ends_the_invitation_and_the_watching_through_it(
    make_player: Callable[..., Player], blocker: str
) -> None:
    host, friend, other_friend = make_player("host"), make_player("friend"), make_player("cy")
    game_id = invited_to_a_players_only_table(host, friend)
    befriend(host, other_friend)
    invite(host, game_id, other_friend)

    if blocker == "host":
        block(host, friend)
    else:
        block(friend, host)

    assert_error(friend.client.get(game_url(game_id)), 403, "not_a_player")
    assert_error(friend.client.get(game_url(game_id, "events")), 403, "not_a_player")
    assert not Invitation.objects.filter(user_id=friend.user_id).exists()
    # A third player's invitation is no business of the block.
    assert other_friend.view(game_id)["id"] == game_id
    assert Invitation.objects.filter(user_id=other_friend.user_id).exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_block_closes_the_others_sockets_it_now_keeps_from_a_table(
    sockets: Sockets,
) -> None:
    host, friend, third = await db(new_players, 3)
    through_invitation = await db(invited_to_a_players_only_table, host, friend)
    friends_only = (await db(create_game, host, seats=3, spectators="friends"))["id"]
    open_to_all = (await db(create_game, host, seats=3))["id"]
    together = await db(seat_players, [host, friend, third])

    invited = await sockets.open(through_invitation, token=friend.token)
    as_friend = await sockets.open(friends_only, token=friend.token)
    anyone = await sockets.open(open_to_all, token=friend.token)
    seated = await sockets.open(together, token=friend.token)
    for socket in (invited, as_friend, anyone, seated):
        await socket.state()

    await db(block, host, friend)

    assert await close_code(invited.communicator) == 4403
    assert await close_code(as_friend.communicator) == 4403  # the block ended the friendship
    assert await still_open(anyone) and await still_open(seated)
