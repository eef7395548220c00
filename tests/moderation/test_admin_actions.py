"""Moderator actions through the Django admin: each asks why, does what it says, tells the
players live, and leaves an audit row naming the moderator, the action, the target and why."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Suspension
from games import push
from games.models import ChatMessage, Game, GameStatus
from league import services as league_services
from league.models import RatingChange
from league.ratings import display, initial_skill, rate
from moderation.models import AuditLog, Report, ReportStatus
from tests.games.helpers import API, Player, assert_error, choose_move, create_game
from tests.moderation.helpers import (
    CHANGELISTS,
    audit_rows,
    chat,
    chat_texts,
    chat_url,
    counts,
    finish_league_game,
    report,
    run_action,
    user_of,
)

pytestmark = pytest.mark.django_db

CaptureOnCommit = Callable[..., Any]


def leaderboard() -> dict[str, tuple[int, int, float]]:
    """username → (games, wins, rating) from the public leaderboard API."""
    response = APIClient().get(f"{API}/league/leaderboard/")
    assert response.status_code == 200, response.content
    return {
        row["username"]: (row["games"], row["wins"], row["rating"])
        for row in response.json()["results"]
    }


def state_pushes(
    pushes: list[tuple[str, dict[str, Any]]], game_id: int
) -> dict[str, dict[str, Any]]:
    """The game's state messages by group: one, to the game's group."""
    found = {group: message for group, message in pushes if message["type"] == "game.state"}
    assert set(found) <= {push.game_group(game_id)}
    return found


# -- games -----------------------------------------------------------------------------------
def test_aborting_a_running_game_stops_it_and_pushes_every_seat_the_aborted_view(
    mod_client: Client,
    moderator: User,
    running: Game,
    players: list[Player],
    pushes: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    seat = running.to_act
    assert seat is not None
    move = choose_move(players[seat].view(running.pk)["legal"], None)

    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(mod_client, "game", "abort", [running.pk], reason="stuck table")

    assert response.status_code == 302
    game = Game.objects.get(pk=running.pk)
    assert game.status == GameStatus.ABORTED
    assert game.deadline is None and game.to_act is None and not counts(game)
    pushed = state_pushes(pushes, running.pk)
    state = pushed[push.game_group(running.pk)]
    assert set(state["seats"]) == {str(player.user_id) for player in players}
    audiences = [player.user_id for player in players] + [None]
    for view in [push.decode(state, user_id)["state"] for user_id in audiences]:
        assert view["status"] == "aborted" and view["legal"] is None and view["to_act"] is None
    assert audit_rows() == [
        (moderator.pk, "abort game", "games.Game", str(running.pk), "stuck table")
    ]
    # It takes no more moves, the timer leaves it alone, and it never reaches the league.
    assert_error(players[seat].move(running.pk, move), 409, "game_not_active")
    assert players[0].view(running.pk)["status"] == "aborted"
    assert not Game.objects.filter(pk=running.pk, league_entry__counts=True).exists()
    assert league_services.ratings_rebuild() == 0
    assert leaderboard() == {}


def test_abort_leaves_a_finished_game_alone(
    mod_client: Client, players: list[Player], pushes: list[tuple[str, dict[str, Any]]]
) -> None:
    finished = finish_league_game([user_of(p) for p in players], [50, 20, 10])
    run_action(mod_client, "game", "abort", [finished.pk], reason="by mistake")
    game = Game.objects.get(pk=finished.pk)
    assert game.status == GameStatus.FINISHED and counts(game)
    assert audit_rows() == [] and pushes == []


def test_voiding_a_finished_human_game_takes_it_out_of_the_league_and_the_ratings(
    mod_client: Client,
    moderator: User,
    players: list[Player],
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    users = [user_of(p) for p in players]
    names = [p.username for p in players]
    voided = finish_league_game(users, [90, 30, 10])  # seat 0 wins
    kept = finish_league_game(users, [10, 30, 90])  # seat 2 wins
    before = leaderboard()
    assert {name: before[name][:2] for name in names} == dict(
        zip(names, [(2, 1), (2, 0), (2, 1)], strict=True)
    )

    # The league re-rates in a task once the void has committed.
    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(mod_client, "game", "void", [voided.pk], reason="collusion")

    assert response.status_code == 302
    game = Game.objects.get(pk=voided.pk)
    assert game.voided and not counts(game) and game.status == GameStatus.FINISHED
    assert counts(kept)
    assert not RatingChange.objects.filter(game=voided).exists()
    after = leaderboard()
    # The ratings are those of a league that only ever had the kept game.
    skills = rate([initial_skill()] * 3, [3, 2, 1])
    assert after == {
        name: (1, int(name == names[2]), display(skill.ordinal))
        for name, skill in zip(names, skills, strict=True)
    }
    assert audit_rows() == [(moderator.pk, "void game", "games.Game", str(voided.pk), "collusion")]


def test_void_leaves_running_and_already_voided_games_alone(
    mod_client: Client, running: Game, players: list[Player]
) -> None:
    run_action(mod_client, "game", "void", [running.pk], reason="wrong table")
    assert not Game.objects.get(pk=running.pk).voided
    assert Game.objects.get(pk=running.pk).status == GameStatus.ACTIVE
    assert audit_rows() == []


# -- chat ------------------------------------------------------------------------------------
def test_hiding_a_message_hides_it_for_everyone_but_keeps_the_row(
    mod_client: Client,
    moderator: User,
    running: Game,
    players: list[Player],
    make_player: Callable[..., Player],
    pushes: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    chat(players[0], running.pk, "good luck all")
    rude = chat(players[1], running.pk, "you all play like bots").json()
    chat(players[2], running.pk, "gl")
    spectator = make_player()

    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(mod_client, "chatmessage", "hide", [rude["id"]], reason="insult")

    assert response.status_code == 302
    for reader in players:
        assert chat_texts(reader, running.pk) == ["good luck all", "gl"]
    # The chat belongs to the table's players: anyone else reads none of it.
    assert_error(spectator.client.get(chat_url(running.pk)), 403, "not_a_player")
    row = ChatMessage.objects.get(pk=rude["id"])
    assert row.hidden and row.hidden_by == moderator and row.hidden_at is not None
    assert row.text == "you all play like bots"  # kept for review
    for player in players:
        group = push.seat_group(running.pk, player.user_id)
        assert (group, {"type": "chat.hidden", "id": rude["id"]}) in pushes
    assert audit_rows() == [
        (moderator.pk, "hide message", "games.ChatMessage", str(rude["id"]), "insult")
    ]


def test_the_done_message_counts_the_objects_acted_on(
    mod_client: Client, running: Game, players: list[Player]
) -> None:
    first = chat(players[1], running.pk, "spam one").json()["id"]
    second = chat(players[1], running.pk, "spam two").json()["id"]
    response = run_action(mod_client, "chatmessage", "hide", [first, second], reason="spam")
    assert ChatMessage.objects.filter(hidden=True).count() == 2
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown == ["Hide messages: done for 2."]


# -- reports ---------------------------------------------------------------------------------
@pytest.fixture
def reported(running: Game, players: list[Player]) -> tuple[Report, ChatMessage]:
    """players[0] reports a chat message of players[1]."""
    message = chat(players[1], running.pk, "idiot").json()
    response = report(
        players[0], username=players[1].username, message_id=message["id"], reason="insult"
    )
    assert response.status_code == 201, response.content
    return Report.objects.get(pk=response.json()["id"]), ChatMessage.objects.get(pk=message["id"])


@pytest.mark.parametrize(
    "action, resolution, sanction",
    [
        ("dismiss", "dismissed: seen it", None),
        ("hide_message", "message hidden: seen it", "hide message"),
        ("suspend_for_a_week", "suspended 7 days: seen it", "suspend"),
        ("ban", "banned: seen it", "ban"),
    ],
)
def test_resolving_a_report(
    action: str,
    resolution: str,
    sanction: str | None,
    mod_client: Client,
    moderator: User,
    players: list[Player],
    reported: tuple[Report, ChatMessage],
) -> None:
    the_report, message = reported
    started = timezone.now()

    response = run_action(mod_client, "report", action, [the_report.pk], reason="seen it")

    assert response.status_code == 302
    the_report.refresh_from_db()
    assert the_report.status == ReportStatus.RESOLVED
    assert the_report.resolution == resolution
    assert the_report.resolved_by == moderator
    assert the_report.resolved_at is not None and the_report.resolved_at >= started
    message.refresh_from_db()
    assert message.hidden == (sanction is not None)  # a sanction hides the message too
    suspension = Suspension.objects.filter(user_id=players[1].user_id).first()
    if sanction == "suspend":
        assert suspension is not None and not suspension.banned and suspension.until is not None
        week = timedelta(days=7)
        assert started + week <= suspension.until <= timezone.now() + week
        assert suspension.created_by == moderator and suspension.reason == "seen it"
    elif sanction == "ban":
        assert suspension is not None and suspension.banned and suspension.created_by == moderator
    else:
        assert suspension is None
    assert not Suspension.objects.exclude(user_id=players[1].user_id).exists()
    target = {
        "hide message": ("games.ChatMessage", str(message.pk)),
        "suspend": ("auth.User", str(players[1].user_id)),
        "ban": ("auth.User", str(players[1].user_id)),
    }
    expected = [] if sanction is None else [(moderator.pk, sanction, *target[sanction], "seen it")]
    if sanction in ("suspend", "ban"):
        expected.insert(0, (moderator.pk, "hide message", *target["hide message"], "seen it"))
    expected.append(
        (moderator.pk, "resolve report", "moderation.Report", str(the_report.pk), resolution)
    )
    assert audit_rows() == expected
    if sanction in ("suspend", "ban"):
        assert_error(players[1].client.get(f"{API}/accounts/me/"), 403, "suspended")
    else:
        assert players[1].client.get(f"{API}/accounts/me/").status_code == 200


def test_dismiss_leaves_resolved_reports_alone(
    mod_client: Client, reported: tuple[Report, ChatMessage]
) -> None:
    the_report, _ = reported
    run_action(mod_client, "report", "dismiss", [the_report.pk], reason="first")
    run_action(mod_client, "report", "dismiss", [the_report.pk], reason="second")
    the_report.refresh_from_db()
    assert the_report.resolution == "dismissed: first"
    assert [row[1:] for row in audit_rows()] == [
        ("resolve report", "moderation.Report", str(the_report.pk), "dismissed: first")
    ]


# -- users and suspensions -------------------------------------------------------------------
@pytest.mark.parametrize(
    "action, length, banned",
    [
        ("suspend_for_a_day", timedelta(days=1), False),
        ("suspend_for_a_week", timedelta(days=7), False),
        ("ban", None, True),
    ],
)
def test_user_admin_suspends_or_bans_the_selected_players_and_lift_restores_them(
    action: str,
    length: timedelta | None,
    banned: bool,
    mod_client: Client,
    moderator: User,
    players: list[Player],
) -> None:
    targets = players[1:]
    ids = [p.user_id for p in targets]
    started = timezone.now()

    response = run_action(mod_client, "user", action, ids, reason="abusive chat")

    assert response.status_code == 302
    for player in targets:
        suspension = Suspension.objects.get(user_id=player.user_id)
        assert suspension.banned == banned and suspension.reason == "abusive chat"
        assert suspension.created_by == moderator
        if length is None:
            assert suspension.until is None
        else:
            assert suspension.until is not None
            assert started + length <= suspension.until <= timezone.now() + length
        assert_error(player.client.get(f"{API}/accounts/me/"), 403, "suspended")
    assert players[0].client.get(f"{API}/accounts/me/").status_code == 200
    kind = "ban" if banned else "suspend"
    assert audit_rows() == [
        (moderator.pk, kind, "auth.User", str(pk), "abusive chat") for pk in sorted(ids)
    ]

    AuditLog.objects.all().delete()
    response = run_action(mod_client, "user", "lift", ids, reason="appeal accepted")

    assert response.status_code == 302
    assert not Suspension.objects.exists()
    for player in targets:
        assert player.client.get(f"{API}/accounts/me/").status_code == 200
    assert audit_rows() == [
        (moderator.pk, "lift suspension", "auth.User", str(pk), "appeal accepted")
        for pk in sorted(ids)
    ]


def _until_fields(moment: Any) -> dict[str, str]:
    return {"until_0": moment.strftime("%Y-%m-%d"), "until_1": moment.strftime("%H:%M:%S")}


def test_suspension_admin_add_change_and_delete_suspend_ban_and_lift(
    mod_client: Client, moderator: User, players: list[Player]
) -> None:
    target = players[1]
    until = (timezone.now() + timedelta(days=3)).replace(microsecond=0)

    response = mod_client.post(
        "/admin/accounts/suspension/add/",
        {"user": target.user_id, "reason": "spam", **_until_fields(until)},
    )

    assert response.status_code == 302, response.content
    suspension = Suspension.objects.get(user_id=target.user_id)
    assert not suspension.banned and suspension.until == until and suspension.reason == "spam"
    assert suspension.created_by == moderator
    assert_error(target.client.get(f"{API}/accounts/me/"), 403, "suspended")

    response = mod_client.post(
        f"/admin/accounts/suspension/{suspension.pk}/change/",
        {"user": target.user_id, "banned": "on", "reason": "spam again"},
    )

    assert response.status_code == 302, response.content
    suspension = Suspension.objects.get(user_id=target.user_id)
    assert suspension.banned and suspension.until is None

    response = mod_client.post(
        f"/admin/accounts/suspension/{suspension.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 302, response.content
    assert not Suspension.objects.exists()
    assert target.client.get(f"{API}/accounts/me/").status_code == 200
    user = str(target.user_id)
    assert audit_rows() == [
        (moderator.pk, "suspend", "auth.User", user, "spam"),
        (moderator.pk, "ban", "auth.User", user, "spam again"),
        (moderator.pk, "lift suspension", "auth.User", user, "lifted"),
    ]


@pytest.mark.parametrize(
    "until",
    [None, timezone.now() - timedelta(days=1)],
    ids=["no end", "end in the past"],
)
def test_suspension_admin_refuses_a_suspension_without_a_future_end_as_a_form_error(
    until: Any, mod_client: Client, players: list[Player]
) -> None:
    fields = _until_fields(until) if until is not None else {}
    response = mod_client.post(
        "/admin/accounts/suspension/add/",
        {"user": players[1].user_id, "reason": "spam", **fields},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    assert not Suspension.objects.exists() and not AuditLog.objects.exists()


# -- the reason page -------------------------------------------------------------------------
@pytest.fixture
def everything(
    running: Game, players: list[Player], reported: tuple[Report, ChatMessage]
) -> dict[str, int]:
    """One target of each kind: a running game, a finished league game, a chat message and
    the report on it, a player, and a player who is already suspended."""
    finished = finish_league_game([user_of(p) for p in players], [10, 20, 30])
    Suspension.objects.create(user_id=players[2].user_id, banned=True, reason="earlier")
    the_report, message = reported
    return {
        "running": running.pk,
        "finished": finished.pk,
        "message": message.pk,
        "report": the_report.pk,
        "player": players[1].user_id,
        "suspended": players[2].user_id,
    }


def world() -> tuple[Any, ...]:
    """Everything a moderator action could change."""
    return (
        list(Game.objects.order_by("pk").values_list("status", "voided", "league_entry__counts")),
        list(ChatMessage.objects.order_by("pk").values_list("hidden")),
        list(Report.objects.order_by("pk").values_list("status", "resolution")),
        list(Suspension.objects.order_by("pk").values_list("user_id", "banned", "until")),
        AuditLog.objects.count(),
    )


ACTIONS = [
    ("game", "abort", "running"),
    ("game", "void", "finished"),
    ("chatmessage", "hide", "message"),
    ("report", "dismiss", "report"),
    ("report", "hide_message", "report"),
    ("report", "suspend_for_a_week", "report"),
    ("report", "ban", "report"),
    ("user", "suspend_for_a_day", "player"),
    ("user", "suspend_for_a_week", "player"),
    ("user", "ban", "player"),
    ("user", "lift", "suspended"),
]


@pytest.mark.parametrize("changelist, action, target", ACTIONS)
def test_an_action_without_a_reason_shows_the_reason_page_and_does_nothing(
    changelist: str, action: str, target: str, mod_client: Client, everything: dict[str, int]
) -> None:
    before = world()
    pk = everything[target]

    first = run_action(mod_client, changelist, action, [pk], apply=False)

    assert first.status_code == 200
    assert first.templates[0].name == "admin/moderation_reason.html"
    html = first.content.decode()
    assert f'name="_selected_action" value="{pk}"' in html
    assert f'name="action" value="{action}"' in html
    assert "A reason is required." not in html
    assert world() == before

    blank = run_action(mod_client, changelist, action, [pk], reason="   ")

    assert blank.status_code == 200
    assert "A reason is required." in blank.content.decode()
    assert world() == before


# -- who may moderate ------------------------------------------------------------------------
def test_the_moderators_group_has_exactly_the_moderation_permissions(moderators: Group) -> None:
    expected = {
        "games.view_game",
        "games.abort_game",
        "games.void_game",
        "games.view_seat",
        "games.view_event",
        "games.view_chatmessage",
        "games.hide_chatmessage",
        "moderation.view_report",
        "moderation.resolve_report",
        "moderation.view_auditlog",
        "accounts.view_suspension",
        "accounts.add_suspension",
        "accounts.change_suspension",
        "accounts.delete_suspension",
        "auth.view_user",
    }
    granted = {
        f"{app}.{codename}"
        for app, codename in moderators.permissions.values_list(
            "content_type__app_label", "codename"
        )
    }
    assert granted == expected


@pytest.mark.parametrize(
    "changelist", ["game", "chatmessage", "report", "suspension", "auditlog", "user"]
)
def test_staff_outside_the_group_cannot_open_the_moderation_admin(
    changelist: str, staff_client: Client
) -> None:
    assert staff_client.get(CHANGELISTS[changelist]).status_code == 403


@pytest.mark.parametrize("changelist, action, target", ACTIONS)
def test_staff_outside_the_group_cannot_run_a_moderation_action(
    changelist: str, action: str, target: str, staff_client: Client, everything: dict[str, int]
) -> None:
    before = world()
    response = run_action(staff_client, changelist, action, [everything[target]], reason="x")
    assert response.status_code == 403
    assert world() == before


@pytest.mark.parametrize(
    "changelist, view_permission, actions",
    [
        ("game", ("games", "view_game"), {"abort", "void"}),
        ("chatmessage", ("games", "view_chatmessage"), {"hide"}),
        (
            "report",
            ("moderation", "view_report"),
            {"dismiss", "hide_message", "suspend_for_a_week", "ban"},
        ),
        ("user", ("auth", "view_user"), {"suspend_for_a_day", "suspend_for_a_week", "ban", "lift"}),
    ],
)
def test_staff_who_may_only_look_are_not_offered_the_actions_and_posting_them_does_nothing(
    changelist: str,
    view_permission: tuple[str, str],
    actions: set[str],
    staff: User,
    staff_client: Client,
    everything: dict[str, int],
) -> None:
    app, codename = view_permission
    staff.user_permissions.add(
        Permission.objects.get(content_type__app_label=app, codename=codename)
    )
    page = staff_client.get(CHANGELISTS[changelist])
    assert page.status_code == 200
    action_form = page.context["action_form"]
    offered = {name for name, _ in action_form.fields["action"].choices} if action_form else set()
    assert not offered & actions
    before = world()
    targets = {"game": "running", "chatmessage": "message", "report": "report", "user": "player"}
    for action in actions:
        run_action(staff_client, changelist, action, [everything[targets[changelist]]], reason="x")
    assert world() == before


# -- the audit log and the event rows are read-only -----------------------------------------
@pytest.fixture
def audit_row(mod_client: Client, running: Game) -> AuditLog:
    run_action(mod_client, "game", "abort", [running.pk], reason="stuck")
    return AuditLog.objects.get()


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_the_audit_log_can_be_read_but_never_added_changed_or_deleted(
    who: str, mod_client: Client, audit_row: AuditLog
) -> None:
    if who == "superuser":
        client = Client()
        client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    else:
        client = mod_client
    url = f"/admin/moderation/auditlog/{audit_row.pk}/"

    listing = client.get("/admin/moderation/auditlog/")
    assert listing.status_code == 200
    action_form = listing.context["action_form"]
    assert action_form is None or "delete_selected" not in dict(
        action_form.fields["action"].choices
    )
    page = client.get(f"{url}change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and 'name="_continue"' not in html
    assert "stuck" in html
    assert client.post(f"{url}change/", {"reason": "rewritten"}).status_code == 403
    assert client.get(f"{url}delete/").status_code == 403
    assert client.post(f"{url}delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/moderation/auditlog/add/").status_code == 403
    client.post(
        "/admin/moderation/auditlog/",
        {"action": "delete_selected", "_selected_action": [audit_row.pk], "post": "yes"},
    )
    assert list(AuditLog.objects.values_list("pk", "reason")) == [(audit_row.pk, "stuck")]


def test_the_game_page_shows_event_rows_read_only(mod_client: Client, running: Game) -> None:
    response = mod_client.get(f"/admin/games/game/{running.pk}/change/")
    assert response.status_code == 200
    inlines = {f.formset.prefix: f for f in response.context["inline_admin_formsets"]}
    events = inlines["events"]
    assert len(events.formset.forms) == running.events.count() > 0
    assert not events.has_add_permission and not events.has_delete_permission
    assert not events.has_change_permission
    html = response.content.decode()
    assert 'name="events-0-DELETE"' not in html and 'name="events-0-payload"' not in html
    assert running.seed not in html  # the seed stays secret while the game runs


def test_the_bots_filter_splits_tables_with_bots_from_human_tables(
    mod_client: Client, running: Game, players: list[Player]
) -> None:
    with_bots = create_game(players[0], seats=3, bots=2)["id"]

    def listed(**query: str) -> set[int]:
        response = mod_client.get("/admin/games/game/", query)
        assert response.status_code == 200
        return {game.pk for game in response.context["cl"].result_list}

    assert listed(with_bots="yes") == {with_bots}
    assert listed(with_bots="no") == {running.pk}
    assert listed() == {with_bots, running.pk}


def test_adding_a_suspension_links_the_new_suspension(
    mod_client: Client, players: list[Player]
) -> None:
    response = mod_client.post(
        "/admin/accounts/suspension/add/",
        {"user": players[1].user_id, "banned": "on", "reason": "cheating"},
        follow=True,
    )
    suspension = Suspension.objects.get(user_id=players[1].user_id)
    (shown,) = [str(m) for m in response.context["messages"]]
    assert f"/admin/accounts/suspension/{suspension.pk}/change/" in shown


def test_resolving_a_report_by_suspension_never_shortens_a_ban(
    mod_client: Client, players: list[Player], reported: tuple[Report, ChatMessage]
) -> None:
    the_report, _ = reported
    run_action(mod_client, "user", "ban", [players[1].user_id], reason="cheating")

    run_action(mod_client, "report", "suspend_for_a_week", [the_report.pk], reason="insult")

    assert Suspension.objects.get(user_id=players[1].user_id).banned
