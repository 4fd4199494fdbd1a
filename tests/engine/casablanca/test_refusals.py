"""Every refusal is a rule error with a code and the values its words need (the bot words it, naming the fix),
leaves the state alone and never carries anyone's real bribe or capital."""

import pytest

from engine.casablanca.actions import Bribe, Contest, EndTurn, Hit, Move, NoObjection, Object, Withdraw
from engine.errors import RuleError

from .helpers import GAME, Table, new_game, opened


def refused(table: Table, seat: int, action: object) -> RuleError:
    before = table.state.model_dump_json()
    with pytest.raises(RuleError) as info:
        GAME.apply(table.state, seat, action, table.now)
    assert table.state.model_dump_json() == before
    return info.value


def no_money_in(error: RuleError, *amounts: int) -> None:
    for amount in amounts:
        assert amount not in error.values.values(), error.values


def test_too_little_capital_is_refused_without_saying_how_much_is_left() -> None:
    table = opened(2, s0={"green": 3_700, "purple": 100, "blue": 100})
    error = refused(table, 0, Bribe(amounts={"red": 6_200}))
    assert error.code == "not_enough_capital" and error.values == {}


def test_a_first_turn_must_bribe_three_agents_and_nothing_else() -> None:
    table = Table(new_game(2))
    assert refused(table, 0, Bribe(amounts={"green": 500, "red": 500})).code == "first_bribe_three"
    assert refused(table, 0, Move(agent="green", to="8")).code == "first_turn_bribe"


def test_bribes_go_in_steps_of_100_on_agents_still_in_the_game() -> None:
    table = opened(2)
    error = refused(table, 0, Bribe(amounts={"green": 150}))
    assert error.code == "not_in_steps" and error.values["what"] == "bribe"
    error = refused(table, 0, Bribe(amounts={"pink": 100}))
    assert error.code == "no_such_agent" and error.values["name"] == "pink" and "green" in error.values["colours"]


def test_a_limit_above_your_bribe_is_refused_without_stating_it() -> None:
    table = opened(2, s0={"purple": 400, "green": 100, "blue": 100}, s1={"purple": 700, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    error = refused(table, 1, Object(limit=800))
    assert error.code == "limit_above_bribe" and error.values == {"agent": 1}
    table.do(1, Object(limit=700))
    error = refused(table, 0, Contest(limit=500))
    assert error.code == "limit_above_bribe"
    no_money_in(error, 400)


def test_a_hit_needs_1000_on_the_hitter() -> None:
    table = opened(2, s0={"green": 900, "purple": 100, "blue": 100})
    error = refused(table, 0, Hit(agent="green", victim="purple"))
    assert error.code == "hit_needs_money" and error.values == {"agent": 0, "cost": 1_000}
    no_money_in(error, 900)


def test_moving_and_hitting_are_separate_turns_and_one_hit_per_turn() -> None:
    table = opened(2, s0={"green": 2_500, "purple": 100, "blue": 100})
    table.move(0, "blue", "1")
    table.nobody_objects()
    error = refused(table, 0, Hit(agent="green", victim="purple"))
    assert error.code == "separate_turns" and error.values == {"deed": "move"}
    table.bribe(1, red=100)
    table.hit(0, "green", "purple")
    table.nobody_objects()
    assert refused(table, 0, Hit(agent="green", victim="blue")).code == "one_hit_per_turn"


def test_an_agent_hits_only_in_its_own_building_and_moves_only_along_a_street() -> None:
    table = opened(2, s0={"green": 2_500, "purple": 100, "blue": 100})
    error = refused(table, 0, Hit(agent="green", victim="red"))
    assert error.code == "not_together" and error.values == {"agent": 0, "victim": 4, "building": "Rick's Café"}
    error = refused(table, 0, Move(agent="red", to="7"))
    assert error.code == "not_adjacent"
    assert error.values == {"agent": 4, "source": "Airport", "to": "7", "ways": ["2", "6"]}
    error = refused(table, 0, Move(agent="red", to="2", suitcase=True))
    assert error.code == "no_suitcase_here" and error.values == {"agent": 4, "source": "Airport"}


def test_after_a_successful_objection_no_bribe_and_not_the_same_announcement_again() -> None:
    table = opened(2, s0={"purple": 100, "green": 100, "blue": 100}, s1={"purple": 500, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    table.do(1, Object(limit=500))
    table.do(0, Withdraw())
    assert refused(table, 0, Bribe(amounts={"red": 100})).code == "no_bribe_after_objection"
    assert refused(table, 0, Move(agent="purple", to="8")).code == "already_stopped"
    table.move(0, "purple", "10")  # a different move is fine
    table.nobody_objects()
    assert table.state.turn == 1


def test_ending_a_turn_needs_a_successful_objection_first() -> None:
    table = opened(2)
    assert refused(table, 0, EndTurn()).code == "end_turn_needs_objection"


def test_out_of_turn_and_out_of_phase_actions_say_what_the_game_waits_for() -> None:
    table = opened(3)
    error = refused(table, 1, Bribe(amounts={"red": 100}))
    assert error.code == "not_your_turn" and error.values == {"seat": 0}
    assert refused(table, 1, NoObjection()).code == "nothing_to_object_to"
    table.move(0, "red", "2")
    assert refused(table, 0, Object(limit=0)).code == "own_announcement"
    assert refused(table, 0, Move(agent="red", to="6")).code == "announced_already"
    assert refused(table, 1, Move(agent="red", to="6")).code == "waiting_for_objections"
    assert refused(table, 0, Contest(limit=0)).code == "no_objection_to_answer"


def test_no_refusal_met_in_random_play_states_a_real_bribe() -> None:
    """Every action refused across a random game: the message never names a hidden amount of another seat."""
    from engine.casablanca.randomplay import play

    errors: list[RuleError] = []

    def probe(state, actor, action, outcome, now) -> None:  # type: ignore[no-untyped-def]
        for seat in range(state.seats):
            for attempt in (Object(limit=9_900), Contest(limit=9_900), Bribe(amounts={"green": 9_900})):
                try:
                    GAME.apply(state, seat, attempt, now)
                except RuleError as exc:
                    errors.append(exc)

    play(GAME, 3, 5, on_step=probe, max_actions=150)
    codes = {e.code for e in errors}
    assert {"limit_above_bribe", "not_enough_capital"} <= codes
    for error in errors:  # every refusal has a code; the only sums it carries are the rules' own or the player's
        assert error.code, error.message
        assert not {"capital", "bribe", "limit"} & set(error.values), error.values


def test_the_same_move_is_not_announced_again_by_leaving_the_suitcase_behind() -> None:
    """From the rules review: after a successful objection, "not the same agent to the same place" holds whether or
    not the suitcase goes along."""
    t = opened(3, s0={"green": 100, "purple": 100, "blue": 100}, s1={"green": 500, "purple": 100, "blue": 100})
    t.state.suitcase = "Rick's Café"  # lying where green stands
    t.move(0, "green", "8", suitcase=True)
    t.objections({1: 500, 2: None})
    t.contest(100)
    with pytest.raises(RuleError):
        t.move(0, "green", "8", suitcase=False)
