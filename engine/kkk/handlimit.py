"""The hand limit: nobody may hold more than 12 influence cards (investors do not count).

A player who goes above 12 by drawing must at once discard down to 12 or play a recruitment triple; the game waits
for them (turn deadline; at the deadline random cards are discarded). Decisions where the rules are silent:
- The discard must be exactly the excess: "discard the excess" (nobody discards more than needed by accident).
- Which cards were discarded is told to their owner only: rules/kkk.md keeps the discard pile's content hidden.
"""

from collections import Counter

from engine.errors import rule
from engine.events import Event, private, public
from engine.kkk import actions as A
from engine.kkk.cards import ALL_CODES, HAND_LIMIT
from engine.kkk.state import KkkState
from engine.kkk.table import over_limit, to_discard


def overflow_events(state: KkkState) -> list[Event]:
    """Tell the table (and privately the player) when someone is over the limit."""
    s = over_limit(state)
    if s is None:
        return []
    extra = len(state.hands[s]) - HAND_LIMIT
    return [
        public("over_limit", seat=s, limit=HAND_LIMIT),
        private(s, "must_discard", excess=extra, held=len(state.hands[s])),
    ]


def discard(state: KkkState, actor: int, action: A.Discard) -> list[Event]:
    if over_limit(state) != actor:
        raise rule("no_discard_needed", limit=HAND_LIMIT)
    hand = state.hands[actor]
    extra = len(hand) - HAND_LIMIT
    unknown = sorted({c for c in action.cards if c not in ALL_CODES})
    if unknown:
        raise rule("unknown_cards", cards=unknown)
    if len(action.cards) != extra:
        raise rule("discard_exactly", held=len(hand), extra=extra)
    held = Counter(hand)
    for code, count in Counter(action.cards).items():
        if held[code] < count:
            if count == 1:
                raise rule("not_held", card=code)
            raise rule("not_enough_cards", card=code, count=count, held=held[code])
    cards = list(action.cards)
    return _discard(state, actor, cards, by_timer=False)


def _discard(state: KkkState, s: int, cards: list[str], by_timer: bool) -> list[Event]:
    hand = state.hands[s]
    for code in cards:
        hand.remove(code)
    to_discard(state, cards)
    return [
        public("discarded", seat=s, count=len(cards), random=by_timer),
        private(s, "you_discarded", cards=cards),
    ]


def timeout_discard(state: KkkState) -> list[Event]:
    s = over_limit(state)
    assert s is not None
    hand = state.hands[s]
    extra = len(hand) - HAND_LIMIT
    picks = sorted(state.rng.sample(range(len(hand)), extra))
    cards = [hand[i] for i in picks]
    return _discard(state, s, cards, by_timer=True)
