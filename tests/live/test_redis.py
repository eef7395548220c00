"""The production wiring with real services: the channels_redis layer carries pushes between
processes, and a real Celery worker with beat plays an expired turn (R16) and pushes it.

Subprocesses get REDIS_URL (Redis database 5, not the app's) and, for Celery, DATABASE_URL of
this test database, so they run the project's own settings; they are always terminated."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.db import connection

from games import engine, push
from tests.live.helpers import db, event_rows, game_row, table
from tests.processes import end

ROOT = Path(django_settings.BASE_DIR)
PYTHON = sys.executable
CELERY = str(Path(sys.executable).with_name("celery"))
TURN_SECONDS = 5  # the table's turn limit
AUTO_MOVE_WITHIN = 15.0  # seconds: the turn limit, worker start-up and 1 s beat ticks

SEND = """
import os, sys, django
django.setup()
from games import push
push.send(sys.argv[1], {"type": "game.state", "views": {}, "public": {"pid": os.getpid()}})
"""

RECEIVE = """
import asyncio, json, sys, django
django.setup()
from channels.layers import get_channel_layer

async def main():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(sys.argv[1], channel)
    print("ready", flush=True)
    message = await asyncio.wait_for(layer.receive(channel), 30)
    print(json.dumps(message), flush=True)
    await layer.flush()

asyncio.run(main())
"""


def layer_settings(url: str, *, prefix: str = "asgi") -> dict[str, Any]:
    """The project's channel layer (wizardsite/settings/base.py), on the test's Redis; a
    `prefix` of its own keeps a test's groups apart from another test run's on that Redis
    (Redis pub/sub channels are shared by all its databases)."""
    hosts = [{"address": url, **django_settings.REDIS_HOST_OPTIONS}]
    backend = "channels_redis.pubsub.RedisPubSubChannelLayer"
    return {"default": {"BACKEND": backend, "CONFIG": {"hosts": hosts, "prefix": prefix}}}


def service_env(redis_url: str, **extra: str) -> dict[str, str]:
    env = {**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "WARNING", **extra}
    env["DJANGO_SETTINGS_MODULE"] = "wizardsite.settings"
    return env


@contextmanager
def running(argv: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A subprocess with its output in `log`, terminated (killed if need be) on the way out."""
    with log.open("wb") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            end(process)


def tail(*logs: Path) -> str:
    return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in logs)


@pytest.mark.redis
@pytest.mark.asyncio
async def test_the_redis_layer_delivers_a_push_sent_from_another_process(
    redis_url: str, settings: Any
) -> None:
    settings.CHANNEL_LAYERS = layer_settings(redis_url)
    layer = get_channel_layer()
    group = f"live-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        # Another interpreter, with the project's settings for REDIS_URL: push.send there.
        sender = await asyncio.create_subprocess_exec(
            PYTHON, "-c", SEND, group, cwd=ROOT, env=service_env(redis_url)
        )
        assert await asyncio.wait_for(sender.wait(), 30) == 0
        message = await asyncio.wait_for(layer.receive(channel), 10)
        assert message == {"type": "game.state", "views": {}, "public": {"pid": sender.pid}}
        assert sender.pid != os.getpid()
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()


@pytest.mark.redis
@pytest.mark.asyncio
async def test_one_push_gives_each_group_its_own_messages_in_order(
    redis_url: str, settings: Any
) -> None:
    settings.CHANNEL_LAYERS = layer_settings(redis_url, prefix="in-order")
    layer = get_channel_layer()
    seat, watch = f"live-{uuid.uuid4().hex}", f"live-{uuid.uuid4().hex}"
    at_seat, watching = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(seat, at_seat)
    await layer.group_add(watch, watching)
    try:
        # From a thread, as a move's: sent on this event loop, one after another.
        messages: list[Any] = [
            (seat, {"type": "game.state", "n": 1}),
            (watch, {"type": "game.state", "n": 2}),
            (seat, {"type": "game.state", "n": 3}),
        ]
        await sync_to_async(push.send_many, thread_sensitive=False)(messages)
        assert await asyncio.wait_for(layer.receive(at_seat), 10) == {"type": "game.state", "n": 1}
        assert await asyncio.wait_for(layer.receive(at_seat), 10) == {"type": "game.state", "n": 3}
        assert await asyncio.wait_for(layer.receive(watching), 10) == {"type": "game.state", "n": 2}
        with pytest.raises(TimeoutError):  # nothing of the seat's reached the watcher
            await asyncio.wait_for(layer.receive(watching), 0.5)
    finally:
        await layer.group_discard(seat, at_seat)
        await layer.group_discard(watch, watching)
        await layer.flush()


@pytest.mark.redis
@pytest.mark.asyncio
async def test_another_process_receives_a_group_message_after_waiting_longer_than_5_s(
    redis_url: str, settings: Any
) -> None:
    settings.CHANNEL_LAYERS = layer_settings(redis_url)
    layer = get_channel_layer()
    group = f"live-{uuid.uuid4().hex}"
    receiver = await asyncio.create_subprocess_exec(
        PYTHON,
        "-c",
        RECEIVE,
        group,
        cwd=ROOT,
        env=service_env(redis_url),
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert receiver.stdout is not None
        assert await asyncio.wait_for(receiver.stdout.readline(), 30) == b"ready\n"
        # Longer than redis-py's default 5 s socket timeout: the settings must lift it, or the
        # receiving process's blocking read fails before anything is sent (channels_redis#422).
        await asyncio.sleep(6)
        await layer.group_send(group, {"type": "game.state", "views": {}, "public": {"n": 1}})
        line = await asyncio.wait_for(receiver.stdout.readline(), 10)
        assert json.loads(line) == {"type": "game.state", "views": {}, "public": {"n": 1}}
        assert await asyncio.wait_for(receiver.wait(), 10) == 0
    finally:
        if receiver.returncode is None:
            receiver.kill()
            await receiver.wait()
        await layer.flush()


def database_url() -> str:
    """This test database, as DATABASE_URL for another process."""
    db_settings = connection.settings_dict
    user = quote(db_settings["USER"] or "")
    password = db_settings["PASSWORD"]
    auth = f"{user}:{quote(password)}" if password else user
    host = db_settings["HOST"] or "127.0.0.1"
    port = db_settings["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{db_settings['NAME']}"


async def first_move_pushed(
    layer: Any, channel: str, seq: int, worker_log: Path, beat_log: Path
) -> dict[str, Any]:
    """The first pushed view past `seq`. A worker that starts more than the outage grace
    after the deadline (a loaded machine) first renews the turn (R16): that push keeps the
    seq and moves the deadline on, and the auto-move follows one limit later."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + AUTO_MOVE_WITHIN
    renewed = False
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), ends - loop.time())
        except TimeoutError:
            pytest.fail(f"no move pushed within {AUTO_MOVE_WITHIN} s\n{tail(worker_log, beat_log)}")
        assert message["type"] == "game.state"
        view: dict[str, Any] = push.decode(message)["state"]
        assert view["seq"] == message["seq"] >= seq
        if view["seq"] > seq:
            return view
        assert not renewed, "a turn is renewed once at most"
        renewed = True
        ends += TURN_SECONDS  # the renewed turn's full limit


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_celery_beat_and_a_worker_play_an_expired_turn_and_push_it(
    redis_url: str, settings: Any, tmp_path: Path
) -> None:
    settings.CHANNEL_LAYERS = layer_settings(redis_url)
    game_id, _ = await db(table, 3, blind_first_round=False, turn_seconds=TURN_SECONDS)
    before = await db(game_row, game_id)
    state = before.engine_state()
    assert state is not None and state.to_act is not None and before.deadline is not None
    _, events = engine.take_turn(state, state.to_act, engine.auto_move(state), seed="-", auto=True)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(push.game_group(game_id), channel)

    env = service_env(redis_url, DATABASE_URL=database_url())
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    worker_argv = [CELERY, "-A", "wizardsite", "worker", "--pool", "solo", "--loglevel", "WARNING"]
    worker_argv += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    beat_argv = [CELERY, "-A", "wizardsite", "beat", "--loglevel", "WARNING"]
    beat_argv += ["--schedule", str(tmp_path / "beat-schedule")]
    try:
        with running(worker_argv, env, worker_log), running(beat_argv, env, beat_log):
            view = await first_move_pushed(layer, channel, before.seq, worker_log, beat_log)
    finally:
        await layer.group_discard(push.game_group(game_id), channel)
        await layer.flush()

    assert view["hand"] is None
    rows = await db(event_rows, game_id)
    decision = rows[before.seq]
    assert (decision.seat, decision.auto, decision.payload) == (state.to_act, True, events[0])
    after = await db(game_row, game_id)
    assert after.seq >= view["seq"]
    # The next turn's clock runs from the auto-move's commit, not from the missed deadline.
    if after.seq == decision.seq:
        assert after.deadline is not None
        started = after.deadline - timedelta(seconds=TURN_SECONDS)
        assert started >= decision.created_at and started >= before.deadline
