"""What a caller may see (the API contract, "The game view"): never another seat's cards, the
undealt deck or the seed while the game runs; R9 turns this around for one's own card in round 1."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from games.engine import CARDS, sort_hand
from games.engine.state import State
from games.models import Event as EventRow
from tests.games.helpers import Player, choose_move, game_row, seat_players, strings_in


def card_codes(value: Any) -> set[str]:
    return {text for text in strings_in(value) if text in CARDS}


def without_last_trick(view: dict[str, Any]) -> dict[str, Any]:
    """The view minus the last trick, whose cards were played in public (possibly in an
    earlier round, so they may have been dealt again since)."""
    trimmed = json.loads(json.dumps(view))
    if trimmed["round"] is not None:
        trimmed["round"].pop("last_trick")
    return trimmed


def check_view(view: dict[str, Any], state: State, seat: int | None, seed: str) -> None:
    """`view` shows seat `seat` (None: a stranger) exactly what the rules allow."""
    assert seed not in json.dumps(view)
    assert view["shuffle_seed"] is None
    assert view["you"] == seat
    blind = state.blind_first_round and state.round == 1
    others = {s: sort_hand(hand) for s, hand in enumerate(state.hands) if s != seat}
    hidden = {code for s, hand in others.items() for code in hand}
    if seat is None:
        assert view["hand"] is None and view["visible_hands"] == {} and view["legal"] is None
        hidden = {code for hand in state.hands for code in hand}
    elif blind:  # R9: one's own card is hidden, every other card is shown
        assert view["hand"] is None
        assert view["visible_hands"] == {str(s): hand for s, hand in others.items()}
        hidden = set(state.hands[seat])
    else:
        assert view["hand"] == sort_hand(state.hands[seat])
        assert view["visible_hands"] == {}
    assert not card_codes(without_last_trick(view)) & hidden
    # Every card shown is one this caller may know of: no card of the undealt deck either.
    public = {code for _, code in state.trick} | {state.turned_up} - {None}
    if state.last_trick is not None:
        public |= {code for _, code in state.last_trick[1]}
    known = public | set(view["hand"] or []) | card_codes(view["visible_hands"])
    assert card_codes(view) <= known
    if seat is not None:
        expected_legal = seat == state.to_act
        assert (view["legal"] is not None) is expected_legal


def check_events(
    events: list[dict[str, Any]], game_id: int, seat: int | None, blind_option: bool, seed: str
) -> None:
    """Event rows as seat `seat` sees them: a deal shows its own hand only (R9: the others')."""
    raw = {row.seq: row.payload for row in EventRow.objects.filter(game_id=game_id)}
    assert seed not in json.dumps(events)
    for event in events:
        payload, original = event["payload"], raw[event["seq"]]
        if event["type"] != "deal":
            assert payload == original
            continue
        assert "hands" not in payload
        hands = original["hands"]
        if seat is None:
            assert (payload["hand"], payload["visible_hands"]) == (None, {})
        elif blind_option and original["round"] == 1:
            assert payload["hand"] is None
            assert payload["visible_hands"] == {
                str(s): sort_hand(hand) for s, hand in enumerate(hands) if s != seat
            }
            assert not card_codes(payload) & set(hands[seat])
        else:
            assert payload["hand"] == sort_hand(hands[seat])
            assert payload["visible_hands"] == {}
            others = {code for s, hand in enumerate(hands) if s != seat for code in hand}
            assert not card_codes(payload) & others


def test_players_and_strangers_see_only_what_the_rules_allow_for_three_rounds(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people)  # hook rule and blind first round on by default
    viewers: list[tuple[int | None, Player]] = [*enumerate(people), (None, stranger)]
    seen = dict.fromkeys(range(-1, 3), 0)  # last event seq each viewer fetched
    steps = 0
    while True:
        game = game_row(game_id)
        state = game.engine_state()
        assert state is not None
        if state.round > 3:
            break
        for seat, viewer in viewers:
            check_view(viewer.view(game_id), state, seat, game.seed)
            key = -1 if seat is None else seat
            fresh = viewer.events(game_id, after=seen[key])
            check_events(fresh, game_id, seat, True, game.seed)
            seen[key] = game.seq
        actor = people[state.to_act]
        mine = actor.view(game_id)
        response = actor.move(game_id, {**choose_move(mine["legal"], None), "seq": mine["seq"]})
        assert response.status_code == 200, response.content
        check_view(response.json(), game_row(game_id).engine_state(), state.to_act, game.seed)
        steps += 1
    # Rounds 1–3: 3 blind bids, then 3 bids + 6 cards, 3 bids + 9 cards, and any trump choices.
    assert 24 <= steps <= 27


def test_blind_first_round_hides_only_ones_own_card(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(4)]
    game_id = seat_players(people)
    state = game_row(game_id).engine_state()
    assert state is not None and state.round == 1
    for seat, person in enumerate(people):
        view = person.view(game_id)
        own = state.hands[seat][0]
        assert view["hand"] is None  # R9
        assert set(view["visible_hands"]) == {str(s) for s in range(4) if s != seat}
        assert view["visible_hands"] == {
            str(s): list(state.hands[s]) for s in range(4) if s != seat
        }
        assert own not in strings_in(view)
        assert own not in strings_in(person.events(game_id))


def test_without_the_blind_option_one_sees_ones_own_first_card(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False)
    state = game_row(game_id).engine_state()
    assert state is not None
    for seat, person in enumerate(people):
        view = person.view(game_id)
        assert view["hand"] == list(state.hands[seat]) and view["visible_hands"] == {}
        deal = next(e for e in person.events(game_id) if e["type"] == "deal")
        assert deal["payload"]["hand"] == list(state.hands[seat])
        assert deal["payload"]["visible_hands"] == {}


def test_a_stranger_sees_the_public_view_and_no_dealt_card(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False)
    view = stranger.view(game_id)
    assert view["you"] is None and view["hand"] is None and view["visible_hands"] == {}
    assert view["legal"] is None and view["shuffle_seed"] is None
    assert view["to_act"] is not None  # the public still sees whose turn it is
    dealt = {code for hand in game_row(game_id).engine_state().hands for code in hand}
    assert not card_codes(view) & dealt
    for event in stranger.events(game_id):
        if event["type"] == "deal":
            assert event["payload"]["hand"] is None and event["payload"]["visible_hands"] == {}
        assert not card_codes(event) & dealt
