"""Card codes of R1 and R20: parsing, printing and the orderings the rules need.

A card on the table is a *face*: its code, or for a special card that takes a declaration
when played (R24, R25) the code and the declaration, `JU:red`, `CL:blue`, `SH:wizard`. The
rules of a trick (lead suit, winner) read faces, so a Juggler named red is a red 7½.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from games.engine.errors import IllegalCard, Invalid

SUITS: Final = ("red", "green", "blue", "yellow")  # also the tie-break order of R16
SUIT_LETTERS: Final = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}
LETTER_SUITS: Final = {letter: suit for suit, letter in SUIT_LETTERS.items()}
WIZARD_RANK: Final = 14  # above 13 (R13, R16)
JESTER_RANK: Final = 0  # below 1 (R13, R16)

DRAGON: Final = "DR"
FAIRY: Final = "FA"
BOMB: Final = "BO"
WEREWOLF: Final = "WW"
JUGGLER: Final = "JU"
CLOUD: Final = "CL"
SHAPESHIFTER: Final = "SH"
SPECIAL_CODES: Final = (DRAGON, FAIRY, BOMB, WEREWOLF, JUGGLER, CLOUD, SHAPESHIFTER)
"""R20's order, in which the chosen special cards follow the 60 in the canonical deck."""
SPECIAL_OPTIONS: Final = {
    "dragon_fairy": (DRAGON, FAIRY),  # always chosen together (R20)
    "bomb": (BOMB,),
    "werewolf": (WEREWOLF,),
    "juggler": (JUGGLER,),
    "cloud": (CLOUD,),
    "shapeshifter": (SHAPESHIFTER,),
}
"""The API's names of R20's choices and the cards each one shuffles into the deck."""
NAMES_A_SUIT: Final = (JUGGLER, CLOUD)  # R24
SHAPES: Final = ("wizard", "jester")  # R25


@dataclass(frozen=True, slots=True)
class Card:
    """A card (R1, R20) or a declared face (R24, R25). `kind` is "suit", "wizard", "jester"
    or a special card's name; `suit` is set only for suit cards and a named Juggler or Cloud;
    `rank` orders cards for R16 and R26 (a Juggler 7.5, a Cloud 9.75)."""

    code: str
    suit: str | None
    rank: float
    kind: str = "suit"

    @property
    def is_wizard(self) -> bool:
        return self.kind == "wizard"

    @property
    def is_jester(self) -> bool:
        return self.kind == "jester"

    @property
    def is_special(self) -> bool:
        return self.code[:2] in SPECIAL_CODES

    def __str__(self) -> str:
        return self.code


def _build_deck() -> tuple[Card, ...]:
    deck = [
        Card(f"{SUIT_LETTERS[suit]}{number}", suit, number)
        for suit in SUITS
        for number in range(1, 14)
    ]
    deck += [Card(f"W{i}", None, WIZARD_RANK, "wizard") for i in range(1, 5)]
    deck += [Card(f"J{i}", None, JESTER_RANK, "jester") for i in range(1, 5)]
    return tuple(deck)


# R26's order places them: the Fairy and the Bomb below the Jesters (Fairy first), the Juggler
# between the 7s and the 8s, the Cloud between the 9s and the 10s, the Shapeshifter and then
# the Dragon above the Wizards. The Werewolf never stays in a hand (R23).
_SPECIALS: Final = (
    Card(DRAGON, None, WIZARD_RANK + 2, "dragon"),
    Card(FAIRY, None, JESTER_RANK - 2, "fairy"),
    Card(BOMB, None, JESTER_RANK - 1, "bomb"),
    Card(WEREWOLF, None, JESTER_RANK - 0.5, "werewolf"),
    Card(JUGGLER, None, 7.5, "juggler"),
    Card(CLOUD, None, 9.75, "cloud"),
    Card(SHAPESHIFTER, None, WIZARD_RANK + 1, "shapeshifter"),
)


def _declared_faces() -> tuple[Card, ...]:
    named = [
        Card(f"{code}:{suit}", suit, CARDS[code].rank) for code in NAMES_A_SUIT for suit in SUITS
    ]
    return (
        *named,
        Card(f"{SHAPESHIFTER}:wizard", None, WIZARD_RANK, "wizard"),
        Card(f"{SHAPESHIFTER}:jester", None, JESTER_RANK, "jester"),
    )


DECK: Final[tuple[Card, ...]] = _build_deck()
"""The 60 cards in canonical order: R1…R13, G1…G13, B1…B13, Y1…Y13, W1…W4, J1…J4."""
DECK_CODES: Final[tuple[str, ...]] = tuple(card.code for card in DECK)
CARDS: Final[dict[str, Card]] = {card.code: card for card in (*DECK, *_SPECIALS)}
"""Every card a hand may hold: the 60 and the special cards."""
FACES: Final[dict[str, Card]] = {**CARDS, **{card.code: card for card in _declared_faces()}}
"""Every face a trick may hold: the cards and the declared Juggler, Cloud and Shapeshifter."""


def special_cards(options: object) -> tuple[str, ...]:
    """The special cards chosen by the API's names (R20), in R20's order; raises Invalid for a
    name it does not know, a repeated name, or anything but a list of names."""
    if not isinstance(options, list | tuple) or not all(isinstance(o, str) for o in options):
        raise Invalid("'special_cards' is a list of names.")
    unknown = sorted(set(options) - set(SPECIAL_OPTIONS))
    if unknown or len(set(options)) != len(options):
        names = ", ".join(SPECIAL_OPTIONS)
        raise Invalid(f"'special_cards' names each of {names} at most once (R20).")
    chosen = {code for option in options for code in SPECIAL_OPTIONS[option]}
    return tuple(code for code in SPECIAL_CODES if code in chosen)


def special_options(codes: tuple[str, ...] | list[str]) -> list[str]:
    """The API's names for these special cards, the inverse of special_cards."""
    return [name for name, cards in SPECIAL_OPTIONS.items() if cards[0] in codes]


def face(code: str, declared: str | None = None) -> str:
    """The face of a card played with this declaration (a suit, or a Shapeshifter's shape)."""
    return code if declared is None else f"{code}:{declared}"


def declaration_key(code: str) -> Literal["suit", "as"]:
    """The field a declaration travels in: `as` for a Shapeshifter (R25), else `suit` (R24)."""
    return "as" if code == SHAPESHIFTER else "suit"


def split_face(played: str) -> tuple[str, str | None]:
    """A face's card code and declaration (None for a card that takes none)."""
    code, _, declared = played.partition(":")
    return code, declared or None


def parse_card(code: object) -> Card:
    """The card for a code such as `R13`, `W2`, `J4` or `DR`; raises IllegalCard otherwise."""
    card = CARDS.get(code) if isinstance(code, str) else None
    if card is None:
        raise IllegalCard(f"{code!r} is not a card code (R1).")
    return card


def format_card(card: Card) -> str:
    """The code of a card, the inverse of parse_card."""
    return card.code


def parse_suit(name: object) -> str:
    """A suit name (`red`, `green`, `blue`, `yellow`); raises Invalid otherwise."""
    if name not in SUITS:
        raise Invalid(f"{name!r} is not a suit; choose one of {', '.join(SUITS)} (R5).")
    return str(name)


def auto_play_key(code: str, trump: str | None) -> tuple[float, int, int, str]:
    """R16 order for the auto-move: lowest number first, non-trump before trump at equal number,
    then suit order red, green, blue, yellow; among Jesters or Wizards the lowest code; the
    special cards where R26 places them."""
    card = CARDS[code]
    if card.suit is None:
        return (card.rank, 0, 0, code)
    return (card.rank, int(card.suit == trump), SUITS.index(card.suit), code)


_DISPLAY_GROUP: Final = {"red": 1, "green": 2, "blue": 3, "yellow": 4}


def display_key(code: str) -> tuple[int, float, str]:
    """Order in which a hand is shown: Jesters (after the special cards below them), then suits
    in R1 order by number, then Wizards (and the special cards above them, then the others)."""
    card = CARDS[code]
    if card.suit is None:
        if card.rank < WIZARD_RANK / 2:
            return (0, card.rank, code)
        return (5, card.rank, code)
    return (_DISPLAY_GROUP[card.suit], card.rank, code)


def sort_hand(codes: list[str] | tuple[str, ...]) -> list[str]:
    """A hand in display order."""
    return sorted(codes, key=display_key)
