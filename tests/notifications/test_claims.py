"""The claim of a notice is a compare-and-set insert: of twin tasks racing for the same turn,
exactly one may send."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from notifications import services
from notifications.models import Kind, Sent
from tests.games.helpers import Player, race
from tests.notifications.helpers import DAY, table


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twin_claims_for_one_turn_let_exactly_one_through(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = table(make_player, DAY)
    Sent.objects.all().delete()
    claim = lambda: services.notice_claim(  # noqa: E731
        user_id=people[0].user_id, game_id=game_id, seq=99, kind=Kind.TURN_PUSH
    )
    assert sorted(race([claim] * 4)) == [False, False, False, True]
    assert Sent.objects.filter(seq=99).count() == 1


@pytest.mark.django_db
def test_a_released_claim_can_be_taken_again(make_player: Callable[..., Player]) -> None:
    game_id, people = table(make_player, DAY)
    key = {"user_id": people[0].user_id, "game_id": game_id, "seq": 99, "kind": Kind.TURN_MAIL}
    assert services.notice_claim(**key) is True
    assert services.notice_claim(**key) is False
    services.notice_release(**key)
    assert services.notice_claim(**key) is True
