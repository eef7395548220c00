"""Sign-up, tokens and the signed-in player (the API contract, "Accounts")."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

API = "/api/v1/accounts"
PASSWORD = "plenty-of-Entropy-42"


def register(client: APIClient, username: str, **overrides: Any) -> Any:
    body = {"username": username, "password": PASSWORD, "email": f"{username}@example.com"}
    return client.post(f"{API}/register/", {**body, **overrides}, format="json")


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@pytest.mark.django_db
def test_sign_up_returns_the_user_and_a_working_token(client: APIClient) -> None:
    response = register(client, "alice")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "username", "token"}
    user = get_user_model().objects.get(pk=body["id"])
    assert (user.username, user.email) == ("alice", "alice@example.com")
    assert user.check_password(PASSWORD) and PASSWORD not in response.content.decode()
    assert Token.objects.get(user=user).key == body["token"]

    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get(f"{API}/me/")
    assert me.status_code == 200
    assert me.json()["id"] == body["id"] and me.json()["username"] == "alice"


@pytest.mark.django_db
def test_several_users_sign_up_and_get_their_own_tokens(client: APIClient) -> None:
    bodies = [register(client, f"player{i}").json() for i in range(4)]
    assert len({body["id"] for body in bodies}) == 4
    assert len({body["token"] for body in bodies}) == 4
    for body in bodies:
        own = APIClient()
        own.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        assert own.get(f"{API}/me/").json()["username"] == body["username"]


@pytest.mark.django_db
def test_token_for_the_right_password_only(client: APIClient) -> None:
    token = register(client, "bob").json()["token"]
    response = client.post(
        f"{API}/token/", {"username": "bob", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200 and response.json() == {"token": token}
    wrong = client.post(
        f"{API}/token/", {"username": "bob", "password": "nope-nope-1"}, format="json"
    )
    error = assert_error(wrong, 401, "not_authenticated")
    assert "fields" not in error
    nobody = client.post(f"{API}/token/", {"username": "zed", "password": PASSWORD}, format="json")
    assert_error(nobody, 401, "not_authenticated")
    # Same message either way: the answer does not tell which usernames exist.
    assert nobody.json() == wrong.json()


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "bob"}, {"password": PASSWORD}, {"username": 7, "password": PASSWORD}, []],
)
@pytest.mark.django_db
def test_token_request_without_credentials_is_invalid(client: APIClient, body: Any) -> None:
    assert_error(client.post(f"{API}/token/", body, format="json"), 400, "invalid")


@pytest.mark.django_db
def test_me_shows_rating_and_game_counts(client: APIClient) -> None:
    token = register(client, "carol").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get(f"{API}/me/").json()
    assert me["email"] == "carol@example.com"
    assert {"rating", "games_played", "games_won", "games_active"} <= set(me)
    assert (me["games_played"], me["games_won"], me["games_active"]) == (0, 0, 0)
    response = client.post("/api/v1/games/", {"seats": 3, "bots": 2}, format="json")
    assert response.status_code == 201
    assert client.get(f"{API}/me/").json()["games_active"] == 1


@pytest.mark.django_db
def test_me_needs_authentication(client: APIClient) -> None:
    assert_error(client.get(f"{API}/me/"), 401, "not_authenticated")
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert_error(client.get(f"{API}/me/"), 401, "not_authenticated")


@pytest.mark.django_db
def test_a_browser_session_works_and_needs_csrf_for_writes() -> None:
    user = get_user_model().objects.create_user("dora", "dora@example.com", PASSWORD)
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(user)
    assert browser.get(f"{API}/me/").json()["username"] == "dora"
    response = browser.post("/api/v1/games/", {"seats": 3}, format="json")
    assert_error(response, 403, "forbidden")


@pytest.mark.parametrize(
    "overrides,field",
    [
        ({"username": ""}, "username"),
        ({"username": "has space"}, "username"),
        ({"username": "x" * 151}, "username"),
        ({"username": 42}, "username"),
        ({"username": None}, "username"),
        ({"username": "Taken"}, "username"),  # usernames are unique regardless of case
        ({"password": "123"}, "password"),
        ({"password": "12345678901"}, "password"),  # entirely numeric
        ({"password": "password"}, "password"),  # too common
        ({"password": ""}, "password"),
        ({"password": 12345678}, "password"),
        ({"email": "not-an-email"}, "email"),
        ({"email": ""}, "email"),
        ({"email": None}, "email"),
    ],
)
@pytest.mark.django_db
def test_bad_sign_up_input_is_invalid_with_fields(
    client: APIClient, overrides: dict[str, Any], field: str
) -> None:
    assert register(client, "taken").status_code == 201
    users = get_user_model().objects.count()
    body = {"username": "newcomer", "password": PASSWORD, "email": "n@example.com", **overrides}
    error = assert_error(client.post(f"{API}/register/", body, format="json"), 400, "invalid")
    assert field in error["fields"], error
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize("body", [{}, [], "alice", {"username": "alice"}])
@pytest.mark.django_db
def test_sign_up_with_missing_or_malformed_body_is_invalid(client: APIClient, body: Any) -> None:
    assert_error(client.post(f"{API}/register/", body, format="json"), 400, "invalid")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_sign_up_with_malformed_json_is_invalid(client: APIClient) -> None:
    response = client.post(f"{API}/register/", "{", content_type="application/json")
    assert_error(response, 400, "invalid")


def _sign_up_twice_at_once(name: str) -> list[tuple[int, Any]]:
    """Two clients send the same sign-up, released together by a barrier."""
    barrier = threading.Barrier(2)
    results: list[Any] = [None, None]

    def sign_up(slot: int) -> None:
        try:
            barrier.wait(timeout=10)
            response = register(APIClient(raise_request_exception=False), name)
            results[slot] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(slot,)) for slot in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_racing_for_one_name_create_one_user() -> None:
    for attempt in range(5):
        name = f"twin{attempt}"
        results = _sign_up_twice_at_once(name)
        assert sorted(status for status, _ in results) == [201, 400], results
        refused = next(body for status, body in results if status == 400)
        assert refused["error"]["code"] == "invalid" and "username" in refused["error"]["fields"]
        assert get_user_model().objects.filter(username=name).count() == 1
