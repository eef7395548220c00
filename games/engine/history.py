"""The public record of the current round as one seat may see it, rebuilt from a State.

A search bot needs more than the view: which cards fell in earlier tricks and who failed to
follow (R12). These are the engine's own events, redacted by `event_view`, never a raw deal.
"""

from __future__ import annotations

from games.engine import events as ev
from games.engine.cards import CARDS
from games.engine.rules import trick_winner
from games.engine.state import State, bidding_order
from games.engine.views import EventShown, event_view


def round_history(state: State, seat: int) -> list[EventShown]:
    """The game's opening and every event of the current round, as `seat` may see them (the
    marks of decisions made for a seat, `auto`, are not kept by the State and are left out)."""
    history: list[EventShown] = [
        ev.game_started(
            players=state.players,
            hook_rule=state.hook_rule,
            blind_first_round=state.blind_first_round,
            first_dealer=state.first_dealer,
            rounds=list(state.round_numbers),
        )
    ]
    if state.round == 0:
        return history
    dealt = [list(hand) for hand in state.hands]
    for player, code in state.round_plays:
        dealt[player].append(code)
    deal = ev.deal(round_number=state.round, dealer=state.dealer, hands=dealt)
    history.append(event_view(deal, seat, blind_first_round=state.blind_first_round))
    history.append(ev.trump_turned(card=state.turned_up))
    turned = CARDS[state.turned_up] if state.turned_up is not None else None
    if turned is not None and turned.is_wizard and state.trump is not None:  # R5
        history.append(ev.trump_chosen(seat=state.dealer, suit=state.trump))
    for bidder in bidding_order(state.dealer, state.players):  # R7
        bid = state.bids[bidder]
        if bid is not None:
            history.append(ev.bid(seat=bidder, bid=bid))
    trick_start = 0
    for index, (player, code) in enumerate(state.round_plays):
        history.append(ev.play(seat=player, card=code))
        if index + 1 - trick_start == state.players:
            trick = state.round_plays[trick_start : index + 1]
            history.append(ev.trick_won(seat=trick_winner(trick, state.trump)))  # R13
            trick_start = index + 1
    return history
