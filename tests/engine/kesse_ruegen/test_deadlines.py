"""Deadlines: who the game waits for, until when, and each wait's default when a player stays silent."""

from datetime import timedelta

from engine.events import Event
from engine.kesse_ruegen.actions import Challenge, Choose, Guess, Move, Place, Plant, Timeout
from engine.kesse_ruegen.state import KesseRuegenState
from engine.rng import Rng

from .helpers import GAME, T0, arrange, later, new_game, placed, play, refused_with, win_actions


def only_wait(state: KesseRuegenState) -> Timeout:
    waits = GAME.waiting_on(state)
    assert len(waits) == 1
    return waits[0].timeout


def test_a_wait_runs_one_turn_deadline_from_when_it_began() -> None:
    state = new_game(2, turn_deadline="PT6H")
    [wait] = GAME.waiting_on(state)
    assert wait.seats == (0,) and wait.kind == "turn" and (wait.what, wait.about) == ("place", {})
    assert wait.since == T0 and wait.until == T0 + timedelta(hours=6)
    state = play(state, (0, Place(square="a1")), now=later(2))
    [wait] = GAME.waiting_on(state)
    assert wait.seats == (1,) and wait.since == later(2) and wait.until == later(8)
    assert GAME.legal_actions(state, None) == [wait.timeout]


def test_silent_placement_goes_to_a_random_free_field() -> None:
    state = play(new_game(2), (0, Place(square="b2")))
    outcome = GAME.apply(state, None, only_wait(state), later(24))
    square = outcome.state.pawns[1]
    assert square not in (None, "b2", "c3")
    assert outcome.used_randomness
    assert outcome.events[0].data == {"seat": 1, "square": square, "by_default": True}
    assert outcome.state.phase == "choose" and outcome.state.turn == 0  # two players: the duel is on at once
    again = GAME.apply(state, None, only_wait(state), later(24)).state
    assert again.pawns == outcome.state.pawns  # the same seed and log replay the same field


def test_silent_challenger_loses_the_turn() -> None:
    state = placed(3)
    outcome = GAME.apply(state, None, only_wait(state), later(24))
    assert outcome.state.phase == "challenge" and outcome.state.turn == 1
    assert (outcome.events[0].kind, outcome.events[0].data) == ("timeout", {"seat": 0, "missed": "challenge"})


def test_silent_choice_is_a_random_pick_without_touching_the_other_wait() -> None:
    state = play(placed(3), (0, Challenge(opponent=1)))
    timeouts = {w.seats[0]: w.timeout for w in GAME.waiting_on(state)}
    assert set(timeouts) == {0, 1}
    state = play(state, (0, Choose(tubers=2)), now=later(1))
    assert [w.timeout for w in GAME.waiting_on(state)] == [timeouts[1]]  # same key, same deadline
    assert GAME.waiting_on(state)[0].until == later(24)
    outcome = GAME.apply(state, None, timeouts[1], later(24))
    assert outcome.used_randomness  # drawn from the game's own generator …
    again = GAME.apply(state, None, timeouts[1], later(24))
    assert again.state.duel == outcome.state.duel  # … so a replay draws the same fist
    assert outcome.state.duel is not None and outcome.state.duel.challenged_choice in (0, 1, 2)
    mine = [e for e in outcome.events if not e.public]
    assert [e.to for e in mine] == [(1,)] and mine[0].data["tubers"] == outcome.state.duel.challenged_choice
    assert mine[0].kind == "your_choice" and mine[0].data["by_default"] is True
    assert outcome.state.phase == "guess"


def defaulted(fist: int) -> tuple[KesseRuegenState, list[Event]]:
    """Seat 1's fist closed by the deadline, with the game's generator set so the random pick is `fist`."""
    state = play(placed(3), (0, Challenge(opponent=1)), (0, Choose(tubers=1)), now=later(1))
    [wait] = GAME.waiting_on(state)
    for seed in range(100):
        state.rng = Rng.from_seed(seed)
        outcome = GAME.apply(state, None, wait.timeout, later(24))
        assert outcome.state.duel is not None
        if outcome.state.duel.challenged_choice == fist:
            return outcome.state, outcome.events
    raise AssertionError(f"no seed picks {fist}")


def test_a_fist_closed_by_the_deadline_gives_nothing_away() -> None:
    """Issue 9, point 3: the table, the opponent and the waits can't tell 0, 1 or 2 apart, nor the deadline's pick
    from the player's own."""
    seen = []
    for fist in (0, 1, 2):
        state, events = defaulted(fist)
        public = [(e.kind, e.text, e.data) for e in events if e.public]
        opponent = GAME.view(state, 0).model_dump(mode="json")  # the challenger, about to guess
        onlooker = GAME.view(state, 2).model_dump(mode="json")
        table = GAME.view(state, None).model_dump(mode="json")
        waits = [(w.seats, w.what, w.about, w.kind, w.since, w.until, w.timeout) for w in GAME.waiting_on(state)]
        seen.append((public, opponent, onlooker, table, waits))
        assert GAME.view(state, 1).my_choice == fist  # type: ignore[attr-defined]
    assert seen[0] == seen[1] == seen[2]
    public = seen[0][0]
    assert public[0] == ("chosen", "", {"seat": 1})
    # The same words as when the player closes it themselves.
    state = play(placed(3), (0, Challenge(opponent=1)), (0, Choose(tubers=1)), now=later(1))
    chose = GAME.apply(state, 1, Choose(tubers=2), later(2)).events
    assert [(e.kind, e.text, e.data) for e in chose if e.public] == public


def test_silent_guesses_take_the_lowest_total_still_free() -> None:
    state = play(placed(2), (0, Choose(tubers=1)), (1, Choose(tubers=1)))
    state = play(state, (None, only_wait(state)))
    assert state.duel is not None and state.duel.challenger_guess == 0
    state = play(state, (None, only_wait(state)))
    assert state.last_duel is not None and state.last_duel.challenged_guess == 1
    assert state.turn == 1  # total 2: nobody right

    state = play(placed(2), (0, Choose(tubers=0)), (1, Choose(tubers=2)))
    state = play(state, (0, Guess(total=2)))
    state = play(state, (None, only_wait(state)))
    assert state.last_duel is not None and state.last_duel.challenged_guess == 0
    assert state.phase == "act" and state.actor == 0


def test_silent_actor_loses_the_remaining_actions() -> None:
    state = win_actions(placed(3), 1, 3)
    assert state.actor == 1
    state = play(state, (1, Plant()), now=later(5))
    [wait] = GAME.waiting_on(state)
    assert wait.since == later(5) and wait.until == later(29)  # each action restarts the clock
    assert (wait.what, wait.about) == ("act", {"left": 2})
    outcome = GAME.apply(state, None, wait.timeout, later(29))
    assert outcome.events[0].data == {"seat": 1, "lost": 2, "why": "timeout"}
    assert outcome.state.phase == "challenge" and outcome.state.turn == 1  # clockwise from challenger 0


def test_a_stale_timeout_is_refused() -> None:
    state = win_actions(arrange(placed(2), {0: "b2"}), 0, 2)
    old = only_wait(state)
    state = play(state, (0, Move(direction="n")))
    with refused_with("stale_deadline"):
        GAME.apply(state, None, old, later(24))
    with refused_with("stale_deadline"):
        GAME.apply(state, None, Timeout(key="nonsense"), later(24))


def test_only_the_clock_applies_timeouts_and_the_clock_only_timeouts() -> None:
    state = placed(3)
    with refused_with("clock_only"):
        GAME.apply(state, 0, only_wait(state), T0)
    with refused_with("clock_applies_deadlines_only"):
        GAME.apply(state, None, Challenge(opponent=1), T0)
