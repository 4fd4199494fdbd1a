"""Invariants over random play (hypothesis): tubers conserved, one tuber and one pawn per field, the legal list
is exactly what the rules accept, and secrets invisible until the reveal. (Replay from the log and snapshots are
checked for every game alike by the conformance suite, `tests/engine/conformance`.)"""

from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.kesse_ruegen import geometry, legal
from engine.kesse_ruegen.actions import (
    Challenge,
    Choose,
    Done,
    Evict,
    Guess,
    Move,
    Place,
    Plant,
    Reclaim,
    Timeout,
)
from engine.kesse_ruegen.state import KesseRuegenState
from engine.rng import Rng

from .helpers import GAME, T0, new_game
from .test_secrets import others_see, with_choice

EVERY_ACTION: list[Any] = [
    *(Place(square=sq) for sq in ("a1", "c3", "e5", "b4", "f1")),
    *(Challenge(opponent=o) for o in range(-1, 5)),
    *(Choose(tubers=n) for n in range(-1, 4)),
    *(Guess(total=t) for t in range(-1, 6)),
    Plant(),
    *(Move(direction=d) for d in geometry.STEPS),  # type: ignore[arg-type]
    Evict(),
    Reclaim(),
    Done(),
]


def check_invariants(state: KesseRuegenState) -> None:
    barn = state.barn
    for seat in range(state.seats):
        assert state.supply[seat] >= 0 and state.barn_tubers[seat] >= 0
        total = state.supply[seat] + state.fields_of(seat) + state.barn_tubers[seat]
        assert total == state.start_supply, f"seat {seat} has {total} tubers"
    assert all(geometry.parse(sq, state.size) == sq and sq != barn for sq in state.tubers)
    on_fields = [p for p in state.pawns if p is not None and p != barn]
    assert len(on_fields) == len(set(on_fields)), "two pawns on one field"
    assert all(geometry.parse(p, state.size) == p for p in state.pawns if p is not None)
    if state.phase == "act":
        assert state.actor is not None and state.actions_left >= 1
        assert legal.field_actions(state, state.actor), "the game waits on a player who cannot act"
    assert (state.phase == "over") == (GAME.waiting_on(state) == [])


def check_secret_hidden(state: KesseRuegenState) -> None:
    duel = state.duel
    if duel is None:
        return
    for owner in duel.chosen():
        seen = {str(others_see(with_choice(state, owner, n), owner)) for n in legal.choice_options(state, owner)}
        assert len(seen) == 1, "another seat can tell how many tubers are in a closed fist"


def moves(state: KesseRuegenState) -> tuple[list[tuple[int, Any]], list[Timeout]]:
    players = [(s, a) for s in range(state.seats) for a in GAME.legal_actions(state, s)]
    return players, GAME.legal_actions(state, None)


def pick_move(state: KesseRuegenState, pick: int) -> tuple[int | None, Any]:
    """A legal move: now and then a deadline passes; otherwise a kind of move first (so a lone Plant is as
    likely as eight Moves), then one of that kind."""
    players, timeouts = moves(state)
    if pick % 9 == 0 or not players:
        return None, timeouts[pick % len(timeouts)]
    kinds = sorted({type(a).__name__ for _, a in players})
    kind = kinds[pick // 9 % len(kinds)]
    of_kind = [m for m in players if type(m[1]).__name__ == kind]
    return of_kind[pick // 97 % len(of_kind)]


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10**6), min_size=100, max_size=300),
)
def test_random_play_keeps_every_invariant(seats: int, seed: int, picks: list[int]) -> None:
    state = new_game(seats, first=None, seed=seed)
    log: list[tuple[int | None, Any]] = []
    now = T0
    for i, pick in enumerate(picks):
        check_invariants(state)
        check_secret_hidden(state)
        players, timeouts = moves(state)
        if state.phase == "over":
            assert not players and not timeouts
            break
        # Anything not on the legal list is refused with a RuleError and leaves the state as it was.
        actor = pick % seats
        probe = EVERY_ACTION[pick % len(EVERY_ACTION)]
        if probe not in GAME.legal_actions(state, actor):
            before = GAME.dump_state(state)
            try:
                GAME.apply(state, actor, probe, now)
            except RuleError as refusal:
                assert refusal.message
            else:
                raise AssertionError(f"{probe} by seat {actor} was accepted but not listed as legal")
            assert GAME.dump_state(state) == before
        now += timedelta(minutes=5 + pick % 50)
        move = pick_move(state, pick)
        state = GAME.apply(state, move[0], move[1], now).state
        log.append((move[0], GAME.dump_action(move[1])))
        assert i < len(picks)
    check_invariants(state)


def test_random_games_end_in_a_win_or_when_the_supplies_run_out() -> None:
    """Random fists and guesses, eager planting and evicting: each game reaches its end and stops there — a win at
    the threshold, or (no tuber left in any supply) the most fields."""
    for seats in (2, 3, 4):
        for seed in range(3):
            state = new_game(seats, first=None, seed=seed)
            chance = Rng.from_seed(seed)
            for _ in range(5000):
                if state.phase == "over":
                    break
                players, _ = moves(state)
                preferred = [m for m in players if isinstance(m[1], Plant | Evict)]
                actor, action = preferred[0] if preferred else chance.choice(players)
                state = GAME.apply(state, actor, action, T0).state
            check_invariants(state)
            result = GAME.result(state)
            assert result is not None, f"{seats} players, seed {seed}: no end after 5000 moves"
            assert GAME.waiting_on(state) == [] and all(GAME.legal_actions(state, s) == [] for s in range(seats))
            if state.stalled:
                most = max(state.fields_of(s) for s in range(seats))
                assert state.supply == [0] * seats
                assert result.winners == tuple(s for s in range(seats) if state.fields_of(s) == most)
            else:
                assert result.winners == (state.winner,) and state.fields_of(state.winner) == state.win_fields
