"""Reliability and invitations: a player's reliability is the share of their last 50 finished
games with another person that they saw through (neither resigned nor away at the end),
unknown before 5 such games; a table may ask for a minimum reliability (an unknown one counts
as 80), and the rematch keeps it. An invitation lets a friend join a private table without
its code and watch a table for its players only; a rematch invites the other players."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Game, GameStatus, Invitation, Seat
from games.selectors import reliability
from tests.games.helpers import API, Player, assert_error, create_game, game_url
from tests.league.helpers import record_end, seat_table
from tests.live.helpers import Sockets, db, new_players

START = datetime(2024, 1, 1, tzinfo=UTC)
_minutes = itertools.count(1)


def user_of(player: Player) -> User:
    return User.objects.get(pk=player.user_id)


def finished_games(
    user: User,
    others: list[User | None],
    count: int,
    *,
    resigned: bool = False,
    away: bool = False,
    others_left: bool = False,
    status: str = GameStatus.FINISHED,
    started: bool = True,
    at: datetime | None = None,
) -> list[Game]:
    """`count` games, written directly, where `user` sits in seat 0 and `others` (None: a
    bot) in the next seats; each finishes a minute after the previous one (or all at `at`).
    `resigned`/`away`: how `user` ended them; `others_left`: the others resigned and were away."""
    games = Game.objects.bulk_create(
        Game(
            created_by=user,
            seats=1 + len(others),
            bots=sum(other is None for other in others),
            status=status,
            seed="0" * 64,
            commitment="0" * 64,
            started_at=START if started else None,
            finished_at=at or START + timedelta(minutes=next(_minutes)),
        )
        for _ in range(count)
    )
    seats: list[Seat] = []
    for game in games:
        seats.append(Seat(game=game, number=0, user=user, resigned=resigned, away=away))
        seats.extend(
            Seat(
                game=game,
                number=number,
                user=other,
                bot_kind="" if other else "heuristic",
                resigned=others_left and other is not None,
                away=others_left,
            )
            for number, other in enumerate(others, start=1)
        )
    Seat.objects.bulk_create(seats)
    return games


def befriend(one: Player, other: Player) -> None:
    for a, b in ((one, other), (other, one)):
        response = a.client.post(f"{API}/players/{b.username}/follow/")
        assert response.status_code == 204, response.content


def invite(host: Player, game_id: int, friend: Player) -> None:
    response = host.client.post(
        game_url(game_id, "invite"), {"username": friend.username}, format="json"
    )
    assert response.status_code == 204, response.content


def join(player: Player, game_id: int, invite_code: str | None = None) -> Any:
    body = {} if invite_code is None else {"invite": invite_code}
    return player.client.post(game_url(game_id, "join"), body, format="json")


def seat_count(game_id: int) -> int:
    return Seat.objects.filter(game_id=game_id).count()


def with_reliability(player: Player, percent: int) -> None:
    """Give `player` exactly `percent` (a multiple of 10) over ten games with another person."""
    user, other = user_of(player), User.objects.create_user(f"rival_of_{player.username}")
    finished_games(user, [other], percent // 10)
    finished_games(user, [other], 10 - percent // 10, away=True)
    assert reliability(user.pk) == percent


@pytest.fixture
def ana(db: None) -> User:
    return User.objects.create_user("ana")


@pytest.fixture
def ben(db: None) -> User:
    return User.objects.create_user("ben")


# -- the number -------------------------------------------------------------------------------
def test_reliability_is_unknown_before_five_games_with_another_person(ana: User, ben: User) -> None:
    assert reliability(ana.pk) is None
    finished_games(ana, [ben, None], 4)
    # Games that did not finish, or never started, are not games played.
    finished_games(ana, [ben], 3, status=GameStatus.ACTIVE, at=None)
    finished_games(ana, [ben], 3, status=GameStatus.ABORTED, away=True)
    finished_games(ana, [ben], 3, status=GameStatus.OPEN, started=False)
    finished_games(ana, [ben], 2, started=False, resigned=True)
    assert reliability(ana.pk) is None
    finished_games(ana, [ben], 1)
    assert reliability(ana.pk) == 100
    assert reliability(ben.pk) == 100  # ben sat at the same five


def test_games_against_bots_alone_do_not_count(ana: User, ben: User) -> None:
    finished_games(ana, [None, None], 20, resigned=True, away=True)
    assert reliability(ana.pk) is None
    finished_games(ana, [ben, None], 5)
    assert reliability(ana.pk) == 100
    finished_games(ana, [None], 5, away=True)  # newer, and still not counted
    assert reliability(ana.pk) == 100


@pytest.mark.parametrize(
    ("resigned", "away"), [(True, False), (False, True), (True, True)], ids=str
)
def test_resigning_and_being_away_both_count_against(
    ana: User, ben: User, resigned: bool, away: bool
) -> None:
    finished_games(ana, [ben], 4)
    finished_games(ana, [ben], 1, resigned=resigned, away=away)
    assert reliability(ana.pk) == 80
    assert reliability(ben.pk) == 100  # the other's leaving is theirs alone


def test_reliability_is_rounded_to_a_whole_percentage(ana: User, ben: User) -> None:
    finished_games(ana, [ben], 6)
    finished_games(ana, [ben], 2, away=True)
    finished_games(ana, [ben], 1, resigned=True)
    assert reliability(ana.pk) == 67  # 6/9 = 66.7
    finished_games(ana, [ben, None], 6, others_left=True)
    assert reliability(ana.pk) == 80  # 12/15
    assert reliability(ben.pk) == 60  # 9/15: ana leaving was not his doing


def test_only_the_last_fifty_games_count_by_when_they_ended(ana: User, ben: User) -> None:
    finished_games(ana, [ben], 50)
    # Written last, but the oldest of all: it is the 51st game back, so it no longer counts.
    finished_games(ana, [ben], 1, resigned=True, at=START)
    assert Seat.objects.filter(user=ana, game__status=GameStatus.FINISHED).count() == 51
    assert reliability(ana.pk) == 100
    finished_games(ana, [ben], 1, away=True)  # the newest: 49 of the last 50
    assert reliability(ana.pk) == 98


def test_the_away_game_leaves_the_window_only_after_fifty_newer_ones(ana: User, ben: User) -> None:
    finished_games(ana, [ben], 10)
    finished_games(ana, [ben], 1, away=True)
    finished_games(ana, [ben], 49)
    assert reliability(ana.pk) == 98  # the away game is the 50th back
    finished_games(ana, [ben], 1)
    assert reliability(ana.pk) == 100


def test_the_profile_shows_reliability(make_player: Callable[..., Player]) -> None:
    ana, viewer = make_player("ana"), make_player("viewer")

    def shown() -> Any:
        response = viewer.client.get(f"{API}/players/ana/")
        assert response.status_code == 200, response.content
        return response.json()["reliability"]

    assert shown() is None
    finished_games(user_of(ana), [user_of(viewer)], 4)
    finished_games(user_of(ana), [user_of(viewer)], 1, away=True)
    assert shown() == 80
    finished_games(user_of(ana), [user_of(viewer)], 5)
    assert shown() == 90


# -- a table's minimum ------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("value", [101, -1, "x", "50", 2.5, True, None, 1000])
def test_a_minimum_outside_0_to_100_is_invalid_and_creates_nothing(
    make_player: Callable[..., Player], value: Any
) -> None:
    host = make_player("host")
    response = host.client.post(
        f"{API}/games/", {"seats": 3, "min_reliability": value}, format="json"
    )
    error = assert_error(response, 400, "invalid")
    assert "min_reliability" in error.get("fields", {}), error
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", [0, 1, 80, 100])
def test_the_minimum_is_stored_and_shown(make_player: Callable[..., Player], value: int) -> None:
    host = make_player("host")
    created = create_game(host, seats=3, min_reliability=value)
    assert created["min_reliability"] == value
    assert Game.objects.get(pk=created["id"]).min_reliability == value
    listed = host.client.get(f"{API}/games/").json()["results"]
    assert [game["min_reliability"] for game in listed if game["id"] == created["id"]] == [value]


@pytest.mark.django_db
def test_the_minimum_defaults_to_zero(make_player: Callable[..., Player]) -> None:
    assert create_game(make_player("host"), seats=3)["min_reliability"] == 0


@pytest.mark.django_db
def test_a_joiner_below_the_minimum_is_refused_and_nothing_changes(
    make_player: Callable[..., Player],
) -> None:
    host, flaky, steady, exact = (make_player(n) for n in ("host", "flaky", "steady", "exact"))
    with_reliability(flaky, 70)
    with_reliability(steady, 100)
    with_reliability(exact, 90)
    game_id = create_game(host, seats=4, min_reliability=90)["id"]
    before = Game.objects.get(pk=game_id)

    assert_error(join(flaky, game_id), 403, "reliability_too_low")
    after = Game.objects.get(pk=game_id)
    assert seat_count(game_id) == 1
    assert (after.status, after.seq) == (before.status, before.seq)
    assert flaky.client.get(game_url(game_id)).json()["you"] is None

    for player, seat in ((steady, 1), (exact, 2)):  # at the minimum is enough
        joined = join(player, game_id)
        assert joined.status_code == 200, joined.content
        assert joined.json()["you"] == seat
    assert seat_count(game_id) == 3


@pytest.mark.django_db
@pytest.mark.parametrize(("minimum", "admitted"), [(0, True), (80, True), (81, False)])
def test_an_unknown_reliability_counts_as_80(
    make_player: Callable[..., Player], minimum: int, admitted: bool
) -> None:
    host, newcomer = make_player("host"), make_player("newcomer")
    finished_games(user_of(newcomer), [user_of(host)], 4, away=True)  # still unknown
    assert reliability(newcomer.user_id) is None
    game_id = create_game(host, seats=3, min_reliability=minimum)["id"]
    response = join(newcomer, game_id)
    if admitted:
        assert response.status_code == 200, response.content
        assert seat_count(game_id) == 2
    else:
        assert_error(response, 403, "reliability_too_low")
        assert seat_count(game_id) == 1


@pytest.mark.django_db
def test_the_rematch_keeps_the_minimum(make_player: Callable[..., Player]) -> None:
    host, guest = make_player("host"), make_player("guest")
    finished = seat_table([user_of(host), user_of(guest), None])
    Game.objects.filter(pk=finished.pk).update(min_reliability=60)
    record_end(finished, [30, 20, 10])
    browser = Client()
    browser.force_login(user_of(host))
    assert browser.post(f"/games/{finished.pk}/rematch/").status_code == 302
    rematch = Game.objects.get(rematch_of=finished)
    assert rematch.min_reliability == 60
    assert host.view(rematch.pk)["min_reliability"] == 60


# -- invitations ------------------------------------------------------------------------------
@pytest.mark.django_db
def test_an_invited_friend_joins_a_private_table_without_its_code(
    make_player: Callable[..., Player],
) -> None:
    host, friend, other_friend, stranger = (
        make_player(n) for n in ("host", "friend", "other_friend", "stranger")
    )
    befriend(host, friend)
    befriend(host, other_friend)
    game_id = create_game(host, seats=4, visibility="private")["id"]
    elsewhere = create_game(host, seats=3, visibility="private")["id"]
    invite(host, game_id, friend)
    assert list(Invitation.objects.values_list("game_id", "user_id", "sender_id")) == [
        (game_id, friend.user_id, host.user_id)
    ]

    for outsider in (other_friend, stranger):
        assert_error(join(outsider, game_id), 403, "invite_required")
    assert_error(join(friend, elsewhere), 403, "invite_required")  # invited to one table
    assert seat_count(game_id) == 1 and seat_count(elsewhere) == 1
    joined = join(friend, game_id)
    assert joined.status_code == 200, joined.content
    assert joined.json()["you"] == 1
    assert seat_count(game_id) == 2


@pytest.mark.django_db
def test_an_invited_friend_may_watch_a_table_for_its_players_only(
    make_player: Callable[..., Player],
) -> None:
    host, friend, other_friend, stranger = (
        make_player(n) for n in ("host", "friend", "other_friend", "stranger")
    )
    befriend(host, friend)
    befriend(host, other_friend)
    game_id = create_game(host, seats=3, spectators="players")["id"]
    for outsider in (friend, other_friend, stranger):
        assert_error(outsider.client.get(game_url(game_id)), 403, "not_a_player")
    invite(host, game_id, friend)

    view = friend.view(game_id)
    assert view["id"] == game_id and view["you"] is None
    assert view["invite"] is None  # an invitation is no code
    for outsider in (other_friend, stranger):
        assert_error(outsider.client.get(game_url(game_id)), 403, "not_a_player")


@pytest.mark.django_db
def test_an_invitation_needs_a_friend_and_records_nothing_otherwise(
    make_player: Callable[..., Player],
) -> None:
    host, follower = make_player("host"), make_player("follower")
    assert follower.client.post(f"{API}/players/host/follow/").status_code == 204  # one way
    game_id = create_game(host, seats=3, visibility="private")["id"]
    response = host.client.post(
        game_url(game_id, "invite"), {"username": "follower"}, format="json"
    )
    assert_error(response, 403, "not_a_friend")
    assert not Invitation.objects.exists()
    assert_error(join(follower, game_id), 403, "invite_required")


# -- the rematch invites on ws/me/ ------------------------------------------------------------
def invites(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert all(message["type"] in {"games", "turn", "invite"} for message in messages), messages
    return [message for message in messages if message["type"] == "invite"]


def finished_table(people: list[Player]) -> Game:
    """A finished game of these players and a bot."""
    game = seat_table([*(user_of(player) for player in people), None])
    return record_end(game, [40, 30, 20, 10][: len(people) + 1])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
async def test_a_rematch_invites_the_other_players_on_their_me_socket(
    sockets: Sockets,
) -> None:
    host, ben, cy, stranger = await db(new_players, 4)
    finished = await db(finished_table, [host, ben, cy])
    mine = {player.username: await sockets.me(player.token) for player in (host, ben, cy)}
    outsider = await sockets.me(stranger.token)

    user = await db(user_of, host)
    outcome = await db(services.game_rematch, game_id=finished.pk, user=user)
    rematch = outcome.game.pk
    assert rematch != finished.pk
    for player in (ben, cy):
        heard = invites(await mine[player.username].drain())
        assert heard == [{"type": "invite", "game": rematch, "from": host.username}]
    assert invites(await mine[host.username].drain()) == []
    assert await outsider.nothing()
    rows = await db(
        lambda: sorted(Invitation.objects.values_list("game_id", "user_id", "sender_id"))
    )
    assert rows == sorted((rematch, p.user_id, host.user_id) for p in (ben, cy))

    # Ben takes the rematch: it is the same table, and nobody is invited again.
    again = await db(services.game_rematch, game_id=finished.pk, user=await db(user_of, ben))
    assert again.game.pk == rematch
    assert await db(seat_count, rematch) == 3  # host, the bot and ben
    for socket in mine.values():
        assert invites(await socket.drain()) == []
    assert await db(Invitation.objects.count) == 2


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
async def test_a_rematch_invites_nobody_blocked_either_way(sockets: Sockets) -> None:
    host, ben, cy = await db(new_players, 3)
    finished = await db(finished_table, [host, ben, cy])
    blocking = await db(ben.client.post, f"{API}/players/{host.username}/block/")
    assert blocking.status_code == 204
    mine = {player.username: await sockets.me(player.token) for player in (ben, cy)}

    outcome = await db(services.game_rematch, game_id=finished.pk, user=await db(user_of, host))
    assert invites(await mine[cy.username].drain()) != []
    assert invites(await mine[ben.username].drain()) == []
    invited = await db(lambda: set(Invitation.objects.values_list("user_id", flat=True)))
    assert invited == {cy.user_id} and outcome.game.pk != finished.pk
