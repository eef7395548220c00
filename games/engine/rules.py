"""What the rules decide: legal moves, trick winners, scores, places, and turns with their
consequences. Reads a State; the only writes are to copies."""

from __future__ import annotations

from typing import Final

from games.engine import events as ev
from games.engine.cards import (
    BOMB,
    CARDS,
    FACES,
    NAMES_A_SUIT,
    SHAPESHIFTER,
    SPECIAL_CODES,
    SUITS,
    WEREWOLF,
)
from games.engine.errors import (
    GameNotActive,
    HookRule,
    IllegalBid,
    IllegalCard,
    Invalid,
    NotYourTurn,
)
from games.engine.events import Event
from games.engine.lead import lead_suit, may_play, playable
from games.engine.moves import (
    BIDS,
    NO_TRUMP,
    PLAYS,
    Adjust,
    Bid,
    ChooseTrump,
    Move,
    Pass,
    Play,
    check_bid_range,
    declarations,
)
from games.engine.shuffle import deal_round, first_dealer
from games.engine.state import (
    ADJUSTING,
    BIDDING,
    CHOOSING_TRUMP,
    DONE,
    PASSING,
    PLAYING,
    RoundFormat,
    State,
    Trick,
    apply_in_place,
    next_seat,
    round_numbers,
)

DECISION_FOR_PHASE: Final = {
    CHOOSING_TRUMP: "trump",
    BIDDING: "bid",
    PLAYING: "play",
    PASSING: "pass",
    ADJUSTING: "adjust",
}
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6


# -- queries ----------------------------------------------------------------------------------
def decision(state: State) -> tuple[int, str] | None:
    """Whose turn it is and what they decide (`trump`, `bid`, `play`, `pass` or `adjust`), or
    None (also while the blind trick plays itself, R9)."""
    if state.to_act is None or state.is_over or blind_trick_pending(state):
        return None
    return state.to_act, DECISION_FOR_PHASE[state.phase]


def blind_trick_pending(state: State) -> bool:
    """R9: the bids of the blind round are in and its trick still plays itself, card by card
    (only when the caller paces it: see take_turn's `auto_blind`)."""
    return (
        state.is_blind_round
        and state.phase == PLAYING
        and state.to_act is not None
        and len(state.trick) < state.players
    )


def forbidden_bid(state: State) -> int | None:
    """R8: the dealer's one bid that would make the bids sum to k, if the hook rule forbids one."""
    if not state.hook_rule or state.to_act != state.dealer or state.phase != BIDDING:
        return None
    others = sum(b for b in state.bids if b is not None)
    forbidden = state.round - others
    return forbidden if 0 <= forbidden <= state.round else None


def legal_bids(state: State) -> list[int]:
    """R7 and R8: the bids the seat to act may make."""
    forbidden = forbidden_bid(state)
    return [b for b in range(state.round + 1) if b != forbidden]


def legal_cards(state: State) -> list[str]:
    """The cards the seat to act may play (lead.playable: R11, R12)."""
    hand = state.hands[state.to_act] if state.to_act is not None else ()
    return playable(hand, state.lead_suit)


def legal_suits(state: State) -> list[str]:
    """R5: the dealer chooses one of the four suits, never "no trump"; R23: the Werewolf's
    holder may also choose no trump."""
    return [*SUITS, NO_TRUMP] if state.werewolf is not None else list(SUITS)


def legal_adjustments(state: State) -> list[int]:
    """R24: the Cloud's winner changes their bid by +1 or -1 (-1 only from a bid of 1 or more)."""
    seat = state.to_act
    bid = state.bids[seat] if seat is not None else None
    return [-1, 1] if bid else [1]


def legal_moves(state: State) -> list[Move]:
    """Every move the seat to act may make, as Move objects (empty when nobody acts)."""
    if decision(state) is None:
        return []
    if state.phase == PLAYING:
        return [
            PLAYS[code] if declared is None else Play(code, declared)
            for code in legal_cards(state)
            for declared in declarations(code)
        ]
    if state.phase == BIDDING:
        return [BIDS[b] for b in legal_bids(state)]
    if state.phase == PASSING:
        assert state.to_act is not None
        return [Pass(code) for code in state.hands[state.to_act]]
    if state.phase == ADJUSTING:
        return [Adjust(delta) for delta in legal_adjustments(state)]
    return [ChooseTrump(suit) for suit in legal_suits(state)]


def trick_winner(trick: Trick, trump: str | None) -> int:
    """Who takes the trick, or for a trick holding the Bomb who would have taken it (R22): the
    Fairy when the Dragon is in it too, else the Dragon (R21); the first Wizard; else the
    highest trump; else the highest card of the lead suit; if every card is a Jester (the Fairy
    below them), the first Jester."""
    lead = lead_suit(code for _, code in trick)
    kinds = {FACES[code].kind: seat for seat, code in trick}
    if "dragon" in kinds:
        return kinds.get("fairy", kinds["dragon"])
    best_seat, best_key = None, (-1, -1.0)
    for seat, code in trick:
        card = FACES[code]
        if card.is_wizard:
            return seat
        if card.suit is None:
            if card.is_jester and best_seat is None:
                best_seat = seat  # the first Jester, unless a suit card follows
            continue
        # Trump outranks the lead suit, which outranks everything else; then the number counts.
        key = (2 if card.suit == trump else 1 if card.suit == lead else 0, card.rank)
        if key > best_key:
            best_seat, best_key = seat, key
    if best_seat is None:  # no Jester and no suit card: the Fairy, with the Bomb at most
        return next((seat for seat, code in trick if code != BOMB), trick[0][0])
    return best_seat


def is_bombed(trick: Trick) -> bool:
    """R22: a trick holding the Bomb is won by nobody."""
    return any(code == BOMB for _, code in trick)


def declaration_for(state: State, seat: int, code: str) -> str | None:
    """R26: what is declared for a card played automatically: for a Juggler or Cloud the lead
    suit, else the suit the player holds most cards of (ties in suit order); a Shapeshifter is
    a Jester."""
    if code == SHAPESHIFTER:
        return "jester"
    if code not in NAMES_A_SUIT:
        return None
    if state.lead_suit is not None:
        return state.lead_suit
    return most_held_suit(state.hands[seat])


def most_held_suit(hand: tuple[str, ...] | list[str]) -> str:
    """The suit with most cards in `hand`; ties go in suit order red, green, blue, yellow."""
    held = [sum(CARDS[code].suit == suit for code in hand) for suit in SUITS]
    # max() keeps the first of equal counts.
    return SUITS[max(range(len(SUITS)), key=lambda i: held[i])]


def round_points(bid: int, won: int) -> int:
    """R14: exact bid → 20 + 10 per trick won; missed → −10 per trick of difference."""
    if bid == won:
        return 20 + 10 * won
    return -10 * abs(bid - won)


def winners(totals: list[int]) -> list[int]:
    """R15: the seats with the most points; equal top scores share the win."""
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]


def places(totals: list[int]) -> list[int]:
    """R15: each seat's place (1 = best); equal totals share a place (1, 1, 3 …)."""
    return [1 + sum(other > total for other in totals) for total in totals]


# -- turns ------------------------------------------------------------------------------------
def start_game(
    *,
    players: int,
    seed: str,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    rounds: RoundFormat = "full",
    special_cards: tuple[str, ...] = (),
) -> tuple[State, list[Event]]:
    """A new game's opening events (start, first deal, turned-up card) and the state they give;
    `special_cards`: their codes (cards.special_cards reads the API's names), R20."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # R2
        raise Invalid(f"Wizard is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (R2).")
    try:
        numbers = round_numbers(players, rounds)  # R19
    except ValueError as error:
        raise Invalid(str(error)) from None
    opening = ev.game_started(
        players=players,
        hook_rule=hook_rule,
        blind_first_round=blind_first_round,
        first_dealer=first_dealer(seed, players),  # R3
        rounds=list(numbers),
        special_cards=[code for code in SPECIAL_CODES if code in special_cards],
    )
    state = State()
    events: list[Event] = [opening]
    apply_in_place(state, opening)
    _deal_next_round(state, seed, events)
    return state, events


def take_turn(
    state: State, seat: int, move: Move, *, seed: str, auto: bool = False, auto_blind: bool = True
) -> tuple[State, list[Event]]:
    """Check `move` by `seat`; return the new state and every event it causes (the decision,
    then what follows by rule: tricks won, round scores, the next deal, the game's end).

    With `auto_blind` off, the blind trick (R9) is left for blind_step to play card by card.
    Raises a Refusal, leaving `state` unchanged, when the move is not allowed.
    """
    new = state.copy()
    events = take_turn_in_place(new, seat, move, seed=seed, auto=auto, auto_blind=auto_blind)
    return new, events


def take_turn_in_place(
    state: State, seat: int, move: Move, *, seed: str, auto: bool = False, auto_blind: bool = True
) -> list[Event]:
    """take_turn on `state` itself, for a search's playouts: raises before any change, else
    changes `state` and returns the events."""
    decision_event = _decision_event(state, seat, move, auto)
    events = [decision_event]
    apply_in_place(state, decision_event)
    _follow_rules(state, seed, events, auto_blind=auto_blind)
    return events


def blind_step(state: State, *, seed: str) -> tuple[State, list[Event]]:
    """R9, paced: the next card of the blind trick plays itself, with what follows by rule."""
    if not blind_trick_pending(state):
        raise GameNotActive("No blind trick is waiting to be played.")
    seat = state.to_act
    assert seat is not None
    new = state.copy()
    events: list[Event] = []
    _emit(new, _blind_play(new, seat), events)
    _follow_rules(new, seed, events, auto_blind=False)
    return new, events


def _blind_play(state: State, seat: int) -> ev.CardPlayed:
    """R9: the seat's one card, played for them; R24, R26: what it declares, too."""
    code = state.hands[seat][0]
    return ev.play(seat=seat, card=code, declared=declaration_for(state, seat, code), auto=True)


def _decision_event(state: State, seat: int, move: Move, auto: bool) -> Event:
    if state.is_over or state.round == 0:
        raise GameNotActive("The game is not running: no move is possible.")
    if seat != state.to_act:
        raise NotYourTurn(f"It is seat {state.to_act}'s turn, not seat {seat}'s.")
    if blind_trick_pending(state):
        raise NotYourTurn("The blind trick plays itself (R9): nobody decides now.")
    if isinstance(move, Play):
        if state.phase != PLAYING:
            raise IllegalCard("Cards are played once the bidding is over (R10).")
        if move.card not in state.hands[seat]:
            raise IllegalCard(f"{move.card} is not in your hand.")
        if not may_play(move.card, state.hands[seat], state.lead_suit):
            raise IllegalCard(
                f"You hold {state.lead_suit}: play {state.lead_suit}, a Wizard or a Jester (R12)."
            )
        if move.declared not in declarations(move.card):  # parse_move checks it too
            raise IllegalCard(f"{move.card} cannot be played as {move.declared!r} (R24, R25).")
        return ev.play(seat=seat, card=move.card, declared=move.declared, auto=auto)
    if isinstance(move, Pass):
        if state.phase != PASSING:
            raise Invalid("Cards are passed only after a trick holding the Juggler (R24).")
        if move.card not in state.hands[seat]:
            raise IllegalCard(f"{move.card} is not in your hand.")
        return ev.card_chosen(seat=seat, card=move.card, auto=auto)
    if isinstance(move, Adjust):
        if state.phase != ADJUSTING:
            raise Invalid("A bid changes only after winning a trick holding the Cloud (R24).")
        if move.delta not in legal_adjustments(state):
            raise IllegalBid("A bid of 0 can only go up by 1 (R24).")
        return ev.bid_adjusted(seat=seat, delta=move.delta, auto=auto)
    if isinstance(move, Bid):
        if state.phase != BIDDING:
            raise IllegalBid("Bidding is over for this round (R7).")
        check_bid_range(move.bid, state.round)
        if move.bid == forbidden_bid(state):
            raise HookRule(
                f"The dealer may not bid {move.bid}: the bids would sum to {state.round} (R8)."
            )
        return ev.bid(seat=seat, bid=move.bid, auto=auto)
    if state.phase != CHOOSING_TRUMP:
        raise Invalid("Only the dealer, after a Wizard is turned up, chooses trump (R5).")
    if move.suit not in legal_suits(state):
        raise Invalid(f"Choose one of {', '.join(legal_suits(state))} (R5, R23).")
    return ev.trump_chosen(seat=seat, suit=move.suit, auto=auto)


def _follow_rules(state: State, seed: str, events: list[Event], *, auto_blind: bool = True) -> None:
    """Append and apply the events that follow by rule alone, until a seat must decide (or,
    without `auto_blind`, until the blind trick's next card)."""
    while True:
        if state.phase == PASSING and state.to_act is None:  # R24: every card chosen
            _emit(state, ev.cards_passed(cards=list(state.passes)), events)
        elif state.phase == PLAYING:
            if len(state.trick) == state.players:
                taker = trick_winner(state.trick, state.trump)
                if is_bombed(state.trick):  # R22
                    _emit(state, ev.trick_won(seat=None, leads=taker), events)
                else:
                    _emit(state, ev.trick_won(seat=taker), events)
            elif state.to_act is None:  # the last trick is won: score the round (R14)
                points = [
                    round_points(bid or 0, won)
                    for bid, won in zip(state.bids, state.tricks_won, strict=True)
                ]
                _emit(state, ev.round_scored(round_number=state.round, points=points), events)
            elif state.is_blind_round and auto_blind:
                # R9: after the last bid the blind trick plays itself; each seat holds one card.
                _emit(state, _blind_play(state, state.to_act), events)
            else:
                return
        elif state.phase == DONE and not state.is_over:
            if state.is_last_round:  # R15, R19
                _emit(
                    state, ev.game_over(winners=winners(state.totals), totals=state.totals), events
                )
            else:
                _deal_next_round(state, seed, events)
        else:
            return


def _deal_next_round(state: State, seed: str, events: list[Event]) -> None:
    number = state.next_round  # R19
    # R3, R19: the dealer moves one seat left for each round played.
    dealer = state.first_dealer if state.round == 0 else next_seat(state.dealer, state.players)
    hands, turned_up = deal_round(seed, number, state.players, dealer, state.special_cards)  # R4
    _emit(state, ev.deal(round_number=number, dealer=dealer, hands=hands), events)
    _emit(state, ev.trump_turned(card=turned_up), events)  # R5, R6, R20
    holder = next((seat for seat, hand in enumerate(hands) if WEREWOLF in hand), None)
    if holder is not None and turned_up is not None:  # R23 (the deck always turns one up, R20)
        _emit(state, ev.werewolf(seat=holder, card=turned_up), events)


def _emit(state: State, event: Event, events: list[Event]) -> None:
    events.append(event)
    apply_in_place(state, event)
