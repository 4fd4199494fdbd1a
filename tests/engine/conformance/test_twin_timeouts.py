"""Twin states at every kind of deadline, for every registered game (issue 23: "a default must never tell the table
anything about a hidden hand").

For each game a small hook makes a twin of a state at a deadline: the same game, differing only in hidden
information (hands, bribes, a closed fist) that the wait's default must not reveal. The same timeout is applied to
both, and the table must see exactly the same: public events, public view, what the game waits for next. A kind
of deadline at which the game holds no hidden information at all says so (`NO_SECRET`), and the harness checks that
it is true rather than skipping it silently. Information that a rule itself reveals (a played card, a raided kind's
count, the claims of an auction) is kept the same in the twin: only what stays hidden is varied.

The states come from seeded random legal play (`walk`), plus directed states where random play reaches a kind
seldom (Schwarzmarkt's events). Every game lists the kinds it must cover (`KINDS`), so a game whose waits change
without this test changing fails here.
"""

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from engine import registry
from engine.casablanca.state import CasablancaState
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kkk.state import KkkState
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
NO_SECRET = "no hidden information at this deadline"

# --- the walk: states at deadlines from seeded random play ---------------------------------------------------------


def walk(name: str, seeds: range, steps: int, seats: int | None = None, **options: Any) -> Iterator[Any]:
    """Every state at which the game waits, along seeded random games (moves by the waited-on seats, now and then
    a deadline)."""
    game = registry.get(name)
    for seed in seeds:
        pick = random.Random(seed)
        n = seats or pick.randint(game.min_seats, game.max_seats)
        state = game.setup(n, game.parse_options(options), seed, T0)
        for _ in range(steps):
            waits = game.waiting_on(state)
            if not waits or game.result(state) is not None:
                break
            yield state
            wait = waits[0]
            moves = [(s, a) for s in wait.seats for a in game.legal_actions(state, s)]
            if not moves or pick.random() < 0.25:
                state = game.apply(state, None, wait.timeout, wait.until).state
            else:
                seat, action = pick.choice(moves)
                state = game.apply(state, seat, action, wait.since).state


# --- Schwarzmarkt ---------------------------------------------------------------------------------------------------


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


# --- Casablanca -----------------------------------------------------------------------------------------------------


def cb_kind(state: CasablancaState) -> str:
    if state.phase == "turn" and not state.variant and not state.started[state.turn]:
        return "first_turn"
    return state.phase


def cb_twin(state: CasablancaState) -> CasablancaState | str:
    """Move $100 of each seat's capital onto an agent the announcement doesn't involve: the auction's claims (about
    the acting agent) and a hit's announcement (the bribes on the victim) are the rules' reveals and stay the same."""
    ann = state.announcement
    involved = {ann.agent, ann.victim} if ann is not None else set()
    spare = [a for a in state.in_game() if a not in involved]
    twin = state.model_copy(deep=True)
    for s in range(state.seats):
        if spare and twin.capital[s] >= 100:
            twin.capital[s] -= 100
            twin.bribes[s][spare[s % len(spare)]] += 100
    if twin.bribes == state.bribes:
        return NO_SECRET
    return twin


# --- Kohle, Kies & Knete --------------------------------------------------------------------------------------------


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


# --- Kesse Rügen ----------------------------------------------------------------------------------------------------


def kr_kind(state: KesseRuegenState) -> str:
    return state.phase


def kr_twin(state: KesseRuegenState) -> KesseRuegenState | str:
    """Another closed fist for a duellist who has chosen (the fists are the game's only secret)."""
    duel = state.duel
    if duel is None or not duel.chosen():
        return NO_SECRET
    if state.phase == "guess" and duel.challenger_guess is not None:
        return "the second guess reveals both fists by the rules"
    twin = state.model_copy(deep=True)
    assert twin.duel is not None
    for s in duel.chosen():
        mine = duel.choice(s)
        assert mine is not None
        other = next((n for n in range(3) if n != mine and n <= state.supply[s]), None)
        if other is not None:
            twin.duel.set_choice(s, other)
    if twin.duel == duel:
        return "no other fist was possible (an empty supply)"
    return twin


# --- the harness ----------------------------------------------------------------------------------------------------

Hook = tuple[Callable[[Any], str], Callable[[Any], Any], Callable[[], Iterator[Any]], set[str], set[str]]
"""Per game: the kind of a state's deadline, its twin (or why there is none), the states to try, the kinds of
deadline the game has, and those of them at which it never holds hidden information (said, and checked)."""
HOOKS: dict[str, Hook] = {
    "schwarzmarkt": (
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
    ),
    "casablanca": (
        cb_kind,
        cb_twin,
        lambda: iter([*walk("casablanca", range(6), 80), *walk("casablanca", range(2), 40, 3, variant="hq")]),
        {"hq", "first_turn", "turn", "objections", "contest"},
        set(),
    ),
    "kkk": (
        kkk_kind,
        kkk_twin,
        lambda: walk("kkk", range(4), 150),
        {"marker", "turn", "rolled", "boss", "window", "discard"},
        set(),
    ),
    "kesse_ruegen": (
        kr_kind,
        kr_twin,
        lambda: walk("kesse_ruegen", range(8), 120),
        {"place", "challenge", "choose", "guess", "act"},
        {"place", "challenge", "act"},  # no fist is closed then: the game's only secret doesn't exist yet
    ),
}


def test_every_registered_game_has_a_twin_hook() -> None:
    assert set(HOOKS) == set(registry.games())


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_a_deadline_default_looks_the_same_whatever_the_hidden_information(name: str) -> None:
    game = registry.get(name)
    kind_of, make_twin, states, kinds, secret_free = HOOKS[name]
    compared: dict[str, int] = {}
    no_secret: dict[str, str] = {}
    for state in states():
        kind = kind_of(state)
        twin = make_twin(state)
        if isinstance(twin, str):
            no_secret.setdefault(kind, twin)
            continue
        assert game.view(twin, None) == game.view(state, None), f"{kind}: the twin differs in public"
        (wait,) = game.waiting_on(state)[:1]
        assert game.waiting_on(twin) == game.waiting_on(state)
        a = game.apply(state, None, wait.timeout, wait.until)
        b = game.apply(twin, None, wait.timeout, wait.until)
        if game.result(a.state) is not None or game.result(b.state) is not None:
            continue  # the end of the game shows every secret by the rules
        assert [e for e in a.events if e.public] == [e for e in b.events if e.public], f"{kind}: public events"
        assert game.view(a.state, None) == game.view(b.state, None), f"{kind}: public view after the default"
        assert game.waiting_on(a.state) == game.waiting_on(b.state), f"{kind}: the next wait"
        compared[kind] = compared.get(kind, 0) + 1
    assert set(compared) | set(no_secret) <= kinds, "a kind of deadline this test doesn't know"
    assert kinds - secret_free <= set(compared), f"never compared: {kinds - secret_free - set(compared)}"
    assert secret_free <= set(no_secret) and not secret_free & set(compared), "a secret where none was declared"
