"""Play now over REST (API.md "Play now (R28)"): a seek asked, replaced, read and cancelled;
seated at once when enough wait, at a table of R28's options in random seat order; bots after
the chosen wait; blocks kept apart; an absent player's live seek ended after 30 s; a seated
seek kept 10 minutes; bad bodies refused with the contract's codes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games import engine
from games.models import Game, GameStatus
from league.selectors import counts_for_league
from moderation import services as moderation
from seeks import services
from seeks.models import Seek
from tests.games.helpers import API, PASSWORD, Player, assert_error, clock_at
from tests.moderation.helpers import user_of

pytestmark = pytest.mark.django_db

SEEKS = f"{API}/seeks/"
MINE = f"{API}/seeks/mine/"
QUICK = {"turn_seconds": 60, "sizes": [3], "deck": "classic"}


def ask(player: Player, body: dict[str, Any] | None = None, status: int = 201) -> dict[str, Any]:
    response = player.client.post(SEEKS, body or QUICK, format="json")
    assert response.status_code == status, response.content
    view: dict[str, Any] = response.json()
    return view


def mine(player: Player) -> dict[str, Any]:
    response = player.client.get(MINE)
    assert response.status_code == 200, response.content
    view: dict[str, Any] = response.json()
    return view


def seeks_clock_at(moment: datetime) -> AbstractContextManager[Any]:
    """The seeks' services (their matcher and sweep) read `moment` as now."""
    return clock_at(services, moment)


def suspend(player: Player) -> None:
    moderation.user_suspend(
        moderator=None,
        user=user_of(player),
        reason="abuse",
        until=timezone.now() + timedelta(days=1),
        banned=False,
    )


@contextmanager
def everyone_connected() -> Iterator[None]:
    """Every player has a socket of the site open (R28: nobody's live seek ends)."""
    with mock.patch.object(services, "online", lambda ids: set(ids)):
        yield


def test_a_seek_is_asked_read_replaced_and_cancelled(make_player: Callable[..., Player]) -> None:
    ann = make_player()
    view = ask(ann, {**QUICK, "sizes": [4, 3, 5], "bots_after": None})
    assert set(view) == {
        "id",
        "turn_seconds",
        "sizes",
        "deck",
        "bots_after",
        "created_at",
        "waiting",
        "game",
    }
    assert (view["sizes"], view["waiting"], view["game"]) == ([3, 4, 5], 1, None)
    assert mine(ann) == view
    # A new one replaces it: one seek a player.
    again = ask(ann, {"turn_seconds": 300, "sizes": [6], "deck": "anniversary", "bots_after": 30})
    assert again["id"] != view["id"] and Seek.objects.filter(user_id=ann.user_id).count() == 1
    assert mine(ann)["turn_seconds"] == 300
    assert ann.client.delete(MINE).status_code == 204
    assert_error(ann.client.get(MINE), 404, "not_found")
    assert_error(ann.client.delete(MINE), 404, "not_found")


def test_the_counts_name_every_speed_and_deck(
    make_player: Callable[..., Player], client: Any
) -> None:
    ask(make_player(), {**QUICK, "sizes": [4]})
    ask(make_player(), {**QUICK, "deck": "anniversary"})
    counts = client.get(SEEKS).json()  # anyone may read them
    assert len(counts) == 8
    found = {(c["turn_seconds"], c["deck"]): c["waiting"] for c in counts}
    assert found[(60, "classic")] == 1 and found[(60, "anniversary")] == 1
    assert sum(found.values()) == 2


def test_three_seeks_that_agree_sit_at_once_at_a_table_of_r28s_options(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    first = ask(people[0], {**QUICK, "sizes": [3, 4]})
    second = ask(people[1], {**QUICK, "sizes": [3, 5]})
    assert first["game"] is None and second["game"] is None and second["waiting"] == 2
    last = ask(people[2], {**QUICK, "sizes": [3, 4, 5, 6]})
    assert last["game"] is not None and last["waiting"] == 0
    for player in people:
        assert mine(player)["game"] == last["game"]
    game = Game.objects.get(pk=last["game"])
    assert (game.status, game.seats, game.bots, game.turn_seconds) == (GameStatus.ACTIVE, 3, 0, 60)
    assert (game.hook_rule, game.blind_first_round, game.rounds, game.special_cards) == (
        True,
        True,
        "full",
        [],
    )
    seated = set(game.seat_set.values_list("user_id", flat=True))
    assert seated == {player.user_id for player in people}
    # Seated, the seek is no longer cancelled: its table waits.
    assert_error(people[0].client.delete(MINE), 409, "already_seated")


def test_an_anniversary_table_has_every_special_card(make_player: Callable[..., Player]) -> None:
    body = {**QUICK, "deck": "anniversary"}
    views = [ask(make_player(), body) for _ in range(3)]
    game = Game.objects.get(pk=views[-1]["game"])
    assert game.special_cards == list(engine.SPECIAL_OPTIONS)


def test_seeks_of_other_speeds_or_decks_never_meet(make_player: Callable[..., Player]) -> None:
    ask(make_player(), QUICK)
    ask(make_player(), {**QUICK, "turn_seconds": 30})
    ask(make_player(), {**QUICK, "deck": "anniversary"})
    ask(make_player(), {**QUICK, "sizes": [4]})
    assert not Seek.objects.exclude(seated_at=None).exists()


def test_seat_order_is_random(make_player: Callable[..., Player]) -> None:
    orders = set()
    for _ in range(12):
        people = [make_player() for _ in range(3)]
        game_id = [ask(player) for player in people][-1]["game"]
        seats = Game.objects.get(pk=game_id).seat_set.order_by("number")
        ids = [seat.user_id for seat in seats]
        orders.add(tuple(ids.index(player.user_id) for player in people))
    assert len(orders) > 1  # the chance of one order 12 times over is 6 ** -11


def test_after_its_bot_wait_a_seek_sits_with_medium_bots_and_not_for_the_league(
    make_player: Callable[..., Player],
) -> None:
    ann, ben, cid = make_player(), make_player(), make_player()
    with everyone_connected():
        view = ask(ann, {**QUICK, "sizes": [4, 5], "bots_after": 10})
        ask(ben, {**QUICK, "sizes": [4], "bots_after": 600})
        ask(cid, {**QUICK, "sizes": [4]})  # people only
        asked = datetime.fromisoformat(view["created_at"])
        with seeks_clock_at(asked + timedelta(seconds=9)):
            assert services.seeks_sweep() == 0
        with seeks_clock_at(asked + timedelta(seconds=10)):
            assert services.seeks_sweep() == 1
    game = Game.objects.get(pk=mine(ann)["game"])
    assert (game.seats, game.bots) == (4, 2) and mine(ben)["game"] == game.pk
    assert mine(cid)["game"] is None
    kinds = sorted(game.seat_set.filter(user=None).values_list("bot_kind", flat=True))
    assert kinds == ["heuristic", "heuristic"]  # the medium bot
    assert not counts_for_league(game)  # R17: a game with bots


def test_two_players_one_of_whom_blocked_the_other_are_never_seated_together(
    make_player: Callable[..., Player],
) -> None:
    ann, ben, cid, dan = (make_player(name) for name in ("ann", "ben", "cid", "dan"))
    assert ann.client.post(f"{API}/players/ben/block/").status_code == 204
    ask(ann)
    ask(ben)
    assert ask(cid)["game"] is None  # ann, ben and cid: not together
    game = ask(dan)["game"]
    assert game is not None and mine(ann)["game"] == game and mine(cid)["game"] == game
    assert mine(ben)["game"] is None


def test_a_live_seek_ends_30_s_after_its_player_s_last_socket_closed(
    make_player: Callable[..., Player],
) -> None:
    live, daily = make_player(), make_player()
    ask(live, {**QUICK, "sizes": [6]})
    ask(daily, {**QUICK, "turn_seconds": 86400, "sizes": [6]})
    closed = timezone.now()
    with mock.patch.object(services, "last_seen", lambda ids: {live.user_id: closed.timestamp()}):
        with seeks_clock_at(closed + timedelta(seconds=29)):
            services.seeks_sweep()
        assert mine(live)["turn_seconds"] == 60
        with seeks_clock_at(closed + timedelta(seconds=31)):
            services.seeks_sweep()
    assert_error(live.client.get(MINE), 404, "not_found")
    assert mine(daily)["turn_seconds"] == 86400  # a correspondence seek waits for its player
    # A player with a socket open keeps their live seek however long it waits.
    ask(live, {**QUICK, "sizes": [6]})
    with everyone_connected(), seeks_clock_at(timezone.now() + timedelta(minutes=5)):
        services.seeks_sweep()
    assert mine(live)["sizes"] == [6]


def test_a_seated_seek_is_readable_for_10_minutes(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(3)]
    game = [ask(player) for player in people][-1]["game"]
    seated = timezone.now()
    with seeks_clock_at(seated + timedelta(minutes=9)):
        services.seeks_sweep()
    assert mine(people[0])["game"] == game
    with seeks_clock_at(seated + timedelta(minutes=11)):
        services.seeks_sweep()
    assert_error(people[0].client.get(MINE), 404, "not_found")


@pytest.mark.parametrize(
    "body,field",
    [
        ({**QUICK, "turn_seconds": 45}, "turn_seconds"),
        ({**QUICK, "turn_seconds": "60s"}, "turn_seconds"),
        ({**QUICK, "sizes": []}, "sizes"),
        ({**QUICK, "sizes": [2]}, "sizes"),
        ({**QUICK, "sizes": [3, 4, 5, 6, 3]}, "sizes"),
        ({**QUICK, "sizes": ["3"]}, "sizes"),
        ({**QUICK, "extra": 1}, "extra"),
        ({**QUICK, "sizes": "3"}, "sizes"),
        ({**QUICK, "deck": "jumbo"}, "deck"),
        ({**QUICK, "bots_after": 5}, "bots_after"),
        ({**QUICK, "bots_after": 601}, "bots_after"),
        ({"sizes": [3], "deck": "classic"}, "turn_seconds"),
    ],
)
def test_a_bad_body_is_refused_and_changes_nothing(
    make_player: Callable[..., Player], body: dict[str, Any], field: str
) -> None:
    player = make_player()
    response = player.client.post(SEEKS, body, format="json")
    assert_error(response, 400, "invalid")
    assert field in response.json()["error"]["fields"]
    assert not Seek.objects.exists()


def test_seeks_need_a_signed_in_player_in_good_standing(
    make_player: Callable[..., Player], client: Any
) -> None:
    assert_error(client.post(SEEKS, QUICK, format="json"), 401, "not_authenticated")
    assert_error(client.get(MINE), 401, "not_authenticated")
    assert_error(client.delete(MINE), 401, "not_authenticated")
    player = make_player()
    suspend(player)
    assert_error(player.client.post(SEEKS, QUICK, format="json"), 403, "suspended")
    assert not Seek.objects.exists()


def test_a_suspension_or_a_deletion_ends_the_player_s_seek(
    make_player: Callable[..., Player],
) -> None:
    sam, dee, ann, ben = make_player(), make_player(), make_player(), make_player()
    ask(sam)
    ask(dee)
    suspend(sam)
    response = dee.client.delete(f"{API}/accounts/me/", {"password": PASSWORD}, format="json")
    assert response.status_code == 204, response.content
    assert not Seek.objects.exists()
    # Nobody is seated with them: two more seekers make no table of three.
    assert ask(ann)["game"] is None and ask(ben)["game"] is None
