"""Schwarzmarkt's twin hook: the goods hands re-dealt, except what a deadline's default reveals by the rules."""

import random
from collections.abc import Iterator

from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState
from tests.engine.conformance.twins import T0, Hook, walk


def sm_kind(state: SchwarzmarktState) -> str:
    if state.phase == "event":
        assert state.pending is not None
        return f"event:{state.pending.kind}:{state.pending.step}"
    return state.phase


def sm_twin(state: SchwarzmarktState) -> SchwarzmarktState | str:
    """Re-deal the goods hands (each keeps its size) from the hands and the pile, except what the default reveals by
    the rules: the chooser's hand for Quick Deal (the card traded is public), the target's for Espionage (2 cards
    are shown) and Raid's kind (the count lost is public)."""
    keep: set[int] = set()
    p = state.pending
    if p is not None:
        if p.kind == "quick_deal":
            keep.add(p.chooser)
        if p.kind == "espionage" or (p.kind == "raid" and p.step == "pick"):
            keep.update(s for s in range(state.seats) if s != p.chooser)  # the target is drawn among them
    seats = [s for s in range(state.seats) if s not in keep and state.hand_count(s)]
    twin = state.model_copy(deep=True)
    pool = [k for s in seats for k, n in enumerate(twin.goods[s]) for _ in range(n)]
    pool += [k for k, n in enumerate(twin.goods_pile) for _ in range(n)]
    random.Random(len(pool)).shuffle(pool)
    twin.goods_pile = [0] * len(GOODS)
    for s in seats:
        size = twin.hand_count(s)
        twin.goods[s] = [0] * len(GOODS)
        for k in pool[:size]:
            twin.goods[s][k] += 1
        pool = pool[size:]
    for k in pool:
        twin.goods_pile[k] += 1
    if twin.goods == state.goods:
        return "every hand is kept (the default reveals it) and the pile is all the same kind"
    return twin


def sm_directed() -> Iterator[SchwarzmarktState]:
    """Each event at each of its choices (random play reaches some seldom), on a table with mixed hands."""
    from engine.schwarzmarkt.actions import Target
    from tests.engine.schwarzmarkt.helpers import GAME, play, play_event

    for event in ("espionage", "forced_swap", "raid", "old_debt", "quick_deal", "new_goods"):
        for seed in range(3):
            state = GAME.setup(4, GAME.parse_options({"dealer": 3}), seed, T0)
            state.luxury = [10, 0, 0, 0]  # New Goods Found costs 5
            state = play_event(state, event)
            yield state
            if state.phase == "event" and state.pending is not None and state.pending.step == "target":
                yield play(state, (0, Target(seat=1)))


HOOK: Hook = (
    sm_kind,
    sm_twin,
    lambda: iter([*walk("schwarzmarkt", range(6), 120), *sm_directed()]),
    {
        "play",
        "trade",
        "event:espionage:target",
        "event:forced_swap:target",
        "event:forced_swap:give",
        "event:raid:target",
        "event:raid:pick",
        "event:old_debt:target",
        "event:quick_deal:pick",
        "event:new_goods:pick",
    },
    set(),
)
