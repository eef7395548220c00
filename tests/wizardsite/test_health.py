"""/healthz answers while the process serves; /readyz names each service it needs and which of
them fails (the fault tests stop real servers: tests/faults/test_readiness_faults.py)."""

from __future__ import annotations

import importlib
import os
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from health_check.exceptions import ServiceUnavailable

from wizardsite import health


@pytest.mark.django_db
def test_healthz_answers_without_asking_any_service(
    client: Client, django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "readiness_checks", lambda: pytest.fail("no check runs"))
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_readyz_names_every_part_ok_on_the_test_settings(client: Client) -> None:
    # No REDIS_URL here: the site uses no Redis, so none is asked for.
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}


@pytest.mark.django_db
def test_readyz_names_the_failing_part_with_a_short_text(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unapplied(self: health.Migrations) -> None:
        raise ServiceUnavailable("3 migrations not applied")

    monkeypatch.setattr(health.Migrations, "run", unapplied)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["migrations"] == "Unavailable: 3 migrations not applied"
    assert {name: value for name, value in body.items() if name != "migrations"} == {
        "database": "ok",
        "cache": "ok",
        "broker": "ok",
    }


@pytest.mark.django_db
def test_an_unexpected_error_in_a_check_shows_no_traceback(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: health.Broker) -> None:
        raise RuntimeError("password=hunter2 at line 12")

    monkeypatch.setattr(health.Broker, "run", broken)
    response = client.get("/readyz")
    assert response.status_code == 503
    text = response.content.decode()
    assert "hunter2" not in text and "Traceback" not in text
    assert response.json()["broker"] != "ok"


def production_settings(log_format: str = "") -> Any:
    env = {"SECRET_KEY": "x" * 50, "REDIS_URL": "", "DATABASE_URL": "sqlite:///x.sqlite3"}
    with mock.patch.dict(os.environ, {**env, "LOG_FORMAT": log_format}):
        return importlib.reload(importlib.import_module("wizardsite.settings.production"))


@pytest.mark.django_db
def test_probes_are_not_redirected_to_https_in_production(settings: Any, client: Client) -> None:
    production = production_settings()
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = production.SECURE_REDIRECT_EXEMPT
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    assert client.get("/metrics").status_code == 200
    assert client.get("/rules/").status_code == 301  # everything else still is


def test_production_logs_json_lines_unless_told_otherwise() -> None:
    assert production_settings().LOG_FORMAT == "json"
    assert production_settings("text").LOG_FORMAT == "text"


@pytest.mark.django_db
def test_readyz_waits_for_migrations_then_stops_reading_them(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health.Migrations, "all_applied", False)
    plans = [["0042_new"], []]  # a release whose migration has not run yet, then has
    built = []

    class Executor:
        def __init__(self, connection: Any) -> None:
            built.append(connection)
            self.loader = mock.Mock()

        def migration_plan(self, targets: Any) -> list[str]:
            return plans.pop(0)

    monkeypatch.setattr(health, "MigrationExecutor", Executor)
    assert client.get("/readyz").json()["migrations"] == "Unavailable: 1 migrations not applied"
    assert client.get("/readyz").json()["migrations"] == "ok"
    assert client.get("/readyz").json()["migrations"] == "ok"
    assert len(built) == 2  # the third probe read no migration files
