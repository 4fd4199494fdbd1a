"""A seeded random player over `legal_actions`, for property tests, fuzzing and the benchmark.

It plays only actions from `legal_actions`, with weights that favour progress (opening deals that can be covered,
offering and shaking on what the Boss lacks, answering handshakes, passing in reaction windows, closing) so that
games end in a few hundred actions, while still playing every kind of card and letting deadlines pass now and then
(system timeouts). `HOARDING` weights make a table that rarely opens, so hands fill up and the hand limit is met.
Deterministic for a given seed; it uses its own `random.Random`, never the game's generator.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.game import Outcome
from engine.kkk import actions as A
from engine.kkk.assignment import sources
from engine.kkk.options import KkkOptions
from engine.kkk.rules import KKK
from engine.kkk.state import KkkState

START = datetime(2025, 1, 1, tzinfo=UTC)

WEIGHTS: dict[type, float] = {
    A.PlaceMarker: 1,
    A.Open: 3,
    A.Roll: 2,
    A.Draw: 1.5,
    A.PlayClan: 0.1,
    A.Offer: 0.05,
    A.Withdraw: 0.03,
    A.Shake: 1,
    A.Unshake: 0.05,
    A.Travel: 0.3,
    A.Recruit: 0.4,
    A.Boss: 0.3,
    A.Stop: 0.5,
    A.Pass: 10,
    A.AlwaysPass: 0.05,
    A.Close: 100,
    A.CancelClose: 0.05,
    A.Fail: 0.5,
    A.Discard: 1,
}


def lacking(game: KKK, state: KkkState) -> set[str]:
    """The families of the open round's space that the Boss has no card for yet."""
    if state.round is None:
        return set()
    space = state.data.space(state.round.space)
    return {f for f in space.families if not sources(state, f)}


def coverable(game: KKK, state: KkkState, s: int) -> bool:
    """Whether the marker's space could be covered with investors owned by players and `s`'s clan cards."""
    assert state.marker is not None
    space = state.data.space(state.marker)
    hand = state.hands[s]

    def available(f: str) -> bool:
        return state.investors[f] is not None or f"clan:{f}" in hand

    return all(available(f) for f in space.required) and sum(map(available, space.group.of if space.group else ())) >= (
        space.k
    )


def weight(
    game: KKK, state: KkkState, action: Any, s: int, lacks: set[str], weights: dict[type, float] = WEIGHTS
) -> float:
    """How much the random player likes `action` by seat `s`: useful moves for the deal weigh most."""
    w = weights[type(action)]
    r = state.round
    if isinstance(action, A.Open):
        w = w if coverable(game, state, s) else w / 10
    elif isinstance(action, A.PlayClan) and action.family in lacks:
        w = 10 if r is not None and s == r.boss else 2
    elif isinstance(action, A.Offer) and action.family in lacks:
        offered = any(o.family == action.family and o.live for o in state.offers)
        w = 0.2 if offered else 4
    elif isinstance(action, A.Shake):
        offer = next(o for o in state.offers if o.id == action.offer)
        w = (20 if offer.shaken else 5) if offer.family is None or offer.family in lacks else 0.1
    elif isinstance(action, A.AlwaysPass) and not action.on:
        w = 0.02
    elif isinstance(action, A.Fail) and any(o.unbound and o.family in lacks for o in state.offers):
        w = 0.05  # a deal is in the making
    return w


@dataclass
class LoggedAction:
    actor: int | None
    action: Any
    now: datetime


@dataclass
class Played:
    state: KkkState
    log: list[LoggedAction] = field(default_factory=list)
    finished: bool = False


HOARDING = {**WEIGHTS, A.Open: 0.4, A.Discard: 1}
"""A table that rarely opens deals: hands fill up and the hand limit comes into play."""


def choose(
    game: KKK, state: KkkState, rnd: random.Random, timeout_rate: float = 0.02, weights: dict[type, float] = WEIGHTS
) -> tuple[int | None, Any]:
    """The next (actor, action): mostly someone the game waits on, sometimes anyone, now and then a timeout."""
    waits = game.waiting_on(state)
    if waits and rnd.random() < timeout_rate:
        return None, waits[0].timeout
    seats = list(range(state.seats))
    rnd.shuffle(seats)
    # Players answer a handshake offered to them; otherwise mostly whoever the game waits on acts.
    answering = [o.boss if o.seller in o.shaken else o.seller for o in state.offers if o.status == "shaken"]
    first = None
    if answering and rnd.random() < 0.5:
        first = rnd.choice(answering)
    elif waits and waits[0].seats and rnd.random() < 0.7:
        first = rnd.choice(waits[0].seats)
    if first is not None:
        seats.remove(first)
        seats.insert(0, first)
    for s in seats:
        acts = game.legal_actions(state, s)
        if acts:
            lacks = lacking(game, state)
            ws = [weight(game, state, a, s, lacks, weights) for a in acts]
            return s, rnd.choices(acts, ws)[0]
    return None, waits[0].timeout


def play(
    game: KKK,
    seats: int,
    seed: int,
    *,
    options: KkkOptions | None = None,
    max_actions: int = 5000,
    timeout_rate: float = 0.02,
    weights: dict[type, float] = WEIGHTS,
    on_step: Callable[[KkkState, int | None, Any, Outcome[KkkState], datetime], None] | None = None,
) -> Played:
    """Play one game from set-up with seed `seed`; `on_step` sees every step (state before, actor, action, outcome,
    and the `now` it was applied at)."""
    rnd = random.Random(seed)
    now = START
    state = game.setup(seats, options or KkkOptions(), seed, now)
    played = Played(state=state)
    for _ in range(max_actions):
        if state.phase == "over":
            played.finished = True
            break
        actor, action = choose(game, state, rnd, timeout_rate, weights)
        if actor is None:
            now = max(now, game.waiting_on(state)[0].until)
        else:
            now += timedelta(seconds=rnd.randint(1, 120))
        outcome = game.apply(state, actor, action, now)
        if on_step is not None:
            on_step(state, actor, action, outcome, now)
        played.log.append(LoggedAction(actor, action, now))
        state = outcome.state
    played.state = state
    played.finished = state.phase == "over"
    return played
