"""The end of the game beyond the rulebook's example: the last-agent rule, a hit on the carrier, the variant's
"not into someone else's HQ", and the standings of a game a moderator ends early."""

from engine.casablanca.state import CasablancaState

from .helpers import GAME, GREEN, PURPLE, opened


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
    assert "Don Greenwood is the last agent left and can no longer end the game" in won.text
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
    assert "The suitcase stays in Rick's Café." in next(e.text for e in events if e.kind == "hit")


def test_a_game_ended_early_ranks_money_on_the_agents_still_in_it() -> None:
    table = opened(3, s0={"green": 300, "purple": 300, "blue": 300}, s1={"red": 2_000, "green": 100, "blue": 100})
    result = GAME.standings(table.state)
    assert result.reason == "ended early" and result.winners == (1,)
    assert {s.seat: s.score for s in result.standings} == {0: 900, 1: 2_200, 2: 300}
