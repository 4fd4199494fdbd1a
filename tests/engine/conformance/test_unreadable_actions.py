"""Every game refuses an action it can't read — an unknown move, a missing or malformed field, an extra field, text
that isn't JSON, another game's action — with its `RuleError`, coded and with values for the bot's words, leaving the
state as it was (issue 23, part 6). One mechanism (`Game.parse_action`) serves every registered game."""

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel

from engine import registry
from engine.errors import MALFORMED_ACTION, UNKNOWN_ACTION, RuleError

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
GAMES = sorted(registry.games())


class Stranger(BaseModel):
    """An action model that belongs to no game."""

    type: str = "stranger"


def started(name: str) -> tuple[Any, Any, int, dict[str, Any]]:
    """A game just set up, a seat it waits on, and one of that seat's legal moves as JSON data."""
    game = registry.get(name)
    state = game.setup(game.min_seats, game.parse_options({}), 7, NOW)
    seat = game.waiting_on(state)[0].seats[0]
    return game, state, seat, game.dump_action(game.legal_actions(state, seat)[0])


def refused(game: Any, state: Any, seat: int, action: Any) -> RuleError:
    before = game.dump_state(state)
    with pytest.raises(RuleError) as caught:
        game.apply(state, seat, action, NOW)
    assert game.dump_state(state) == before
    assert "pydantic" not in caught.value.message and "http" not in caught.value.message
    return caught.value


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_move_is_a_rule_error_naming_the_game_s_moves(name: str) -> None:
    game, state, seat, legal = started(name)
    error = refused(game, state, seat, {"type": "fly"})
    assert error.code == UNKNOWN_ACTION and error.values["move"] == "fly"
    assert legal["type"] in error.values["moves"] and "fly" in error.message
    missing = refused(game, state, seat, {k: v for k, v in legal.items() if k != "type"} or {"nothing": 1})
    assert missing.code == UNKNOWN_ACTION and missing.values["move"] is None


@pytest.mark.parametrize("name", GAMES)
def test_a_move_with_malformed_or_extra_fields_is_a_rule_error_naming_the_field(name: str) -> None:
    game, state, seat, legal = started(name)
    fields = [k for k in legal if k != "type"]
    if fields:  # a field of the wrong shape
        error = refused(game, state, seat, {**legal, fields[0]: {"not": "this"}})
        assert error.code == MALFORMED_ACTION and error.values["field"] == fields[0]
        assert fields[0] in error.message
    extra = refused(game, state, seat, {**legal, "sneaky": 1})
    assert extra.code == MALFORMED_ACTION and extra.values["field"] == "sneaky"
    assert extra.values["problem"] == "extra_forbidden"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action", ["{not json", "[1, 2]", 42, None, Stranger()])
def test_anything_that_is_no_move_of_the_game_is_a_rule_error(name: str, action: Any) -> None:
    game, state, seat, _ = started(name)
    error = refused(game, state, seat, action)
    assert error.code in (UNKNOWN_ACTION, MALFORMED_ACTION)


@pytest.mark.parametrize("name", GAMES)
def test_a_readable_move_still_goes_through(name: str) -> None:
    game, state, seat, legal = started(name)
    assert game.apply(state, seat, legal, NOW).state != state
