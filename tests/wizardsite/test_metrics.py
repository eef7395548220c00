"""/metrics: who may read it, what it counts (moves by kind and door, games by status), and
that several web processes sharing PROMETHEUS_MULTIPROC_DIR are summed in one scrape."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery import signals
from celery.app.task import Context
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from games import services
from games.metrics import MOVE_KINDS
from games.models import Event as EventRow
from games.models import Game
from tests.faults.stack import Stack, call, register, seat_three
from tests.games.helpers import Player, choose_move, play_to_end, seat_players
from tests.live.helpers import Sockets, db, next_move, open_seats, table
from tests.processes import end
from wizardsite.task_metrics import SENT_AT_HEADER

REMOTE = "203.0.113.9"  # an address that is not this machine's


def moves_counted() -> Counter[tuple[str, str]]:
    """This process's wizard_moves_total, by (kind, door)."""
    counted: Counter[tuple[str, str]] = Counter()
    for metric in REGISTRY.collect():
        for sample in metric.samples:
            if sample.name == "wizard_moves_total":
                counted[(sample.labels["kind"], sample.labels["door"])] += int(sample.value)
    return counted


def decisions(game_id: int, seats: set[int]) -> Counter[str]:
    """The game's decision rows made by `seats`, by the metric's kind."""
    rows = EventRow.objects.filter(game_id=game_id, seat__in=seats, type__in=MOVE_KINDS)
    return Counter(MOVE_KINDS[kind] for kind in rows.values_list("type", flat=True))


@pytest.mark.django_db
def test_loopback_may_read_the_metrics(client: Client) -> None:
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "wizard_games{status=" in response.content.decode()
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200


@pytest.mark.django_db
def test_a_request_a_proxy_passed_on_is_not_from_this_machine(
    client: Client, settings: Any
) -> None:
    """Behind a proxy on this machine every request comes from loopback: one that carries
    X-Forwarded-For came from elsewhere, and /metrics needs the token for it."""
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    forwarded = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert forwarded.status_code == 403


@pytest.mark.django_db
def test_another_address_needs_the_bearer_token(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "scrape-secret-0123456789"
    assert client.get("/metrics", REMOTE_ADDR=REMOTE).status_code == 403
    right = "Bearer scrape-secret-0123456789"
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION=right).status_code == 200
    for wrong in ["Bearer scrape-secret-012345678", "Token scrape-secret-0123456789", "Bearer"]:
        answer = client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION=wrong)
        assert answer.status_code == 403, wrong


@pytest.mark.django_db
def test_without_a_token_configured_no_bearer_opens_it(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    answer = client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer ")
    assert answer.status_code == 403


@pytest.mark.django_db
def test_a_games_moves_are_counted_by_kind_and_door(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(2)]
    before = moves_counted()  # the bot may bid as soon as the table starts
    game_id = seat_players(people, bots=1, rounds=3, blind_first_round=False)
    play_to_end(game_id, people)
    after = moves_counted()
    counted = {key: after[key] - before[key] for key in after if after[key] != before[key]}

    by_people, by_bot = decisions(game_id, {0, 1}), decisions(game_id, {2})
    expected = {(kind, "rest"): n for kind, n in by_people.items()}
    expected |= {(kind, "bot"): n for kind, n in by_bot.items()}
    assert counted == expected
    assert by_people["bid"] == 2 * 3 and by_bot["bid"] == 3  # each seat bids once a round


@pytest.mark.django_db
def test_games_are_counted_by_status_at_scrape_time(
    client: Client, make_player: Callable[..., Player]
) -> None:
    seat_players([make_player() for _ in range(3)])
    text = client.get("/metrics").content.decode()
    assert 'wizard_games{status="active"} 1.0' in text
    assert 'wizard_games{status="finished"} 0.0' in text


@pytest.mark.django_db
def test_requests_are_counted_by_route_name_not_path(client: Client) -> None:
    client.get("/rules/")
    client.get("/games/123456/")  # the id must not become a label
    text = client.get("/metrics").content.decode()
    assert re.search(r'wizard_http_requests_total\{method="GET",route="rules",status="200"\}', text)
    assert 'route="table"' in text
    # In no label (a sample's value, a float timestamp, may hold those digits by chance).
    labels = re.findall(r"\{([^}]*)\}", text)
    assert labels and not any("123456" in label for label in labels)


def scrape_total(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if all(found.get(key) == value for key, value in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


@pytest.mark.django_db(transaction=True)  # counted once committed
def test_an_expired_turn_is_counted_as_the_timers_with_its_lateness(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False, rounds=2)
    choosing = people[0].view(game_id)["round"]["phase"] == "choosing_trump"  # R5
    kind = "trump" if choosing else "bid"
    before = moves_counted()
    late = "wizard_auto_move_lateness_seconds_bucket"
    within_2s, within_5s = (REGISTRY.get_sample_value(late, {"le": le}) for le in ("2.0", "5.0"))
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=3))
    assert services.turns_expire() == 1
    after = moves_counted()
    assert after - before == Counter({(kind, "timer"): 1})
    # Three seconds late: counted within 5 s, not within 2 s.
    assert REGISTRY.get_sample_value(late, {"le": "2.0"}) == within_2s
    assert REGISTRY.get_sample_value(late, {"le": "5.0"}) == (within_5s or 0) + 1


@pytest.mark.django_db(transaction=True)
def test_an_expired_turn_a_resignation_finds_is_the_timers_too(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False, rounds=2)
    view = people[0].view(game_id)
    kind = "trump" if view["round"]["phase"] == "choosing_trump" else "bid"
    leaving = next(p for n, p in enumerate(people) if n != view["to_act"])
    before = moves_counted()
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=3))
    services.seat_resign(game_id=game_id, user=User.objects.get(pk=leaving.user_id))
    assert (moves_counted() - before)[(kind, "timer")] == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_sockets_are_gauged_and_their_moves_counted_as_the_sockets(
    sockets: Sockets, in_memory_layer: None
) -> None:
    open_before = REGISTRY.get_sample_value("wizard_open_sockets") or 0.0
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    assert REGISTRY.get_sample_value("wizard_open_sockets") == open_before + 3
    before = moves_counted()
    seat, body = await db(next_move, people, game_id)
    await seat_sockets[seat].send({"type": "move", **body})
    await seat_sockets[seat].state()
    counted = moves_counted()
    assert sum(counted.values()) - sum(before.values()) == 1
    assert sum(n for (_, door), n in (counted - before).items() if door == "socket") == 1
    await sockets.close_all()
    assert REGISTRY.get_sample_value("wizard_open_sockets") == open_before


def test_two_web_processes_are_summed_in_one_scrape(tmp_path: Path) -> None:
    """Two web processes share one database file and one PROMETHEUS_MULTIPROC_DIR; moves
    made through both are all in the scrape of either."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    database = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    extra = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    sites = [
        Stack(database_url=database, redis_url="", folder=tmp_path / name, extra_env=extra)
        for name in ("one", "two")
    ]
    for site in sites:
        site.folder.mkdir()
    sites[0].migrate()
    try:
        for site in sites:
            site.start("web")
        people = [register(sites[0], f"metrics_{n}") for n in range(3)]
        game_id = seat_three(sites[1], people, turn_seconds=600)
        for number in range(6):  # three bids and three cards, through either process in turn
            site = sites[number % 2]
            view = site.api(f"/games/{game_id}/", token=people[0].token).body
            mover = people[view["to_act"]]
            mine = site.api(f"/games/{game_id}/", token=mover.token).body
            body = {**choose_move(mine["legal"], None), "seq": mine["seq"]}
            answer = site.api(f"/games/{game_id}/moves/", "POST", body, mover.token)
            assert answer.status == 200, answer.body
        scraped = call(sites[0].base + "/metrics")
        assert scraped.status == 200
        text = str(scraped.body)
        assert scrape_total(text, "wizard_moves_total", door="rest") == 6
        # Registrations went to one process, the table to the other: both in the scrape.
        assert scrape_total(text, "wizard_http_requests_total", route="api-register") == 3
        assert scrape_total(text, "wizard_http_requests_total", route="api-game-join") == 2
        assert 'wizard_games{status="active"} 1.0' in text
    finally:
        for site in sites:
            for process in site.processes.values():
                end(process)


class StartedTask:
    """What task_prerun hands its receivers: a task whose request holds the message's headers."""

    def __init__(self, request: dict[str, Any]) -> None:
        self.request = Context(request)


def test_a_tasks_delay_is_measured_from_its_sending_to_its_start() -> None:
    headers: dict[str, Any] = {}
    signals.before_task_publish.send(sender="games.tasks.bot_step", headers=headers, body=())
    sent_at = headers[SENT_AT_HEADER]
    assert abs(sent_at - time.time()) < 5
    name, labels = "wizard_task_delay_seconds", {"queue": "notifications"}
    count = REGISTRY.get_sample_value(f"{name}_count", labels) or 0.0
    total = REGISTRY.get_sample_value(f"{name}_sum", labels) or 0.0
    request = {SENT_AT_HEADER: sent_at - 2, "delivery_info": {"routing_key": "notifications"}}
    task = StartedTask(request)
    signals.task_prerun.send(sender=task, task_id="t1", task=task, args=(), kwargs={})
    assert REGISTRY.get_sample_value(f"{name}_count", labels) == count + 1
    waited = (REGISTRY.get_sample_value(f"{name}_sum", labels) or 0.0) - total
    assert 2 <= waited < 10
    # A task due later (eta) is late only from its eta on.
    eta = datetime.fromtimestamp(time.time() - 1, tz=UTC).isoformat()
    task = StartedTask({**request, SENT_AT_HEADER: sent_at - 60, "eta": eta})
    signals.task_prerun.send(sender=task, task_id="t2", task=task, args=(), kwargs={})
    waited = (REGISTRY.get_sample_value(f"{name}_sum", labels) or 0.0) - total - waited
    assert 1 <= waited < 10


GAUGE_CHILD = """
import sys
from prometheus_client import Gauge
Gauge("wizard_open_sockets", "sockets", multiprocess_mode="livesum").set(int(sys.argv[1]))
print("set", flush=True)
if sys.argv[2] == "stay":
    sys.stdin.readline()
"""


@pytest.mark.django_db
def test_a_dead_web_workers_open_sockets_leave_the_sum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that died is not summed: its sockets closed with it; a living one's stay."""
    import subprocess
    import sys

    from prometheus_client import generate_latest

    from wizardsite.metrics import scrape_registry

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    command = [sys.executable, "-c", GAUGE_CHILD]
    subprocess.run([*command, "3", "exit"], check=True, capture_output=True)
    living = subprocess.Popen(
        [*command, "2", "stay"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert living.stdout is not None and living.stdout.readline() == "set\n"
        text = generate_latest(scrape_registry()).decode()
        assert "wizard_open_sockets 2.0" in text, text
        assert len(list(tmp_path.glob("gauge_livesum_*.db"))) == 1
    finally:
        living.communicate("\n", timeout=10)
