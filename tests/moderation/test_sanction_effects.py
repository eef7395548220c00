"""A sanction takes effect: the suspended or banned player leaves the tables that have not
started, is away where a game runs (R18: the medium bot plays their seat), and a suspension from
a report hides the reported message unless the moderator keeps it; the log-in page and the next
page of a signed-in player say why and until when, in the page's language."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import services
from games.models import ChatMessage, Game, GameStatus, Seat
from moderation import services as moderation
from moderation.models import Report
from tests.games.helpers import PASSWORD, Player, seat_players
from tests.moderation.helpers import chat, report

pytestmark = pytest.mark.django_db


def user_of(player: Player) -> User:
    return User.objects.get(pk=player.user_id)


def suspend(player: Player, *, days: int | None = 7, reason: str = "rude at table 3") -> None:
    until = None if days is None else timezone.now() + timedelta(days=days)
    moderation.user_suspend(
        moderator=None, user=user_of(player), reason=reason, until=until, banned=days is None
    )


def test_the_player_leaves_the_tables_that_have_not_started(players: list[Player]) -> None:
    host, sanctioned, other = players
    theirs = services.game_create(user=user_of(host), seats=4).game
    services.game_join(game_id=theirs.pk, user=user_of(sanctioned))
    services.game_join(game_id=theirs.pk, user=user_of(other))

    suspend(sanctioned)

    seated = set(Seat.objects.filter(game=theirs).values_list("user_id", flat=True))
    assert seated == {host.user_id, other.user_id}
    assert Game.objects.get(pk=theirs.pk).status == GameStatus.OPEN  # the others still wait


def test_the_player_is_away_where_a_game_runs_and_the_bot_plays_their_turn(
    running: Game, players: list[Player]
) -> None:
    seat = running.to_act
    assert seat is not None

    suspend(players[seat], days=None)

    mine = Seat.objects.get(game=running, number=seat)
    assert mine.away and not mine.resigned  # away (R18), not resigned: a lift lets them back
    game = Game.objects.get(pk=running.pk)
    assert game.status == GameStatus.ACTIVE
    assert game.seq > running.seq and game.to_act != seat  # their turn was made for them


def test_alone_with_bots_the_players_game_stops(make_player: Callable[..., Player]) -> None:
    alone = make_player()
    game_id = seat_players([alone], bots=2)

    suspend(alone)

    assert Game.objects.get(pk=game_id).status == GameStatus.ABORTED


@pytest.fixture
def reported(running: Game, players: list[Player]) -> Report:
    """players[0] reports a chat message of players[1]."""
    message = chat(players[1], running.pk, "idiot").json()
    response = report(
        players[0], username=players[1].username, message_id=message["id"], category="insult"
    )
    assert response.status_code == 201, response.content
    return Report.objects.get(pk=response.json()["id"])


@pytest.mark.parametrize("hide_message", [True, False])
def test_a_sanction_from_a_report_hides_its_message_unless_the_moderator_keeps_it(
    reported: Report, hide_message: bool
) -> None:
    moderation.report_sanction(
        moderator=User.objects.create_user("mod", is_staff=True),
        report=reported,
        reason="insults",
        days=7,
        hide_message=hide_message,
    )
    assert reported.message is not None
    assert ChatMessage.objects.get(pk=reported.message.pk).hidden is hide_message
    reported.refresh_from_db()
    assert reported.resolution == "suspended 7 days: insults"


def log_in(player: Player, password: str, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).post(
        "/accounts/login/", {"username": player.username, "password": password}
    )
    assert response.status_code == 200  # the form again, not a redirect: not signed in
    return response.content.decode()


@pytest.mark.parametrize(
    "language, suspended, banned",
    [
        ("en", "Your account is suspended until", "Your account is banned."),
        ("es", "Tu cuenta está suspendida hasta", "Tu cuenta está bloqueada para siempre."),
    ],
)
def test_the_log_in_page_tells_the_right_password_why_and_until_when(
    players: list[Player], language: str, suspended: str, banned: str
) -> None:
    player, other = players[0], players[1]
    suspend(player, reason="rude at table 3")
    suspend(other, days=None, reason="cheating")

    page = log_in(player, PASSWORD, language)
    assert suspended in page and "rude at table 3" in page
    assert timezone.localtime(user_of(player).suspension.until).strftime("%Y") in page
    assert banned in log_in(other, PASSWORD, language)

    wrong = log_in(player, "not-the-password", language)
    assert suspended not in wrong and "rude at table 3" not in wrong  # a stranger learns nothing


def test_the_next_page_of_a_signed_in_player_says_why(players: list[Player]) -> None:
    player = players[0]
    browser = Client()
    browser.force_login(user_of(player))

    suspend(player, reason="rude at table 3")

    page = browser.get("/lobby/", follow=True).content.decode()
    assert "Your account is suspended until" in page and "rude at table 3" in page
    assert "_auth_user_id" not in browser.session  # signed out
