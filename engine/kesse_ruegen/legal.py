"""What each seat may do now, and why an action is refused.

The `why_not_*` checks are shared by the rules (which raise them as `RuleError`) and by `legal_actions`, so
the buttons a player is shown and the actions the rules accept can never disagree.
"""

from typing import Any

from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.actions import (
    Challenge,
    Choose,
    Evict,
    FieldAction,
    Guess,
    Move,
    Place,
    Plant,
    Reclaim,
    Timeout,
)
from engine.kesse_ruegen.geometry import Direction
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kesse_ruegen.waits import pending
from engine.text import seat as ref

MAX_CHOICE = 2
MAX_TOTAL = 4


def free_fields(state: KesseRuegenState) -> list[str]:
    """Fields (not the barn) without a pawn, from a1."""
    taken = {p for p in state.pawns if p is not None}
    return [sq for sq in geometry.squares(state.size) if sq != state.barn and sq not in taken]


def choice_options(state: KesseRuegenState, seat: int) -> list[int]:
    """The tubers `seat` may hold in a fist: 0, 1, 2, never more than their supply."""
    return list(range(min(MAX_CHOICE, state.supply[seat]) + 1))


def guess_options(state: KesseRuegenState) -> list[int]:
    """Totals the current guesser may name: 0–4, minus the challenger's guess for the challenged."""
    assert state.duel is not None
    taken = state.duel.challenger_guess
    return [t for t in range(MAX_TOTAL + 1) if t != taken]


def why_not_plant(state: KesseRuegenState, seat: int) -> str | None:
    at = state.pawns[seat]
    if at == state.barn:
        return "You can't plant in the barn — move your pawn onto a field first."
    assert at is not None
    owner = state.tubers.get(at)
    if owner == seat:
        return f"There's already your {state.kind(seat)} on {at} — a field holds only one tuber."
    if owner is not None:
        return f"{at} already holds {ref(owner)}'s {state.kind(owner)} — evict it first."
    if state.supply[seat] == 0:
        return f"You have no {state.kind(seat, 2)} left in your supply — reclaim one from the barn first."
    return None


def why_not_move(state: KesseRuegenState, seat: int, direction: Direction) -> str | None:
    at = state.pawns[seat]
    assert at is not None
    target = geometry.neighbour(at, direction, state.size)
    if target is None:
        return f"You can't move {geometry.ARROWS[direction]} from {at} — that's off the board."
    if target != state.barn:
        other = state.pawn_at(target)
        if other is not None:
            return f"{ref(other)}'s pawn stands on {target} — you can't move onto another pawn's field."
    return None


def why_not_evict(state: KesseRuegenState, seat: int) -> str | None:
    at = state.pawns[seat]
    if at == state.barn:
        return "You're in the barn — you can only evict a tuber from the field your pawn stands on."
    assert at is not None
    owner = state.tubers.get(at)
    if owner is None:
        return f"There's no tuber on {at} to evict."
    if owner == seat:
        return f"That's your own {state.kind(seat)} on {at} — you can only evict other players' tubers."
    return None


def why_not_reclaim(state: KesseRuegenState, seat: int) -> str | None:
    if state.pawns[seat] != state.barn:
        return f"You can only reclaim from the barn — move your pawn into the barn ({state.barn}) first."
    if state.barn_tubers[seat] == 0:
        return f"None of your {state.kind(seat, 2)} lies in the barn."
    return None


def field_actions(state: KesseRuegenState, seat: int) -> list[FieldAction]:
    """The actions `seat`'s pawn could take now (whether or not it is their turn to act)."""
    found: list[FieldAction] = []
    if why_not_plant(state, seat) is None:
        found.append(Plant())
    found.extend(Move(direction=d) for d in geometry.STEPS if why_not_move(state, seat, d) is None)
    if why_not_evict(state, seat) is None:
        found.append(Evict())
    if why_not_reclaim(state, seat) is None:
        found.append(Reclaim())
    return found


def legal_actions(state: KesseRuegenState, seat: int | None) -> list[Any]:
    """Every action `seat` may take now; None lists the deadlines the system may apply (all of them, at once)."""
    if state.phase == "over":
        return []
    if seat is None:
        return [Timeout(key=p.key) for p in pending(state)]
    duel = state.duel
    match state.phase:
        case "place" if seat == state.turn:
            return [Place(square=sq) for sq in free_fields(state)]
        case "challenge" if seat == state.turn:
            return [Challenge(opponent=o) for o in range(state.seats) if o != seat and state.playing(o)]
        case "choose" if duel is not None and seat in duel.seats() and duel.choice(seat) is None:
            return [Choose(tubers=n) for n in choice_options(state, seat)]
        case "guess" if duel is not None and seat == duel.guesser():
            return [Guess(total=t) for t in guess_options(state)]
        case "act" if seat == state.actor:
            return list(field_actions(state, seat))
    return []
