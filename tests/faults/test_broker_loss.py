"""A Celery worker that holds delayed tasks (a bot's paced step, a turn's deadline) lives
through its Redis killed and started again: it reconnects, and the tasks it held come back
through Redis's visibility timeout or are stood in for by the sweeps.

kombu 5.7.0 fails this: on the lost connection the worker restores the messages it holds
through the connection it has just dropped, and stops ("Unrecoverable error: AttributeError").
kombu 5.6 and celery 5.6 pass it, so pyproject.toml keeps them below 5.7: this test is what a
new release must pass before that pin moves."""

from __future__ import annotations

import time
from pathlib import Path

import redis

from tests.faults.conftest import PrivateRedis
from tests.faults.stack import stack

HELD = 3
SEND = f"""
import django
django.setup()
from games.tasks import bot_step
for _ in range({HELD}):
    bot_step.apply_async((0, 0), countdown=600)  # for no game: nothing to do when it runs
"""


def test_a_worker_holding_delayed_tasks_survives_its_broker_restarted(
    private_redis: PrivateRedis, tmp_path: Path
) -> None:
    with stack(f"sqlite:///{tmp_path / 'site.sqlite3'}", private_redis.url, tmp_path) as site:
        site.start("worker")
        site.python("-c", SEND)
        held = redis.Redis.from_url(private_redis.url)
        deadline = time.monotonic() + 30
        while held.hlen("unacked") < HELD:  # kombu's record of what the worker holds
            assert time.monotonic() < deadline, "the worker took none of the delayed tasks"
            site.stack.check_alive()
            time.sleep(0.1)
        held.close()

        private_redis.restart()
        site.stack.wait_workers(private_redis.url, "worker")  # fails at once if it died
        logs = site.logs(lines=None)
    assert "Unrecoverable" not in logs, logs
