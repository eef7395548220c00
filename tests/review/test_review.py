"""The expert's review of a finished game: run once per game after it ends, stored, served to
each player for their own decisions only, shown on the replay and summed up on the profile."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Event as EventRow
from review import tasks
from review.models import GameReview, ReviewedDecision
from review.selectors import review_stats
from tests.games.helpers import (
    API,
    Player,
    assert_error,
    game_row,
    seat_players,
)
from tests.games.test_contract import Contract
from tests.review.conftest import Finished, play_until

pytestmark = pytest.mark.django_db

ANALYSIS = f"{API}/games/{{game_id}}/analysis/"
KINDS = {"bid": "bid", "play": "play", "trump_chosen": "trump"}


def analysis_of(player: Player, game_id: int) -> Any:
    return player.client.get(ANALYSIS.format(game_id=game_id))


def own_decisions(game_id: int, seat: int) -> list[EventRow]:
    """The decisions the seat made itself (the timer's auto-moves are not theirs)."""
    rows = EventRow.objects.filter(game_id=game_id, seat=seat, auto=False).order_by("seq")
    return [row for row in rows if row.type in KINDS]


def test_the_review_runs_once_per_game_and_stores_every_human_decision(
    finished: Finished,
) -> None:
    assert not GameReview.objects.exists()  # its task runs after the commit; none here yet
    assert tasks.review_game(finished.game_id) is True
    assert tasks.review_game(finished.game_id) is False  # a duplicate task does nothing
    review = GameReview.objects.get(game_id=finished.game_id)
    assert review.finished_at is not None
    stored = list(review.decisions.all())
    for seat in (0, 1):
        rows = own_decisions(finished.game_id, seat)
        mine = [d for d in stored if d.seat == seat]
        assert [d.seq for d in mine] == [row.seq for row in rows]
        for decision, row in zip(mine, rows, strict=True):
            assert decision.kind == KINDS[row.type]
            made = {"bid": "bid", "play": "card", "trump": "suit"}[decision.kind]
            assert decision.choice == str(row.payload[made])
            assert decision.points >= 0
            assert decision.points == 0 or decision.choice != decision.expert_choice
            assert decision.user_id == finished.people[seat].user_id
    assert not any(d.seat == 2 for d in stored)  # the bot's decisions are not reviewed
    assert any(not d.matched for d in stored)  # first-legal play is not always the best
    assert ReviewedDecision.objects.count() == len(stored)


def test_the_last_move_sends_the_review_task_after_its_commit(
    make_player: Callable[..., Player],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    people = [make_player(), make_player()]
    game_id = seat_players(people, bots=1, blind_first_round=False, rounds=4)  # R19
    play_until(game_id, lambda state: state.round == 4)  # a person's turn of the last round
    assert game_row(game_id).status == "active" and not GameReview.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        play_until(game_id, lambda state: False)
    assert GameReview.objects.get(game_id=game_id).finished_at is not None


def test_an_unfinished_game_is_not_reviewed(make_player: Callable[..., Player]) -> None:
    people = [make_player(), make_player()]
    game_id = seat_players(people, bots=1)
    assert tasks.review_game(game_id) is False
    assert tasks.review_game(10**6) is False
    assert not GameReview.objects.exists()


def test_analysis_is_404_until_stored_then_each_player_sees_only_their_own_decisions(
    finished: Finished, make_player: Callable[..., Player]
) -> None:
    contract = Contract(yaml.safe_load(APIClient().get(f"{API}/schema/").content))
    ana = finished.people[0]
    pending = analysis_of(ana, finished.game_id)
    assert_error(pending, 404, "not_found")
    contract.response(pending, "get", ANALYSIS)

    tasks.review_game(finished.game_id)
    for seat, player in enumerate(finished.people):
        response = analysis_of(player, finished.game_id)
        body = contract.response(response, "get", ANALYSIS)
        assert response.status_code == 200
        assert body["seat"] == seat and body["game"] == finished.game_id
        rows = own_decisions(finished.game_id, seat)
        assert [d["seq"] for d in body["decisions"]] == [row.seq for row in rows]
        assert body["matched"] == sum(d["matched"] for d in body["decisions"])
        assert body["points"] == pytest.approx(sum(d["points"] for d in body["decisions"]), 0.1)

    stranger = make_player()
    forbidden = analysis_of(stranger, finished.game_id)
    assert_error(forbidden, 403, "not_a_player")
    contract.response(forbidden, "get", ANALYSIS)
    anonymous = APIClient().get(ANALYSIS.format(game_id=finished.game_id))
    assert_error(anonymous, 401, "not_authenticated")
    contract.response(anonymous, "get", ANALYSIS)
    for hostile in (10**6, 0, 10**30):
        assert_error(analysis_of(ana, hostile), 404, "not_found")
    assert analysis_of(ana, -1).status_code == 404  # not a route: no game id is negative


def test_the_analysis_of_a_running_game_is_not_found(make_player: Callable[..., Player]) -> None:
    people = [make_player(), make_player()]
    game_id = seat_players(people, bots=1)
    assert_error(analysis_of(people[0], game_id), 404, "not_found")


def frames_of(page: str) -> list[dict[str, Any]]:
    match = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S)
    assert match is not None
    frames: list[dict[str, Any]] = json.loads(match.group(1))
    return frames


def test_the_replay_shows_the_viewers_second_opinions_once_ready(finished: Finished) -> None:
    ana = finished.people[0]
    browser = Client()
    browser.force_login(User.objects.get(pk=ana.user_id))
    url = f"/games/{finished.game_id}/replay/"
    before = browser.get(url).content.decode()
    assert 'id="review-pending"' in before
    # The page asks the review's endpoint until it is stored, then shows it (replay.js).
    assert f'data-analysis="/api/v1/games/{finished.game_id}/analysis/"' in before
    assert not any("opinion" in frame for frame in frames_of(before))

    tasks.review_game(finished.game_id)
    after = browser.get(url).content.decode()
    assert 'id="review-pending"' not in after
    reviewed = {frame["seq"]: frame["opinion"] for frame in frames_of(after) if "opinion" in frame}
    mine = {d["seq"]: d for d in analysis_of(ana, finished.game_id).json()["decisions"]}
    assert reviewed == mine  # beside each of the viewer's decisions, no one else's
    assert all(frame["event"]["seat"] == 0 for frame in frames_of(after) if "opinion" in frame)
    matched = sum(opinion["matched"] for opinion in mine.values())
    assert f"in {matched} of your {len(mine)} decisions" in after  # the game in one line

    spectator = Client().get(url).content.decode()  # a stranger: the replay, no opinions
    assert not any("opinion" in frame for frame in frames_of(spectator))
    assert 'id="review-pending"' not in spectator


def test_the_profile_shows_the_share_matched_and_points_left_per_game(
    finished: Finished,
) -> None:
    ana = finished.people[0]
    page = Client().get(f"/players/{ana.username}/").content.decode()
    assert "Same choice as the hard bot" in page
    tasks.review_game(finished.game_id)
    stats = review_stats(User.objects.get(pk=ana.user_id))
    mine = ReviewedDecision.objects.filter(seat=0)
    assert stats["games"] == 1 and stats["decisions"] == mine.count()
    assert stats["matched"] == sum(d.matched for d in mine)
    assert stats["points_per_game"] == pytest.approx(sum(d.points for d in mine), abs=0.1)
    page = Client().get(f"/players/{ana.username}/").content.decode()
    share = round(100 * stats["matched"] / stats["decisions"])
    assert re.search(rf"{share}% of {stats['decisions']} decisions", page), page


def test_the_sweep_reviews_a_game_whose_task_was_lost_and_takes_over_a_dead_claim(
    finished: Finished,
) -> None:
    assert tasks.review_games() == 1  # the game's own task never ran here
    assert tasks.review_games() == 0
    assert GameReview.objects.get(game_id=finished.game_id).finished_at is not None

    # A worker that claimed a review and died: after an hour another task takes it over.
    review = GameReview.objects.get(game_id=finished.game_id)
    stored = review.decisions.count()
    GameReview.objects.filter(pk=review.pk).update(
        finished_at=None, claimed_at=timezone.now() - timedelta(minutes=59)
    )
    assert tasks.review_game(finished.game_id) is False  # still someone's
    GameReview.objects.filter(pk=review.pk).update(claimed_at=timezone.now() - timedelta(hours=2))
    assert tasks.review_games() == 1
    assert review.decisions.count() == stored  # answered again, not twice
    assert GameReview.objects.get(pk=review.pk).finished_at is not None


def test_a_game_with_special_cards_is_reviewed_decision_by_decision(
    special_game: tuple[int, list[Player]],
) -> None:
    # R20–R26: the game holds a declared card, a pass and a Cloud's change, all made by the
    # players themselves (R16's and R26's choices, sent as their own moves).
    game_id, people = special_game
    assert tasks.review_game(game_id) is True
    stored = {d.seq: d for d in GameReview.objects.get(game_id=game_id).decisions.all()}
    rows = EventRow.objects.filter(game_id=game_id, auto=False, type__in=SPECIAL_KINDS)
    assert sorted(stored) == sorted(row.seq for row in rows)
    for row in rows:
        decision = stored[row.seq]
        assert decision.kind == SPECIAL_KINDS[row.type]
        assert decision.choice == choice_text(row.payload)
        assert decision.points >= 0
    kinds = {d.kind for d in stored.values()}
    assert {"bid", "play", "pass", "adjust"} <= kinds
    declared = [d for d in stored.values() if ":" in d.choice]
    assert declared and all(d.kind == "play" for d in declared)
    body = analysis_of(people[0], game_id).json()
    assert {d["kind"] for d in body["decisions"]} <= set(SPECIAL_KINDS.values())


SPECIAL_KINDS = {**KINDS, "pass": "pass", "adjust": "adjust"}


def choice_text(payload: dict[str, Any]) -> str:
    """How the review writes a decision: a bid, a face (`JU:red`), a card, `+1`/`-1`, a suit."""
    if payload["type"] == "play":
        declared = payload.get("suit") or payload.get("as")
        return payload["card"] + (f":{declared}" if declared else "")
    if payload["type"] == "adjust":
        return f"{payload['delta']:+d}"
    return str(payload.get("bid", payload.get("card", payload.get("suit"))))
