"""The Game interface: standings, and `apply` as the one safe way to change a state (tested on a tiny game)."""

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field, TypeAdapter

from engine.errors import RuleError
from engine.events import Event, Wait, private, public
from engine.game import Game, Leave, Outcome, Result, rank_by_score
from engine.options import GameOptions
from engine.rng import Rng
from engine.text import seat

NOW = datetime(2025, 1, 1, tzinfo=UTC)


# --- rank_by_score ----------------------------------------------------------------------------------


def test_rank_by_score_orders_best_first() -> None:
    result = rank_by_score({0: 5, 1: 9, 2: 7}, reason="most points")
    assert [(s.seat, s.score, s.rank) for s in result.standings] == [(1, 9, 1), (2, 7, 2), (0, 5, 3)]
    assert result.winners == (1,)
    assert result.reason == "most points"


def test_rank_by_score_shares_ranks_on_ties_and_skips_after_them() -> None:
    result = rank_by_score({0: 4, 1: 9, 2: 9, 3: 4, 4: 1})
    assert [(s.seat, s.rank) for s in result.standings] == [(1, 1), (2, 1), (0, 3), (3, 3), (4, 5)]
    assert result.winners == (1, 2)


def test_rank_by_score_all_tied_share_the_win() -> None:
    assert rank_by_score({0: 0, 1: 0}).winners == (0, 1)


# --- a tiny game ------------------------------------------------------------------------------------


class Add(BaseModel):
    type: Literal["add"] = "add"
    amount: int


class Roll(BaseModel):
    type: Literal["roll"] = "roll"


class Whisper(BaseModel):
    type: Literal["whisper"] = "whisper"


Action = Annotated[Add | Roll | Whisper, Field(discriminator="type")]


class TallyState(BaseModel):
    seats: int = 1
    total: int = 0
    history: list[int] = Field(default_factory=list)
    rng: Rng


class Tally(Game[TallyState, GameOptions]):
    """Everyone adds to a shared total that may not pass 10. `step` mutates first and checks late, on purpose."""

    name = "tally"
    title = "Tally"
    min_seats = 1
    max_seats = 3
    state_model = TallyState
    options_model = GameOptions
    action_adapter: TypeAdapter[Any] = TypeAdapter(Action)

    def setup(self, seats: int, options: GameOptions, seed: int, now: datetime) -> TallyState:
        return TallyState(seats=seats, rng=Rng.from_seed(seed))

    def step(self, state: TallyState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if isinstance(action, Roll):
            state.total += state.rng.randint(1, 3)
            return [public("rolled", f"{seat(actor or 0)} rolled")]
        if isinstance(action, Whisper):
            return [private(actor or 0, "whisper", "psst")]
        state.history.append(action.amount)
        state.total += action.amount
        if state.total > 10:
            state.rng.next_u64()  # a careless step may even touch the generator before refusing
            raise RuleError("That would pass 10 — add less.")
        return [public("added", f"{seat(actor or 0)} added {action.amount}", amount=action.amount)]

    def rng_state(self, state: TallyState) -> int:
        return state.rng.state

    def view(self, state: TallyState, seat: int | None) -> BaseModel:
        return state

    def legal_actions(self, state: TallyState, seat: int | None) -> list[Any]:
        return [Add(amount=n) for n in range(1, 11 - state.total)]

    def waiting_on(self, state: TallyState) -> list[Wait]:
        return []

    def result(self, state: TallyState) -> Result | None:
        return rank_by_score({0: state.total}) if state.total == 10 else None


def test_apply_returns_a_new_state_and_events() -> None:
    game = Tally()
    start = game.setup(1, game.parse_options(), seed=1, now=NOW)
    outcome = game.apply(start, 0, Add(amount=4), NOW)
    assert outcome.state.total == 4 and outcome.state.history == [4]
    assert start.total == 0 and start.history == []
    assert [e.kind for e in outcome.events] == ["added"]
    assert not outcome.used_randomness
    assert not outcome.reveals_hidden


def test_apply_leaves_the_given_state_untouched_when_step_raises() -> None:
    game = Tally()
    state = game.apply(game.setup(1, game.parse_options(), seed=1, now=NOW), 0, Add(amount=8), NOW).state
    before = game.dump_state(state)
    with pytest.raises(RuleError, match="pass 10"):
        game.apply(state, 0, Add(amount=5), NOW)
    assert game.dump_state(state) == before
    assert state.history == [8] and state.total == 8
    assert game.apply(state, 0, Add(amount=2), NOW).state.history == [8, 2]


def test_apply_parses_dicts_and_json() -> None:
    game = Tally()
    start = game.setup(1, game.parse_options(), seed=1, now=NOW)
    assert game.apply(start, 0, {"type": "add", "amount": 2}, NOW).state.total == 2
    assert game.apply(start, 0, '{"type": "add", "amount": 3}', NOW).state.total == 3
    assert game.dump_action(Add(amount=2)) == {"type": "add", "amount": 2}


def test_used_randomness_and_reveals_hidden_are_reported() -> None:
    game = Tally()
    start = game.setup(1, game.parse_options(), seed=1, now=NOW)
    assert game.apply(start, 0, Roll(), NOW).used_randomness
    whisper = game.apply(start, 0, Whisper(), NOW)
    assert whisper.reveals_hidden and not whisper.used_randomness


def test_state_round_trips_through_json() -> None:
    game = Tally()
    state = game.apply(game.setup(1, game.parse_options(), seed=3, now=NOW), 0, Roll(), NOW).state
    again = game.load_state(game.dump_state(state))
    assert again == state
    assert game.apply(again, 0, Roll(), NOW).state == game.apply(state, 0, Roll(), NOW).state


def test_event_visibility() -> None:
    secret = private((1, 2), "hand", "your cards")
    assert not secret.public and secret.visible_to(1) and not secret.visible_to(0) and not secret.visible_to(None)
    assert public("turn").visible_to(None)


def test_options_refuse_a_zero_deadline() -> None:
    with pytest.raises(ValueError):
        Tally().parse_options({"turn_deadline": "PT0S"})
    assert Tally().parse_options({"turn_deadline": "PT2H"}).turn_deadline.total_seconds() == 7200


# --- a player leaving, and standings of a game ended early --------------------------------------------


class ShrinkingTally(Tally):
    """A Tally that goes on without a leaving player, down to one seat."""

    def remove_seat(self, state: TallyState, leaving: int, now: datetime) -> Outcome[TallyState] | None:
        if state.seats <= 2:
            return None
        state.seats -= 1
        return Outcome(state=state, events=[public("left", f"{seat(leaving)} left")])


def test_leave_is_refused_by_default_and_from_players() -> None:
    game = Tally()
    state = game.setup(2, game.parse_options(), seed=1, now=NOW)
    with pytest.raises(RuleError, match="cannot go on"):
        game.apply(state, None, Leave(seat=1), NOW)
    with pytest.raises(RuleError, match="Only a moderator"):
        game.apply(state, 0, Leave(seat=1), NOW)
    with pytest.raises(RuleError, match="no seat 3"):
        game.apply(state, None, Leave(seat=2), NOW)


def test_leave_goes_through_apply_and_the_action_log() -> None:
    game = ShrinkingTally()
    state = game.setup(3, game.parse_options(), seed=1, now=NOW)
    logged = game.dump_action(Leave(seat=0))
    assert logged == {"type": "boardroom.leave", "seat": 0}
    outcome = game.apply(state, None, logged, NOW)
    assert outcome.state.seats == 2 and state.seats == 3
    assert game.parse_action('{"type": "boardroom.leave", "seat": 2}') == Leave(seat=2)
    with pytest.raises(RuleError, match="cannot go on"):
        game.apply(outcome.state, None, Leave(seat=1), NOW)


def test_standings_default_to_everyone_level_until_there_is_a_result() -> None:
    game = Tally()
    state = game.setup(3, game.parse_options(), seed=1, now=NOW)
    assert game.standings(state).winners == (0, 1, 2)
    done = game.apply(state, 0, Add(amount=10), NOW).state
    assert game.standings(done) == game.result(done)
