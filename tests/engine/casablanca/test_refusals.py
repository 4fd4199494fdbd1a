"""Every refusal is a rule error a player can read, names the fix, leaves the state alone and never states anyone's
real bribe or capital."""

import re

import pytest

from engine.casablanca.actions import Bribe, Contest, EndTurn, Hit, Move, NoObjection, Object, Withdraw
from engine.errors import RuleError

from .helpers import GAME, Table, new_game, opened


def refused(table: Table, seat: int, action: object) -> str:
    before = table.state.model_dump_json()
    with pytest.raises(RuleError) as info:
        GAME.apply(table.state, seat, action, table.now)
    assert table.state.model_dump_json() == before
    return info.value.message


def no_money_in(message: str, *amounts: int) -> None:
    for amount in amounts:
        assert f"{amount:,}" not in message and str(amount) not in message, message


def test_too_little_capital_is_refused_without_saying_how_much_is_left() -> None:
    table = opened(2, s0={"green": 3_700, "purple": 100, "blue": 100})
    message = refused(table, 0, Bribe(amounts={"red": 6_200}))
    assert "don't have that much capital" in message
    no_money_in(message, 6_100, 6_200)


def test_a_first_turn_must_bribe_three_agents_and_nothing_else() -> None:
    table = Table(new_game(2))
    assert "at least three different agents" in refused(table, 0, Bribe(amounts={"green": 500, "red": 500}))
    assert "first turn is a bribe" in refused(table, 0, Move(agent="green", to="8"))


def test_bribes_go_in_steps_of_100_on_agents_still_in_the_game() -> None:
    table = opened(2)
    assert "steps of $100" in refused(table, 0, Bribe(amounts={"green": 150}))
    assert "no agent “pink”" in refused(table, 0, Bribe(amounts={"pink": 100}))


def test_a_limit_above_your_bribe_is_refused_without_stating_it() -> None:
    table = opened(2, s0={"purple": 400, "green": 100, "blue": 100}, s1={"purple": 700, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    message = refused(table, 1, Object(limit=800))
    assert "can't claim more than you have on Lila Sheela" in message
    no_money_in(message, 700)
    table.do(1, Object(limit=700))
    message = refused(table, 0, Contest(limit=500))
    assert "can't claim more than you have" in message
    no_money_in(message, 400)


def test_a_hit_needs_1000_on_the_hitter() -> None:
    table = opened(2, s0={"green": 900, "purple": 100, "blue": 100})
    message = refused(table, 0, Hit(agent="green", victim="purple"))
    assert "at least $1,000 on Don Greenwood" in message
    no_money_in(message, 900)


def test_moving_and_hitting_are_separate_turns_and_one_hit_per_turn() -> None:
    table = opened(2, s0={"green": 2_500, "purple": 100, "blue": 100})
    table.move(0, "blue", "1")
    table.nobody_objects()
    assert "Moving and hitting are separate turns" in refused(table, 0, Hit(agent="green", victim="purple"))
    table.bribe(1, red=100)
    table.hit(0, "green", "purple")
    table.nobody_objects()
    assert "One hit per turn" in refused(table, 0, Hit(agent="green", victim="blue"))


def test_an_agent_hits_only_in_its_own_building_and_moves_only_along_a_street() -> None:
    table = opened(2, s0={"green": 2_500, "purple": 100, "blue": 100})
    assert "isn't in Rick's Café" in refused(table, 0, Hit(agent="green", victim="red"))
    message = refused(table, 0, Move(agent="red", to="7"))
    assert message == "Rudy Red can't get from the Airport to house 7 in one move — try house 2 and house 6."
    assert "suitcase isn't in the Airport" in refused(table, 0, Move(agent="red", to="2", suitcase=True))


def test_after_a_successful_objection_no_bribe_and_not_the_same_announcement_again() -> None:
    table = opened(2, s0={"purple": 100, "green": 100, "blue": 100}, s1={"purple": 500, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    table.do(1, Object(limit=500))
    table.do(0, Withdraw())
    assert "can't bribe any more" in refused(table, 0, Bribe(amounts={"red": 100}))
    assert "already stopped that" in refused(table, 0, Move(agent="purple", to="8"))
    table.move(0, "purple", "10")  # a different move is fine
    table.nobody_objects()
    assert table.state.turn == 1


def test_ending_a_turn_needs_a_successful_objection_first() -> None:
    table = opened(2)
    assert "only after an objection" in refused(table, 0, EndTurn())


def test_out_of_turn_and_out_of_phase_actions_say_what_the_game_waits_for() -> None:
    table = opened(3)
    assert refused(table, 1, Bribe(amounts={"red": 100})) == "It's {seat:0}'s turn."
    assert "nothing to object to" in refused(table, 1, NoObjection())
    table.move(0, "red", "2")
    assert "own announcement" in refused(table, 0, Object(limit=0))
    assert "waiting for objections" in refused(table, 0, Move(agent="red", to="6"))
    assert "no objection for you to answer" in refused(table, 0, Contest(limit=0))


def test_no_refusal_met_in_random_play_states_a_real_bribe() -> None:
    """Every action refused across a random game: the message never names a hidden amount of another seat."""
    from engine.casablanca.randomplay import play

    messages: list[str] = []

    def probe(state, actor, action, outcome, now) -> None:  # type: ignore[no-untyped-def]
        for seat in range(state.seats):
            for attempt in (Object(limit=9_900), Contest(limit=9_900), Bribe(amounts={"green": 9_900})):
                try:
                    GAME.apply(state, seat, attempt, now)
                except RuleError as exc:
                    messages.append(exc.message)

    play(GAME, 3, 5, on_step=probe, max_actions=150)
    assert any("can't claim more than you have" in m for m in messages)
    assert any("don't have that much capital" in m for m in messages)
    for message in messages:  # the only sums a refusal names are the rules' own: $100 steps, the $1,000 of a hit
        assert not re.search(r"\$\d", message.replace("$100", "").replace("$1,000", "")), message


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
