"""Who may see a table decides every read about it, not only its view: the table page's
presence and rating changes, and the recent games a profile lists (API and page). A private
or players-only table is the business of its players (and whom the rule lets watch)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from itertools import product
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from accounts.models import Follow
from core.errors import NotAPlayer
from games import selectors
from games.models import Game, Invitation, Spectators, Visibility
from tests.games.helpers import API
from tests.league.helpers import finish_game, seat_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def make_users() -> Callable[..., list[User]]:
    """Plain users (no password hashing): make_users(3) → [User, User, User]."""
    numbers = itertools.count(1)

    def make(count: int, prefix: str = "user") -> list[User]:
        return [User.objects.create_user(f"{prefix}{next(numbers)}") for _ in range(count)]

    return make


def browser(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def closed(game: Game, **options: str) -> Game:
    Game.objects.filter(pk=game.pk).update(**options)
    return Game.objects.get(pk=game.pk)


def assert_json_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == code


@pytest.mark.parametrize(
    "options",
    [{"visibility": Visibility.PRIVATE}, {"spectators": Spectators.PLAYERS}],
    ids=["private", "players-only"],
)
@pytest.mark.parametrize("read", ["presence", "ratings"])
def test_a_closed_tables_presence_and_ratings_answer_its_players_only(
    make_users: Callable[..., list[User]], options: dict[str, str], read: str
) -> None:
    players, (stranger,) = make_users(3), make_users(1, "stranger")
    game = closed(finish_game(players, [30, 10, -10]), **options)
    url = f"/games/{game.pk}/{read}/"
    assert browser(players[1]).get(url).status_code == 200
    assert_json_error(browser(stranger).get(url), 403, "not_a_player")
    assert_json_error(browser().get(url), 403, "not_a_player")


@pytest.mark.parametrize("read", ["presence", "ratings"])
def test_an_open_tables_presence_and_ratings_answer_anyone_and_a_missing_one_is_json_404(
    make_users: Callable[..., list[User]], read: str
) -> None:
    game = seat_table(make_users(3))
    assert browser().get(f"/games/{game.pk}/{read}/").status_code == 200
    assert_json_error(browser().get(f"/games/{game.pk + 1}/{read}/"), 404, "not_found")


def test_a_profile_lists_a_private_game_only_to_whom_may_see_it(
    make_users: Callable[..., list[User]],
) -> None:
    host, guest, third, stranger = make_users(4)
    shown = finish_game([host, guest, third], [10, 20, 30])
    hidden = closed(finish_game([host, guest, third], [50, 0, -5]), visibility=Visibility.PRIVATE)

    def recent(viewer: User | None) -> set[int]:
        profile = browser(viewer).get(f"{API}/players/{host.username}/").json()
        return {game["id"] for game in profile["recent_games"]}

    def on_page(viewer: User | None, game: Game) -> bool:
        page = browser(viewer).get(f"/players/{host.username}/").content.decode()
        return f"/games/{game.pk}/replay/" in page

    assert recent(stranger) == recent(None) == {shown.pk}
    assert recent(guest) == recent(host) == {shown.pk, hidden.pk}
    assert not on_page(stranger, hidden) and not on_page(None, hidden) and on_page(None, shown)
    assert on_page(guest, hidden)


def befriend(a: User, b: User) -> None:
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)


def test_the_list_rule_is_the_views_rule_for_every_table_and_viewer(
    make_users: Callable[..., list[User]],
) -> None:
    host, guest, invited, friend, stranger = make_users(5)
    befriend(friend, guest)
    viewers = [AnonymousUser(), host, invited, friend, stranger]
    games = []
    for visibility, spectators in product(Visibility.values, Spectators.values):
        game = closed(seat_table([host, guest]), visibility=visibility, spectators=spectators)
        Invitation.objects.create(game=game, user=invited, sender=host)
        games.append(game)
    for viewer, game in product(viewers, games):
        try:
            selectors.ensure_may_watch(game, selectors.seats_of(game), viewer)
            may = True
        except NotAPlayer:
            may = False
        listed = selectors.games_watchable_by(viewer).filter(pk=game.pk).exists()
        assert listed == may, (viewer, game.visibility, game.spectators)
