"""Families, influence-card codes and the 98-card deck.

Cards within a type are interchangeable, so a card is a short code and a hand is a sorted list of codes:

| code        | card                                   | count |
|-------------|----------------------------------------|-------|
| `clan:F`    | clan card of family F                  | 4 × 6 |
| `travel:F`  | travel card that can target family F   | 3 × 6 |
| `travel:*`  | travel joker (any family)              | 3     |
| `recruit`   | recruitment card (played as a triple)  | 33    |
| `boss`      | Boss card                              | 10    |
| `stop`      | STOP card                              | 10    |

Investor cards are never in the deck: an investor is named by its family letter.
"""

from collections import Counter
from typing import Literal

Family = Literal["H", "K", "L", "P", "R", "T"]

FAMILIES: tuple[Family, ...] = ("H", "K", "L", "P", "R", "T")
"""In alphabetical order of the family names: the first one owned decides the starting player."""

FAMILY_NAMES: dict[str, str] = {
    "H": "Heiermann",
    "K": "Knetowitz",
    "L": "Liebgeld",
    "P": "Piepenbrok",
    "R": "Raffzahn",
    "T": "Talerfeld",
}

RECRUIT = "recruit"
BOSS = "boss"
STOP = "stop"
JOKER = "travel:*"

CLAN_PER_FAMILY = 4
TRAVEL_PER_FAMILY = 3
JOKERS = 3
RECRUITS = 33
BOSSES = 10
STOPS = 10
HAND_LIMIT = 12
HAND_SIZE = 5
DRAW_COUNT = 3
RECRUIT_TRIPLE = 3


def clan(family: str) -> str:
    return f"clan:{family}"


def travel(family: str | None) -> str:
    """The travel card for `family`, or the joker for None."""
    return JOKER if family is None else f"travel:{family}"


def deck() -> list[str]:
    """The 98 influence cards, sorted (shuffle before use)."""
    cards: list[str] = []
    for f in FAMILIES:
        cards += [clan(f)] * CLAN_PER_FAMILY
        cards += [travel(f)] * TRAVEL_PER_FAMILY
    cards += [JOKER] * JOKERS + [RECRUIT] * RECRUITS + [BOSS] * BOSSES + [STOP] * STOPS
    cards.sort()
    return cards


DECK_SIZE = 98
DECK_COUNTS: Counter[str] = Counter(deck())
ALL_CODES: frozenset[str] = frozenset(DECK_COUNTS)
assert len(deck()) == DECK_SIZE


def family_name(family: str) -> str:
    return FAMILY_NAMES[family]
