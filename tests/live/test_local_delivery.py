"""The Redis layer hands a group's message straight to this process's sockets when no other
process listens to that group, and publishes it (once, heard once) when one does; once a web
process knows which groups other processes hear, the others never touch Redis.

A pattern subscription stands for an observer of every PUBLISH: Redis does not count it as a
subscriber of the channel, so it changes no decision the layer makes."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
import redis.asyncio as aioredis
from channels.layers import get_channel_layer

from games import listeners
from tests.live.test_redis import layer_settings

pytestmark = [pytest.mark.redis, pytest.mark.asyncio]


@pytest_asyncio.fixture
async def layer(redis_url: str, settings: Any) -> AsyncIterator[Any]:
    settings.CHANNEL_LAYERS = layer_settings(redis_url)
    channel_layer = get_channel_layer()
    yield channel_layer
    await channel_layer.flush()


@pytest_asyncio.fixture
async def published(redis_url: str) -> AsyncIterator[list[tuple[str, bytes]]]:
    """Every message PUBLISHed to a group channel of these tests while the test runs (channel,
    data); the test reads those of its own groups (other processes may run these tests too)."""
    client = aioredis.Redis.from_url(redis_url)
    observer = client.pubsub()
    await observer.psubscribe("asgi__group__local-*")
    seen: list[tuple[str, bytes]] = []
    ready = asyncio.Event()

    async def listen() -> None:
        async for message in observer.listen():
            if message["type"] == "psubscribe":
                ready.set()
            elif message["type"] == "pmessage":
                seen.append((message["channel"].decode(), message["data"]))

    listening = asyncio.create_task(listen())
    await asyncio.wait_for(ready.wait(), 5)
    yield seen
    listening.cancel()
    await observer.aclose()
    await client.aclose()


def group_name() -> str:
    return f"local-{uuid.uuid4().hex}"


def to(groups: list[str], published: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The published messages of these groups."""
    channels = {f"asgi__group__{group}" for group in groups}
    return [(channel, data) for channel, data in published if channel in channels]


async def settle() -> None:
    """Long enough for a PUBLISH to reach the observer, were there one."""
    await asyncio.sleep(0.3)


async def test_a_group_only_this_process_hears_is_delivered_without_a_publish(
    layer: Any, published: list[tuple[str, bytes]]
) -> None:
    group = group_name()
    member = await layer.new_channel()
    await layer.group_add(group, member)

    await layer.group_send_many([(group, {"type": "game.state", "n": 1})])

    assert await asyncio.wait_for(layer.receive(member), 5) == {"type": "game.state", "n": 1}
    await settle()
    assert to([group], published) == []


async def test_a_group_nobody_hears_is_neither_published_nor_delivered(
    layer: Any, published: list[tuple[str, bytes]]
) -> None:
    group, other = group_name(), group_name()
    elsewhere = await layer.new_channel()
    await layer.group_add(other, elsewhere)

    await layer.group_send_many([(group, {"type": "game.state", "n": 1})])

    await settle()
    assert to([group, other], published) == []
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(elsewhere), 0.3)


async def test_a_group_another_process_hears_is_published_once_and_heard_once_here(
    layer: Any, published: list[tuple[str, bytes]], redis_url: str
) -> None:
    group = group_name()
    member = await layer.new_channel()
    await layer.group_add(group, member)
    other_process = aioredis.Redis.from_url(redis_url)
    subscriber = other_process.pubsub()
    await subscriber.subscribe(f"asgi__group__{group}")
    try:
        await layer.group_send_many([(group, {"type": "game.state", "n": 1})])

        await settle()
        assert [channel for channel, _ in to([group], published)] == [f"asgi__group__{group}"]
        assert layer.deserialize(to([group], published)[0][1]) == {"type": "game.state", "n": 1}
        assert await asyncio.wait_for(layer.receive(member), 5) == {"type": "game.state", "n": 1}
        with pytest.raises(TimeoutError):  # the published copy is not delivered here twice
            await asyncio.wait_for(layer.receive(member), 0.5)
    finally:
        await subscriber.aclose()
        await other_process.aclose()


async def test_a_push_sent_from_another_thread_reaches_the_sockets_of_this_loop_in_order(
    layer: Any, published: list[tuple[str, bytes]]
) -> None:
    group, other = group_name(), group_name()
    member, stranger = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(group, member)
    await layer.group_add(other, stranger)
    messages = [(group, {"type": "game.state", "n": n}) for n in range(5)]

    # As a move's thread does: a loop of its own (the web process's push loop).
    sender = threading.Thread(target=asyncio.run, args=(layer.group_send_many(messages),))
    sender.start()
    await asyncio.to_thread(sender.join)

    received = [await asyncio.wait_for(layer.receive(member), 5) for _ in messages]
    assert [message["n"] for message in received] == [0, 1, 2, 3, 4]
    with pytest.raises(TimeoutError):  # another group's socket heard none of it
        await asyncio.wait_for(layer.receive(stranger), 0.3)
    assert to([group, other], published) == []


async def test_once_it_knows_who_listens_elsewhere_send_here_keeps_only_those_groups_for_redis(
    layer: Any, published: list[tuple[str, bytes]], redis_url: str
) -> None:
    mine, theirs = group_name(), group_name()
    member = await layer.new_channel()
    await layer.group_add(mine, member)
    other_process = aioredis.Redis.from_url(redis_url)
    subscriber = other_process.pubsub()
    await subscriber.subscribe(f"asgi__group__{theirs}")
    to_mine, to_theirs = (mine, {"type": "game.state", "n": 1}), (theirs, {"type": "game.state"})
    try:
        # Before it has asked Redis, everything goes the safe way: through group_send_many.
        assert layer.send_here([to_mine, to_theirs]) == [to_mine, to_theirs]

        await layer.look_up_listeners()
        # From a move's thread, which has no event loop.
        rest = await asyncio.to_thread(layer.send_here, [to_mine, to_theirs])

        assert rest == [to_theirs]
        assert await asyncio.wait_for(layer.receive(member), 5) == to_mine[1]
        await settle()
        assert to([mine, theirs], published) == []  # send_here itself never publishes
    finally:
        await subscriber.aclose()
        await other_process.aclose()


async def test_an_answer_older_than_it_is_trusted_for_sends_everything_through_redis(
    layer: Any,
) -> None:
    mine = group_name()
    member = await layer.new_channel()
    await layer.group_add(mine, member)
    await layer.look_up_listeners()
    message = (mine, {"type": "game.state", "n": 1})
    assert layer.send_here([message]) == []

    layer.listeners.looked_up_at -= listeners.TRUSTED_FOR + 1
    assert layer.send_here([message]) == [message]


@pytest_asyncio.fixture
async def own_layer(redis_url: str, settings: Any) -> AsyncIterator[Any]:
    """The layer with a channel prefix of this test's own: no other test run on this Redis
    says or hears anything on its control channel."""
    settings.CHANNEL_LAYERS = layer_settings(redis_url, prefix=f"t{uuid.uuid4().hex}")
    channel_layer = get_channel_layer()
    yield channel_layer
    await channel_layer.flush()


def named(layer: Any, group: str) -> str:
    return str(layer._get_layer()._get_group_channel_name(group))


async def test_the_first_socket_of_a_process_in_a_group_announces_it(
    own_layer: Any, redis_url: str
) -> None:
    control = listeners.control_channel(own_layer._get_layer())
    client = aioredis.Redis.from_url(redis_url)
    heard = client.pubsub()
    await heard.subscribe(control)
    group = group_name()
    first, second = await own_layer.new_channel(), await own_layer.new_channel()
    try:
        await own_layer.group_add(group, first)
        await own_layer.group_add(group, second)  # the group is this process's already

        said = []
        while (message := await heard.get_message(timeout=0.5)) is not None:
            if message["type"] == "message":
                said.append(message["data"].decode())
        assert said == [f"{listeners.ME} {named(own_layer, group)}"]
    finally:
        await heard.aclose()
        await client.aclose()


async def test_a_group_another_process_announces_goes_through_redis_before_any_look_up(
    own_layer: Any, redis_url: str
) -> None:
    mine, theirs = group_name(), group_name()
    member = await own_layer.new_channel()
    await own_layer.group_add(mine, member)
    await own_layer.look_up_listeners()
    control = listeners.control_channel(own_layer._get_layer())
    hearing = asyncio.ensure_future(
        listeners.hear_announcements(own_layer.listeners, own_layer._get_layer())
    )
    other_process = aioredis.Redis.from_url(redis_url)
    try:
        while (await other_process.pubsub_numsub(control))[0][1] == 0:
            await asyncio.sleep(0.05)  # until this process hears announcements
        to_theirs = (theirs, {"type": "game.state"})
        assert own_layer.send_here([to_theirs]) == []  # nobody known to listen: not for Redis

        await other_process.publish(control, f"another {named(own_layer, theirs)}")
        for _ in range(100):
            if own_layer.listeners.heard_elsewhere(named(own_layer, theirs)):
                break
            await asyncio.sleep(0.02)
        rest = own_layer.send_here([to_theirs, (mine, {"type": "game.state"})])
        assert rest == [to_theirs]
    finally:
        hearing.cancel()
        await other_process.aclose()
