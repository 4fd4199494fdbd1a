"""The right guesser's actions: plant, move, evict, reclaim — every refusal, running out of moves, the win."""

import pytest

from engine.errors import RuleError
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.actions import Challenge, Choose, Done, Evict, Guess, Move, Plant, Reclaim
from engine.kesse_ruegen.state import KesseRuegenState

from .helpers import GAME, T0, arrange, duel, placed, play, win_actions


def acting(
    pawns: dict[int, str],
    tubers: dict[str, int] | None = None,
    barn: dict[int, int] | None = None,
    actions: int = 3,
    seats: int = 2,
) -> KesseRuegenState:
    """Seat 0 to take `actions` actions on a board laid out by hand."""
    state = win_actions(arrange(placed(seats), pawns, tubers, barn), 0, actions)
    assert state.phase == "act" and state.actor == 0 and state.actions_left == actions
    return state


def refused(state: KesseRuegenState, action: object, code: str, actor: int = 0, **values: object) -> None:
    """The rules refuse `action` with the refusal `code` (and at least these `values`), and never offer it."""
    with pytest.raises(RuleError) as refusal:
        GAME.apply(state, actor, action, T0)
    assert refusal.value.code == code
    assert values.items() <= refusal.value.values.items()
    assert action not in GAME.legal_actions(state, actor)


def accepted(state: KesseRuegenState, action: object, actor: int = 0) -> KesseRuegenState:
    """The action is offered (a button) and the rules take it."""
    assert action in GAME.legal_actions(state, actor)
    return GAME.apply(state, actor, action, T0).state


def test_plant_puts_a_tuber_from_the_supply_under_the_pawn() -> None:
    state = acting({0: "b2"})
    assert Plant() in GAME.legal_actions(state, 0)
    outcome = GAME.apply(state, 0, Plant(), T0)
    assert outcome.state.tubers == {"b2": 0} and outcome.state.supply[0] == 15
    assert outcome.events[0].kind == "planted"
    assert outcome.events[0].data == {"seat": 0, "square": "b2", "left": 2}
    assert outcome.events[0].text == ""


def test_planting_in_the_barn_is_refused() -> None:
    refused(acting({0: "c3"}), Plant(), "plant_in_barn", barn="c3")


def test_planting_on_a_field_with_a_tuber_is_refused() -> None:
    refused(acting({0: "b2"}, {"b2": 0}), Plant(), "plant_own_tuber_there", seat=0, square="b2")
    refused(acting({0: "b2"}, {"b2": 1}), Plant(), "plant_field_taken", square="b2", owner=1)


def test_planting_with_an_empty_supply_is_refused() -> None:
    state = arrange(acting({0: "b2"}), barn={0: 16})
    assert state.supply[0] == 0
    refused(state, Plant(), "plant_no_supply", seat=0)


def test_moving_onto_another_pawn_is_refused_but_the_barn_takes_several() -> None:
    state = acting({0: "b2", 1: "b3"})
    refused(state, Move(direction="n"), "move_onto_pawn", seat=1, square="b3")
    state = play(state, (0, Move(direction="ne")), (0, Move(direction="nw")))
    assert state.pawns == ["b4", "b3"]
    both = acting({0: "b2", 1: "c3"})
    both = accepted(both, Move(direction="ne"))
    assert both.pawns == ["c3", "c3"]


def test_moving_off_the_board_is_refused_and_all_eight_directions_work() -> None:
    refused(acting({0: "a1"}), Move(direction="sw"), "move_off_board", direction="sw", square="a1")
    state = acting({0: "b2", 1: "e5"}, actions=4)
    moves = [d for d in geometry.STEPS if Move(direction=d) in GAME.legal_actions(state, 0)]
    assert moves == ["nw", "n", "ne", "w", "e", "sw", "s", "se"]
    state = play(state, (0, Move(direction="NE")), (0, Move(direction="se")), (0, Move(direction="sw")))
    assert state.pawns[0] == "c1"


def test_evict_sends_a_foreign_tuber_to_the_barn() -> None:
    state = accepted(acting({0: "b2"}, {"b2": 1}), Evict())
    assert state.tubers == {} and state.barn_tubers == [0, 1] and state.supply == [16, 15]


def test_evict_refusals() -> None:
    refused(acting({0: "b2"}), Evict(), "evict_nothing", square="b2")
    refused(acting({0: "b2"}, {"b2": 0}), Evict(), "evict_own", seat=0, square="b2")
    refused(acting({0: "c3"}, barn={1: 2}), Evict(), "evict_in_barn")


def test_reclaim_takes_your_own_tuber_back_from_the_barn() -> None:
    state = accepted(acting({0: "c3"}, barn={0: 2, 1: 3}), Reclaim())
    assert state.barn_tubers == [1, 3] and state.supply == [15, 13]


def test_reclaim_refusals() -> None:
    refused(acting({0: "b2"}, barn={0: 1}), Reclaim(), "reclaim_not_in_barn", barn="c3")
    refused(acting({0: "c3"}, barn={1: 1}), Reclaim(), "reclaim_none_in_barn", seat=0)


def test_only_the_right_guesser_acts() -> None:
    state = acting({0: "b2"})
    refused(state, Plant(), "no_actions", actor=1)
    refused(state, Challenge(opponent=1), "cannot_challenge_now")


def test_done_is_refused_while_any_action_is_legal() -> None:
    refused(acting({0: "b2"}), Done(), "must_take_actions", left=3)
    refused(placed(), Done(), "nothing_to_finish")


def test_when_no_action_is_legal_the_rest_are_lost_and_the_turn_passes() -> None:
    # Seat 0 in the corner, boxed in by three pawns: after planting there is nothing left to do.
    start = arrange(placed(4), {0: "a1", 1: "a2", 2: "b1", 3: "b2"})
    state = win_actions(start, 0, 3)
    outcome = GAME.apply(state, 0, Plant(), T0)
    assert [e.kind for e in outcome.events] == ["planted", "actions_lost", "turn"]
    assert outcome.events[1].data == {"seat": 0, "lost": 2, "why": "no_action"}
    assert outcome.state.phase == "challenge" and outcome.state.turn == 1


def test_a_player_stuck_from_the_start_loses_all_actions_at_the_reveal() -> None:
    start = arrange(placed(4), {0: "a1", 1: "a2", 2: "b1", 3: "b2"}, {"a1": 0})
    state = win_actions(start, 0, 2)
    assert state.phase == "challenge" and state.turn == 1 and state.tubers == {"a1": 0}


def twelve_carrots() -> dict[str, int]:
    fields = [sq for sq in geometry.squares(5) if sq not in ("c3", "a1", "b1", "e5")]
    return dict.fromkeys(fields[:12], 0)


def test_the_win_comes_mid_action_and_ends_the_game() -> None:
    state = acting({0: "a1"}, twelve_carrots(), actions=3)
    outcome = GAME.apply(state, 0, Plant(), T0)
    final = outcome.state
    assert [e.kind for e in outcome.events] == ["planted", "won"]
    assert outcome.events[1].data == {"seat": 0, "fields": 13}
    assert final.phase == "over" and final.winner == 0 and final.actions_left == 0
    result = GAME.result(final)
    assert result is not None and result.winners == (0,)
    assert [(s.seat, s.score) for s in result.standings] == [(0, 13), (1, 0)]
    assert GAME.legal_actions(final, 0) == [] and GAME.legal_actions(final, None) == []
    assert GAME.waiting_on(final) == []
    refused(final, Move(direction="n"), "game_over", winners=[0])
    assert GAME.result(state) is None
    assert GAME.standings(final) == result


def test_standings_of_a_game_ended_early_count_fields() -> None:
    state = arrange(placed(3), tubers={"a2": 2, "a3": 2, "b2": 0})
    standings = GAME.standings(state)
    assert [(s.seat, s.score, s.rank) for s in standings.standings] == [(2, 2, 1), (0, 1, 2), (1, 0, 3)]
    assert GAME.result(state) is None


def test_the_win_is_checked_after_each_action_not_at_the_end() -> None:
    eleven = dict(list(twelve_carrots().items())[:11])
    state = acting({0: "a1"}, {**eleven, "a1": 0}, actions=4)
    state = play(state, (0, Move(direction="e")))
    assert state.phase == "act" and state.actions_left == 3
    state = play(state, (0, Plant()))
    assert state.phase == "over" and state.winner == 0 and state.fields_of(0) == 13


# --- no dead end (issue 9, point 4) ------------------------------------------------------------------------------


def test_a_game_driven_to_empty_supplies_ends_and_the_most_fields_win() -> None:
    """Seat 0 plants its last tuber; seat 1 has none left either: every duel would total 0, so the game ends at
    once, and seat 1 wins with more fields (11 against 10), though seat 0 moved last."""
    state = arrange(
        placed(2),  # pawns: seat 0 on a1, seat 1 on e5; the duel of seat 0 and seat 1 is on
        tubers={
            **{sq: 0 for sq in ("a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5")},
            **{sq: 1 for sq in ("c1", "c2", "d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3", "e4")},
        },
        barn={0: 6, 1: 5},
    )
    assert state.supply == [1, 0]
    state = play(state, (0, Choose(tubers=1)), (1, Choose(tubers=0)), (0, Guess(total=1)), (1, Guess(total=0)))
    assert state.phase == "act" and state.actor == 0
    outcome = GAME.apply(state, 0, Plant(), T0)
    final = outcome.state
    assert final.supply == [0, 0] and final.phase == "over" and final.stalled
    assert (final.winner, final.winners) == (1, [1])
    assert [e.kind for e in outcome.events] == ["planted", "stalled"]
    assert outcome.events[-1].data == {"winners": [1], "fields": 11, "all_placed": False}
    result = GAME.result(final)
    assert result is not None and result.winners == (1,)
    assert [(s.seat, s.score, s.rank) for s in result.standings] == [(1, 11, 1), (0, 10, 2)]
    assert GAME.waiting_on(final) == [] and GAME.legal_actions(final, 0) == GAME.legal_actions(final, 1) == []
    view = GAME.view(final, None)
    assert view.winners == (1,) and view.stalled  # type: ignore[attr-defined]
    refused(final, Choose(tubers=0), "game_over", winners=[1])


def test_equal_counts_share_the_win_when_the_supplies_run_out() -> None:
    state = arrange(
        placed(3),  # pawns: seat 0 on a1, seat 1 on e5, seat 2 on a5; seat 0 to challenge
        tubers={
            **{sq: 0 for sq in ("a2", "a3", "a4", "b1", "b2", "b3", "b4")},
            **{sq: 1 for sq in ("d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3")},
            **{sq: 2 for sq in ("b5", "c1", "c2", "c4", "c5")},
        },
        barn={0: 4, 1: 4, 2: 7},
    )
    assert state.supply == [1, 0, 0]
    state = duel(state, 0, 2, (1, 0), (1, 0))  # seat 0 guesses 1 right
    outcome = GAME.apply(state, 0, Plant(), T0)
    final = outcome.state
    assert final.phase == "over" and final.winner is None and final.winners == [0, 1]
    assert outcome.events[-1].data == {"winners": [0, 1], "fields": 8, "all_placed": False}
    result = GAME.result(final)
    assert result is not None and result.winners == (0, 1)
    assert [(s.seat, s.rank) for s in result.standings] == [(0, 1), (1, 1), (2, 3)]


def test_a_player_with_a_tuber_in_the_barn_but_none_in_supply_still_duels_while_others_have_some() -> None:
    state = arrange(placed(2), tubers={"b2": 0}, barn={0: 15})
    assert state.supply == [0, 16]
    state = play(state, (0, Choose(tubers=0)), (1, Choose(tubers=1)), (0, Guess(total=3)), (1, Guess(total=4)))
    assert state.phase == "choose" and not state.stalled  # seat 1 still has tubers: the game goes on
