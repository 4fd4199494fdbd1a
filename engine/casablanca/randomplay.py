"""A seeded random player over `legal_actions`, for property tests, fuzzing and the benchmark.

It plays only actions from `legal_actions`, with weights that favour progress (taking the suitcase along, carrying it
toward where it ends the game, answering windows, contesting) so that most games end within a few hundred actions,
while still bribing, hitting, objecting, withdrawing and letting deadlines pass now and then (system timeouts).
Deterministic for a given seed; it uses its own `random.Random`, never the game's generator.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.casablanca.actions import Bribe, Contest, EndTurn, Hit, Move, NoObjection, Object, Withdraw
from engine.casablanca.options import CasablancaOptions
from engine.casablanca.rules import Casablanca
from engine.casablanca.state import CasablancaState
from engine.casablanca.words import agent_index
from engine.game import Outcome

START = datetime(2025, 1, 1, tzinfo=UTC)


def distances(state: CasablancaState, goal: str) -> dict[str, int]:
    """Streets from every building to `goal`."""
    dist = {goal: 0}
    todo = [goal]
    while todo:
        here = todo.pop(0)
        for nxt in state.streets[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def _goal(state: CasablancaState, seat: int, agent: int) -> str | None:
    """Where carrying the suitcase with `agent` would end the game in `seat`'s favour."""
    if state.variant:
        return next((hq for hq, s in state.hq_owner.items() if s == seat), None)
    if len(state.carried_by) >= 2 or (len(state.carried_by) == 1 and agent not in state.carried_by):
        return state.agents[agent].home
    return None


def weight(state: CasablancaState, seat: int, action: Any) -> float:
    match action:
        case Move():
            agent = agent_index(state, action.agent)
            if not action.suitcase:
                return 0.3 if state.carrier == agent else 1
            goal = _goal(state, seat, agent)
            if goal is None:
                return 6 if agent not in state.carried_by else 2
            source = state.at[agent]
            assert source is not None
            dist = distances(state, goal)
            return 25 if dist[action.to] < dist[source] else 2
        case Hit():
            return 0.4
        case Bribe():
            return 1.5
        case NoObjection():
            return 6
        case Object():
            return 1
        case Contest():
            return 4
        case Withdraw():
            return 0.5
        case EndTurn():
            return 1
    return 1


@dataclass
class LoggedAction:
    actor: int | None
    action: Any
    now: datetime


@dataclass
class Played:
    state: CasablancaState
    log: list[LoggedAction] = field(default_factory=list)
    finished: bool = False


def choose(game: Casablanca, state: CasablancaState, rnd: random.Random, timeout_rate: float) -> tuple[int | None, Any]:
    """The next (actor, action): someone the game waits on, now and then a timeout."""
    waits = game.waiting_on(state)
    if waits and (rnd.random() < timeout_rate or not waits[0].seats):
        return None, waits[0].timeout
    seats = list(waits[0].seats) if waits else list(range(state.seats))
    rnd.shuffle(seats)
    # A queued objector may also change their limit while the active player decides.
    for s in seats + [s for s in range(state.seats) if s not in seats]:
        acts = game.legal_actions(state, s)
        if acts:
            return s, rnd.choices(acts, [weight(state, s, a) for a in acts])[0]
    return None, waits[0].timeout


def play(
    game: Casablanca,
    seats: int,
    seed: int,
    *,
    options: CasablancaOptions | None = None,
    max_actions: int = 2000,
    timeout_rate: float = 0.02,
    on_step: Callable[[CasablancaState, int | None, Any, Outcome[CasablancaState], datetime], None] | None = None,
) -> Played:
    """Play one game from set-up with seed `seed`; `on_step` sees every step (state before, actor, action, outcome,
    and the `now` it was applied at)."""
    rnd = random.Random(seed)
    now = START
    state = game.setup(seats, options or CasablancaOptions(), seed, now)
    played = Played(state=state)
    for _ in range(max_actions):
        if state.phase == "over":
            break
        actor, action = choose(game, state, rnd, timeout_rate)
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
