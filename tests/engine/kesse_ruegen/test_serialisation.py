"""The game as the platform sees it: registered by name, actions and states through JSON and back."""

import json

import pytest
from pydantic import ValidationError

from engine import registry
from engine.errors import RuleError
from engine.kesse_ruegen.actions import Challenge, Choose, Done, Evict, Guess, Move, Place, Plant, Reclaim, Timeout
from engine.kesse_ruegen.rules import KesseRuegen

from .helpers import GAME, T0, arrange, placed, play, refused_with


def test_registered_under_its_name() -> None:
    game = registry.get("kesse_ruegen")
    assert isinstance(game, KesseRuegen) and game.title == "Kesse Rügen"
    assert (game.min_seats, game.max_seats) == (2, 4)


@pytest.mark.parametrize(
    "action",
    [
        Place(square="b2"),
        Challenge(opponent=1),
        Choose(tubers=2),
        Guess(total=4),
        Plant(),
        Move(direction="se"),
        Evict(),
        Reclaim(),
        Done(),
        Timeout(key="3:act:1"),
    ],
)
def test_every_action_round_trips(action: object) -> None:
    data = GAME.dump_action(action)
    assert GAME.parse_action(data) == action
    assert GAME.parse_action(json.dumps(data)) == action


def test_a_direction_may_be_typed_in_capitals_but_must_exist() -> None:
    assert GAME.parse_action({"type": "move", "direction": " NW"}) == Move(direction="nw")
    with pytest.raises(RuleError, match="direction"):
        GAME.parse_action({"type": "move", "direction": "up"})


def test_a_state_mid_duel_round_trips_and_plays_on_identically() -> None:
    state = play(placed(3), (0, Challenge(opponent=2)), (2, Choose(tubers=1)))
    again = GAME.load_state(GAME.dump_state(state))
    assert again == state
    moves = [(0, Choose(tubers=2)), (0, Guess(total=3)), (2, Guess(total=1))]
    assert GAME.dump_state(play(again, *moves)) == GAME.dump_state(play(state, *moves))


def test_waits_and_views_dump_to_json() -> None:
    state = placed(2)
    waits = [json.loads(w.model_dump_json()) for w in GAME.waiting_on(state)]
    assert [w["timeout"] for w in waits] == [{"type": "timeout", "key": f"{state.wait_no}:choose:{s}"} for s in (0, 1)]
    assert GAME.parse_action(waits[0]["timeout"]) == GAME.waiting_on(state)[0].timeout
    assert json.loads(GAME.view(state, 1).model_dump_json())["seat"] == 1


def test_options_come_from_json() -> None:
    options = GAME.parse_options({"first_seat": 1, "turn_deadline": "PT12H"})
    state = GAME.setup(2, options, 5, T0)
    assert state.turn == 1 and GAME.waiting_on(state)[0].until.hour == 0
    with pytest.raises(ValidationError):
        GAME.parse_options({"first_seat": -1})


def test_a_snapshot_from_before_shared_wins_loads_and_keeps_its_winner() -> None:
    """Snapshots stored before issue 9 have no `winners` or `stalled`: a game in progress plays on, a won game
    keeps its winner."""
    stored = json.loads(GAME.dump_state(arrange(placed(3), tubers={"b2": 0})))
    del stored["winners"], stored["stalled"]
    state = GAME.load_state(json.dumps(stored))
    assert state.winners == [] and not state.stalled  # type: ignore[attr-defined]
    GAME.apply(state, 0, Challenge(opponent=1), T0)
    stored.update(phase="over", winner=0)
    won = GAME.load_state(json.dumps(stored))
    result = GAME.result(won)
    assert result is not None and result.winners == (0,)
    assert GAME.view(won, None).winners == (0,)  # type: ignore[attr-defined]
    with refused_with("game_over", winners=[0]):
        GAME.apply(won, 1, Challenge(opponent=0), T0)
