"""Verifying an address: sign-up mails a signed link to /accounts/verify/<token>/, whose page
verifies on a POST (a GET changes nothing) and whose token an app posts to the API; a token
stops working when the address changes or after its days; an address is verified by one
account at most; a new address needs verifying again."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from accounts import verification
from accounts.models import VerifiedEmail
from accounts.selectors import mail_address_of
from tests.games.helpers import API, PASSWORD, Player, assert_error

pytestmark = pytest.mark.django_db(transaction=True)  # the mails go out after the commit

ME, VERIFY = f"{API}/accounts/me/", f"{API}/accounts/verify-email/"
ME_EMAIL = f"{API}/accounts/me/email/"
RESEND = f"{API}/accounts/me/verify-email/resend/"


def link_in(message: mail.EmailMessage) -> tuple[str, str]:
    """The path and token of the verification link in a mail (absolute, on SITE_URL)."""
    found = re.search(r"http://127\.0\.0\.1:8000(/accounts/verify/([^/\s]+)/)", message.body)
    assert found, message.body
    return found.group(1), found.group(2)


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [address]]


def verified(player: Player) -> bool:
    response = player.client.get(ME)
    assert response.status_code == 200
    flag = response.json()["email_verified"]
    assert isinstance(flag, bool)
    return flag


def test_sign_up_mails_a_link_and_the_address_is_unverified_until_it_is_confirmed(
    make_player: Callable[..., Player],
) -> None:
    alice = make_player("alice")
    (message,) = mails_to("alice@example.com")
    assert "alice" in message.body and "verify" in message.subject.lower()
    path, _ = link_in(message)
    assert not verified(alice) and mail_address_of(User.objects.get(pk=alice.user_id)) is None
    # A mail scanner's GET shows the question and a button, and changes nothing.
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(path)
    assert page.status_code == 200 and b'id="verify-button"' in page.content
    assert not verified(alice)
    # A POST without the page's CSRF token is refused; the page's own form verifies.
    assert browser.post(path).status_code == 403
    assert not verified(alice)
    csrf = browser.cookies["csrftoken"].value
    done = browser.post(path, {"csrfmiddlewaretoken": csrf})
    assert done.status_code == 200 and b'data-testid="email-verified"' in done.content
    assert verified(alice)
    assert mail_address_of(User.objects.get(pk=alice.user_id)) == "alice@example.com"


def test_the_web_sign_up_mails_the_link_too() -> None:
    browser = Client()
    response = browser.post(
        "/accounts/signup/",
        {
            "username": "webby",
            "email": "webby@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    (message,) = mails_to("webby@example.com")
    _, token = link_in(message)
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200
    page = browser.get("/accounts/email/")
    assert b'data-testid="email-verified"' in page.content


def test_an_app_posts_the_token_without_signing_in(make_player: Callable[..., Player]) -> None:
    bob = make_player("bob")
    _, token = link_in(mails_to("bob@example.com")[0])
    response = APIClient().post(VERIFY, {"token": token}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "username": "bob",
        "email": "bob@example.com",
        "email_verified": True,
    }
    assert verified(bob)
    # Posting it again is harmless.
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200


@pytest.mark.parametrize("tamper", ["flip", "other-salt", "other-user", "garbage", "not-a-string"])
def test_a_forged_token_is_refused_as_invalid(
    make_player: Callable[..., Player], tamper: str
) -> None:
    from django.core import signing

    carol, dave = make_player("carol"), make_player("dave")
    _, token = link_in(mails_to("carol@example.com")[0])
    forged: Any = {
        "flip": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "other-salt": signing.dumps({"user": carol.user_id, "email": "carol@example.com"}),
        # dave's id with carol's address: signed by us, but it names an address dave lacks
        "other-user": signing.dumps(
            {"user": dave.user_id, "email": "carol@example.com"}, salt=verification.VERIFY_SALT
        ),
        "garbage": "not-a-token",
        "not-a-string": 12,
    }[tamper]
    assert_error(APIClient().post(VERIFY, {"token": forged}, format="json"), 400, "invalid")
    assert not verified(carol) and not verified(dave)
    if isinstance(forged, str):  # the page says so too
        page = Client().post(f"/accounts/verify/{forged}/")
        assert page.status_code == 400 and b'data-testid="verify-invalid"' in page.content
    assert not VerifiedEmail.objects.exists()


def test_an_expired_token_is_refused(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    erin = make_player("erin")
    _, token = link_in(mails_to("erin@example.com")[0])
    # As if the link's days were over (the signature's age is compared with this).
    monkeypatch.setattr(verification, "VERIFY_MAX_AGE", timedelta(seconds=-1))
    assert_error(APIClient().post(VERIFY, {"token": token}, format="json"), 400, "invalid")
    monkeypatch.undo()
    assert not verified(erin)
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200


def test_an_address_verified_by_one_account_cannot_be_verified_by_another(
    make_player: Callable[..., Player],
) -> None:
    owner = make_player("owner")
    squatter = make_player("squatter")
    # The squatter signs up with the owner's address (in other case): accepted, unverified.
    response = squatter.client.post(
        ME_EMAIL, {"email": "OWNER@Example.com", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200 and response.json()["email_verified"] is False
    squatter_token = link_in(mails_to("OWNER@Example.com")[0])[1]
    _, owner_token = link_in(mails_to("owner@example.com")[0])
    assert APIClient().post(VERIFY, {"token": owner_token}, format="json").status_code == 200
    error = assert_error(
        APIClient().post(VERIFY, {"token": squatter_token}, format="json"), 409, "email_taken"
    )
    assert "another account" in error["message"]
    page = Client().post(f"/accounts/verify/{squatter_token}/")
    assert page.status_code == 409 and b'data-testid="email-taken"' in page.content
    assert verified(owner) and not verified(squatter)
    # No further link goes to the owner's address for the squatter's account.
    mail.outbox.clear()
    assert squatter.client.post(RESEND).status_code == 202
    assert mail.outbox == []


def test_a_new_address_needs_verifying_again_and_the_old_link_stops_working(
    make_player: Callable[..., Player],
) -> None:
    frank = make_player("frank")
    _, old_token = link_in(mails_to("frank@example.com")[0])
    assert APIClient().post(VERIFY, {"token": old_token}, format="json").status_code == 200
    wrong = frank.client.post(
        ME_EMAIL, {"email": "f@example.org", "password": "nope"}, format="json"
    )
    assert_error(wrong, 400, "invalid")
    assert verified(frank)
    response = frank.client.post(
        ME_EMAIL, {"email": "f@example.org", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["email"] == "f@example.org"
    assert response.json()["email_verified"] is False
    # The old address's link no longer verifies anything; the new one's does.
    assert_error(APIClient().post(VERIFY, {"token": old_token}, format="json"), 400, "invalid")
    _, new_token = link_in(mails_to("f@example.org")[0])
    assert APIClient().post(VERIFY, {"token": new_token}, format="json").status_code == 200
    assert verified(frank)
    # Back to the first address: verified again only through a new link.
    frank.client.post(ME_EMAIL, {"email": "frank@example.com", "password": PASSWORD}, format="json")
    assert not verified(frank)
    assert_error(APIClient().post(VERIFY, {"token": new_token}, format="json"), 400, "invalid")


def test_the_account_page_changes_the_address_and_resends_the_link(
    make_player: Callable[..., Player],
) -> None:
    gina = make_player("gina")
    browser = Client()
    browser.force_login(User.objects.get(pk=gina.user_id))
    page = browser.get("/accounts/email/")
    assert page.status_code == 200 and b'data-testid="email-unverified"' in page.content
    assert b'id="resend-button"' in page.content
    mail.outbox.clear()
    assert browser.post("/accounts/email/resend/").status_code == 302
    assert len(mails_to("gina@example.com")) == 1
    refused = browser.post("/accounts/email/", {"email": "g@example.org", "password": "x"})
    assert refused.status_code == 200 and User.objects.get(pk=gina.user_id).email != "g@example.org"
    changed = browser.post("/accounts/email/", {"email": "g@example.org", "password": PASSWORD})
    assert changed.status_code == 302
    assert User.objects.get(pk=gina.user_id).email == "g@example.org"
    assert len(mails_to("g@example.org")) == 1
    # The profile links to the page; signed out, the page asks to log in.
    assert b'href="/accounts/email/"' in browser.get("/players/gina/").content
    assert Client().get("/accounts/email/").status_code == 302


def test_resending_is_refused_once_the_address_is_verified(
    make_player: Callable[..., Player],
) -> None:
    hank = make_player("hank")
    assert hank.client.post(RESEND).status_code == 202
    assert len(mails_to("hank@example.com")) == 2
    _, token = link_in(mails_to("hank@example.com")[-1])
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200
    mail.outbox.clear()
    assert hank.client.post(RESEND).status_code == 202  # nothing to do, nothing sent
    assert mail.outbox == []
    assert_error(APIClient().post(RESEND), 401, "not_authenticated")


@pytest.fixture
def limits_on(settings: Any) -> Iterator[dict[str, str]]:
    settings.RATE_LIMITS_ENABLED = True
    cache.clear()
    yield settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    cache.clear()


def test_verification_mails_to_one_address_are_limited(
    make_player: Callable[..., Player], limits_on: dict[str, str]
) -> None:
    limits_on["verify_mail"] = "2/hour"
    ivy = make_player("ivy")  # the first link
    assert ivy.client.post(RESEND).status_code == 202  # the second
    assert_error(ivy.client.post(RESEND), 429, "rate_limited")
    # Another account naming the same address gets no more links to it either.
    other = make_player("ivy2")
    other.client.post(ME_EMAIL, {"email": "ivy@example.com", "password": PASSWORD}, format="json")
    assert len(mails_to("ivy@example.com")) == 2


def test_changes_of_address_are_limited_per_player(
    make_player: Callable[..., Player], limits_on: dict[str, str]
) -> None:
    limits_on["verify_mail"] = "2/hour"
    kim = make_player("kim")
    for n in range(2):
        body = {"email": f"kim{n}@example.org", "password": PASSWORD}
        assert kim.client.post(ME_EMAIL, body, format="json").status_code == 200
    body = {"email": "kim9@example.org", "password": "guess"}
    assert_error(kim.client.post(ME_EMAIL, body, format="json"), 429, "rate_limited")
    assert kim.client.get(ME).status_code == 200  # reading is not counted
    browser = Client()
    browser.force_login(User.objects.get(pk=kim.user_id))
    page = browser.post("/accounts/email/", {"email": "kim9@example.org", "password": PASSWORD})
    assert page.status_code == 200 and User.objects.get(pk=kim.user_id).email == "kim1@example.org"


def test_posting_tokens_is_throttled(limits_on: dict[str, str]) -> None:
    limits_on["verify_email"] = "3/hour"
    client = APIClient()
    for _ in range(3):
        assert_error(client.post(VERIFY, {"token": "x"}, format="json"), 400, "invalid")
    assert_error(client.post(VERIFY, {"token": "x"}, format="json"), 429, "rate_limited")


def test_an_inactive_account_is_never_mailed(make_player: Callable[..., Player]) -> None:
    jo = make_player("jo")
    _, token = link_in(mails_to("jo@example.com")[0])
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200
    User.objects.filter(pk=jo.user_id).update(is_active=False)
    assert mail_address_of(User.objects.get(pk=jo.user_id)) is None


@pytest.mark.parametrize(
    ("language", "subject", "button"),
    [
        ("es", "Verifica tu dirección de correo", "Verificar mi dirección"),
        ("cs", "Ověř svou e-mailovou adresu", "Ověřit mou adresu"),
        ("hr", "Potvrdi svoju adresu e-pošte", "Potvrdi moju adresu"),
    ],
)
def test_the_link_and_its_page_are_in_the_language_of_the_sign_up(
    language: str, subject: str, button: str
) -> None:
    body = {"username": f"polyglot_{language}", "password": PASSWORD, "email": "p@example.com"}
    response = APIClient().post(
        f"{API}/accounts/register/", body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 201
    (message,) = mail.outbox
    assert subject in message.subject
    path, _ = link_in(message)
    page = Client().get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert button in page.content.decode()


def test_an_address_given_up_by_its_account_may_be_verified_by_another(
    make_player: Callable[..., Player],
) -> None:
    first, second = make_player("first"), make_player("second")
    _, token = link_in(mails_to("first@example.com")[0])
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200
    second.client.post(
        ME_EMAIL, {"email": "first@example.com", "password": PASSWORD}, format="json"
    )
    assert mails_to("first@example.com")[1:] == []  # verified by first: no link for second
    # first's address changes outside the account page (in the admin): theirs no longer.
    User.objects.filter(pk=first.user_id).update(email="elsewhere@example.org")
    assert not verified(first)
    assert second.client.post(RESEND).status_code == 202
    _, token = link_in(mails_to("first@example.com")[-1])
    assert APIClient().post(VERIFY, {"token": token}, format="json").status_code == 200
    assert verified(second) and not verified(first)


def verify_together(tokens: list[str]) -> list[int]:
    """The statuses of posting these tokens at the same moment (threads behind a barrier)."""
    barrier = threading.Barrier(len(tokens))
    statuses: list[int] = []

    def post(token: str) -> None:
        try:
            barrier.wait(timeout=10)
            client = APIClient(raise_request_exception=False)
            statuses.append(client.post(VERIFY, {"token": token}, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return statuses


@pytest.mark.postgres
def test_two_accounts_verifying_one_address_at_once_get_one_verification(
    make_player: Callable[..., Player],
) -> None:
    for attempt in range(3):
        address = f"shared{attempt}@example.com"
        players = [make_player(f"racer{attempt}_{n}") for n in range(2)]
        for player in players:
            player.client.post(ME_EMAIL, {"email": address, "password": PASSWORD}, format="json")
        tokens = [link_in(message)[1] for message in mails_to(address)]
        assert len(tokens) == 2
        assert sorted(verify_together(tokens)) == [200, 409]
        assert VerifiedEmail.objects.filter(email__iexact=address).count() == 1
