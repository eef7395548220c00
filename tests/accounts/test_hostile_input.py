"""Sign-up takes bad input without a login: it is refused as 400 `invalid`, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.games.helpers import API, PASSWORD, assert_error

pytestmark = pytest.mark.django_db

REGISTER = f"{API}/accounts/register/"


def register_raw(body: str) -> object:
    return APIClient().generic("POST", REGISTER, body, content_type="application/json")


def test_json_nested_too_deep_is_invalid_without_a_login() -> None:
    assert_error(register_raw("[" * 2048 + "]" * 2048), 400, "invalid")  # type: ignore[arg-type]
    assert_error(register_raw('{"username": ' + "{" * 1500), 400, "invalid")  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["username", "password", "email"])
@pytest.mark.parametrize("refused", ["\\u0000", "\\ud800"])
def test_nul_or_unpaired_surrogates_in_any_field_are_invalid(field: str, refused: str) -> None:
    fields = {"username": "newcomer", "password": PASSWORD, "email": "new@example.com"}
    fields[field] = fields[field][:3] + refused + fields[field][3:]
    body = "{" + ", ".join(f'"{key}": "{value}"' for key, value in fields.items()) + "}"
    assert_error(register_raw(body), 400, "invalid")  # type: ignore[arg-type]
    assert not User.objects.exists()


def test_invalid_utf8_is_invalid() -> None:
    response = APIClient().generic(
        "POST", REGISTER, b'{"username": "\xff\xfe"}', content_type="application/json"
    )
    assert_error(response, 400, "invalid")
