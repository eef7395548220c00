"""A client cannot pass for another by writing X-Forwarded-For: with no trusted proxy (the
default) every per-address limit counts the address the server sees, so a fresh forged header
on each call escapes none of them (tokens, sign-ups through the API and the form). Behind
trusted proxies: tests/wizardsite/test_client_address.py."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.games.helpers import API, PASSWORD, assert_error, set_rate

pytestmark = pytest.mark.django_db

FORGED = (f"198.51.100.{n}" for n in itertools.count(1))  # another "client" every call


@pytest.fixture
def twice_each(settings: Any) -> None:
    """Throttles on, two sign-ups and two token calls an address."""
    settings.RATE_LIMITS_ENABLED = True
    set_rate(settings, "register", "2/hour")
    set_rate(settings, "token", "2/min")


def api_sign_up(name: str) -> Any:
    body = {"username": name, "password": PASSWORD, "email": f"{name}@example.com"}
    return APIClient().post(
        f"{API}/accounts/register/", body, format="json", HTTP_X_FORWARDED_FOR=next(FORGED)
    )


def form_sign_up(name: str) -> Any:
    form = {"username": name, "email": f"{name}@example.com"}
    form |= {"password1": PASSWORD, "password2": PASSWORD}
    return Client().post("/accounts/signup/", form, HTTP_X_FORWARDED_FOR=next(FORGED))


def test_a_forged_header_per_call_does_not_escape_the_token_throttle(twice_each: None) -> None:
    User.objects.create_user("owner", password=PASSWORD)
    credentials = {"username": "owner", "password": "a-guess"}
    for _ in range(2):
        answer = APIClient().post(
            f"{API}/accounts/token/", credentials, format="json", HTTP_X_FORWARDED_FOR=next(FORGED)
        )
        assert answer.status_code == 401
    refused = APIClient().post(
        f"{API}/accounts/token/", credentials, format="json", HTTP_X_FORWARDED_FOR=next(FORGED)
    )
    assert_error(refused, 429, "rate_limited")


def test_a_forged_header_per_call_does_not_escape_the_api_sign_up_throttle(
    twice_each: None,
) -> None:
    assert [api_sign_up(f"api{n}").status_code for n in range(2)] == [201, 201]
    assert_error(api_sign_up("api-late"), 429, "rate_limited")
    assert not User.objects.filter(username="api-late").exists()


def test_the_sign_up_form_counts_with_the_api_and_a_forged_header_does_not_escape_it(
    twice_each: None,
) -> None:
    assert api_sign_up("first").status_code == 201
    assert form_sign_up("second").status_code == 302  # signed up, on to the lobby
    refused = form_sign_up("third")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert b"Too many attempts" in refused.content
    assert_error(api_sign_up("fourth"), 429, "rate_limited")
    assert set(User.objects.values_list("username", flat=True)) == {"first", "second"}


def test_a_form_refused_for_its_fields_is_not_counted(twice_each: None) -> None:
    form = {"username": "typo", "email": "typo@example.com"}
    form |= {"password1": PASSWORD, "password2": "another-phrase"}
    for _ in range(3):
        assert Client().post("/accounts/signup/", form).status_code == 200
    assert form_sign_up("typo").status_code == 302
