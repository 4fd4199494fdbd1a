"""Invariants over random legal play of both games (hypothesis): the money of every player adds up, no claim
exceeds a real bribe, and the suitcase is in exactly one place. (Snapshots, replay from the log and the legal list's
acceptance are checked for every game alike by the conformance suite, `tests/engine/conformance`.)"""

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.casablanca.options import CasablancaOptions
from engine.casablanca.randomplay import play
from engine.casablanca.state import START_CAPITAL, CasablancaState
from engine.game import Outcome

from .helpers import GAME

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_state(state: CasablancaState) -> None:
    for s in range(state.seats):
        assert state.capital[s] >= 0 and min(state.bribes[s]) >= 0
        assert state.capital[s] + sum(state.bribes[s]) + state.lost[s] == START_CAPITAL, f"seat {s}'s money"
    # The suitcase lies in a building, or an agent still in the game carries it: never both, never neither.
    assert (state.suitcase is None) != (state.carrier is None)
    if state.carrier is not None:
        assert state.at[state.carrier] is not None
    else:
        assert state.suitcase in state.streets
    assert len(set(state.carried_by)) == len(state.carried_by)
    assert (state.phase == "over") == (GAME.waiting_on(state) == [])


def check_step(before: CasablancaState, actor: int | None, action: Any, outcome: Outcome[CasablancaState]) -> None:
    after = outcome.state
    check_state(after)
    for event in outcome.events:
        if event.kind == "auction":
            agent = int(event.data["agent"])  # type: ignore[arg-type]
            top = int(event.data["top"])  # type: ignore[arg-type]
            objector, active = int(event.data["objector"]), int(event.data["active"])  # type: ignore[arg-type]
            auction = after.auctions[-1]
            for seat, _word, amount in auction.claims(active):
                assert amount <= before.bribes[seat][agent], "a claim above a real bribe"
            assert top <= max(before.bribes[objector][agent], before.bribes[active][agent])


def run(seats: int, seed: int, variant: str) -> None:
    options = CasablancaOptions(variant=variant)  # type: ignore[arg-type]
    played = play(
        GAME, seats, seed, options=options, max_actions=500, on_step=lambda b, a, x, o, n: check_step(b, a, x, o)
    )
    state = played.state
    if state.phase == "over":
        result = GAME.result(state)
        assert result is not None and result.winners


@SETTINGS
@given(seats=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_random_main_games_keep_every_invariant(seats: int, seed: int) -> None:
    run(seats, seed, "main")


@SETTINGS
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_variant_games_keep_every_invariant(seats: int, seed: int) -> None:
    run(seats, seed, "hq")


def test_most_random_games_end_by_the_rules() -> None:
    ended = sum(play(GAME, 4, seed).finished for seed in range(6))
    ended += sum(play(GAME, 3, seed, options=CasablancaOptions(variant="hq")).finished for seed in range(6))
    assert ended >= 10
