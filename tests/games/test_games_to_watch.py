"""Games to watch: the running public tables a visitor may watch (API.md "Notices and games to
watch"), liveliest first, over REST (signed out too), in the lobby and on the home page with
the featured table; and a player's running games first, their turn on top."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import Follow
from games.models import Game, GameStatus, Spectators, Visibility
from league.models import Rating
from tests.games.helpers import API
from tests.league.helpers import seat_table

pytestmark = pytest.mark.django_db

WATCH = f"{API}/games/?status=active&watchable=true"


@pytest.fixture
def make_users() -> Callable[[int], list[User]]:
    numbers = itertools.count(1)

    def make(count: int) -> list[User]:
        return [User.objects.create_user(f"watcher{next(numbers)}") for _ in range(count)]

    return make


def table(users: list[User | None], **fields: object) -> Game:
    game = seat_table(users)
    Game.objects.filter(pk=game.pk).update(**fields)
    return Game.objects.get(pk=game.pk)


def listed(client: APIClient) -> list[int]:
    response = client.get(WATCH)
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def api_as(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_anyone_lists_the_running_public_tables_they_may_watch_liveliest_first(
    make_users: Callable[[int], list[User]],
) -> None:
    a, b, c, d, viewer = make_users(5)
    two_people = table([a, b, None])
    three_people = table([c, d, a])
    slow = table([a, b, None], turn_seconds=86400)
    friends_only = table([d, None, None], spectators=Spectators.FRIENDS)
    table([a, None, None], spectators=Spectators.PLAYERS)
    table([b, None, None], visibility=Visibility.PRIVATE)
    table([c, None, None], status=GameStatus.OPEN)
    table([c, None, None], status=GameStatus.FINISHED)
    mine = table([viewer, None, None])

    # Most people first, then the faster turns; the viewer's own table is no game to watch.
    assert listed(api_as(None)) == [three_people.pk, two_people.pk, slow.pk, mine.pk]
    assert listed(api_as(viewer)) == [three_people.pk, two_people.pk, slow.pk]
    Follow.objects.create(follower=viewer, followed=d)
    Follow.objects.create(follower=d, followed=viewer)  # friends: d's friends-only table too
    assert friends_only.pk in listed(api_as(viewer))
    assert mine.pk not in listed(api_as(viewer))
    assert friends_only.pk not in listed(api_as(None))


def test_without_watchable_the_list_still_needs_a_sign_in() -> None:
    response = APIClient().get(f"{API}/games/")
    assert response.status_code == 401, response.content
    assert response.json()["error"]["code"] == "not_authenticated"
    bad = APIClient().get(f"{API}/games/?watchable=maybe")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"


def test_the_home_page_features_the_strongest_game_and_lists_the_others(
    make_users: Callable[[int], list[User]],
) -> None:
    a, b, c, d = make_users(4)
    weaker = table([a, b, None])
    stronger = table([c, d, None])
    for user, ordinal in ((a, 1.0), (b, 2.0), (c, 5.0), (d, 6.0)):
        Rating.objects.create(user=user, mu=ordinal + 3, sigma=1, ordinal=ordinal, games=3)
    page = Client().get("/").content.decode()
    featured = page.split('data-testid="featured-game"')[1].split("</section>")[0]
    assert f"/games/{stronger.pk}/" in featured and f"/games/{weaker.pk}/" not in featured
    watch = page.split('data-testid="watch-list"')[1].split("</ul>")[0]
    assert f"/games/{weaker.pk}/" in watch and f"/games/{stronger.pk}/" in watch
    live = Client().get("/home/live/").content.decode()  # what the home page refreshes
    assert 'data-testid="featured-game"' in live and f"/games/{stronger.pk}/" in live
    lobby = Client().get("/lobby/").content.decode()
    assert 'data-testid="watch-list"' in lobby and f"/games/{weaker.pk}/" in lobby


def test_a_players_running_games_come_first_their_turn_on_top(
    make_users: Callable[[int], list[User]],
) -> None:
    me, other = make_users(2)
    waiting = table([me, other, None], to_act=1)
    my_turn = table([me, other, None], to_act=0)
    browser = Client()
    browser.force_login(me)
    for path in ("/", "/lobby/"):
        page = browser.get(path).content.decode()
        running = page.index('id="running-title"')
        assert running < page.index("<h1") or path == "/lobby/"
        if path == "/lobby/":
            assert running < page.index("Open tables")
        items = page[running:].split("</ul>")[0]
        assert items.index(f"/games/{my_turn.pk}/") < items.index(f"/games/{waiting.pk}/")
        mine = items.split(f"/games/{my_turn.pk}/")[1].split("</li>")[0]
        assert 'data-testid="running-your-turn"' in mine
        theirs = items.split(f"/games/{waiting.pk}/")[1].split("</li>")[0]
        assert 'data-testid="running-your-turn"' not in theirs


def test_a_scored_round_tells_the_lobbies_but_no_players_list_of_games(
    make_users: Callable[[int], list[User]],
) -> None:
    """The games to watch show the round and the scores, so the lobby hears of a round scored;
    the players' own lists of games did not change, so `ws/me/` hears nothing of it."""
    from games import presence, push
    from games.outcome import Outcome
    from tests.games.elsewhere import put, take

    a, b = make_users(2)
    game = table([a, b, None])
    seats = list(game.seat_set.all())
    scored = push.messages_of(Outcome(game, seats, None, scored=True))
    groups = [group for group, _message in scored]
    assert push.LOBBY_GROUP in groups
    assert not any(group.startswith("me-") for group in groups)
    member = put(presence.me_key(a.pk))  # a has `ws/me/` open (in another process), b none
    try:
        changed = [group for group, _ in push.messages_of(Outcome(game, seats, None, lobby=True))]
    finally:
        take(presence.me_key(a.pk), member)
    assert push.me_group(a.pk) in changed and push.LOBBY_GROUP in changed
    assert push.me_group(b.pk) not in changed  # nobody would hear it
