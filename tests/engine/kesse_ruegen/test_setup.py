"""Set-up and pawn placement: supplies per player count, who begins, placement in seat order."""

import pytest

from engine.kesse_ruegen.actions import Challenge, Place

from .helpers import GAME, T0, events_of, new_game, play, refused_with


@pytest.mark.parametrize(("seats", "supply", "win"), [(2, 16, 13), (3, 12, 9), (4, 9, 7)])
def test_supplies_and_win_thresholds_follow_the_player_count(seats: int, supply: int, win: int) -> None:
    view = GAME.view(new_game(seats), None)
    assert [p.supply for p in view.players] == [supply] * seats
    assert view.win_fields == win
    assert view.tubers == {} and all(p.pawn is None for p in view.players)


@pytest.mark.parametrize("seats", [1, 5])
def test_player_count_out_of_range_is_refused(seats: int) -> None:
    with refused_with("player_count", least=2, most=4):
        new_game(seats)


def test_first_player_from_the_options_or_drawn_from_the_seed() -> None:
    assert new_game(3, first=2).turn == 2
    with refused_with("first_seat_out_of_range"):
        new_game(3, first=3)
    drawn = {new_game(4, first=None, seed=s).turn for s in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert new_game(4, first=None, seed=7).turn == new_game(4, first=None, seed=7).turn


def test_pawns_are_placed_clockwise_from_the_first_player_who_then_challenges() -> None:
    state = new_game(3, first=1)
    assert GAME.legal_actions(state, 0) == [] and len(GAME.legal_actions(state, 1)) == 24
    with refused_with("not_your_placement"):
        GAME.apply(state, 0, Place(square="a1"), T0)
    state = play(state, (1, Place(square="b2")), (2, Place(square="B4 ")), (0, Place(square="e5")))
    assert state.pawns == ["e5", "b2", "b4"]
    assert state.phase == "challenge" and state.turn == 1
    assert GAME.legal_actions(state, 1) == [Challenge(opponent=0), Challenge(opponent=2)]


def test_placement_events_name_the_square_and_the_next_player() -> None:
    events = events_of(new_game(2), 0, Place(square="d2"))
    assert [(e.kind, e.data, e.text) for e in events] == [
        ("placed", {"seat": 0, "square": "d2", "by_default": False}, ""),
        ("turn", {"seat": 1, "step": "place", "all_placed": False}, ""),
    ]
    assert all(e.public for e in events)


@pytest.mark.parametrize(
    ("square", "code", "values"),
    [
        ("c3", "place_in_barn", {"square": "c3"}),
        ("a1", "place_taken", {"seat": 0, "square": "a1"}),
        ("f1", "no_such_square", {"square": "f1", "last": "e5"}),
        ("hello", "no_such_square", {"square": "hello"}),
        ("", "no_such_square", {"square": ""}),
    ],
)
def test_bad_placements_are_refused(square: str, code: str, values: dict[str, object]) -> None:
    state = play(new_game(2), (0, Place(square="a1")))
    with refused_with(code, **values):
        GAME.apply(state, 1, Place(square=square), T0)


def test_free_fields_exclude_the_barn_and_pawns() -> None:
    state = play(new_game(2), (0, Place(square="a1")))
    squares = {a.square for a in GAME.legal_actions(state, 1)}
    assert len(squares) == 23 and "c3" not in squares and "a1" not in squares


def test_placing_again_after_set_up_is_refused() -> None:
    state = play(new_game(2), (0, Place(square="a1")), (1, Place(square="b1")))
    with refused_with("all_placed"):
        GAME.apply(state, 0, Place(square="d4"), T0)
