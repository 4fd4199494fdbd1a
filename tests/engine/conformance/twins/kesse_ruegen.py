"""Kesse Rügen's twin hook: another closed fist for a duellist who has chosen."""

from engine.kesse_ruegen.state import KesseRuegenState
from tests.engine.conformance.twins import NO_SECRET, Hook, walk


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


HOOK: Hook = (
    kr_kind,
    kr_twin,
    lambda: walk("kesse_ruegen", range(8), 120),
    {"place", "challenge", "choose", "guess", "act"},
    {"place", "challenge", "act"},  # no fist is closed then: the game's only secret doesn't exist yet
)
