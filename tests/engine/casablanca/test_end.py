"""The end of the game beyond the rulebook's example: the last-agent rule, a hit on the carrier, the variant's
"not into someone else's HQ", and the standings of a game a moderator ends early."""

from engine.casablanca.state import CasablancaState

from .helpers import GAME, GREEN, PURPLE, RED, opened


def only_green_and_purple_left(state: CasablancaState) -> None:
    """Set-up by hand: every agent but Don Greenwood and Lila Sheela (both in Rick's Café) is out."""
    for agent in range(2, 8):
        state.at[agent] = None


def test_the_last_agent_ends_the_game_when_it_can_no_longer_end_it_by_the_suitcase() -> None:
    table = opened(3, s0={"green": 1_500, "purple": 100, "blue": 100}, s1={"green": 1_800, "red": 100, "blue": 100})
    only_green_and_purple_left(table.state)
    table.hit(0, "green", "purple")
    events = table.nobody_objects()
    state = table.state
    assert state.phase == "over" and state.winner_agent == GREEN and state.winners == [1]
    won = next(e for e in events if e.kind == "won")
    assert won.data["reason"] == "last_agent" and won.data["agent"] == GREEN and won.data["amount"] == 1_800
    assert state.end_reason == "last_agent"
    result = GAME.result(state)
    assert result is not None and [s.score for s in result.standings] == [1_800, 500, 100]


def test_the_last_agent_plays_on_when_two_agents_have_carried_the_suitcase() -> None:
    table = opened(2, s0={"green": 1_500, "purple": 100, "blue": 100})
    only_green_and_purple_left(table.state)
    table.state.carried_by = [PURPLE, GREEN]
    table.hit(0, "green", "purple")
    table.nobody_objects()
    assert table.state.phase == "turn" and table.state.in_game() == [GREEN]


def test_a_hit_carrier_leaves_the_suitcase_in_its_building() -> None:
    table = opened(2, s0={"green": 1_500, "purple": 100, "blue": 100})
    state = table.state
    state.suitcase, state.carrier, state.carried_by = None, PURPLE, [PURPLE]
    table.hit(0, "green", "purple")
    events = table.nobody_objects()
    assert table.state.carrier is None and table.state.suitcase == "Rick's Café"
    hit = next(e for e in events if e.kind == "hit")
    assert hit.data["dropped"] is True and hit.data["where"] == "Rick's Café"


def test_a_game_ended_early_ranks_money_on_the_agents_still_in_it() -> None:
    table = opened(3, s0={"green": 300, "purple": 300, "blue": 300}, s1={"red": 2_000, "green": 100, "blue": 100})
    result = GAME.standings(table.state)
    assert result.reason == "ended early" and result.winners == (1,)
    assert {s.seat: s.score for s in result.standings} == {0: 900, 1: 2_200, 2: 300}


def test_a_last_agent_that_can_still_become_the_second_carrier_plays_on() -> None:
    """From the rules review: the last agent ends the game only when it can no longer end it; if another agent
    carried the suitcase before, the last one can still pick it up as the second carrier and bring it home."""
    t = opened(3, s0={"green": 1000, "purple": 100, "blue": 100})
    for a in range(2, 8):
        t.state.at[a] = None  # hit earlier
    t.state.carried_by = [RED]
    t.hit(0, "green", "purple")
    t.nobody_objects()
    assert t.state.phase != "over"


def test_a_last_agent_that_can_never_make_two_carriers_ends_the_game() -> None:
    t = opened(3, s0={"green": 1000, "purple": 100, "blue": 100})
    for a in range(2, 8):
        t.state.at[a] = None
    t.state.carried_by = [GREEN]
    t.hit(0, "green", "purple")
    t.nobody_objects()
    assert t.state.phase == "over"
