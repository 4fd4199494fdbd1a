"""The duel: challenge, secret choices, two different guesses, the reveal — and the rulebook's example."""

import pytest

from engine.kesse_ruegen.actions import Challenge, Choose, Evict, Guess, Move, Place, Plant
from engine.kesse_ruegen.state import KesseRuegenState

from .helpers import GAME, T0, arrange, duel, new_game, placed, play, refused_with


def test_rulebook_example() -> None:
    """A challenges B with 1 carrot; A guesses 3; B may not say 3 and says 4; total 3; A takes three actions:
    moves onto B's tuber, evicts it to the barn, plants a carrot."""
    a, b = 0, 1
    state = play(new_game(2, first=a), (a, Place(square="e3")), (b, Place(square="d4")))
    # Earlier play: B won a duel with 2 actions, planted a sugar beet on d4 and walked on to e5.
    state = duel(state, a, b, (1, 1), (0, 2))
    assert state.phase == "act" and state.actor == b and state.actions_left == 2
    state = play(state, (b, Plant()), (b, Move(direction="ne")))
    assert state.turn == b and state.phase == "choose"  # the turn passed clockwise from A; B's duel with A is on
    state = duel(state, b, a, (0, 0), (1, 2))  # nobody right: nothing happens
    assert state.turn == a and state.tubers == {"d4": b} and state.pawns == ["e3", "e5"]

    state = play(state, (a, Choose(tubers=1)), (b, Choose(tubers=2)), (a, Guess(total=3)))
    with refused_with("guess_taken", challenger=0, total=3):
        GAME.apply(state, b, Guess(total=3), T0)
    outcome = GAME.apply(state, b, Guess(total=4), T0)
    reveal = next(e for e in outcome.events if e.kind == "revealed")
    assert reveal.public and reveal.reveals
    assert reveal.data["total"] == 3 and reveal.data["winner"] == a
    assert reveal.text == "" and reveal.data["challenger_guess"] == 3
    state = outcome.state
    assert state.phase == "act" and state.actor == a and state.actions_left == 3

    state = play(state, (a, Move(direction="nw")))
    assert state.pawns[a] == "d4"
    state = play(state, (a, Evict()))
    assert "d4" not in state.tubers and state.barn_tubers[b] == 1
    last = GAME.apply(state, a, Plant(), T0)
    state = last.state
    assert state.tubers == {"d4": a}
    assert state.supply == [15, 15] and state.barn_tubers == [0, 1]
    assert state.phase == "choose" and state.turn == b  # clockwise from the challenger A
    assert [e.kind for e in last.events] == ["planted", "challenged"]


def test_choices_may_come_in_either_order_and_guessing_waits_for_both() -> None:
    state = play(placed(3), (0, Challenge(opponent=2)), (2, Choose(tubers=2)))
    assert GAME.view(state, None).duel.chosen == (2,)
    with refused_with("no_guess_now"):
        GAME.apply(state, 0, Guess(total=2), T0)
    state = play(state, (0, Choose(tubers=0)))
    assert state.phase == "guess" and GAME.view(state, None).duel.chosen == (0, 2)


@pytest.mark.parametrize(
    ("actor", "action", "code"),
    [
        (1, Challenge(opponent=0), "cannot_challenge_now"),
        (0, Challenge(opponent=0), "challenge_yourself"),
        (0, Challenge(opponent=3), "challenge_nobody"),
        (0, Choose(tubers=1), "no_fist_now"),
        (0, Guess(total=1), "no_guess_now"),
        (0, Plant(), "no_actions"),
        (7, Challenge(opponent=1), "not_playing"),
    ],
)
def test_refusals_before_a_duel(actor: int, action: object, code: str) -> None:
    with refused_with(code):
        GAME.apply(placed(3), actor, action, T0)


def challenged(state: KesseRuegenState | None = None) -> KesseRuegenState:
    return play(state or placed(3), (0, Challenge(opponent=1)))


@pytest.mark.parametrize(
    ("actor", "action", "code", "values"),
    [
        (0, Choose(tubers=3), "choose_range", {"most": 2}),
        (1, Choose(tubers=-1), "choose_range", {"most": 2}),
        (2, Choose(tubers=1), "not_in_duel", {"challenger": 0, "challenged": 1}),
        (0, Challenge(opponent=2), "cannot_challenge_now", {}),
    ],
)
def test_refusals_while_choosing(actor: int, action: object, code: str, values: dict[str, object]) -> None:
    with refused_with(code, **values):
        GAME.apply(challenged(), actor, action, T0)


def test_choosing_more_than_the_supply_is_refused() -> None:
    # The challenged player has only one radish left in their supply.
    state = arrange(
        placed(3), tubers={sq: 1 for sq in ("a2", "a3", "a4", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c4")}
    )
    assert state.supply[1] == 1
    state = challenged(state)
    for too_many in (2, 3):
        with refused_with("supply_too_small", seat=1, have=1, options=[0, 1]):
            GAME.apply(state, 1, Choose(tubers=too_many), T0)
    assert GAME.legal_actions(state, 1) == [Choose(tubers=0), Choose(tubers=1)]
    empty = arrange(state, barn={1: 1})
    assert GAME.legal_actions(empty, 1) == [Choose(tubers=0)]
    with refused_with("supply_too_small", seat=1, have=0, options=[0]):
        GAME.apply(empty, 1, Choose(tubers=1), T0)


def test_a_closed_fist_cannot_be_changed() -> None:
    state = play(challenged(), (0, Choose(tubers=1)))
    with refused_with("fist_closed"):
        GAME.apply(state, 0, Choose(tubers=2), T0)
    assert GAME.legal_actions(state, 0) == []


def test_guess_order_and_range() -> None:
    state = play(challenged(), (0, Choose(tubers=1)), (1, Choose(tubers=1)))
    with refused_with("challenger_guesses_first", challenger=0):
        GAME.apply(state, 1, Guess(total=2), T0)
    with refused_with("guess_range", most=4):
        GAME.apply(state, 0, Guess(total=5), T0)
    with refused_with("not_your_guess", seat=0):
        GAME.apply(state, 2, Guess(total=2), T0)
    state = play(state, (0, Guess(total=2)))
    assert GAME.legal_actions(state, 1) == [Guess(total=t) for t in (0, 1, 3, 4)]
    with refused_with("guess_taken", challenger=0, total=2):
        GAME.apply(state, 1, Guess(total=2), T0)


def test_nobody_right_passes_the_turn_clockwise_from_the_challenger() -> None:
    state = duel(placed(4), 0, 2, (1, 1), (0, 4))
    assert state.phase == "challenge" and state.turn == 1
    assert state.last_duel is not None and state.last_duel.winner is None
    assert state.supply == [9, 9, 9, 9]  # the tubers in the fists went back


def test_the_challenged_player_can_win_the_actions_then_the_turn_passes_from_the_challenger() -> None:
    state = duel(placed(4), 0, 3, (1, 1), (1, 2))
    assert state.phase == "act" and state.actor == 3 and state.actions_left == 2
    assert GAME.legal_actions(state, 0) == []
    state = play(state, (3, Plant()), (3, Move(direction="w")))
    assert state.tubers == {"e1": 3} and state.pawns[3] == "d1"
    assert state.phase == "challenge" and state.turn == 1


def test_a_right_guess_of_zero_gives_no_actions() -> None:
    state = play(placed(2), (0, Choose(tubers=0)), (1, Choose(tubers=0)), (0, Guess(total=0)))
    outcome = GAME.apply(state, 1, Guess(total=1), T0)
    assert outcome.events[1].kind == "revealed"
    assert outcome.events[1].data["winner"] == 0 and outcome.events[1].data["total"] == 0
    assert outcome.state.phase == "choose" and outcome.state.turn == 1


# --- two players: the challenge is automatic (issue 9, point 5) ------------------------------------------------


def test_with_two_players_every_turn_starts_with_the_duel_already_challenged() -> None:
    state = play(new_game(2, first=0), (0, Place(square="a1")))
    outcome = GAME.apply(state, 1, Place(square="e5"), T0)
    state = outcome.state
    # The first turn: no challenge to make, no challenge deadline; both duellists are asked for their fist.
    assert (state.phase, state.turn, state.duels) == ("choose", 0, 1)
    assert state.duel is not None and (state.duel.challenger, state.duel.challenged) == (0, 1)
    assert [e.kind for e in outcome.events] == ["placed", "challenged"]
    assert outcome.events[-1].data == {"challenger": 0, "challenged": 1, "automatic": True, "all_placed": True}
    assert sorted(w.seats[0] for w in GAME.waiting_on(state)) == [0, 1]
    assert all(w.what == "choose" for w in GAME.waiting_on(state))
    assert GAME.legal_actions(state, 0) == [Choose(tubers=0), Choose(tubers=1), Choose(tubers=2)]
    with refused_with("challenge_automatic", opponent=1):
        GAME.apply(state, 0, Challenge(opponent=1), T0)
    # The next turn, clockwise from the challenger: seat 1's duel with seat 0.
    state = duel(state, 0, 1, (1, 1), (0, 1))  # nobody right
    assert (state.phase, state.turn, state.duels) == ("choose", 1, 2)
    assert state.duel is not None and (state.duel.challenger, state.duel.challenged) == (1, 0)


def test_with_three_players_the_player_to_move_still_chooses_whom_to_challenge() -> None:
    state = placed(3)
    assert state.phase == "challenge" and state.duel is None
    assert [w.what for w in GAME.waiting_on(state)] == ["challenge"]
