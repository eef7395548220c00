"""Reads: what one caller may see of a game, its events, and lists of games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from games import engine
from games.engine import State
from games.models import Event, Game, GameStatus, Seat
from wizardsite.api import NotFound

AnyUser = User | AnonymousUser


def game_get(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def seats_of(game: Game) -> list[Seat]:
    return list(game.seat_set.select_related("user"))


def seat_of(seats: list[Seat], user: AnyUser) -> int | None:
    """The seat number `user` holds at this table, or None."""
    if not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def iso(moment: datetime | None) -> str | None:
    """ISO-8601 UTC with a Z, as the contract writes times."""
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def _table(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What anyone may know of a table: its options and who sits where with what score."""
    totals = (game.state or {}).get("totals") or [0] * game.seats
    return {
        "id": game.pk,
        "status": game.status,
        "seats": game.seats,
        "bots": game.bots,
        "turn_seconds": game.turn_seconds,
        "hook_rule": game.hook_rule,
        "blind_first_round": game.blind_first_round,
        "seq": game.seq,
        "created_by": game.created_by.get_username(),
        "created_at": iso(game.created_at),
        "players": [
            {
                "seat": seat.number,
                "username": seat.display_name,
                "is_bot": seat.is_bot,
                "score": totals[seat.number],
            }
            for seat in seats
        ],
        "free_seats": game.seats - len(seats),
    }


def game_view(game: Game, user: AnyUser, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The contract's game view for `user`: their own seat's view, or the public one."""
    seats = seats if seats is not None else seats_of(game)
    return _view(game, seats, game.engine_state(), seat_of(seats, user), _rematch_id(game))


def game_views(game: Game, seats: list[Seat]) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """Every seated user's view (by user id) and the public view, reading the state once."""
    state, rematch = game.engine_state(), _rematch_id(game)
    views = {
        seat.user_id: _view(game, seats, state, seat.number, rematch)
        for seat in seats
        if seat.user_id is not None
    }
    return views, _view(game, seats, state, None, rematch)


def _view(
    game: Game, seats: list[Seat], state: State | None, you: int | None, rematch: int | None
) -> dict[str, Any]:
    view: dict[str, Any] = {
        **_table(game, seats),
        "you": you,
        "round": None,
        "hand": None,
        "visible_hands": {},
        "to_act": None,
        "deadline": None,
        "legal": None,
        "scores": [],
        "winners": None,
        "shuffle_commitment": game.commitment,
        "shuffle_seed": game.seed if game.is_over else None,
        "rematch": rematch,
    }
    if state is not None:
        seat_view = engine.seat_view(state, you)
        if game.status != GameStatus.ACTIVE:
            seat_view["legal"] = None  # an aborted game takes no more moves
            seat_view["to_act"] = None
        view.update(seat_view)
        view.pop("totals", None)
        view["deadline"] = iso(game.deadline) if game.status == GameStatus.ACTIVE else None
    return view


def _rematch_id(game: Game) -> int | None:
    if game.status != GameStatus.FINISHED:
        return None
    return Game.objects.filter(rematch_of=game).values_list("pk", flat=True).first()


def game_events(game: Game, after: int) -> QuerySet[Event]:
    return game.events.filter(seq__gt=after).order_by("seq")


def event_view(game: Game, row: Event, you: int | None) -> dict[str, Any]:
    """One event row as the caller may see it: a deal shows only what R9 or their hand allows."""
    return {
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "auto": row.auto,
        "at": iso(row.created_at),
        "payload": engine.event_view(
            row.payload, you, blind_first_round=game.blind_first_round, reveal=game.is_over
        ),
    }


def game_list(*, user: AnyUser, status: str | None, mine: bool) -> QuerySet[Game]:
    games = Game.objects.select_related("created_by")
    if status is not None:
        games = games.filter(status=status)
    if mine:
        games = games.filter(seat_set__user=user) if user.is_authenticated else games.none()
    return games.prefetch_related("seat_set__user").order_by("-created_at", "-pk")


def game_summary(game: Game) -> dict[str, Any]:
    """A game in a list: its options, players, free seats and progress (no cards)."""
    round_number = (game.state or {}).get("round") or None
    return {
        **_table(game, list(game.seat_set.all())),
        "round_number": round_number,
        "to_act": game.to_act if game.status == GameStatus.ACTIVE else None,
    }


def replay_frames(game: Game) -> list[dict[str, Any]]:
    """A finished game step by step for the replay page: after each event, the table as the
    engine's state shows it (every hand, since the game is over). The page draws frames and
    derives no rule of its own."""
    frames: list[dict[str, Any]] = []
    state = State()
    for row in game_events(game, after=0):
        state = engine.apply(state, row.payload)
        frames.append({"event": {**row.payload, "auto": row.auto}, "table": _replay_table(state)})
    return frames


def _replay_table(state: State) -> dict[str, Any]:
    """The table after one event: a trick just won stays shown with its winner."""
    trick, winner = state.trick, None
    if not trick and state.last_trick is not None and state.phase != "bidding":
        winner, trick = state.last_trick
    return {
        "round": state.round,
        "dealer": state.dealer if state.round else None,
        "trump_card": state.turned_up,
        "trump": state.trump,
        "phase": state.phase,
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        "trick": [{"seat": seat, "card": code} for seat, code in trick],
        "trick_winner": winner,
        "hands": [engine.sort_hand(hand) for hand in state.hands],
        "totals": list(state.totals),
        "to_act": state.to_act,
    }
