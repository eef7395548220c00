"""What one seat knows of a round, read from its view and the public history (nothing else):
its hand, the cards it has seen, the suits each seat is void in, the hand sizes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.playout import (
    CARD_INDEX,
    FOLLOWS,
    LEAD_AFTER,
    NO_SUIT,
    OPEN,
    SUIT_INDEX,
)
from games.engine.state import first_leader
from games.engine.views import EventShown, RoundView, View


@dataclass(slots=True)
class Knowledge:
    """One seat's knowledge of the round in play, cards as fast-path integers."""

    seat: int
    players: int
    cards: int  # k, the round number (R4)
    dealer: int
    trump: int  # NO_SUIT: no trump, or not chosen yet (R5)
    hook_rule: bool
    blind: bool  # R9: the seat sees every hand but its own
    hands: list[list[int] | None]  # the hands the seat sees (its own, or the others' in R9)
    sizes: list[int]  # cards left in each hand
    voids: list[int]  # by seat, a bit per suit it has shown it does not hold (R12)
    unseen: list[int]  # cards the seat has not seen: in the hidden hands or the undealt deck
    dealt: list[list[int]]  # cards each seat has played this round
    complete: bool  # whether `dealt` holds every play of the round (the history was given)
    bids: list[int | None]
    won: list[int]
    leader: int  # of the trick in play or the next (R10): left of the dealer until play starts
    trick: list[int]  # the cards of the trick in play, from its leader on


def read_knowledge(view: View, seat: int, history: Sequence[EventShown] | None) -> Knowledge:
    """The seat's knowledge from its view and, if given, the round's public events."""
    round_view = view["round"]
    if round_view is None:
        raise ValueError("A bot is asked for a move only once a round is dealt.")
    players = len(round_view["bids"])
    hook_rule, plays = _from_history(history, round_view["number"])
    if hook_rule is None:
        hook_rule = _hook_rule_from_view(view, seat, round_view)
    trick = [(c["seat"], CARD_INDEX[c["card"]]) for c in round_view["trick"]["cards"]]
    completed = sum(round_view["tricks_won"])
    complete = len(plays) == completed * players + len(trick)
    if not complete:
        plays = _plays_from_view(round_view)  # no history, or not of this round
    hands: list[list[int] | None] = [None] * players
    if view["hand"] is not None:
        hands[seat] = [CARD_INDEX[code] for code in view["hand"]]
    for other, codes in view["visible_hands"].items():
        hands[int(other)] = [CARD_INDEX[code] for code in codes]
    in_trick = {player for player, _ in trick}
    sizes = [round_view["cards"] - completed - (p in in_trick) for p in range(players)]
    seen = {card for hand in hands if hand is not None for card in hand}
    seen.update(card for _, card in plays)
    if round_view["trump_card"] is not None:
        seen.add(CARD_INDEX[round_view["trump_card"]])
    dealt: list[list[int]] = [[] for _ in range(players)]
    for player, card in plays:
        dealt[player].append(card)
    trump = round_view["trump"]
    return Knowledge(
        seat=seat,
        players=players,
        cards=round_view["cards"],
        dealer=round_view["dealer"],
        trump=SUIT_INDEX[trump] if trump is not None else NO_SUIT,
        hook_rule=hook_rule,
        blind=view["hand"] is None,
        hands=hands,
        sizes=sizes,
        voids=_voids(plays, players),
        unseen=[card for card in range(60) if card not in seen],
        dealt=dealt,
        complete=complete,
        bids=list(round_view["bids"]),
        won=list(round_view["tricks_won"]),
        leader=trick[0][0] if trick else _next_leader(round_view),
        trick=[card for _, card in trick],
    )


def _from_history(
    history: Sequence[EventShown] | None, round_number: int
) -> tuple[bool | None, list[tuple[int, int]]]:
    """The hook rule option and the round's plays, in order, from the public events."""
    hook_rule: bool | None = None
    plays: list[tuple[int, int]] = []
    for event in history or ():
        if event["type"] == "game_started":
            hook_rule = event["hook_rule"]
        elif event["type"] == "deal":
            plays = [] if event["round"] == round_number else plays
        elif event["type"] == "play":
            plays.append((event["seat"], CARD_INDEX[event["card"]]))
    return hook_rule, plays


def _hook_rule_from_view(view: View, seat: int, round_view: RoundView) -> bool:
    """R8 is on by default; only the dealer's own legal bids can show it is off."""
    legal = view["legal"]
    if seat != round_view["dealer"] or legal is None or "bids" not in legal:
        return True
    left = round_view["cards"] - sum(b for b in round_view["bids"] if b is not None)
    return not (0 <= left <= round_view["cards"] and left in legal["bids"])


def _plays_from_view(round_view: RoundView) -> list[tuple[int, int]]:
    # Only the last trick and the one in play are in a view; earlier ones are then unknown.
    cards = list((round_view["last_trick"] or {"cards": []})["cards"])
    cards += round_view["trick"]["cards"]
    return [(c["seat"], CARD_INDEX[c["card"]]) for c in cards]


def _next_leader(round_view: RoundView) -> int:
    """The seat to lead the next trick: the last one's winner, else left of the dealer (R10)."""
    last = round_view["last_trick"]
    if last is not None and last["winner"] is not None:
        return last["winner"]  # R10
    if round_view["trick"]["leader"] is not None:  # after a bombed trick (R22)
        return round_view["trick"]["leader"]
    return first_leader(round_view["dealer"], len(round_view["bids"]))


def _voids(plays: list[tuple[int, int]], players: int) -> list[int]:
    """A seat that played a card a holder of the lead suit may not play holds none of it."""
    voids = [0] * players
    for start in range(0, len(plays), players):
        lead = OPEN
        for player, card in plays[start : start + players]:
            if not FOLLOWS[lead][card]:
                voids[player] |= 1 << lead
            lead = LEAD_AFTER[lead][card]
    return voids
