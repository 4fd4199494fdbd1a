"""Set-up for 3–6 players, the starting player and the marker, and the ordinary turn."""

from collections import Counter

import pytest

from engine.kkk import actions as A
from engine.kkk.cards import DECK_COUNTS, FAMILIES
from engine.kkk.options import KkkOptions
from engine.kkk.table import draw_cards

from .helpers import GAME, NOW, Table, prepared, rng_for_face


@pytest.mark.parametrize(("seats", "each", "beside"), [(3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_setup_deals_investors_and_five_cards(seats: int, each: int, beside: int) -> None:
    for seed in range(5):
        state = GAME.setup(seats, KkkOptions(), seed, NOW)
        owners = Counter(state.investors.values())
        assert all(owners[s] == each for s in range(seats))
        assert owners[None] == beside
        assert all(len(h) == 5 for h in state.hands)
        assert len(state.draw) == 98 - 5 * seats
        assert Counter(state.draw) + sum((Counter(h) for h in state.hands), Counter()) == DECK_COUNTS
        assert state.money == [0] * seats and state.deals == 0 and state.marker is None


def test_starting_player_holds_the_first_investor_alphabetically_and_the_right_neighbour_places_the_marker() -> None:
    for seed in range(10):
        state = GAME.setup(4, KkkOptions(), seed, NOW)
        first = next(f for f in FAMILIES if state.investors[f] is not None)
        assert state.turn == state.investors[first]
        assert state.placer == (state.turn - 1) % 4
        [wait] = GAME.waiting_on(state)
        assert wait.seats == (state.placer,) and wait.until == NOW + KkkOptions().turn_deadline
        assert GAME.legal_actions(state, state.turn) == []


def test_setup_is_deterministic_per_seed() -> None:
    a = GAME.setup(5, KkkOptions(), 11, NOW)
    b = GAME.setup(5, KkkOptions(), 11, NOW)
    c = GAME.setup(5, KkkOptions(), 12, NOW)
    assert a == b and a != c


def test_setup_events_name_the_starting_player_and_the_placer() -> None:
    state = GAME.setup(3, KkkOptions(), 1, NOW)
    events = GAME.setup_events(state)
    assert all(e.public for e in events)
    assert events[1].data == {"starter": state.turn, "placer": state.placer}


def test_placing_the_marker_starts_the_first_turn() -> None:
    t = Table(GAME.setup(4, KkkOptions(), 3, NOW))
    starter = t.state.turn
    t(t.state.placer, A.PlaceMarker(space=5))
    assert t.state.marker == 5 and t.state.phase == "turn" and t.state.turn == starter
    assert GAME.legal_actions(t.state, starter) == [A.Open(), A.Roll()]


def test_roll_moves_clockwise_skipping_tiles_then_draw_passes_left() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    state = prepared(4, investors, [[], [], [], []], deals=3, marker=15, done_spaces=[16, 2, 3])
    state.rng = rng_for_face(3)
    t = Table(state)
    t(0, A.Roll())
    assert t.state.marker == 5  # 15 -> (16 skipped) 1, (2, 3 skipped) 4, 5
    assert t.state.phase == "rolled" and t.state.last_roll == 3
    t(0, A.Draw())
    assert len(t.state.hands[0]) == 3 and t.state.turn == 1 and t.state.phase == "turn"
    private = [e for e in t.events if e.kind == "drew"]
    assert [e.to for e in private] == [(0,)] and sorted(private[0].data["cards"]) == t.state.hands[0]  # type: ignore[arg-type]
    public_draw = next(e for e in t.events if e.kind == "draw")
    assert public_draw.public and "cards" not in public_draw.data


def test_open_after_rolling_opens_the_new_space() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    state = prepared(4, investors, [[], [], [], []], marker=1)
    state.rng = rng_for_face(2)
    t = Table(state)
    t(0, A.Roll())
    t(0, A.Open())
    assert t.state.round is not None and t.state.round.space == 3 and t.state.round.boss == 0


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, [[], [], [], []], marker=1))
    t.state.discard = t.state.draw[:-1]
    t.state.draw = t.state.draw[-1:]
    t(0, A.Roll())
    t(0, A.Draw())
    assert len(t.state.hands[0]) == 3 and len(t.state.draw) == 98 - 3 and t.state.discard == []
    assert any(e.kind == "reshuffle" for e in t.events)


def test_drawing_stops_when_both_piles_are_empty() -> None:
    """Unreachable in a legal game (98 cards, at most 6 × 12 in hands), so the draw itself is checked."""
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    state = prepared(4, investors, [[], [], [], []], marker=1)
    state.draw = state.draw[:2]
    events = draw_cards(state, 0)
    assert len(state.hands[0]) == 2 and state.draw == []
    assert [e.kind for e in events] == ["draw", "drew", "piles_empty"]


def test_a_failed_round_passes_the_turn_left_of_the_boss_who_may_not_roll() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, [[], [], [], []], marker=1))
    t(0, A.Roll())
    t(0, A.Open())
    t(0, A.Fail())
    assert t.state.turn == 1 and t.state.phase == "turn" and t.state.round is None
    t.refused(0, A.Roll(), r"not_your_turn\(turn=1, move='roll'\)")
    t.refused(0, A.Draw(), r"not_your_turn\(turn=1, move='draw'\)")
    t(1, A.Roll())
