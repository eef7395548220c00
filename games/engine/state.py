"""The game state and `apply`, the one fold of events into state."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Final, Literal, TypedDict

from games.engine import events as ev
from games.engine.cards import CARDS, CLOUD, DECK, JUGGLER, WEREWOLF, face, split_face
from games.engine.events import Event
from games.engine.lead import lead_suit
from games.engine.moves import NO_TRUMP

CHOOSING_TRUMP: Final = "choosing_trump"
BIDDING: Final = "bidding"
PLAYING: Final = "playing"
PASSING: Final = "passing"  # R24: after a Juggler's trick, each player chooses a card to pass
ADJUSTING: Final = "adjusting"  # R24: the Cloud's winner changes their bid
DONE: Final = "done"
Phase = Literal["choosing_trump", "bidding", "playing", "passing", "adjusting", "done"]

Trick = tuple[tuple[int, str], ...]  # (seat, face) in the order played (cards.face)


class ScoreRecord(TypedDict):
    """One scored round (R14): bids, tricks won, points and running totals, by seat."""

    round: int
    bids: list[int | None]
    tricks: list[int]
    points: list[int]
    totals: list[int]


def rounds_for(players: int) -> int:
    """Rounds in a full game (R2): 60 / players."""
    return len(DECK) // players


RoundFormat = Literal["full", "odd"] | int


def round_numbers(players: int, rounds: RoundFormat = "full") -> tuple[int, ...]:
    """R19: the rounds a table plays: every round (R2), the odd ones, or rounds 1 to N.
    Raises ValueError for a format the rule does not name."""
    last = rounds_for(players)
    if rounds == "full":
        return tuple(range(1, last + 1))
    if rounds == "odd":
        return tuple(range(1, last + 1, 2))
    if isinstance(rounds, int) and not isinstance(rounds, bool) and 1 <= rounds <= last:
        return tuple(range(1, rounds + 1))
    raise ValueError(f"rounds is full, odd or a number from 1 to {last} (R19)")


@dataclass(slots=True, eq=False, repr=False)
class State:
    """Everything the rules know about one game, rebuilt only from its events.

    Treat a State as a value: `apply` returns a new one and never changes its argument.
    """

    players: int = 0
    hook_rule: bool = True
    blind_first_round: bool = True
    first_dealer: int = 0
    round_numbers: tuple[int, ...] = ()  # R19: the rounds this table plays, in order
    special_cards: tuple[str, ...] = ()  # R20: the codes shuffled into the deck, R20's order
    round: int = 0  # 0 until the first deal
    dealer: int = 0
    hands: list[tuple[str, ...]] = field(default_factory=list)
    turned_up: str | None = None
    trump: str | None = None
    phase: Phase = DONE
    bids: list[int | None] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    leader: int = 0
    trick: Trick = ()
    lead_suit: str | None = None
    last_trick: tuple[int | None, Trick] | None = None  # winner None: a bombed trick (R22)
    round_plays: Trick = ()  # every card played this round, in order: public (R11, R12)
    to_act: int | None = None
    werewolf: int | None = None  # R23: the seat that swapped the Werewolf this round
    swapped: str | None = None  # R23: the card that seat took, shown to everyone
    adjusting: int | None = None  # R24: the seat whose Cloud change is awaited
    passes: list[str | None] = field(default_factory=list)  # R24: cards chosen, by seat
    passes_from: int = 0  # R24: the first seat to choose a card to pass
    scores: list[ScoreRecord] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    winners: list[int] | None = None
    seq: int = 0  # events applied so far

    def copy(self) -> State:
        """An independent copy: every field, the lists copied (FIELDS, LIST_FIELDS)."""
        other = State.__new__(State)
        for name in FIELDS:
            setattr(other, name, getattr(self, name))
        for name in LIST_FIELDS:
            mutable = getattr(self, name)
            if mutable is not None:
                setattr(other, name, mutable.copy())
        return other

    # -- derived facts -------------------------------------------------------------------
    @property
    def is_last_round(self) -> bool:
        """R15, R19: the round being played (or just scored) is the table's last."""
        return self.round == self.round_numbers[-1]

    @property
    def next_round(self) -> int:
        """R19: the number of the round dealt after this one (the first, before any deal)."""
        return self.round_numbers[self.round_numbers.index(self.round) + 1 if self.round else 0]

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    @property
    def is_blind_round(self) -> bool:
        """R9: round 1 of a table with the blind option."""
        return self.blind_first_round and self.round == 1

    def snapshot(self) -> dict[str, Any]:
        """Every field as plain data, for comparing two states."""
        return {name: getattr(self, name) for name in FIELDS}

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data, for a cache that from_json restores exactly."""
        return self.snapshot()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The inverse of to_json (lists back to the tuples the engine uses)."""
        state = cls()
        for name in FIELDS:
            if name in data:
                setattr(state, name, data[name])
        state.hands = [tuple(hand) for hand in data["hands"]]
        state.round_numbers = tuple(data.get("round_numbers") or round_numbers(state.players))
        state.special_cards = tuple(data.get("special_cards", ()))
        state.trick = _trick(data["trick"])
        # A state cached before the round's plays were recorded starts the record empty.
        state.round_plays = _trick(data.get("round_plays", ()))
        if data["last_trick"] is not None:
            winner, cards = data["last_trick"]
            state.last_trick = (winner, _trick(cards))
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.snapshot() == other.snapshot()

    def __repr__(self) -> str:
        return f"<State round={self.round} phase={self.phase} to_act={self.to_act} seq={self.seq}>"


FIELDS: Final = tuple(f.name for f in fields(State))
# The only mutable fields; every other field holds an immutable value, safely shared.
LIST_FIELDS: Final = tuple(f.name for f in fields(State) if str(f.type).startswith("list["))


def _trick(cards: Iterable[Iterable[Any]]) -> Trick:
    return tuple((seat, code) for seat, code in cards)


def apply(state: State, event: Event) -> State:
    """The state after one event; `state` itself is left unchanged."""
    new = state.copy()
    apply_in_place(new, event)
    return new


def replay(events: Iterable[Event]) -> State:
    """The state that a game's events fold to, from the first event."""
    state = State()
    for event in events:
        apply_in_place(state, event)
    return state


def apply_in_place(state: State, event: Event) -> None:
    """Fold one event into a state the caller owns (replay and take_turn use it on copies)."""
    _HANDLERS[event["type"]](state, event)
    # Between a deal and its turned-up card nobody decides: the trump is not known yet (R5).
    state.to_act = None if event["type"] == ev.DEAL else seat_to_act(state)
    state.seq += 1


def next_seat(seat: int, players: int, steps: int = 1) -> int:
    """R3: the seat `steps` places left of `seat` (clockwise, s + 1 mod n for one); every turn
    order of the game comes from here."""
    return (seat + steps) % players


def first_leader(dealer: int, players: int) -> int:
    """R7, R10: the seat left of the dealer, who bids first and leads the round's first trick."""
    return next_seat(dealer, players)


@cache
def turn_order(first: int, players: int) -> tuple[int, ...]:
    """Every seat once, clockwise from `first`: the order of a trick from its leader (R10)."""
    return tuple(next_seat(first, players, steps) for steps in range(players))


def bidding_order(dealer: int, players: int) -> tuple[int, ...]:
    """R7: the seats in the order they bid, from the left of the dealer to the dealer."""
    return turn_order(first_leader(dealer, players), players)


def seat_to_act(state: State) -> int | None:
    """The seat whose decision the rules wait for, or None (a trick or round to settle, or the
    game over); every change of `State.to_act` comes from here."""
    phase = state.phase
    if phase == PLAYING:  # clockwise from the trick's leader, until the trick is full
        trick = state.trick
        if len(trick) == state.players or not (trick or state.hands[state.leader]):
            return None
        return next_seat(state.leader, state.players, len(trick))
    if phase == BIDDING:  # R7: clockwise from the left of the dealer
        made = len(state.bids) - state.bids.count(None)
        return next_seat(first_leader(state.dealer, state.players), state.players, made)
    if phase == CHOOSING_TRUMP:  # R5: the dealer chooses; R23: the Werewolf's holder
        return state.dealer if state.werewolf is None else state.werewolf
    if phase == PASSING:  # R24: in turn from the left of the trick's winner
        for seat in turn_order(state.passes_from, state.players):
            if state.passes[seat] is None:
                return seat
        return None  # every card chosen: they change hands
    if phase == ADJUSTING:
        return state.adjusting
    return None  # DONE: a round scored, or the game over


def _game_started(state: State, event: ev.GameStarted) -> None:
    state.players = event["players"]
    state.hook_rule = event["hook_rule"]
    state.blind_first_round = event["blind_first_round"]
    state.first_dealer = event["first_dealer"]
    state.round_numbers = tuple(event.get("rounds") or round_numbers(state.players))
    state.special_cards = tuple(event.get("special_cards", ()))
    state.totals = [0] * state.players


def _deal(state: State, event: ev.Deal) -> None:
    n = state.players
    state.round = event["round"]
    state.dealer = event["dealer"]
    state.hands = [tuple(hand) for hand in event["hands"]]
    state.turned_up = None
    state.trump = None
    state.bids = [None] * n
    state.tricks_won = [0] * n
    state.trick = ()
    state.lead_suit = None
    state.last_trick = None  # "last trick" is of this round (the API contract round.last_trick)
    state.round_plays = ()
    state.werewolf = None
    state.swapped = None
    state.adjusting = None
    state.passes = []
    state.phase = BIDDING


def _trump_turned(state: State, event: ev.TrumpTurned) -> None:
    code = event["card"]
    state.turned_up = code
    card = CARDS[code] if code is not None else None
    if card is not None and card.kind in ("wizard", "dragon"):  # R5, R20: the dealer chooses
        state.phase = CHOOSING_TRUMP
        return
    # R5 Jester, R6 last round, R20 a special card: no trump.
    state.trump = card.suit if card is not None else None


def _werewolf(state: State, event: ev.WerewolfSwapped) -> None:
    seat, hand = event["seat"], list(state.hands[event["seat"]])
    hand.remove(WEREWOLF)
    state.hands[seat] = (*hand, event["card"])
    state.turned_up = WEREWOLF
    state.trump = None
    state.werewolf = seat
    state.swapped = event["card"]
    state.phase = CHOOSING_TRUMP  # R23: the holder chooses, whatever was turned up


def _trump_chosen(state: State, event: ev.TrumpChosen) -> None:
    state.trump = None if event["suit"] == NO_TRUMP else event["suit"]
    state.phase = BIDDING


def _bid(state: State, event: ev.BidMade) -> None:
    seat = event["seat"]
    state.bids[seat] = event["bid"]
    if seat == state.dealer:  # the dealer bids last
        state.phase = PLAYING
        state.leader = first_leader(state.dealer, state.players)  # R10


def _play(state: State, event: ev.CardPlayed) -> None:
    seat, code = event["seat"], event["card"]
    _take_from_hand(state, seat, code)
    played = (seat, face(code, ev.declared(event)))
    state.trick = (*state.trick, played)
    if state.lead_suit is None:  # once set, a trick's lead suit stays
        state.lead_suit = lead_suit(shown for _, shown in state.trick)
    state.round_plays = (*state.round_plays, played)


def _take_from_hand(state: State, seat: int, code: str) -> None:
    hand = state.hands[seat]
    index = hand.index(code)
    state.hands[seat] = hand[:index] + hand[index + 1 :]


def _trick_won(state: State, event: ev.TrickWon) -> None:
    winner = event["seat"]
    if winner is not None:  # R22: a bombed trick is nobody's
        state.tricks_won[winner] += 1
    state.last_trick = (winner, state.trick)
    leads = event.get("leads", winner)
    assert leads is not None
    state.leader = leads  # R10, R22
    played = {split_face(shown)[0] for _, shown in state.trick}
    state.trick = ()
    state.lead_suit = None
    # R24: the Cloud's winner changes their bid, then (cards left) the Juggler's pass.
    state.adjusting = winner if CLOUD in played else None
    if JUGGLER in played and state.hands[leads]:
        state.passes = [None] * state.players
        state.passes_from = next_seat(leads, state.players)
    state.phase = _after_trick(state)


def _after_trick(state: State) -> Phase:
    if state.adjusting is not None:
        return ADJUSTING
    return PASSING if state.passes else PLAYING


def _adjust(state: State, event: ev.BidAdjusted) -> None:
    bid = state.bids[event["seat"]]
    state.bids[event["seat"]] = (bid or 0) + event["delta"]
    state.adjusting = None
    state.phase = _after_trick(state)


def _card_chosen(state: State, event: ev.CardChosen) -> None:
    card = event["card"]
    assert card is not None, "a state folds the events as they happened, not as shown"
    _take_from_hand(state, event["seat"], card)
    state.passes[event["seat"]] = card


def _cards_passed(state: State, event: ev.CardsPassed) -> None:
    given = event["cards"]
    for seat in range(state.players):  # each to the player on the left (R3)
        card = given[seat - 1]
        assert card is not None, "a state folds the events as they happened, not as shown"
        state.hands[seat] = (*state.hands[seat], card)
    state.passes = []
    state.phase = PLAYING


def _round_scored(state: State, event: ev.RoundScored) -> None:
    points = event["points"]
    state.totals = [total + p for total, p in zip(state.totals, points, strict=True)]
    state.scores.append(
        {
            "round": state.round,
            "bids": list(state.bids),
            "tricks": list(state.tricks_won),
            "points": list(points),
            "totals": list(state.totals),
        }
    )
    state.phase = DONE


def _game_over(state: State, event: ev.GameOver) -> None:
    state.winners = list(event["winners"])


# Each handler takes its own kind; the `type` tag picks it, which mypy cannot follow here.
_HANDLERS: dict[str, Callable[[State, Any], None]] = {
    ev.GAME_STARTED: _game_started,
    ev.DEAL: _deal,
    ev.TRUMP_TURNED: _trump_turned,
    ev.TRUMP_CHOSEN: _trump_chosen,
    ev.BID: _bid,
    ev.PLAY: _play,
    ev.TRICK_WON: _trick_won,
    ev.ROUND_SCORED: _round_scored,
    ev.GAME_OVER: _game_over,
    ev.WEREWOLF: _werewolf,
    ev.ADJUST: _adjust,
    ev.PASS: _card_chosen,
    ev.CARDS_PASSED: _cards_passed,
}
