"""A player leaving mid-game (the platform's `Leave`, a moderator's kick): `KesseRuegen.remove_seat`.

With two players the game cannot go on; with three or four the seat is skipped, its pawn leaves the board, its
tubers stay, an open duel of theirs is off (no fist shown) and the turn passes clockwise; the win threshold stays
the starting count's. A replay of a log with `Leave` in it gives the same state.
"""

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.game import Leave
from engine.kesse_ruegen.actions import Challenge, Choose, Evict, Guess, Move, Place, Plant, Timeout
from engine.kesse_ruegen.state import KesseRuegenState

from .helpers import GAME, T0, arrange, duel, new_game, placed, play, refused_with
from .test_properties import check_invariants, moves, pick_move


def leave(state: KesseRuegenState, seat: int) -> tuple[KesseRuegenState, list[Any]]:
    outcome = GAME.apply(state, None, Leave(seat=seat), T0)
    return outcome.state, outcome.events


def texts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The public events as (kind, data): the engine speaks no language."""
    assert not any(e.text for e in events)
    return [(e.kind, e.data) for e in events if e.public]


def test_with_two_players_the_game_cannot_go_on() -> None:
    state = placed(2)
    assert GAME.remove_seat(state.model_copy(deep=True), 1, T0) is None
    with pytest.raises(RuleError, match="cannot go on without that player"):
        GAME.apply(state, None, Leave(seat=1), T0)


def test_only_the_system_removes_a_player_and_only_once() -> None:
    state = placed(3)
    with pytest.raises(RuleError, match="Only a moderator"):
        GAME.apply(state, 0, Leave(seat=2), T0)
    gone, _ = leave(state, 2)
    with refused_with("already_left", seat=2):
        GAME.apply(gone, None, Leave(seat=2), T0)


def test_the_player_to_challenge_leaves_the_turn_passes_and_the_seat_is_skipped_from_then_on() -> None:
    state = arrange(placed(4), tubers={"b2": 0, "d4": 0}, barn={0: 1})
    gone, events = leave(state, 0)
    assert gone.left == [0] and gone.pawns[0] is None
    assert gone.phase == "challenge" and gone.turn == 1
    # Its tubers stay where they are, on the fields and in the barn; nothing is lost.
    assert gone.tubers == {"b2": 0, "d4": 0} and gone.barn_tubers[0] == 1
    assert texts(events) == [
        ("left", {"seat": 0, "stay": True}),
        ("turn", {"seat": 1, "step": "challenge", "all_placed": False}),
    ]
    # Nobody can challenge the seat that left, and it is not on anyone's list.
    assert Challenge(opponent=0) not in GAME.legal_actions(gone, 1)
    with refused_with("challenge_left", seat=0):
        GAME.apply(gone, 1, Challenge(opponent=0), T0)
    assert GAME.legal_actions(gone, 0) == []
    # Duels that nobody wins: the turn goes from 1 to 2 to 3, then skips 0 back to 1.
    after = duel(gone, 1, 2, (0, 0), (1, 2))
    assert after.turn == 2
    after = duel(after, 2, 1, (0, 0), (1, 2))
    assert after.turn == 3
    after = duel(after, 3, 1, (0, 0), (1, 2))
    assert after.turn == 1
    check_invariants(after)


def test_when_two_players_remain_the_challenge_becomes_automatic() -> None:
    state = placed(3)  # seat 0 to challenge
    gone, events = leave(state, 2)
    assert gone.phase == "choose" and gone.turn == 0
    assert gone.duel is not None and (gone.duel.challenger, gone.duel.challenged) == (0, 1)
    assert texts(events)[-1] == (
        "challenged",
        {"challenger": 0, "challenged": 1, "automatic": True, "all_placed": False},
    )
    assert sorted(w.seats[0] for w in GAME.waiting_on(gone)) == [0, 1]


def test_an_open_duel_of_the_player_who_leaves_is_off_and_no_fist_is_shown() -> None:
    state = play(placed(3), (0, Challenge(opponent=1)), (0, Choose(tubers=2)))
    gone, events = leave(state, 1)
    assert gone.last_duel is None
    # Clockwise from the challenger: seat 2, whose duel with seat 0 (the only opponent left) is on, fists open.
    assert gone.phase == "choose" and gone.turn == 2
    assert gone.duel is not None and (gone.duel.challenger, gone.duel.challenged) == (2, 0)
    assert gone.duel.chosen() == ()
    public = texts(events)
    assert ("duel_off", {"seat": 1, "other": 0, "challenger": 0, "challenged": 1}) in public
    assert not any(e.reveals for e in events)
    # What the table is told is the same whatever the fist held.
    for held in (0, 1):
        other = play(placed(3), (0, Challenge(opponent=1)), (0, Choose(tubers=held)))
        _, other_events = leave(other, 1)
        assert [e for e in other_events if e.public] == [e for e in events if e.public]
    # Only the challenger is told, privately, that their fist goes back.
    notes = [e for e in events if not e.public]
    assert [(e.to, e.kind, e.data) for e in notes] == [((0,), "your_fist_back", {"seat": 0, "tubers": 2})]
    assert gone.supply == state.supply
    check_invariants(gone)


def test_a_duel_is_off_during_the_guesses_too_when_the_challenger_leaves() -> None:
    state = play(
        placed(4),
        (0, Challenge(opponent=2)),
        (0, Choose(tubers=1)),
        (2, Choose(tubers=1)),
        (0, Guess(total=2)),
    )
    gone, events = leave(state, 0)
    assert gone.duel is None and gone.phase == "challenge" and gone.turn == 1
    assert [e.to for e in events if not e.public] == [(2,)]


def test_the_player_taking_their_actions_leaves_the_rest_are_lost() -> None:
    state = duel(placed(3), 0, 1, (1, 2), (0, 3))  # the challenged seat 1 guessed 3 right
    assert state.phase == "act" and state.actor == 1 and state.actions_left == 3
    gone, events = leave(state, 1)
    assert gone.phase == "choose" and gone.turn == 2 and gone.actor is None  # two left: the duel is on
    assert ("actions_lost", {"seat": 1, "lost": 3, "why": "left"}) in texts(events)


def test_the_challenger_leaves_while_the_other_takes_their_actions_they_go_on() -> None:
    state = duel(placed(3), 0, 1, (1, 2), (0, 3))
    gone, _ = leave(state, 0)
    assert gone.phase == "act" and gone.actor == 1 and gone.actions_left == 3
    done = play(gone, (1, Plant()), (1, Move(direction="s")), (1, Plant()))
    assert done.phase == "choose" and done.turn == 1  # clockwise from the challenger (0, gone): 1, vs 2


def test_a_third_player_leaving_does_not_touch_a_duel_between_others() -> None:
    state = play(placed(3), (0, Challenge(opponent=1)), (1, Choose(tubers=1)))
    gone, events = leave(state, 2)
    assert gone.duel == state.duel and gone.phase == "choose"
    assert GAME.waiting_on(gone) == GAME.waiting_on(state)  # same waits, same deadlines, same timer keys
    assert texts(events) == [("left", {"seat": 2, "stay": False})]


def test_leaving_while_pawns_are_placed() -> None:
    state = play(new_game(4, first=0), (0, Place(square="a1")))
    assert state.turn == 1
    gone, _ = leave(state, 1)  # the player placing leaves: the next seat places
    assert gone.phase == "place" and gone.turn == 2
    gone, _ = leave(gone, 0)  # the first player (already placed) leaves: their pawn goes, the placing goes on
    assert gone.pawns[0] is None and gone.turn == 2
    done = play(gone, (2, Place(square="a1")), (3, Place(square="e5")))
    # The first player left: the first turn goes to the next seat clockwise from them that still plays (two left:
    # its duel is on at once).
    assert done.phase == "choose" and done.turn == 2


def test_the_last_player_to_place_leaves_and_the_first_challenge_begins() -> None:
    state = play(new_game(3, first=0), (0, Place(square="a1")), (1, Place(square="e5")))
    gone, events = leave(state, 2)
    assert gone.phase == "choose" and gone.turn == 0
    assert texts(events)[-1] == (
        "challenged",
        {"challenger": 0, "challenged": 1, "automatic": True, "all_placed": True},
    )


def test_the_win_threshold_stays_the_starting_counts_and_the_leaver_ranks_last() -> None:
    state = arrange(placed(4), tubers={"a2": 3, "a3": 3, "a4": 3, "b1": 1})
    gone, _ = leave(state, 3)
    assert gone.win_fields == 7  # four players started: 7 fields, not the three-player 9
    standings = GAME.standings(gone)
    assert [s.seat for s in standings.standings][-1] == 3  # 3 fields, but gone: after everyone still playing
    assert standings.winners == (1,)


def test_the_tubers_of_a_player_who_left_can_be_evicted() -> None:
    state = arrange(placed(3), pawns={0: "b2"}, tubers={"b2": 2})
    gone, _ = leave(state, 2)
    acting = duel(gone, 0, 1, (1, 0), (1, 3))
    after = play(acting, (0, Evict()))
    assert "b2" not in after.tubers and after.barn_tubers[2] == 1


def test_a_stale_deadline_of_the_player_who_left_is_refused() -> None:
    state = placed(3)
    (wait,) = GAME.waiting_on(state)
    gone, _ = leave(state, 0)
    with refused_with("stale_deadline"):
        GAME.apply(gone, None, wait.timeout, T0)
    assert isinstance(wait.timeout, Timeout)


@settings(max_examples=30, deadline=None)
@given(
    seats=st.integers(3, 4),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10**6), min_size=40, max_size=160),
    leave_at=st.lists(st.integers(0, 159), min_size=1, max_size=2),
)
def test_random_play_with_leaves_keeps_the_invariants_and_replays_exactly(
    seats: int, seed: int, picks: list[int], leave_at: list[int]
) -> None:
    state = new_game(seats, first=None, seed=seed)
    log: list[tuple[int | None, Any]] = []
    now = T0
    for i, pick in enumerate(picks):
        check_invariants(state)
        if state.phase == "over":
            break
        now += timedelta(minutes=5 + pick % 50)
        playing = [s for s in range(seats) if state.playing(s)]
        if i in leave_at and len(playing) > 2:
            actor, action = None, Leave(seat=playing[pick % len(playing)])
        else:
            actor, action = pick_move(state, pick)
        state = GAME.apply(state, actor, action, now).state
        log.append((actor, GAME.dump_action(action)))
        # The game never waits on (nor lists moves for) a seat that left.
        assert not {s for w in GAME.waiting_on(state) for s in w.seats} & set(state.left)
        assert all(s not in state.left for s, _ in moves(state)[0])
    check_invariants(state)

    replay = new_game(seats, first=None, seed=seed)
    now = T0
    for (actor, action), pick in zip(log, picks, strict=False):
        now += timedelta(minutes=5 + pick % 50)
        replay = GAME.apply(replay, actor, action, now).state
    assert GAME.dump_state(replay) == GAME.dump_state(state)
