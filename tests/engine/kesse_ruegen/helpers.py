"""Shared helpers for the Kesse Rügen tests: a game, a clock, and short ways to play moves."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.errors import RuleError
from engine.events import Event
from engine.kesse_ruegen.actions import Challenge, Choose, Guess, Place
from engine.kesse_ruegen.rules import KesseRuegen
from engine.kesse_ruegen.state import KesseRuegenState

GAME = KesseRuegen()
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


@contextmanager
def refused_with(code: str, **values: Any) -> Iterator[None]:
    """The block raises the refusal `code`, with at least these `values` (the engine speaks no language)."""
    with pytest.raises(RuleError) as refusal:
        yield
    assert refusal.value.code == code, refusal.value.message
    assert values.items() <= refusal.value.values.items(), refusal.value.values


def new_game(seats: int = 2, first: int | None = 0, seed: int = 1, **options: Any) -> KesseRuegenState:
    return GAME.setup(seats, GAME.parse_options({"first_seat": first, **options}), seed, T0)


def play(state: KesseRuegenState, *moves: tuple[int | None, Any], now: datetime = T0) -> KesseRuegenState:
    """Apply (actor, action) pairs in order; any refusal fails the test."""
    for actor, action in moves:
        state = GAME.apply(state, actor, action, now).state
    return state


def events_of(state: KesseRuegenState, actor: int | None, action: Any, now: datetime = T0) -> list[Event]:
    return GAME.apply(state, actor, action, now).events


def placed(seats: int = 2, squares: tuple[str, ...] = ("a1", "e5", "a5", "e1"), **kw: Any) -> KesseRuegenState:
    """A game with every pawn placed (seat 0 first) and seat 0 to challenge (with two players: the duel of seat 0
    and seat 1 already on, the challenge being automatic)."""
    state = new_game(seats, **kw)
    return play(state, *((s, Place(square=squares[s])) for s in range(seats)))


def duel(
    state: KesseRuegenState, challenger: int, challenged: int, choices: tuple[int, int], guesses: tuple[int, int]
) -> KesseRuegenState:
    """A whole duel: challenge (unless it is automatic, with two players), both choices, both guesses (and so the
    reveal)."""
    on = state.duel is not None and (state.duel.challenger, state.duel.challenged) == (challenger, challenged)
    if not on:
        state = play(state, (challenger, Challenge(opponent=challenged)))
    return play(
        state,
        (challenger, Choose(tubers=choices[0])),
        (challenged, Choose(tubers=choices[1])),
        (challenger, Guess(total=guesses[0])),
        (challenged, Guess(total=guesses[1])),
    )


def win_actions(state: KesseRuegenState, winner: int, total: int) -> KesseRuegenState:
    """A duel in which `winner` (the player to move, or the one they challenge) guesses `total` right."""
    challenger = state.turn
    challenged = winner if winner != challenger else state.next_seat(challenger)
    a, b = min(total, 2), total - min(total, 2)
    other = 0 if total != 0 else 1
    guesses = (total, other) if winner == challenger else (other, total)
    return duel(state, challenger, challenged, (a, b), guesses)


def arrange(
    state: KesseRuegenState,
    pawns: dict[int, str] | None = None,
    tubers: dict[str, int] | None = None,
    barn: dict[int, int] | None = None,
) -> KesseRuegenState:
    """A copy with pawns moved and tubers laid out by hand; supplies shrink so every tuber is still counted."""
    state = state.model_copy(deep=True)
    for seat, square in (pawns or {}).items():
        state.pawns[seat] = square
    for square, seat in (tubers or {}).items():
        state.tubers[square] = seat
        state.supply[seat] -= 1
    for seat, count in (barn or {}).items():
        state.barn_tubers[seat] += count
        state.supply[seat] -= count
    return state


def later(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)
