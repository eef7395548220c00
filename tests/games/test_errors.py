"""Every refusal of the games API: its status, its code, the contract's error shape, and that
a refused move changes nothing (the API contract, "Conventions")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine, services
from games.engine.cards import CARDS
from games.models import Event as EventRow
from games.models import Game
from tests.games.helpers import (
    API,
    Player,
    assert_error,
    choose_move,
    game_row,
    game_url,
    seat_players,
)


@pytest.fixture
def table(make_player: Callable[..., Player]) -> tuple[int, list[Player]]:
    """A running 3-seat game (hook rule and blind first round on), in round 1's bidding."""
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people)
    choose_trump_if_asked(game_id, people)
    return game_id, people


def choose_trump_if_asked(game_id: int, people: list[Player]) -> None:
    """When a Wizard is turned up (R5), the dealer names trump first; then bidding starts."""
    view = people[0].view(game_id)
    if view["round"]["phase"] == "choosing_trump":
        dealer = view["round"]["dealer"]
        response = people[dealer].move(game_id, {"type": "trump", "suit": "blue"})
        assert response.status_code == 200, response.content
    assert people[0].view(game_id)["round"]["phase"] == "bidding"


def snapshot(game_id: int, people: list[Player]) -> tuple[Any, ...]:
    game = game_row(game_id)
    return (
        game.seq,
        game.state,
        game.to_act,
        game.deadline,
        EventRow.objects.filter(game_id=game_id).count(),
        [person.view(game_id) for person in people],
    )


def assert_refused(
    game_id: int,
    people: list[Player],
    mover: Player,
    body: Any,
    status: int,
    code: str,
    **extra: Any,
) -> dict[str, Any]:
    """`mover` sends `body`; it is refused with (status, code) and nothing changes."""
    before = snapshot(game_id, people)
    error = assert_error(mover.move(game_id, body, **extra), status, code)
    assert snapshot(game_id, people) == before
    return error


def actor(game_id: int, people: list[Player]) -> tuple[Player, dict[str, Any]]:
    """The player to act, and their view."""
    seat = game_row(game_id).to_act
    assert seat is not None
    return people[seat], people[seat].view(game_id)


def advance(game_id: int, people: list[Player], until: Callable[[engine.State], bool]) -> None:
    """Play first-legal moves through the service until `until(state)` holds."""
    rng = random.Random(7)
    for _ in range(2000):
        game = game_row(game_id)
        state = game.engine_state()
        assert state is not None and game.status == "active"
        if until(state):
            return
        seat = state.to_act
        assert seat is not None
        move = choose_move(engine.legal_for(state, seat) or {}, rng)
        user = Game.objects.get(pk=game_id).seat_set.get(number=seat).user
        services.move_apply(game_id=game_id, user=user, body=move)
    pytest.fail("the situation never came up")


# -- not found -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "method,action",
    [("get", ""), ("get", "events"), ("post", "join"), ("post", "leave"), ("post", "moves")],
)
def test_unknown_game_is_not_found(stranger: Player, method: str, action: str) -> None:
    body = {"type": "bid", "bid": 0}
    call = getattr(stranger.client, method)
    assert_error(call(game_url(987654, action), body, format="json"), 404, "not_found")


@pytest.mark.parametrize(
    "path",
    [
        f"{API}/games/abc/",
        f"{API}/games/abc/moves/",
        f"{API}/nothing/",
        f"{API}/games/1/moves",  # no trailing slash
        "/api/v2/games/",
    ],
)
def test_unknown_api_paths_get_a_json_404(stranger: Player, path: str) -> None:
    stranger.client.raise_request_exception = False
    assert_error(stranger.client.get(path), 404, "not_found")
    assert_error(stranger.client.post(path, {}, format="json"), 404, "not_found")
    assert_error(APIClient().get(path), 404, "not_found")  # no token needed to learn that


@pytest.mark.parametrize("game_id", [0, 2**63, 10**30])
def test_game_ids_out_of_range_are_not_found(stranger: Player, game_id: int) -> None:
    stranger.client.raise_request_exception = False
    move = {"type": "bid", "bid": 0}
    for response in [
        stranger.client.get(game_url(game_id)),
        stranger.client.get(game_url(game_id, "events")),
        stranger.client.post(game_url(game_id, "join")),
        stranger.client.post(game_url(game_id, "leave")),
        stranger.client.post(game_url(game_id, "moves"), move, format="json"),
    ]:
        assert_error(response, 404, "not_found")


def test_wrong_method_is_refused_in_the_error_shape(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    assert_error(people[0].client.delete(game_url(game_id)), 405, "method_not_allowed")
    assert_error(people[0].client.get(game_url(game_id, "moves")), 405, "method_not_allowed")


# -- who may move ----------------------------------------------------------------------------
def test_a_stranger_cannot_move(table: tuple[int, list[Player]], stranger: Player) -> None:
    game_id, people = table
    _, view = actor(game_id, people)
    body = {**choose_move(view["legal"], None), "seq": view["seq"]}
    assert_refused(game_id, people, stranger, body, 403, "not_a_player")


def test_only_the_seat_to_act_may_move(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    mover, view = actor(game_id, people)
    body = {**choose_move(view["legal"], None), "seq": view["seq"]}
    for other in people:
        if other is not mover:
            assert_refused(game_id, people, other, body, 409, "not_your_turn")
            assert_refused(game_id, people, other, {"type": "bid", "bid": 0}, 409, "not_your_turn")
    assert mover.move(game_id, body).status_code == 200


def test_a_signed_out_caller_reads_the_public_view_and_its_events(
    table: tuple[int, list[Player]],
) -> None:
    game_id, people = table
    anonymous = APIClient()
    response = anonymous.get(game_url(game_id))
    assert response.status_code == 200, response.content
    view = response.json()
    assert view["you"] is None and view["hand"] is None and view["legal"] is None
    assert view["visible_hands"] == {} and view["shuffle_seed"] is None
    assert view["seq"] == people[0].view(game_id)["seq"]
    events = anonymous.get(game_url(game_id, "events"))
    assert events.status_code == 200, events.content
    rows = events.json()["results"]
    assert [row["seq"] for row in rows] == [row["seq"] for row in people[0].events(game_id)]
    assert all(not row["payload"].get("hand") for row in rows)
    assert all(not row["payload"].get("visible_hands") for row in rows)
    assert_error(anonymous.get(game_url(10**9)), 404, "not_found")
    assert_error(anonymous.get(game_url(game_id, "chat")), 401, "not_authenticated")


def test_unauthenticated_calls_get_401(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    anonymous = APIClient()
    calls = [
        anonymous.get(f"{API}/games/"),
        anonymous.post(f"{API}/games/", {"seats": 3}, format="json"),
        anonymous.post(game_url(game_id, "join")),
        anonymous.post(game_url(game_id, "leave")),
        anonymous.post(game_url(game_id, "moves"), {"type": "bid", "bid": 0}, format="json"),
        anonymous.get(f"{API}/accounts/me/"),
    ]
    for response in calls:
        assert_error(response, 401, "not_authenticated")
        assert response["WWW-Authenticate"].startswith("Token")
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert_error(forged.get(game_url(game_id)), 401, "not_authenticated")
    before = snapshot(game_id, people)
    assert_error(
        forged.post(game_url(game_id, "moves"), {"type": "bid", "bid": 0}, format="json"),
        401,
        "not_authenticated",
    )
    assert snapshot(game_id, people) == before


# -- bids ------------------------------------------------------------------------------------
@pytest.mark.parametrize("bid", [-1, 2, 61, 10**30])
def test_a_bid_outside_0_to_k_is_illegal(table: tuple[int, list[Player]], bid: int) -> None:
    game_id, people = table
    mover, view = actor(game_id, people)
    assert view["round"]["number"] == 1 and view["legal"] == {"bids": [0, 1]}
    assert_refused(game_id, people, mover, {"type": "bid", "bid": bid}, 400, "illegal_bid")


def _bid(person: Player, game_id: int, bid: int) -> dict[str, Any]:
    view = person.view(game_id)
    response = person.move(game_id, {"type": "bid", "bid": bid, "seq": view["seq"]})
    assert response.status_code == 200, response.content
    return response.json()


def test_the_dealer_may_not_make_the_bids_sum_to_k(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    view = people[0].view(game_id)
    dealer = view["round"]["dealer"]
    first, second = (dealer + 1) % 3, (dealer + 2) % 3
    assert view["to_act"] == first
    _bid(people[first], game_id, 0)
    _bid(people[second], game_id, 0)
    dealer_view = people[dealer].view(game_id)
    assert dealer_view["legal"] == {"bids": [0]}  # R8: 0 + 0 + 1 would equal k = 1
    error = assert_refused(
        game_id, people, people[dealer], {"type": "bid", "bid": 1}, 400, "hook_rule"
    )
    assert "R8" in error["message"]
    after = _bid(people[dealer], game_id, 0)
    assert after["round"]["number"] == 2  # the blind trick played itself (R9)


def test_without_the_hook_rule_the_dealer_may_bid_anything(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, hook_rule=False)
    choose_trump_if_asked(game_id, people)
    dealer = people[0].view(game_id)["round"]["dealer"]
    _bid(people[(dealer + 1) % 3], game_id, 0)
    _bid(people[(dealer + 2) % 3], game_id, 0)
    assert people[dealer].view(game_id)["legal"] == {"bids": [0, 1]}
    _bid(people[dealer], game_id, 1)
    assert game_row(game_id).engine_state().scores[0]["bids"] == [
        1 if seat == dealer else 0 for seat in range(3)
    ]


# -- cards -----------------------------------------------------------------------------------
def test_cards_not_in_hand_or_unknown_are_illegal(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    mover, view = actor(game_id, people)
    # Playing during the bidding is refused too.
    assert_refused(game_id, people, mover, {"type": "play", "card": "R1"}, 400, "illegal_card")
    advance(game_id, people, lambda state: state.phase == "playing" and state.round >= 2)
    mover, view = actor(game_id, people)
    state = game_row(game_id).engine_state()
    someone_elses = next(c for s, h in enumerate(state.hands) if s != state.to_act for c in h)
    for card in [someone_elses, "R14", "X1", "r1", "", "W5", "J0"]:
        body = {"type": "play", "card": card, "seq": view["seq"]}
        assert_refused(game_id, people, mover, body, 400, "illegal_card")
    # A bid or a trump choice while cards are being played is refused as well.
    assert_refused(game_id, people, mover, {"type": "bid", "bid": 0}, 400, "illegal_bid")
    assert_refused(game_id, people, mover, {"type": "trump", "suit": "red"}, 400, "invalid")


def test_a_player_who_can_follow_suit_must(table: tuple[int, list[Player]]) -> None:
    game_id, people = table

    def can_revoke(state: engine.State) -> bool:
        if state.phase != "playing" or state.lead_suit is None or state.to_act is None:
            return False
        suits = {CARDS[code].suit for code in state.hands[state.to_act]}
        return state.lead_suit in suits and bool(suits - {state.lead_suit, None})

    advance(game_id, people, can_revoke)
    state = game_row(game_id).engine_state()
    mover, view = actor(game_id, people)
    off_suit = next(
        code
        for code in state.hands[state.to_act]
        if CARDS[code].suit not in (state.lead_suit, None)
    )
    assert off_suit in view["hand"] and off_suit not in view["legal"]["cards"]
    body = {"type": "play", "card": off_suit, "seq": view["seq"]}
    error = assert_refused(game_id, people, mover, body, 400, "illegal_card")
    assert "R12" in error["message"]


# -- malformed input -------------------------------------------------------------------------
@pytest.mark.parametrize("raw", ["{", "", "not json", '{"type": "bid", "bid": 1', "NaN", "[1,"])
def test_malformed_json_is_invalid(table: tuple[int, list[Player]], raw: str) -> None:
    game_id, people = table
    mover, _ = actor(game_id, people)
    before = snapshot(game_id, people)
    response = mover.client.post(game_url(game_id, "moves"), raw, content_type="application/json")
    assert_error(response, 400, "invalid")
    assert snapshot(game_id, people) == before


@pytest.mark.parametrize(
    "body",
    [
        {"type": "bid", "bid": "0"},
        {"type": "bid", "bid": True},
        {"type": "bid", "bid": False},
        {"type": "bid", "bid": 0.0},
        {"type": "bid", "bid": None},
        {"type": "bid"},
        {"type": "bid", "bid": [0]},
        {"type": "play", "card": 13},
        {"type": "play", "card": None},
        {"type": "play", "card": ["R1"]},
        {"type": "trump", "suit": "purple"},
        {"type": "trump", "suit": 1},
        {"type": "trump"},
        {"type": "pass"},
        {"type": None},
        {"type": ["bid"], "bid": 0},
        {"bid": 0},
        {},
        [],
        ["bid", 0],
        "bid",
        0,
        None,
        {"type": "bid", "bid": 0, "seq": "3"},
        {"type": "bid", "bid": 0, "seq": True},
        {"type": "bid", "bid": 0, "seq": 1.5},
        {"type": "bid", "bid": 0, "seq": [1]},
    ],
)
def test_wrongly_typed_moves_are_invalid(table: tuple[int, list[Player]], body: Any) -> None:
    game_id, people = table
    mover, _ = actor(game_id, people)
    assert_refused(game_id, people, mover, body, 400, "invalid")


def test_a_form_encoded_move_is_refused(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    mover, _ = actor(game_id, people)
    before = snapshot(game_id, people)
    response = mover.client.post(game_url(game_id, "moves"), {"type": "bid", "bid": "0"})
    assert_error(response, 415, "unsupported_media_type")
    assert snapshot(game_id, people) == before


@pytest.mark.parametrize(
    "body,field",
    [
        ({"seats": "4"}, "seats"),
        ({"seats": 4.0}, "seats"),
        ({"seats": True}, "seats"),
        ({"seats": 2}, "seats"),
        ({"seats": 7}, "seats"),
        ({}, "seats"),
        ({"seats": None}, "seats"),
        ({"seats": 4, "hook_rule": "yes"}, "hook_rule"),
        ({"seats": 4, "hook_rule": 1}, "hook_rule"),
        ({"seats": 4, "blind_first_round": "true"}, "blind_first_round"),
        ({"seats": 4, "bots": "1"}, "bots"),
        ({"seats": 4, "bots": 4}, "bots"),
        ({"seats": 3, "bots": -1}, "bots"),
        ({"seats": 4, "turn_seconds": 4}, "turn_seconds"),
        ({"seats": 4, "turn_seconds": 604801}, "turn_seconds"),
        ({"seats": 4, "turn_seconds": "60"}, "turn_seconds"),
        ({"seats": 4, "bot_kind": "genius"}, "bot_kind"),
    ],
)
def test_bad_table_options_are_invalid_with_fields(
    make_player: Callable[..., Player], body: dict[str, Any], field: str
) -> None:
    creator = make_player()
    response = creator.client.post(f"{API}/games/", body, format="json")
    error = assert_error(response, 400, "invalid")
    assert field in error["fields"]
    assert not Game.objects.exists()


# -- sequence, seats and status --------------------------------------------------------------
def test_a_stale_seq_is_refused(table: tuple[int, list[Player]]) -> None:
    game_id, people = table
    mover, view = actor(game_id, people)
    move = choose_move(view["legal"], None)
    for seq in [view["seq"] - 1, view["seq"] + 1, 0, -5, 10**30]:
        assert_refused(game_id, people, mover, {**move, "seq": seq}, 409, "stale_state")
    response = mover.move(game_id, {**move, "seq": view["seq"]})
    assert response.status_code == 200
    # Replaying the same request (same seq) once the game moved on is stale too.
    nxt, _ = actor(game_id, people)
    assert_refused(
        game_id, people, nxt, {"type": "bid", "bid": 0, "seq": view["seq"]}, 409, "stale_state"
    )


def test_joining_a_started_table_is_refused(
    table: tuple[int, list[Player]], stranger: Player
) -> None:
    game_id, people = table
    before = snapshot(game_id, people)
    assert_error(stranger.join(game_id), 409, "game_full")
    assert snapshot(game_id, people) == before
    assert game_row(game_id).seat_set.count() == 3
    # Someone already seated "joining" again is harmless.
    response = people[1].join(game_id)
    assert response.status_code == 200 and response.json()["you"] == 1


def test_leaving_after_the_start_is_refused(
    table: tuple[int, list[Player]], stranger: Player
) -> None:
    game_id, people = table
    before = snapshot(game_id, people)
    assert_error(people[0].leave(game_id), 409, "game_not_active")
    assert_error(stranger.leave(game_id), 403, "not_a_player")
    assert snapshot(game_id, people) == before


def test_no_move_before_the_start(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    game_id = seat_players([creator], seats=3)
    assert creator.view(game_id)["status"] == "open"
    error = assert_error(creator.move(game_id, {"type": "bid", "bid": 0}), 409, "game_not_active")
    assert error["message"]
    assert game_row(game_id).seq == 0 and not EventRow.objects.exists()


def test_no_move_after_the_end(make_player: Callable[..., Player], stranger: Player) -> None:
    human = make_player()
    game_id = seat_players([human], seats=3, bots=2, bot_kind="random", rounds=3)  # R19
    game = game_row(game_id)
    while game.status == "active":
        state = game.engine_state()
        move = choose_move(engine.legal_for(state, 0) or {}, None)
        services.move_apply(game_id=game_id, user=game.created_by, body=move)
        game = game_row(game_id)
    assert game.status == "finished"
    last = game.seq
    for body in [{"type": "bid", "bid": 0}, {"type": "play", "card": "R1", "seq": last}]:
        assert_refused(game_id, [human], human, body, 409, "game_not_active")
    assert_refused(game_id, [human], stranger, {"type": "bid", "bid": 0}, 403, "not_a_player")
    assert_error(stranger.join(game_id), 409, "game_full")
    assert_error(human.leave(game_id), 409, "game_not_active")


# -- no input gives a 5xx ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "query",
    [
        "after=abc", "after=-1", "after=1.5", "after=²", "after=%00", "page=0", "page=abc",
        "page=99", "page_size=abc", "page_size=-3", "page_size=0", "page_size=1001",
    ],
)  # fmt: skip
def test_bad_event_queries_are_client_errors(table: tuple[int, list[Player]], query: str) -> None:
    game_id, people = table
    people[0].client.raise_request_exception = False
    response = people[0].client.get(f"{game_url(game_id, 'events')}?{query}")
    assert 400 <= response.status_code < 500, (query, response.status_code)
    assert_error(response, response.status_code, response.json()["error"]["code"])


@pytest.mark.parametrize(
    "query", ["after=99999999999999999999999", "page_size=1", "page_size=1000"]
)
def test_odd_but_harmless_event_queries_answer(table: tuple[int, list[Player]], query: str) -> None:
    game_id, people = table
    response = people[0].client.get(f"{game_url(game_id, 'events')}?{query}")
    assert response.status_code == 200
    assert set(response.json()) == {"count", "next", "previous", "results"}


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    keys = ["type", "bid", "card", "suit", "seq", "seats", "bots", "hook_rule", "turn_seconds"]
    scalars = [
        0, 1, -1, 2, 7, 10**20, -(10**20), 2**63, 0.5, 1e308, True, False, None,
        "", "bid", "play", "trump", "R13", "W1", "J4", "red", "purple", "²", "\x00", "١",
        "é" * 300, "R1\n", " 2 ",
    ]  # fmt: skip
    roll = rng.random()
    if depth < 2 and roll < 0.35:
        return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 2 and roll < 0.45:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice(scalars)


def test_no_input_gives_a_server_error(
    table: tuple[int, list[Player]], stranger: Player, make_player: Callable[..., Player]
) -> None:
    """The API contract: no 5xx for any input. Random bodies to every write endpoint, by a player to
    act, one waiting, a stranger and an anonymous client; every refusal in the error shape."""
    game_id, people = table
    rng = random.Random(2024)
    anonymous = APIClient(raise_request_exception=False)
    clients = [p.client for p in [*people, stranger]] + [anonymous]
    for client in clients:
        client.raise_request_exception = False
    paths = [
        game_url(game_id, "moves"),
        f"{API}/games/",
        game_url(game_id, "join"),
        f"{API}/accounts/register/",
        f"{API}/accounts/token/",
    ]
    failures = []
    for _ in range(400):
        body = _random_json(rng)
        if isinstance(body, dict) and rng.random() < 0.5:
            body = {**choose_move({"bids": [0, 1]}, rng), **body}
        client, path = rng.choice(clients), rng.choice(paths)
        response = client.post(path, body, format="json")
        if response.status_code >= 500:
            failures.append((path, body, response.status_code))
        elif response.status_code >= 400:
            assert_error(response, response.status_code, response.json()["error"]["code"])
    assert not failures, failures[:5]
    game = game_row(game_id)
    rows = list(EventRow.objects.filter(game_id=game_id).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, game.seq + 1))
    assert game.engine_state() == engine.replay(row.payload for row in rows)
