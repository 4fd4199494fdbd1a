"""The hand limit: nobody may hold more than 12 influence cards (investors do not count).

A player who goes above 12 by drawing must at once discard down to 12 or play a recruitment triple; the game waits
for them (turn deadline; at the deadline random cards are discarded). Decisions where the rules are silent:
- The discard must be exactly the excess: "discard the excess" (nobody discards more than needed by accident).
- Which cards were discarded is told to their owner only: rules/kkk.md keeps the discard pile's content hidden.
"""

from collections import Counter

from engine.errors import RuleError
from engine.events import Event, private, public
from engine.kkk import actions as A
from engine.kkk.cards import ALL_CODES, HAND_LIMIT, card_name, describe
from engine.kkk.state import KkkState
from engine.kkk.table import over_limit, to_discard
from engine.text import seat


def overflow_events(state: KkkState) -> list[Event]:
    """Tell the table (and privately the player) when someone is over the limit."""
    s = over_limit(state)
    if s is None:
        return []
    extra = len(state.hands[s]) - HAND_LIMIT
    return [
        public("over_limit", f"{seat(s)} must get down to {HAND_LIMIT} cards before play goes on.", seat=s),
        private(
            s,
            "must_discard",
            f"You hold {len(state.hands[s])} cards: discard {extra} or play a recruitment triple.",
            excess=extra,
        ),
    ]


def discard(state: KkkState, actor: int, action: A.Discard) -> list[Event]:
    if over_limit(state) != actor:
        raise RuleError(f"You don't need to discard: you hold {HAND_LIMIT} cards or fewer.")
    hand = state.hands[actor]
    extra = len(hand) - HAND_LIMIT
    unknown = sorted({c for c in action.cards if c not in ALL_CODES})
    if unknown:
        raise RuleError(f"Unknown card code: {', '.join(unknown)}.")
    if len(action.cards) != extra:
        raise RuleError(f"You hold {len(hand)} cards: discard exactly {extra} (or play a recruitment triple).")
    held = Counter(hand)
    for code, count in Counter(action.cards).items():
        if held[code] < count:
            name = card_name(code)
            raise RuleError(f"You don't hold {name}." if count == 1 else f"You don't hold {count} × {name[2:]}.")
    cards = list(action.cards)
    return _discard(state, actor, cards, f"{seat(actor)} discards {extra} card{'s' if extra != 1 else ''}.")


def _discard(state: KkkState, s: int, cards: list[str], text: str) -> list[Event]:
    hand = state.hands[s]
    for code in cards:
        hand.remove(code)
    to_discard(state, cards)
    return [
        public("discarded", text, seat=s, count=len(cards)),
        private(s, "you_discarded", f"You discarded {describe(cards)}.", cards=cards),
    ]


def timeout_discard(state: KkkState) -> list[Event]:
    s = over_limit(state)
    assert s is not None
    hand = state.hands[s]
    extra = len(hand) - HAND_LIMIT
    picks = sorted(state.rng.sample(range(len(hand)), extra))
    cards = [hand[i] for i in picks]
    return _discard(
        state, s, cards, f"Time's up: {extra} random card{'s' if extra != 1 else ''} of {seat(s)} discarded."
    )
