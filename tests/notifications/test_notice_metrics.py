"""Notices handed over are counted for /metrics by kind: a Web Push the push service took, a
mail given to the mail backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as outbox
from prometheus_client import REGISTRY

from games.models import Game
from notifications import mail
from tests.games.helpers import Player, seat_players
from tests.notifications.push_server import PushService, push_service
from tests.notifications.test_push import start_table

pytestmark = pytest.mark.django_db(transaction=True)  # the notices go out after the commit


def sent(kind: str) -> float:
    return REGISTRY.get_sample_value("wizard_notices_sent_total", {"kind": kind}) or 0.0


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    with push_service() as running:
        settings.WEB_PUSH_TEST_ORIGINS = [running.url]  # a push service on loopback
        yield running


def test_each_push_the_service_takes_is_counted(
    make_player: Callable[..., Player], service: PushService
) -> None:
    before = sent("webpush")
    start_table(make_player, service, 60)
    assert service.received  # the first turn's push
    assert sent("webpush") == before + len(service.received)


def test_each_mail_sent_is_counted(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(3)]
    game = Game.objects.get(pk=seat_players(people, blind_first_round=False))
    user = User.objects.get(pk=people[0].user_id)
    before, mails = sent("mail"), len(outbox.outbox)
    mail.turn_mail(user, game, address="ana@example.com", reminder=False)
    assert len(outbox.outbox) == mails + 1
    assert sent("mail") == before + 1
