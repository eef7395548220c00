"""Seeded games for the table's accessibility checks, and what the table page shows on the way.

A scenario is a solo table of three seats with every special card (R20) and two rounds (R19),
created by a player whose requests fix its shuffle seed (TEST_SHUFFLE_SEEDS): the player takes
seat 0 and two "heuristic" bots (the default, deterministic) the others, so the seed and the
player's moves fix the whole game. Each scenario lists the player's steps in order, each with
the phases of the table the page shows just before it (at the instant pace, where a won trick
stays on the table while its winner is to lead and a round's summary until Continue).

`steps_of` plays a scenario's moves out on the engine alone, with the bots as the server runs
them, and says what the page shows at each step: tests/games/test_table_scenarios.py checks
each scenario against it, so a change to the deal, the rules or the bots that moves a phase
fails there, with the steps it now gives, before any browser starts.

Pure Python on games.engine: no Django, no browser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games import engine
from games.engine import Adjust, Bid, ChooseTrump, Move, Pass, Play, State

# The phases of the table the accessibility checks name, each checked at every size.
PHASES: Final = (
    "waiting-room",
    "bidding",
    "playing",
    "trick-end",
    "round-summary",
    "trump-choice",
    "suit-picker",
    "shapeshifter-choice",
    "pass-choice",
    "pass-received",
    "cloud-adjust",
    "game-over",
)
SPECIAL_CARDS: Final = ("dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter")
SEATS: Final = 3
ROUNDS: Final = 2  # R19: rounds 1 and 2, one card and then two
YOU: Final = 0  # the creator's seat
BOT_KIND: Final = "heuristic"  # the engine bot behind "medium" (games/difficulty.py)
CONTINUE: Final = "continue"  # the step that closes a round's summary
DECLARES: Final = {"JU": "suit-picker", "CL": "suit-picker", "SH": "shapeshifter-choice"}

# The phases of the table each kind of decision shows (with its control).
DECISION_PHASES: Final = {
    "bid": "bidding",
    "trump": "trump-choice",
    "play": "playing",
    "pass": "pass-choice",
    "adjust": "cloud-adjust",
}


@dataclass(frozen=True)
class Step:
    """What the page shows (`shows`, phases of the table), then what the player does there:
    a move as `parse` reads it, or CONTINUE on a round's summary."""

    shows: tuple[str, ...]
    move: str


@dataclass(frozen=True)
class Scenario:
    """A table dealt from `seed` (what it deals: `about`) and the player's steps there."""

    seed: str
    about: str
    steps: tuple[Step, ...]
    special_cards: tuple[str, ...] = SPECIAL_CARDS

    @property
    def moves(self) -> list[str]:
        return [step.move for step in self.steps if step.move != CONTINUE]


def parse(move: str) -> Move:
    """ "bid 1", "trump red", "play G7", "play JU as blue", "play SH as wizard", "pass Y3",
    "adjust +1" as the engine's move."""
    kind, code, *rest = move.split()
    if kind == "bid":
        return Bid(int(code))
    if kind == "trump":
        return ChooseTrump(code)
    if kind == "pass":
        return Pass(code)
    if kind == "adjust":
        return Adjust(int(code))
    assert kind == "play", move
    return Play(code, rest[1] if rest else None)


def kind_of(move: str) -> str:
    return move.split()[0]


def table_options(special_cards: tuple[str, ...] = SPECIAL_CARDS) -> dict[str, Any]:
    """The body of POST /api/v1/games/ for a scenario's table (API.md "Variants")."""
    return {
        "seats": SEATS,
        "bots": SEATS - 1,
        "bot_kind": "medium",  # the heuristic bot
        "special_cards": list(special_cards),
        "rounds": ROUNDS,
        "blind_first_round": False,
        "turn_seconds": 600,  # no turn limit runs out while a step is checked
    }


def start(seed: str, special_cards: tuple[str, ...] = SPECIAL_CARDS) -> State:
    state, _ = engine.start_game(
        players=SEATS,
        seed=seed,
        blind_first_round=False,
        rounds=ROUNDS,
        special_cards=engine.special_cards(list(special_cards)),
    )
    return state


def bots_act(state: State, seed: str) -> tuple[State, list[engine.Event]]:
    """The bots' decisions until the player is to act or the game is over, as the server's
    bot task makes them (games/services/moves.py: each bot seeded by the game, seat and seq)."""
    events: list[engine.Event] = []
    while not state.is_over and state.to_act is not None and state.to_act != YOU:
        seat = state.to_act
        bot = engine.make_bot(BOT_KIND, seed=f"{seed}:{seat}:{state.seq}")
        state, more = engine.take_turn(state, seat, engine.bot_move(bot, state, seat), seed=seed)
        events += more
    return state, events


def shows(state: State, received: bool, move: str) -> tuple[str, ...]:
    """The phases the page shows while the player is to make `move` in `state`."""
    kind = kind_of(move)
    phases = [DECISION_PHASES[kind]]
    if kind == "play" and not state.trick and state.last_trick is not None:
        phases.append("trick-end")  # the won trick stays while its winner leads (instant pace)
    if kind == "play" and received:
        phases.append("pass-received")  # named above the hand until the next trick is played
    code = move.split()[1]
    if kind == "play" and code in DECLARES:
        phases.append(DECLARES[code])  # asked on clicking the card, before it is played
    return tuple(phases)


def steps_of(
    seed: str, moves: list[str], special_cards: tuple[str, ...] = SPECIAL_CARDS
) -> tuple[Step, ...]:
    """The steps of a game from `seed` in which the player makes `moves` in order; raises if a
    move is not the player's to make, or if the moves run out before the game's end."""
    state, events = bots_act(start(seed, special_cards), seed)
    steps: list[Step] = []
    received = False
    pending = list(moves)

    def follow(events: list[engine.Event]) -> None:
        nonlocal received
        for event in events:
            if event["type"] == "cards_passed":
                received = True
            elif event["type"] == "trick_won":
                received = False
            elif event["type"] == "round_scored":
                steps.append(Step(("round-summary",), CONTINUE))

    follow(events)
    while not state.is_over:
        assert pending, f"the moves ran out at {state}; the steps so far: {steps}"
        move = pending.pop(0)
        assert state.to_act == YOU, (move, state)
        decided = engine.decision(state)
        assert decided is not None and decided[1] == kind_of(move), (move, decided, state)
        steps.append(Step(shows(state, received, move), move))
        state, events = engine.take_turn(state, YOU, parse(move), seed=seed)
        follow(events)
        state, events = bots_act(state, seed)
        follow(events)
    assert not pending, f"moves left after the game's end: {pending}"
    return tuple(steps)


def final_state(scenario: Scenario) -> State:
    """The game's state after the scenario's moves, as the engine plays it out."""
    state, _ = bots_act(start(scenario.seed, scenario.special_cards), scenario.seed)
    for move in scenario.moves:
        state, _ = engine.take_turn(state, YOU, parse(move), seed=scenario.seed)
        state, _ = bots_act(state, scenario.seed)
    return state


# Seeds found by playing seeds out on the engine (steps_of) with the player's moves below.
TABLE_SCENARIOS: Final = (
    Scenario(
        seed="a11y-123",
        about=(
            "round 1: you hold G9 under green trump. Round 2: you are dealt R13 and the Werewolf"
            " and the Shapeshifter is turned up: you lay the Werewolf, take the Shapeshifter and"
            " choose trump, then lead it as a Wizard onto the bots' Juggler and Cloud: you win"
            " the trick, change your bid (the Cloud), pass R13 (the Juggler), receive W2 from"
            " seat 2 and lead it with the won trick still on the table"
        ),
        steps=(
            Step(("bidding",), "bid 0"),
            Step(("playing",), "play G9"),
            Step(("round-summary",), CONTINUE),
            Step(("trump-choice",), "trump red"),
            Step(("bidding",), "bid 0"),
            Step(("playing", "shapeshifter-choice"), "play SH as wizard"),
            Step(("cloud-adjust",), "adjust +1"),
            Step(("pass-choice",), "pass R13"),
            Step(("playing", "trick-end", "pass-received"), "play W2"),
            Step(("round-summary",), CONTINUE),
        ),
    ),
    Scenario(
        seed="a11y-53",
        about=(
            "round 1: you deal and your one card is the Juggler (a Jester turned up: no"
            " trump). Round 2: you hold the Juggler and Y1 under red trump and play the Juggler"
            " into the first trick: you pass Y1 and receive Y8 from seat 2"
        ),
        steps=(
            Step(("bidding",), "bid 0"),
            Step(("playing", "suit-picker"), "play JU as red"),
            Step(("round-summary",), CONTINUE),
            Step(("bidding",), "bid 0"),
            Step(("playing", "suit-picker"), "play JU as red"),
            Step(("pass-choice",), "pass Y1"),
            Step(("playing", "pass-received"), "play Y8"),
            Step(("round-summary",), CONTINUE),
        ),
    ),
)

# A plain two-round game (no special card) where the player makes the first legal move each
# turn: in round 1 they lead W3 but bid 0, which the hard bot's review disagrees with.
REVIEW_SCENARIO: Final = Scenario(
    seed="review-48",
    about="round 1: you lead W3 and bid 0; round 2: you hold G4 and G1",
    steps=(
        Step(("bidding",), "bid 0"),
        Step(("playing",), "play W3"),
        Step(("round-summary",), CONTINUE),
        Step(("bidding",), "bid 0"),
        Step(("playing",), "play G4"),
        Step(("playing",), "play G1"),
        Step(("round-summary",), CONTINUE),
    ),
    special_cards=(),
)
