"""The hard Kesse Rügen computer player's key decisions (`engine.kesse_ruegen.policy` at level hard, with
`engine.kesse_ruegen.reading`).

- It reads its opponent from the last revealed duel only: a sensible guess earns the model more trust than the prior,
  a bluff (a total the guesser's own fist ruled out) none, a choice the equilibrium makes as readily little.
- Against an opponent whose last duel was sensible it plays the response to the model: as the challenged player it
  names the total the challenger's guess gives away (their 4 is a fist of 2: with its own empty fist, 2), and it
  never closes its fist on 2 (that would make the challenger's likely 4 right); as the challenger on the opening board
  it closes its fist mostly on 1, where the equilibrium always closes it on 0. After a bluff it plays the plain
  equilibrium.
- Deterministic: the same view and seed give the same decision.
"""

import random
from typing import Any

from engine.kesse_ruegen import reading
from engine.kesse_ruegen.actions import Choose, Guess
from engine.kesse_ruegen.policy import KesseRuegenPolicy
from engine.kesse_ruegen.state import DuelResult, KesseRuegenState

from .helpers import GAME, placed, play

HARD = KesseRuegenPolicy(GAME, level="hard")
SEEDS = range(30)


def decide(state: KesseRuegenState, seat: int, seed: int) -> Any:
    return HARD.decide(GAME.view(state, seat), GAME.legal_actions(state, seat), seat, random.Random(seed))


def last(challenger: int, fists: tuple[int, int], guesses: tuple[int, int]) -> DuelResult:
    total = sum(fists)
    winner = challenger if guesses[0] == total else (1 - challenger if guesses[1] == total else None)
    return DuelResult(
        challenger=challenger,
        challenged=1 - challenger,
        challenger_choice=fists[0],
        challenged_choice=fists[1],
        challenger_guess=guesses[0],
        challenged_guess=guesses[1],
        total=total,
        winner=winner,
    )


SENSIBLE_FIRST = last(0, (2, 1), (4, 3))
"""Seat 0 challenged with 2 and named 4, as the model does."""
BLUFF_FIRST = last(0, (0, 1), (4, 1))
"""Seat 0 challenged with an empty fist and named 4: a total its own fist ruled out."""


def sensible_second() -> DuelResult:
    """Seat 1 replied to 1 with its fist 2 as the model does (3), and not as the equilibrium would."""
    reply = max((h for h in range(5) if h != 1), key=lambda h: reading.second_guess(2, 1, 16)[h])
    return last(0, (0, 2), (1, reply))


def test_the_trust_follows_the_last_duel() -> None:
    assert reading.trust(None, 0, 16) == reading.PRIOR
    assert reading.trust(SENSIBLE_FIRST, 0, 16) > reading.PRIOR
    assert reading.trust(sensible_second(), 1, 16) > reading.PRIOR
    assert reading.trust(BLUFF_FIRST, 0, 16) == 0.0
    assert reading.trust(last(0, (0, 1), (2, 4)), 1, 16) == 0.0  # seat 1 named 4 with a fist of 1
    # An empty fist and a 2 is what the equilibrium does too (and the hard player mostly): little trust, so that two
    # hard players don't lead each other's replies to totals of 0 for ever.
    assert reading.trust(last(0, (0, 1), (2, 3)), 0, 16) < 0.3


def test_challenged_after_a_sensible_duel_it_names_what_the_guess_gives_away() -> None:
    for seed in SEEDS:
        state = placed(2, seed=seed)
        state.last_duel = SENSIBLE_FIRST
        state = play(state, (0, Choose(tubers=2)), (1, Choose(tubers=0)), (0, Guess(total=4)))
        assert decide(state, 1, seed) == Guess(total=2)


def test_the_fists_follow_the_reading() -> None:
    def fists(last_duel: DuelResult, seat: int) -> list[int]:
        found = []
        for seed in SEEDS:
            state = placed(2, seed=seed)
            state.last_duel = last_duel
            found.append(decide(state, seat, seed).tubers)
        return found

    # Challenged (seat 1) by a sensible guesser: never 2, which would make the challenger's likely 4 right.
    assert 2 not in fists(SENSIBLE_FIRST, 1)
    # After a bluff: the equilibrium's mixed fists.
    assert set(fists(BLUFF_FIRST, 1)) == {0, 1, 2}
    # Challenger (seat 0) on this opening board: the equilibrium closes an empty fist; against a sensible replier,
    # whose reply a first guess leads, mostly 1.
    assert set(fists(last(0, (0, 1), (2, 4)), 0)) == {0}
    assert fists(sensible_second(), 0).count(1) >= 0.7 * len(SEEDS)


def test_the_same_view_and_seed_give_the_same_decision() -> None:
    state = placed(2, seed=3)
    state.last_duel = SENSIBLE_FIRST
    assert [decide(state, s, 7) for s in (0, 1)] == [decide(state, s, 7) for s in (0, 1)]
