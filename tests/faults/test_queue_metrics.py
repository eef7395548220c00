"""/metrics reads the length of each Celery queue from Redis at scrape time (a private Redis,
never the shared one), and a Redis that is gone costs the scrape only those figures."""

from __future__ import annotations

import signal
from typing import Any

import pytest
import redis
from django.test import Client

from tests.faults.conftest import PrivateRedis


@pytest.mark.django_db
def test_queue_lengths_are_read_at_scrape_time(
    private_redis: PrivateRedis, settings: Any, client: Client
) -> None:
    settings.REDIS_URL = private_redis.url
    queues = redis.Redis.from_url(private_redis.url)
    queues.rpush("notifications", "a", "b", "c")
    queues.rpush("celery", "a")
    text = client.get("/metrics").content.decode()
    assert 'wizard_celery_queue_length{queue="notifications"} 3.0' in text
    assert 'wizard_celery_queue_length{queue="celery"} 1.0' in text
    assert 'wizard_celery_queue_length{queue="review"} 0.0' in text

    private_redis.process.send_signal(signal.SIGKILL)
    private_redis.process.wait(timeout=10)
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert "wizard_celery_queue_length{" not in answer.content.decode()
    assert 'wizard_games{status="active"}' in answer.content.decode()
