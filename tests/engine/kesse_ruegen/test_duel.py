"""The duel: challenge, secret choices, two different guesses, the reveal — and the rulebook's example."""

import pytest

from engine.errors import RuleError
from engine.kesse_ruegen.actions import Challenge, Choose, Evict, Guess, Move, Place, Plant
from engine.kesse_ruegen.state import KesseRuegenState

from .helpers import GAME, T0, arrange, duel, new_game, placed, play


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
    with pytest.raises(RuleError, match="already said 3 — pick a different number"):
        GAME.apply(state, b, Guess(total=3), T0)
    outcome = GAME.apply(state, b, Guess(total=4), T0)
    reveal = next(e for e in outcome.events if e.kind == "revealed")
    assert reveal.public and reveal.reveals
    assert reveal.data["total"] == 3 and reveal.data["winner"] == a
    assert "{seat:0} guessed right and takes 3 actions" in reveal.text
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
    with pytest.raises(RuleError, match="not time to guess"):
        GAME.apply(state, 0, Guess(total=2), T0)
    state = play(state, (0, Choose(tubers=0)))
    assert state.phase == "guess" and GAME.view(state, None).duel.chosen == (0, 2)


@pytest.mark.parametrize(
    ("actor", "action", "message"),
    [
        (1, Challenge(opponent=0), "can't challenge anyone now"),
        (0, Challenge(opponent=0), "can't duel yourself"),
        (0, Challenge(opponent=3), "player who is in this game"),
        (0, Choose(tubers=1), "no fist to close now"),
        (0, Guess(total=1), "not time to guess"),
        (0, Plant(), "no actions to take"),
        (7, Challenge(opponent=1), "not playing in this game"),
    ],
)
def test_refusals_before_a_duel(actor: int, action: object, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        GAME.apply(placed(3), actor, action, T0)


def challenged(state: KesseRuegenState | None = None) -> KesseRuegenState:
    return play(state or placed(3), (0, Challenge(opponent=1)))


@pytest.mark.parametrize(
    ("actor", "action", "message"),
    [
        (0, Choose(tubers=3), "Choose 0, 1 or 2"),
        (1, Choose(tubers=-1), "Choose 0, 1 or 2"),
        (2, Choose(tubers=1), "Only {seat:0} and {seat:1} are in this duel"),
        (0, Challenge(opponent=2), "can't challenge anyone now"),
    ],
)
def test_refusals_while_choosing(actor: int, action: object, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        GAME.apply(challenged(), actor, action, T0)


def test_choosing_more_than_the_supply_is_refused() -> None:
    # The challenged player has only one radish left in their supply.
    state = arrange(
        placed(3), tubers={sq: 1 for sq in ("a2", "a3", "a4", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c4")}
    )
    assert state.supply[1] == 1
    state = challenged(state)
    for too_many in (2, 3):
        with pytest.raises(RuleError, match="only have 1 sugar beet in your supply — choose 0 or 1"):
            GAME.apply(state, 1, Choose(tubers=too_many), T0)
    assert GAME.legal_actions(state, 1) == [Choose(tubers=0), Choose(tubers=1)]
    empty = arrange(state, barn={1: 1})
    assert GAME.legal_actions(empty, 1) == [Choose(tubers=0)]
    with pytest.raises(RuleError, match="only have 0 sugar beets in your supply — choose 0"):
        GAME.apply(empty, 1, Choose(tubers=1), T0)


def test_a_closed_fist_cannot_be_changed() -> None:
    state = play(challenged(), (0, Choose(tubers=1)))
    with pytest.raises(RuleError, match="already closed"):
        GAME.apply(state, 0, Choose(tubers=2), T0)
    assert GAME.legal_actions(state, 0) == []


def test_guess_order_and_range() -> None:
    state = play(challenged(), (0, Choose(tubers=1)), (1, Choose(tubers=1)))
    with pytest.raises(RuleError, match="guesses first"):
        GAME.apply(state, 1, Guess(total=2), T0)
    with pytest.raises(RuleError, match="from 0 to 4"):
        GAME.apply(state, 0, Guess(total=5), T0)
    with pytest.raises(RuleError, match="turn to guess"):
        GAME.apply(state, 2, Guess(total=2), T0)
    state = play(state, (0, Guess(total=2)))
    assert GAME.legal_actions(state, 1) == [Guess(total=t) for t in (0, 1, 3, 4)]
    with pytest.raises(RuleError, match="already said 2"):
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
    assert "a total of 0 gives no actions" in outcome.events[1].text
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
    assert outcome.events[-1].text == (
        "All pawns are placed. {seat:0}'s turn: the duel with {seat:1} is on (the only opponent). Both of you: "
        "secretly close your fist on 0, 1 or 2 tubers."
    )
    assert sorted(w.seats[0] for w in GAME.waiting_on(state)) == [0, 1]
    assert all("choose" in w.what for w in GAME.waiting_on(state))
    assert GAME.legal_actions(state, 0) == [Choose(tubers=0), Choose(tubers=1), Choose(tubers=2)]
    with pytest.raises(RuleError, match="With two players the challenge is automatic: your duel with \\{seat:1\\}"):
        GAME.apply(state, 0, Challenge(opponent=1), T0)
    # The next turn, clockwise from the challenger: seat 1's duel with seat 0.
    state = duel(state, 0, 1, (1, 1), (0, 1))  # nobody right
    assert (state.phase, state.turn, state.duels) == ("choose", 1, 2)
    assert state.duel is not None and (state.duel.challenger, state.duel.challenged) == (1, 0)


def test_with_three_players_the_player_to_move_still_chooses_whom_to_challenge() -> None:
    state = placed(3)
    assert state.phase == "challenge" and state.duel is None
    assert [w.what for w in GAME.waiting_on(state)] == ["challenge another player to a duel"]
