"""The Casablanca computer player and autopilot: they read only their own view, only ever choose a legal move the
rules accept, keep the game moving, and the autopilot's secret choices aren't a fixed value."""

import random
from datetime import timedelta
from typing import Any

import pytest

from engine.casablanca import randomplay
from engine.casablanca.actions import Bribe, EndTurn, Hit, Move, NoObjection, Object, Withdraw
from engine.casablanca.policy import CasablancaPolicy
from engine.casablanca.state import STEP, CasablancaState
from engine.policy import policy_for

from .helpers import GAME, T0, new_game

POLICY = policy_for(GAME)
VARIANTS = ["main", "hq"]


def test_registered() -> None:
    assert isinstance(POLICY, CasablancaPolicy)


def play(
    seed: int, variant: str, bots: set[int], autopilot: bool, steps: int, seats: int = 4
) -> list[tuple[CasablancaState, int]]:
    """A game where `bots` are played by the policy (checked at every decision) and the other seats by the random
    player; returns (state, seat) for every decision the policy took, to replay it elsewhere."""
    rnd = random.Random(seed)
    state = new_game(seats, variant=variant, first=None, seed=seed)
    now = T0
    asked: list[tuple[CasablancaState, int]] = []
    for _ in range(steps):
        if state.phase == "over":
            break
        waits = GAME.waiting_on(state)
        seats_asked = list(waits[0].seats)
        rnd.shuffle(seats_asked)
        actor: int | None = None
        action: Any = None
        for seat in seats_asked:
            legal = GAME.legal_actions(state, seat)
            if seat in bots:
                choice = POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(seed), autopilot=autopilot)
                asked.append((state, seat))
                if choice is not None:
                    assert choice in legal, f"{choice} is not among the legal moves"
                elif state.phase in ("turn", "hq", "contest") and state.turn == seat:
                    pytest.fail(f"the policy let its own turn pass ({state.phase})")
            elif legal and rnd.random() > 0.02:
                choice = rnd.choices(legal, [randomplay.weight(state, seat, a) for a in legal])[0]
            else:
                choice = None
            if choice is not None:
                actor, action = seat, choice
                break
        if actor is None:
            now = max(now, waits[0].until)
            action = waits[0].timeout
        else:
            now += timedelta(seconds=rnd.randint(1, 120))
        state = GAME.apply(state, actor, action, now).state  # a RuleError here fails the test
    return asked


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("autopilot", [False, True])
def test_one_policy_seat_never_breaks_a_rule(variant: str, autopilot: bool) -> None:
    for seed in range(6):
        play(seed, variant, {seed % 4}, autopilot, steps=700)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("autopilot", [False, True])
def test_all_policy_seats_never_break_a_rule(variant: str, autopilot: bool) -> None:
    for seed in range(3):
        play(100 + seed, variant, {0, 1, 2}, autopilot, steps=500, seats=3)


def other_secrets_changed(state: CasablancaState, seat: int, rnd: random.Random) -> CasablancaState:
    """The same game but for the other players' secrets: each other seat's money spread differently over the
    agents still in the game (their totals, hence their capital, unchanged)."""
    other = state.model_copy(deep=True)
    alive = other.in_game()
    for s in range(other.seats):
        if s == seat:
            continue
        total = sum(other.bribes[s][a] for a in alive) // STEP
        spread = [0] * len(other.bribes[s])
        for _ in range(total):
            spread[rnd.choice(alive)] += STEP
        other.bribes[s] = [spread[a] if a in alive else other.bribes[s][a] for a in range(len(spread))]
    return other


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("autopilot", [False, True])
def test_reads_only_its_own_view(variant: str, autopilot: bool) -> None:
    rnd = random.Random(5)
    decisions = play(7, variant, {0, 2}, autopilot, steps=400)
    assert len(decisions) > 50
    changed = 0
    for state, seat in decisions[::3]:
        other = other_secrets_changed(state, seat, rnd)
        changed += other.bribes != state.bribes
        assert GAME.view(other, seat) == GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(other, seat) == legal
        one = POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(9), autopilot=autopilot)
        two = POLICY.decide(GAME.view(other, seat), legal, seat, random.Random(9), autopilot=autopilot)
        assert one == two
    assert changed > 10, "the other players' secrets were really changed"


def test_autopilot_first_bribe_is_not_a_fixed_choice() -> None:
    state = new_game(4, first=0, seed=3)
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    chosen = {str(POLICY.decide(view, legal, 0, random.Random(k), autopilot=True)) for k in range(30)}
    assert len(chosen) >= 3
    for k in range(30):
        bribe = POLICY.decide(view, legal, 0, random.Random(k), autopilot=True)
        assert isinstance(bribe, Bribe) and set(bribe.amounts.values()) == {STEP}, "the smallest bribe"


def test_autopilot_is_safe_in_windows_and_contests() -> None:
    """It never objects, withdraws rather than show its bribes in a contest, never hits, and ends a stopped turn."""
    for variant in VARIANTS:
        for state, seat in play(11, variant, {1}, True, steps=600):
            legal = GAME.legal_actions(state, seat)
            choice = POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(1), autopilot=True)
            assert not isinstance(choice, Object)
            if NoObjection() in legal:
                assert choice == NoObjection()
            if Withdraw() in legal:
                assert choice == Withdraw()
            if EndTurn() in legal:
                assert choice == EndTurn()
            assert not isinstance(choice, Hit)  # a hit shows every bribe on its victim


def test_objects_to_an_end_that_loses_and_not_to_one_that_wins() -> None:
    """Main game: the suitcase carried home by an agent this seat has most on is let through; by one it has little
    on (but something, to claim with), objected to with its whole bribe."""
    state = new_game(3, first=0, seed=1)
    state.started = [True] * 3
    state.capital = [0, 0, 0]
    red, blue = 4, 2  # Rudy Red (home: the Airport), Betty Blue (home: the Hotel)
    state.bribes = [[0] * 8 for _ in range(3)]
    state.bribes[1][red] = 9_000
    state.bribes[1][blue] = 1_000
    state.bribes[2][blue] = 9_000
    state.bribes[2][red] = 1_000
    state.at[red] = "2"
    state.carrier = red
    state.suitcase = None
    state.carried_by = [blue, red]
    table_now = T0 + timedelta(minutes=1)
    state = GAME.apply(state, 0, Move(agent="red", to="Airport", suitcase=True), table_now).state
    assert state.phase == "objections"
    for seat, expected in ((1, NoObjection()), (2, Object(limit=1_000))):
        legal = GAME.legal_actions(state, seat)
        assert POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(0)) == expected
