"""The conformance suite: what every registered game must do, checked the same way for each (as OpenSpiel tests all
its games). A new game gets it by registering (`engine.registry`); its own rules are tested beside it.

Over seeded tables of random legal play (`table.play`), for every game and every seat count it allows:

- determinism: the same seed gives the same states, events and log;
- replay: the set-up and the log, applied again, give the same state (what undo, verify and import rely on);
- snapshots: every state survives its JSON round trip, and play goes on from the copy exactly as from the original;
- the legal actions are accepted: whatever `legal_actions` offers a seat is applied without a rule error;
- the clock can always move the game: every wait names who is awaited, ends after it began, and its timeout is
  accepted at its deadline (so a table never stalls on an absent player);
- views: the public view and each seat's view are produced at every step and survive JSON, and no event addressed
  to one seat is shown to the table;
- the game's computer players, at every level, choose only actions the rules accept, and a table of them ends by
  the rules.

Twin tables (two games differing only in hidden information look the same publicly, deadlines included) are
`test_twin_timeouts.py`'s, beside this suite.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.errors import RuleError
from engine.game import Game
from engine.policy import LEVELS, Level, policy_for

from .table import Played, Step, by_policy, play

GAMES = sorted(registry.games())
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seat_counts(name: str) -> st.SearchStrategy[int]:
    game = registry.get(name)
    low, high = game.seat_range(game.parse_options())
    return st.integers(low, high)


def table(name: str, seats: int, seed: int, **kwargs: object) -> Played:
    return play(registry.get(name), seats, seed, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_same_seed_plays_the_same_game(name: str, data: st.DataObject, seed: int) -> None:
    seats = data.draw(seat_counts(name))
    game = registry.get(name)
    one, two = table(name, seats, seed, cap=120), table(name, seats, seed, cap=120)
    assert game.dump_state(one.state) == game.dump_state(two.state)
    assert [(s.actor, game.dump_action(s.action), s.now, s.events) for s in one.steps] == [
        (s.actor, game.dump_action(s.action), s.now, s.events) for s in two.steps
    ]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_replay_of_the_log_gives_the_same_game(name: str, data: st.DataObject, seed: int) -> None:
    seats = data.draw(seat_counts(name))
    game = registry.get(name)
    played = table(name, seats, seed, cap=200)
    state = played.first
    for step in played.steps:
        # The log stores actions as JSON: the replay reads them back the same way.
        outcome = game.apply(state, step.actor, game.dump_action(step.action), step.now)
        assert outcome.events == step.events
        state = outcome.state
    assert game.dump_state(state) == game.dump_state(played.state)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_every_state_survives_its_snapshot(name: str, data: st.DataObject, seed: int) -> None:
    seats = data.draw(seat_counts(name))
    game = registry.get(name)

    def check(before: object, step: Step) -> None:
        copy = game.load_state(game.dump_state(before))
        assert copy == before
        again = game.apply(copy, step.actor, step.action, step.now)
        assert again.events == step.events  # play goes on from the snapshot as from the original

    table(name, seats, seed, cap=150, on_step=check)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_and_every_timeout_is_accepted(name: str, data: st.DataObject, seed: int) -> None:
    seats = data.draw(seat_counts(name))
    game: Game = registry.get(name)  # type: ignore[type-arg]

    def check(before: object, step: Step) -> None:
        for seat in range(game.seat_count(before)):
            for action in game.legal_actions(before, seat)[:8]:
                try:
                    game.apply(before, seat, action, step.now)
                except RuleError as exc:
                    raise AssertionError(f"seat {seat}'s legal {action!r} refused: {exc}") from None
        for wait in game.waiting_on(before):
            assert wait.seats or wait.kind, f"a wait that names nobody and nothing: {wait!r}"
            assert wait.until > wait.since, f"a deadline that ends before it begins: {wait!r}"
            try:
                game.apply(before, None, wait.timeout, max(step.now, wait.until))
            except RuleError as exc:
                raise AssertionError(f"the timeout {wait.timeout!r} of {wait.what!r} refused: {exc}") from None

    table(name, seats, seed, cap=100, on_step=check)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_views_are_made_at_every_step_and_private_events_stay_private(
    name: str, data: st.DataObject, seed: int
) -> None:
    seats = data.draw(seat_counts(name))
    game: Game = registry.get(name)  # type: ignore[type-arg]

    def check(before: object, step: Step) -> None:
        public = game.view(before, None)
        type(public).model_validate_json(public.model_dump_json())
        for seat in range(game.seat_count(before)):
            own = game.seat_view(before, seat, public)
            assert own == game.view(before, seat)  # the shortcut gives the same view
            type(own).model_validate_json(own.model_dump_json())
        for event in step.events:
            if event.to is not None:
                assert not event.reveals, f"an event for some seats marked as shown to the table: {event!r}"

    table(name, seats, seed, cap=100, on_step=check)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", GAMES)
def test_a_table_of_computer_players_ends_by_the_rules(name: str, level: Level) -> None:
    """A table of computer players of one level, at every seat count the game allows: each choice is one the rules
    accept, and the table ends by the rules (a stronger player that never ends its tables is no player)."""
    game = registry.get(name)
    assert policy_for(game, level) is not None, f"{name} has no computer player"
    low, high = game.seat_range(game.parse_options())
    ended = 0
    for seed, seats in enumerate(range(low, high + 1)):
        played = table(name, seats, seed, chooser=by_policy(level), cap=3000)
        ended += played.over
    assert ended == high - low + 1, f"{name}: {ended} of {high - low + 1} tables of {level} computer players ended"
