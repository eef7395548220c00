"""Whole games played through the HTTP API, checked against an independent replay (R1–R16)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from games.engine import deal_round, first_dealer, replay
from games.models import Seat
from tests.games.helpers import (
    Player,
    choose_move,
    event_rows,
    game_row,
    play_to_end,
    seat_players,
)


def r14_points(bid: int, won: int) -> int:
    """R14, written out again here so the engine's scoring is not checked against itself."""
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def check_scores_by_hand(events: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Rebuild the score sheet from the bid, trick_won and round_scored events alone."""
    sheet: list[dict[str, Any]] = []
    totals = [0] * players
    bids: list[int | None] = []
    tricks: list[int] = []
    round_number = 0
    for event in events:
        if event["type"] == "deal":
            round_number = event["round"]
            bids, tricks = [None] * players, [0] * players
        elif event["type"] == "bid":
            bids[event["seat"]] = event["bid"]
        elif event["type"] == "trick_won":
            tricks[event["seat"]] += 1
        elif event["type"] == "round_scored":
            assert event["round"] == round_number
            assert None not in bids
            assert sum(tricks) == round_number  # R4: k cards each → k tricks
            points = [r14_points(b, w) for b, w in zip(bids, tricks, strict=True)]  # type: ignore[arg-type]
            assert event["points"] == points, (round_number, bids, tricks)
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            sheet.append(
                {
                    "round": round_number,
                    "bids": list(bids),
                    "tricks": list(tricks),
                    "points": points,
                    "totals": list(totals),
                }
            )
    return sheet


def check_deals_from_seed(events: list[dict[str, Any]], seed: str, players: int) -> None:
    """Every deal and turned-up card (and the first dealer) re-derived from the revealed seed."""
    started = events[0]
    assert started["type"] == "game_started"
    dealer0 = first_dealer(seed, players)
    assert started["first_dealer"] == dealer0  # R3
    deals = [i for i, event in enumerate(events) if event["type"] == "deal"]
    assert len(deals) == 60 // players  # R2
    for number, index in enumerate(deals, start=1):
        deal = events[index]
        assert deal["round"] == number
        assert deal["dealer"] == (dealer0 + number - 1) % players  # R3: one seat left a round
        hands, turned_up = deal_round(seed, number, players, deal["dealer"])
        assert deal["hands"] == hands
        assert all(len(hand) == number for hand in hands)  # R4
        assert events[index + 1] == {"type": "trump_turned", "card": turned_up}  # R5
    assert events[deals[-1] + 1]["card"] is None  # R6: nothing turned up in the last round


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("table_rules", [True, False], ids=["hook+blind", "no-hook+no-blind"])
def test_complete_game_played_through_the_api(
    make_player: Callable[..., Player], players: int, table_rules: bool
) -> None:
    people = [make_player() for _ in range(players)]
    game_id = seat_players(people, hook_rule=table_rules, blind_first_round=table_rules)
    opening = people[0].view(game_id)
    assert opening["status"] == "active"  # the last join started it
    assert (opening["hook_rule"], opening["blind_first_round"]) == (table_rules, table_rules)
    assert opening["shuffle_seed"] is None
    commitment = opening["shuffle_commitment"]
    assert len(commitment) == 64 and int(commitment, 16) >= 0

    checked_rounds: list[int] = []

    def on_view(seat: int, view: dict[str, Any]) -> None:
        # While the game runs: a deadline in ISO-8601 UTC, and at each new round the cached
        # state equals the replay of the stored rows.
        assert view["deadline"].endswith("Z")
        assert datetime.fromisoformat(view["deadline"]) > datetime.now(UTC)
        if view["round"]["number"] not in checked_rounds:
            checked_rounds.append(view["round"]["number"])
            game = game_row(game_id)
            assert game.engine_state() == replay(row.payload for row in event_rows(game_id))

    final = play_to_end(game_id, people, random.Random(f"{players}-{table_rules}"), on_view)
    assert checked_rounds == list(range(1, 60 // players + 1))

    # The end, as every player sees it: finished, nothing to do, the seed revealed.
    for person in people:
        view = person.view(game_id)
        assert view["status"] == "finished"
        assert (view["to_act"], view["legal"], view["deadline"]) == (None, None, None)
        assert view["shuffle_commitment"] == commitment
        assert hashlib.sha256(view["shuffle_seed"].encode()).hexdigest() == commitment
        assert view["scores"] == final["scores"] and view["winners"] == final["winners"]
    seed = final["shuffle_seed"]

    # An independent replay of the revealed events.
    rows = people[1].events(game_id, after=0)
    assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1))
    assert rows[-1]["seq"] == final["seq"]
    events = [row["payload"] for row in rows]
    assert all(row["type"] == event["type"] for row, event in zip(rows, events, strict=True))
    replayed = replay(events)
    assert replayed.is_over and replayed.round == 60 // players
    by_seat = sorted(final["players"], key=lambda player: player["seat"])
    assert [player["score"] for player in by_seat] == replayed.totals
    assert [player["username"] for player in by_seat] == [p.username for p in people]

    sheet = check_scores_by_hand(events, players)
    assert final["scores"] == sheet
    assert len(sheet) == 60 // players
    totals = sheet[-1]["totals"]
    assert replayed.totals == totals
    assert final["winners"] == [s for s, total in enumerate(totals) if total == max(totals)]  # R15
    check_deals_from_seed(events, seed, players)

    # Table options took effect.
    for record in sheet:
        if table_rules:  # R8: the bids never sum to the number of cards
            assert sum(record["bids"]) != record["round"]
    round_of = rounds_by_seq(rows)
    first_round_plays = [row for row in rows if row["type"] == "play" and round_of[row["seq"]] == 1]
    assert len(first_round_plays) == players
    assert all(row["auto"] is table_rules for row in first_round_plays)  # R9: played for them
    assert not any(row["auto"] for row in rows if round_of[row["seq"]] > 1)

    # The cached state on the row is the replay of the stored event rows, seqs gapless.
    game = game_row(game_id)
    stored = event_rows(game_id)
    assert [row.seq for row in stored] == list(range(1, len(stored) + 1))
    assert game.seq == stored[-1].seq == final["seq"]
    assert game.engine_state() == replay(row.payload for row in stored)
    assert game.to_act is None and game.deadline is None and game.finished_at is not None

    # Final scores and places (R15: equal totals share a place) are on the seats.
    seats = Seat.objects.filter(game_id=game_id).order_by("number")
    assert [seat.final_score for seat in seats] == totals
    assert [seat.place for seat in seats] == [1 + sum(o > t for o in totals) for t in totals]


def rounds_by_seq(rows: list[dict[str, Any]]) -> dict[int, int]:
    """The round each event belongs to: that of the last deal at or before it."""
    found, current = {}, 0
    for row in rows:
        if row["type"] == "deal":
            current = row["payload"]["round"]
        found[row["seq"]] = current
    return found


def test_game_with_three_bots_is_played_to_the_end_by_the_one_human(
    make_player: Callable[..., Player],
) -> None:
    human = make_player()
    response = human.client.post(
        "/api/v1/games/", {"seats": 4, "bots": 3, "bot_kind": "random"}, format="json"
    )
    assert response.status_code == 201, response.content
    view = response.json()
    game_id = view["id"]
    assert view["status"] == "active"  # the last seat was filled by a bot: it starts at once
    assert [p["is_bot"] for p in view["players"]] == [False, True, True, True]
    assert view["players"][0]["username"] == human.username
    moves = 0
    rng = random.Random(4)
    # Each answer is the game as that request left it; the bots reply in their own tasks (eager
    # in tests) before the human looks again, so the human is always the one to act then.
    view = human.view(game_id)
    while view["status"] == "active":
        assert view["to_act"] == 0 and view["you"] == 0 and view["legal"], view
        response = human.move(game_id, {**choose_move(view["legal"], rng), "seq": view["seq"]})
        assert response.status_code == 200, response.content
        assert response.json()["seq"] > view["seq"]
        view = human.view(game_id)
        moves += 1
    assert view["status"] == "finished"
    assert len(view["scores"]) == 15  # R2: 4 players → 15 rounds
    events = human.events(game_id)
    mine = [row for row in events if row["seat"] == 0 and not row["auto"]]
    assert len(mine) == moves  # each request made exactly one decision for the human
    assert sum(row["type"] == "bid" for row in mine) == 15
    assert sum(row["type"] == "play" for row in mine) == sum(range(2, 16))  # round 1 is blind
    replayed = replay(row["payload"] for row in events)
    assert replayed.totals == [p["score"] for p in view["players"]]
    bots = [row for row in events if row["seat"] in (1, 2, 3)]
    assert {row["type"] for row in bots} >= {"bid", "play"}

    me = human.client.get("/api/v1/accounts/me/").json()
    assert me["games_played"] == 1 and me["games_active"] == 0
    place = Seat.objects.get(game_id=game_id, number=0).place
    assert me["games_won"] == int(place == 1)
