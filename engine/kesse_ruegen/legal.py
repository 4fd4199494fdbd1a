"""What each seat may do now, and why an action is refused.

The `why_not_*` checks are shared by the rules (which raise them) and by `legal_actions`, so the buttons a player
is shown and the actions the rules accept can never disagree. Each returns a `rule(code, **values)` (the
presentation words it, naming the fix) or None.
"""

from typing import Any

from engine.errors import RuleError, rule
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


def why_not_plant(state: KesseRuegenState, seat: int) -> RuleError | None:
    at = state.pawns[seat]
    if at == state.barn:
        return rule("plant_in_barn", barn=state.barn)
    assert at is not None
    owner = state.tubers.get(at)
    if owner == seat:
        return rule("plant_own_tuber_there", seat=seat, square=at)
    if owner is not None:
        return rule("plant_field_taken", square=at, owner=owner)
    if state.supply[seat] == 0:
        return rule("plant_no_supply", seat=seat)
    return None


def why_not_move(state: KesseRuegenState, seat: int, direction: Direction) -> RuleError | None:
    at = state.pawns[seat]
    assert at is not None
    target = geometry.neighbour(at, direction, state.size)
    if target is None:
        return rule("move_off_board", direction=direction, square=at)
    if target != state.barn:
        other = state.pawn_at(target)
        if other is not None:
            return rule("move_onto_pawn", seat=other, square=target)
    return None


def why_not_evict(state: KesseRuegenState, seat: int) -> RuleError | None:
    at = state.pawns[seat]
    if at == state.barn:
        return rule("evict_in_barn")
    assert at is not None
    owner = state.tubers.get(at)
    if owner is None:
        return rule("evict_nothing", square=at)
    if owner == seat:
        return rule("evict_own", seat=seat, square=at)
    return None


def why_not_reclaim(state: KesseRuegenState, seat: int) -> RuleError | None:
    if state.pawns[seat] != state.barn:
        return rule("reclaim_not_in_barn", barn=state.barn)
    if state.barn_tubers[seat] == 0:
        return rule("reclaim_none_in_barn", seat=seat)
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
