"""What each seat may do now, amounts sampled: for buttons, autocomplete, random play and fuzzing.

The checks are the rules' own (`bribes.why_not`, `moves.why_not_move`, `moves.why_not_hit`, `objections.askable`), so
what is offered and what is accepted can't disagree. Free amounts (bribes, limits) are sampled: a few round sums.
"""

from typing import Any

from engine.casablanca import bribes, turns
from engine.casablanca.actions import (
    Bribe,
    ChooseHq,
    Contest,
    DropObjection,
    EndTurn,
    Hit,
    Move,
    NoObjection,
    Object,
    Timeout,
    Withdraw,
)
from engine.casablanca.moves import suitcase_in, why_not_hit, why_not_move
from engine.casablanca.state import STEP, CasablancaState
from engine.casablanca.waits import current

SAMPLE_BRIBES = (100, 500, 1_000, 2_000)


def limits(bribe: int) -> list[int]:
    """Sampled limits up to a bribe: nothing, a little, half, all."""
    return sorted({0, min(bribe, STEP), bribe // 2 // STEP * STEP, bribe})


def moves(state: CasablancaState, seat: int) -> list[Move]:
    found = []
    for agent in state.in_game():
        source = state.at[agent]
        assert source is not None
        colour = state.agents[agent].colour
        for to in state.streets[source]:
            for case in (False, True) if suitcase_in(state, source) else (False,):
                if why_not_move(state, seat, agent, to, case) is None:
                    found.append(Move(agent=colour, to=to, suitcase=case))
    return found


def hits(state: CasablancaState, seat: int) -> list[Hit]:
    found = []
    alive = state.in_game()
    for agent in alive:
        for victim in alive:
            if agent != victim and why_not_hit(state, seat, agent, victim) is None:
                found.append(Hit(agent=state.agents[agent].colour, victim=state.agents[victim].colour))
    return found


def bribe_samples(state: CasablancaState, seat: int) -> list[Bribe]:
    alive = state.in_game()
    options: list[dict[int, int]] = []
    if bribes.first_turn(state, seat):
        for i in range(len(alive)):
            trio = [alive[(i + k) % len(alive)] for k in range(min(bribes.FIRST_TURN_AGENTS, len(alive)))]
            for amount in SAMPLE_BRIBES:
                options.append(dict.fromkeys(trio, amount))
    else:
        for agent in alive:
            for amount in SAMPLE_BRIBES:
                options.append({agent: amount})
    out = []
    for chosen in options:
        if bribes.why_not(state, seat, chosen) is None:
            out.append(Bribe(amounts={state.agents[a].colour: v for a, v in chosen.items()}))
    return out


def legal_actions(state: CasablancaState, seat: int | None) -> list[Any]:
    """Every action `seat` may take now; None lists the system's deadline action."""
    if state.phase == "over":
        return []
    if seat is None:
        cur = current(state)
        return [Timeout(key=cur.key)] if cur is not None else []
    if not state.playing(seat):
        return []
    ann = state.announcement
    match state.phase:
        case "hq" if seat == state.turn:
            return [ChooseHq(hq=hq) for hq in turns.free_hqs(state)]
        case "turn" if seat == state.turn:
            found: list[Any] = list(bribe_samples(state, seat))
            if not bribes.first_turn(state, seat):
                found += moves(state, seat) + hits(state, seat)
            if state.objected:
                found.append(EndTurn())
            return found
        case "objections" if ann is not None and seat in state.awaited:
            return [NoObjection()] + [Object(limit=v) for v in limits(state.bribes[seat][ann.agent])]
        case "contest" if ann is not None:
            if seat == ann.seat:
                return [Withdraw()] + [Contest(limit=v) for v in limits(state.bribes[seat][ann.agent])]
            if state.objections and state.objections[0].seat == seat:
                return [DropObjection()]
            if any(o.seat == seat for o in state.objections[1:]):
                return [DropObjection()] + [Object(limit=v) for v in limits(state.bribes[seat][ann.agent])]
    return []
