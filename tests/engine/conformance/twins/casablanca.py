"""Casablanca's twin hook: bribes moved between agents the announcement doesn't involve."""

from engine.casablanca.state import CasablancaState
from tests.engine.conformance.twins import NO_SECRET, Hook, walk


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


HOOK: Hook = (
    cb_kind,
    cb_twin,
    lambda: iter([*walk("casablanca", range(6), 80), *walk("casablanca", range(2), 40, 3, variant="hq")]),
    {"hq", "first_turn", "turn", "objections", "contest"},
    set(),
)
