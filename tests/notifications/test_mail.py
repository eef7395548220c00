"""Turn mails (Django's locmem backend): one when a decision becomes yours at a table of an
hour or more, a reminder when an hour is left, in your language, with a signed one-click
unsubscribe link; nothing twice for one turn, nothing at a live table; only to an address its
owner verified, and at most one a table every quarter-hour."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from notifications import tasks, turns
from notifications.models import NotificationSettings, Sent
from tests.games.helpers import PASSWORD, Player, game_row, register_player, seat_players
from tests.notifications.helpers import DAY, at, deadline_of, move, recipients, table, to_act
from tests.tournaments.helpers import create_tournament, join, tournament_url

pytestmark = pytest.mark.django_db(transaction=True)  # the mails go out after the commit


def email(player: Player) -> str:
    return f"{player.username}@example.com"


def verify(player: Player) -> None:
    """Follow the link of the verification mail last sent to the player, as an app does."""
    (message,) = [m for m in mail.outbox if m.to == [email(player)]][-1:]
    token = re.search(r"/accounts/verify/([^/\s]+)/", message.body)
    assert token, message.body
    response = player.client.post(
        "/api/v1/accounts/verify-email/", {"token": token.group(1)}, format="json"
    )
    assert response.status_code == 200, response.content


def quarter_hour_over() -> None:
    """As if every mail so far went out a quarter-hour ago."""
    Sent.objects.update(created=timezone.now() - turns.TURN_MAIL_GAP - timedelta(seconds=1))


@pytest.fixture
def make_player(make_player: Callable[..., Player]) -> Callable[..., Player]:
    """Players whose addresses are verified (the verification mails then cleared)."""

    def make(username: str | None = None) -> Player:
        player = make_player(username)
        verify(player)
        mail.outbox.clear()
        return player

    return make


def test_one_mail_to_the_player_whose_turn_it_became_and_none_twice(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    first = to_act(game_id, people)
    assert recipients() == [email(first)]
    message = mail.outbox[0]
    assert str(game_id) in message.subject and f"/games/{game_id}/" in message.body
    # A duplicate or retried task sends nothing more for the same turn.
    game = game_row(game_id)
    tasks.turn_notify(first.user_id, game_id, game.seq)
    assert len(mail.outbox) == 1
    # Each move that hands the turn on mails the next player, once: the first time at this
    # table; a turn back within the quarter-hour is held (below).
    mailed = {first.username}
    for _ in range(4):
        before = len(mail.outbox)
        mover = move(game_id, people)
        after = to_act(game_id, people)
        expected = [] if after is mover or after.username in mailed else [email(after)]
        assert recipients()[before:] == expected
        mailed.add(after.username)


def test_no_mail_at_a_live_table_or_for_a_player_who_turned_them_off(
    make_player: Callable[..., Player],
) -> None:
    table(make_player, 600)
    assert mail.outbox == []
    people = [make_player() for _ in range(3)]
    for player in people:
        NotificationSettings.objects.create(user_id=player.user_id, email_turns=False)
    from tests.games.helpers import seat_players

    seat_players(people, turn_seconds=DAY, blind_first_round=False)
    assert mail.outbox == []


def test_the_reminder_comes_once_when_an_hour_is_left_and_not_after_a_move(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    player, deadline = to_act(game_id, people), deadline_of(game_id)
    mail.outbox.clear()
    with at(deadline - timedelta(hours=2)):
        assert tasks.remind_due() == 0  # not yet
    with at(deadline - timedelta(minutes=59)):
        assert tasks.remind_due() == 1
        assert tasks.remind_due() == 0  # the sweep again: nothing twice
        assert tasks.turn_remind(player.user_id, game_id, game_row(game_id).seq) is False
    assert recipients() == [email(player)]
    assert "hour" in mail.outbox[0].subject.lower()
    # After the move the old turn's reminder is void.
    old_seq = game_row(game_id).seq
    move(game_id, people)
    mail.outbox.clear()
    with at(deadline - timedelta(minutes=30)):
        assert tasks.turn_remind(player.user_id, game_id, old_seq) is False
    assert mail.outbox == []


def test_no_reminder_at_a_table_whose_turn_is_shorter_than_two_hours(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, 3600)
    assert len(mail.outbox) == 1  # the turn's own mail
    with at(deadline_of(game_id) - timedelta(minutes=30)):
        assert tasks.remind_due() == 0
        player = to_act(game_id, people)
        assert tasks.turn_remind(player.user_id, game_id, game_row(game_id).seq) is False
    assert len(mail.outbox) == 1


def test_the_mail_is_in_the_language_the_player_last_used(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    for player, language in zip(people, ["es", "cs", "hr"], strict=True):
        browser = Client()
        browser.force_login(player_user(player))
        browser.cookies["django_language"] = language
        assert browser.get("/lobby/").status_code == 200
        assert NotificationSettings.objects.get(user_id=player.user_id).language == language
    from tests.games.helpers import seat_players

    game_id = seat_players(people, turn_seconds=DAY, blind_first_round=False)
    for _ in range(12):
        if len(set(recipients())) == 3:
            break
        move(game_id, people)
    expected = {
        "es": ("Tu turno", "Juega ahora:"),
        "cs": ("Jsi na tahu", "Hraj teď:"),
        "hr": ("Na potezu si", "Igraj sada:"),
    }
    by_address = {
        email(p): expected[lang] for p, lang in zip(people, ["es", "cs", "hr"], strict=True)
    }
    assert len(set(recipients())) == 3
    for message in mail.outbox:
        subject, body = by_address[message.to[0]]
        assert subject in message.subject and body in message.body, (message.to, message.subject)


def player_user(player: Player):  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    return User.objects.get(pk=player.user_id)


def unsubscribe_path(message: mail.EmailMessage) -> str:
    found = re.search(r"https?://[^/\s]+(/notifications/unsubscribe/[^/\s]+/)", message.body)
    assert found, message.body
    assert message.extra_headers["List-Unsubscribe"].endswith(found.group(1) + ">")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    return found.group(1)


def test_the_signed_link_unsubscribes_in_one_click_and_nothing_is_sent_after(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    first = to_act(game_id, people)
    path = unsubscribe_path(mail.outbox[0])
    browser = Client()
    page = browser.get(path)  # a link checker's GET changes nothing
    assert page.status_code == 200 and b"unsubscribe-button" in page.content
    assert not NotificationSettings.objects.filter(user_id=first.user_id, email_turns=False)
    # The mail client's one-click POST (RFC 8058), without cookie or CSRF token.
    done = browser.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200 and b'data-testid="unsubscribed"' in done.content
    assert NotificationSettings.objects.get(user_id=first.user_id).email_turns is False
    # Their next turns bring no mail; the others still get theirs.
    mail.outbox.clear()
    quarter_hour_over()
    for _ in range(12):
        move(game_id, people)
    assert recipients() and email(first) not in recipients()


@pytest.mark.parametrize("tamper", ["flip", "other-salt", "garbage"])
def test_a_tampered_link_is_refused_and_changes_nothing(
    make_player: Callable[..., Player], tamper: str
) -> None:
    game_id, people = table(make_player, DAY)
    first = to_act(game_id, people)
    path = unsubscribe_path(mail.outbox[0])
    token = path.split("/")[-2]
    if tamper == "flip":
        token = token[:-1] + ("A" if token[-1] != "A" else "B")
    elif tamper == "other-salt":
        from django.core import signing

        token = signing.dumps(first.user_id, compress=True)
    else:
        token = "not-a-token"
    for method in ("get", "post"):
        response = getattr(Client(), method)(f"/notifications/unsubscribe/{token}/")
        assert response.status_code == 400
    assert not NotificationSettings.objects.filter(user_id=first.user_id, email_turns=False)


def test_a_suspended_player_is_not_mailed(make_player: Callable[..., Player]) -> None:
    from accounts.models import Suspension

    game_id, people = table(make_player, DAY)
    first = to_act(game_id, people)
    mail.outbox.clear()
    Sent.objects.all().delete()  # as if the turn's task had not run yet
    Suspension.objects.create(user_id=first.user_id, banned=True, reason="test")
    tasks.turn_notify(first.user_id, game_id, game_row(game_id).seq)
    assert mail.outbox == []


def test_claims_of_long_gone_turns_are_pruned_by_the_sweep(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    assert Sent.objects.count() == 1  # the first turn's mail
    old = Sent.objects.create(user_id=people[1].user_id, game_id=game_id, seq=1, kind="turn_mail")
    Sent.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(days=9))
    tasks.remind_due()
    assert list(Sent.objects.values_list("seq", flat=True)) == [game_row(game_id).seq]


def test_a_notice_that_cannot_be_queued_never_fails_the_move(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, people = table(make_player, DAY)

    def broker_down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.turn_notify, "apply_async", broker_down)
    mail.outbox.clear()
    before = game_row(game_id).seq
    move(game_id, people)  # answered 200 (asserted inside)
    assert game_row(game_id).seq > before and mail.outbox == []


def turn_mails() -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if "/games/" in m.body]


def test_no_turn_mail_goes_to_an_address_nobody_verified(
    make_player: Callable[..., Player],
) -> None:
    people = [register_player(f"stranger{n}") for n in range(3)]  # addresses not verified
    game_id = seat_players(people, turn_seconds=DAY, blind_first_round=False)
    for _ in range(6):
        move(game_id, people)
    assert turn_mails() == []
    assert all("/accounts/verify/" in m.body for m in mail.outbox)  # only the sign-up links
    # Once the player to act verifies the address, their next turn is mailed.
    player = to_act(game_id, people)
    verify(player)
    mail.outbox.clear()
    while to_act(game_id, people) is player:
        move(game_id, people)
    while to_act(game_id, people) is not player:
        move(game_id, people)
    assert recipients() == [email(player)]


def test_a_bot_table_mails_its_player_at_most_once_a_quarter_hour(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    game_id = seat_players([player], bots=2, turn_seconds=DAY, blind_first_round=False)
    for _ in range(15):  # the bots answer at once: the turn is back each time
        move(game_id, [player])
    assert recipients() == [email(player)]
    # The quarter-hour over, the sweep mails the turn that is still theirs, once.
    quarter_hour_over()
    mail.outbox.clear()
    assert tasks.remind_due() == 1
    assert recipients() == [email(player)] and str(game_id) in mail.outbox[0].subject
    assert tasks.remind_due() == 0
    held = (player.user_id, game_id, game_row(game_id).seq)
    assert tasks.turn_remind(*held) is False
    # Further turns within the new quarter-hour: held again.
    for _ in range(5):
        move(game_id, [player])
    assert len(mail.outbox) == 1
    assert tasks.remind_due() == 0  # their quarter-hour is not over


def test_two_turns_of_one_table_announced_together_send_one_mail(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    game_id = seat_players([player], bots=2, turn_seconds=DAY, blind_first_round=False)
    move(game_id, [player])
    Sent.objects.all().delete()  # as if neither turn's task had run yet
    mail.outbox.clear()
    seq = game_row(game_id).seq
    tasks.turn_notify(player.user_id, game_id, seq)
    tasks.turn_notify(player.user_id, game_id, seq)
    move(game_id, [player])  # the next turn's own task
    assert recipients() == [email(player)]


def test_a_changed_address_gets_no_turn_mail_until_it_is_verified(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    first = to_act(game_id, people)
    response = first.client.post(
        "/api/v1/accounts/me/email/",
        {"email": "new@example.org", "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["email_verified"] is False
    assert mail.outbox[-1].to == ["new@example.org"]  # its verification link
    quarter_hour_over()
    Sent.objects.all().delete()
    mail.outbox.clear()
    tasks.turn_notify(first.user_id, game_id, game_row(game_id).seq)
    assert turn_mails() == []


@pytest.mark.parametrize(("turn_seconds", "mailed"), [(DAY, True), (60, False)])
def test_a_correspondence_tournament_mails_each_player_their_new_table(
    make_player: Callable[..., Player], turn_seconds: int, mailed: bool
) -> None:
    people = [make_player() for _ in range(3)]
    created = create_tournament(people[0], table_size=3, rounds=1, turn_seconds=turn_seconds)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    mail.outbox.clear()
    started = people[0].client.post(tournament_url(created["id"], "start"))
    (table_row,) = started.json()["tables"]
    tables = [m for m in mail.outbox if "Friday night" in m.subject]
    assert sorted(m.to[0] for m in tables) == (sorted(email(p) for p in people) if mailed else [])
    for message in tables:
        assert f"/games/{table_row['game']}/" in message.body
        assert message.extra_headers["List-Unsubscribe"].startswith("<http")
