"""Credentials and floods: throttled sign-ups, tokens and log-ins (429 `rate_limited` with
Retry-After, nothing changed), revocable tokens, redirects only to this site, names that
cannot pass for another's, and a Content-Security-Policy without inline script."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.services import suspension_set
from tests.games.helpers import API, PASSWORD, Player, assert_error, choose_move, seat_players

pytestmark = pytest.mark.django_db

REGISTER, TOKEN, ME = f"{API}/accounts/register/", f"{API}/accounts/token/", f"{API}/accounts/me/"


@pytest.fixture
def limits_on(settings: Any) -> Iterator[dict[str, str]]:
    """Throttles and the log-in lockout on, as in production, from an empty count."""
    settings.RATE_LIMITS_ENABLED = True
    settings.AXES_ENABLED = True
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    cache.clear()
    yield rates
    cache.clear()


def sign_up(client: APIClient, name: str) -> Any:
    body = {"username": name, "password": PASSWORD, "email": f"{name}@example.com"}
    return client.post(REGISTER, body, format="json")


def assert_throttled(response: Any) -> None:
    assert_error(response, 429, "rate_limited")
    assert int(response["Retry-After"]) >= 1


def test_sign_ups_from_one_address_are_throttled(limits_on: dict[str, str], settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**limits_on, "register": "3/hour"},
    }
    client = APIClient()
    for n in range(3):
        assert sign_up(client, f"early{n}").status_code == 201
    assert_throttled(sign_up(client, "late"))
    assert not User.objects.filter(username="late").exists()


def test_without_rate_limits_nothing_is_throttled(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = False
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": "1/hour",
        },
    }
    client = APIClient()
    assert all(sign_up(client, f"free{n}").status_code == 201 for n in range(4))


def test_wrong_passwords_lock_the_token_endpoint_and_the_login_form(
    limits_on: dict[str, str], make_player: Callable[..., Player]
) -> None:
    victim = make_player("victim")
    api = APIClient()
    wrong = {"username": "victim", "password": "not-the-password"}
    for _ in range(4):
        assert_error(api.post(TOKEN, wrong, format="json"), 401, "not_authenticated")
    # The fifth wrong password locks this name from this address: even the right one waits.
    assert_throttled(api.post(TOKEN, wrong, format="json"))
    right = {"username": "victim", "password": PASSWORD}
    assert_throttled(api.post(TOKEN, right, format="json"))
    page = Client().post("/accounts/login/", right)
    assert page.status_code == 429 and int(page["Retry-After"]) >= 60
    assert victim.client.get(ME).status_code == 200  # an issued token keeps working


def test_a_wrong_login_form_password_counts_as_well(limits_on: dict[str, str]) -> None:
    User.objects.create_user("formuser", password=PASSWORD)
    browser = Client()
    for _ in range(5):
        response = browser.post("/accounts/login/", {"username": "formuser", "password": "x"})
    assert response.status_code == 429
    assert "_auth_user_id" not in browser.session


def test_moves_are_throttled_per_player_and_change_nothing(
    limits_on: dict[str, str], settings: Any, make_player: Callable[..., Player]
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**limits_on, "moves": "3/min"},
    }
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people)
    player = next(p for p in people if p.view(game_id)["legal"] is not None)
    view = player.view(game_id)
    stale = {**choose_move(view["legal"], None), "seq": view["seq"] - 1}
    for _ in range(3):
        assert_error(player.move(game_id, stale), 409, "stale_state")
    assert_throttled(player.move(game_id, {**stale, "seq": view["seq"]}))
    assert player.view(game_id)["seq"] == view["seq"]


def test_password_reset_mails_are_throttled(limits_on: dict[str, str], settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**limits_on, "password_reset": "2/hour"},
    }
    User.objects.create_user("forgetful", "forgetful@example.com", PASSWORD)
    browser = Client()
    for _ in range(2):
        response = browser.post("/accounts/password_reset/", {"email": "forgetful@example.com"})
        assert response.status_code == 302
    response = browser.post("/accounts/password_reset/", {"email": "forgetful@example.com"})
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert len(mail.outbox) == 2


# -- tokens ----------------------------------------------------------------------------------
def test_deleting_the_token_revokes_it_and_only_it(make_player: Callable[..., Player]) -> None:
    player = make_player("leaver")
    other = make_player("stayer")
    response = player.client.delete(TOKEN)
    assert response.status_code == 204 and not response.content
    assert_error(player.client.get(ME), 401, "not_authenticated")
    assert other.client.get(ME).status_code == 200
    assert_error(APIClient().delete(TOKEN), 401, "not_authenticated")


def test_changing_the_password_revokes_every_token_and_ends_other_sessions(
    make_player: Callable[..., Player],
) -> None:
    player = make_player("changer")
    user = User.objects.get(pk=player.user_id)
    here, elsewhere = Client(), Client()
    here.force_login(user)
    elsewhere.force_login(user)
    response = here.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-phrase",
            "new_password2": "a-new-long-phrase",
        },
    )
    assert response.status_code == 302
    assert_error(player.client.get(ME), 401, "not_authenticated")
    assert here.get(ME).status_code == 200  # this browser stays signed in
    assert elsewhere.get(ME).status_code in (401, 403)  # the other one is signed out


def test_resetting_the_password_revokes_every_token(make_player: Callable[..., Player]) -> None:
    player = make_player("resetter")
    Client().post("/accounts/password_reset/", {"email": "resetter@example.com"})
    (message,) = mail.outbox
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", message.body)
    assert link is not None
    browser = Client()
    form = browser.get(link.group(1), follow=True)
    new = {"new_password1": "a-new-long-phrase", "new_password2": "a-new-long-phrase"}
    assert browser.post(form.redirect_chain[-1][0], new).status_code == 302
    assert_error(player.client.get(ME), 401, "not_authenticated")


# -- redirects, names, CSP -------------------------------------------------------------------
def test_sign_up_never_redirects_off_site() -> None:
    form = {"username": "newbie", "email": "newbie@example.com"}
    form |= {"password1": "a-long-passphrase", "password2": "a-long-passphrase"}
    response = Client().post("/accounts/signup/?next=https://evil.example/phish", form)
    assert response.status_code == 302
    assert not response["Location"].startswith("https://evil.example")
    response = Client().post("/accounts/signup/?next=/rules/", {**form, "username": "newbie2"})
    assert response["Location"] == "/rules/"


@pytest.mark.parametrize("name", ["аlice", "ALICE", "al ice", "alice!", "a", "x" * 31])
def test_a_name_that_could_pass_for_another_or_is_not_plain_ascii_is_refused(name: str) -> None:
    assert sign_up(APIClient(), "alice").status_code == 201
    response = sign_up(APIClient(), name)
    assert_error(response, 400, "invalid")
    assert "username" in response.json()["error"]["fields"]
    assert User.objects.count() == 1


def test_the_sign_up_form_refuses_a_cyrillic_lookalike() -> None:
    User.objects.create_user("alice")
    form = {"username": "аlice", "email": "x@example.com"}
    form |= {"password1": "a-long-passphrase", "password2": "a-long-passphrase"}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 200 and User.objects.count() == 1


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/rules/",
        "/lobby/",
        "/leaderboard/",
        "/accounts/login/",
        "/api/v1/docs/",
    ],
)
def test_pages_carry_a_csp_of_this_site_only_and_no_inline_script(
    path: str, make_player: Callable[..., Player]
) -> None:
    browser = Client()
    browser.force_login(User.objects.get(pk=make_player().user_id))
    response = browser.get(path)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy)
    assert script_src is not None and script_src.group(1).strip() == "'self'"
    assert "default-src 'self'" in policy
    html = response.content.decode()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handler


# -- suspended accounts ------------------------------------------------------------------------
@pytest.mark.parametrize("banned", [False, True], ids=["suspended", "banned"])
def test_a_suspended_users_right_password_gets_403_suspended_and_no_token(
    banned: bool, make_player: Callable[..., Player]
) -> None:
    make_player("sinner")
    user = User.objects.get(username="sinner")
    until = None if banned else timezone.now() + timedelta(days=1)
    suspension_set(user=user, reason="spam", until=until, banned=banned, by=None)
    tokens = set(Token.objects.filter(user=user).values_list("key", flat=True))
    api = APIClient()

    right = api.post(TOKEN, {"username": "sinner", "password": PASSWORD}, format="json")

    assert_error(right, 403, "suspended")
    assert set(Token.objects.filter(user=user).values_list("key", flat=True)) == tokens


def test_a_wrong_password_of_a_suspended_user_is_401_like_anyone_elses(
    make_player: Callable[..., Player],
) -> None:
    make_player("sinner")
    make_player("saint")
    suspension_set(
        user=User.objects.get(username="sinner"), reason="spam", until=None, banned=True, by=None
    )
    api = APIClient()
    answers = [
        api.post(TOKEN, {"username": name, "password": "not-the-password"}, format="json")
        for name in ("sinner", "saint")
    ]
    for answer in answers:
        assert_error(answer, 401, "not_authenticated")
    assert answers[0].content == answers[1].content


def test_a_locked_out_suspended_user_is_told_to_wait_not_that_the_password_is_right(
    limits_on: dict[str, str], make_player: Callable[..., Player]
) -> None:
    make_player("sinner")
    suspension_set(
        user=User.objects.get(username="sinner"), reason="spam", until=None, banned=True, by=None
    )
    api = APIClient()
    for _ in range(5):
        api.post(TOKEN, {"username": "sinner", "password": "wrong"}, format="json")
    assert_throttled(api.post(TOKEN, {"username": "sinner", "password": PASSWORD}, format="json"))


@pytest.mark.parametrize("language", ["es", "cs", "hr"])
def test_the_password_help_of_the_sign_up_speaks_the_readers_language(language: str) -> None:
    page = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "Your password" not in page and "can’t" not in page
