"""Kohle, Kies & Knete's twin hook: the hands and the draw pile re-dealt from the same cards."""

import random

from engine.kkk.state import KkkState
from tests.engine.conformance.twins import NO_SECRET, Hook, walk


def kkk_kind(state: KkkState) -> str:
    from engine.kkk.waits import current

    cur = current(state)
    assert cur is not None
    return cur.key.split(":")[0]


def kkk_twin(state: KkkState) -> KkkState | str:
    """Re-deal the hands (each keeps its size) and the draw pile from the same cards, except the hand of a seat
    that must discard (its discards are shown)."""
    from engine.kkk.table import over_limit

    keep = over_limit(state)
    seats = [s for s in range(len(state.hands)) if s != keep]
    pool = [c for s in seats for c in state.hands[s]] + list(state.draw)
    twin = state.model_copy(deep=True)
    random.Random(len(pool)).shuffle(pool)
    for s in seats:
        size = len(state.hands[s])
        twin.hands[s], pool = sorted(pool[:size]), pool[size:]
    twin.draw = pool
    if twin.hands == state.hands and twin.draw == state.draw:
        return NO_SECRET
    return twin


HOOK: Hook = (
    kkk_kind,
    kkk_twin,
    lambda: walk("kkk", range(4), 150),
    {"marker", "turn", "rolled", "boss", "window", "discard"},
    set(),
)
