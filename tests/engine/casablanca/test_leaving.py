"""A player who leaves: bribes stay and count for nobody, the variant's HQ becomes ordinary, waits move on."""

from datetime import timedelta

from engine.casablanca.actions import ChooseHq, NoObjection, Object
from engine.game import Leave

from .helpers import GAME, PURPLE, Table, new_game, opened


def leave(table: Table, seat: int) -> list:  # type: ignore[type-arg]
    table.now += timedelta(seconds=1)
    out = GAME.apply(table.state, None, Leave(seat=seat), table.now)
    table.state = out.state
    return out.events


def test_a_player_who_leaves_keeps_their_bribes_on_the_agents_but_cannot_win() -> None:
    table = opened(3, s1={"purple": 5_000, "green": 100, "blue": 100})
    leave(table, 1)
    assert table.state.bribes[1][PURPLE] == 5_000 and table.state.left == [1]
    result = GAME.standings(table.state)
    assert result.standings[-1].seat == 1 and 1 not in result.winners


def test_the_active_players_announcement_is_off_when_they_leave() -> None:
    table = opened(3)
    table.move(0, "red", "2")
    events = leave(table, 0)
    assert table.state.at[4] == "Airport" and table.state.turn == 1 and table.state.phase == "turn"
    assert any(e.kind == "undone" for e in events)


def test_an_awaited_player_leaving_closes_the_window_when_everyone_else_has_answered() -> None:
    table = opened(3)
    table.move(0, "red", "2")
    table.do(1, NoObjection())
    leave(table, 2)
    assert table.state.at[4] == "2" and table.state.turn == 1


def test_the_objector_being_taken_leaves_and_the_next_one_is_taken() -> None:
    table = opened(3, s1={"red": 300, "green": 100, "blue": 100}, s2={"red": 300, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    table.do(1, Object(limit=300))
    table.do(2, Object(limit=300))
    leave(table, 1)
    assert table.state.phase == "contest" and table.state.objections[0].seat == 2


def test_with_two_players_the_game_cannot_go_on() -> None:
    table = opened(2)
    assert GAME.remove_seat(table.state.model_copy(deep=True), 1, table.now) is None


def test_in_the_variant_their_hq_becomes_an_ordinary_building() -> None:
    table = Table(new_game(3, variant="hq", first=None))
    table.do(0, ChooseHq(hq="Hotel"))
    table.do(1, ChooseHq(hq="Police Station"))
    table.do(2, ChooseHq(hq="Airport"))
    events = leave(table, 2)
    assert "Airport" not in table.state.hq_owner
    assert (events[0].kind, events[0].data) == ("left", {"seat": 2, "hq": "Airport"})


def test_the_next_objector_taken_after_a_departure_gets_a_fresh_deadline() -> None:
    """From the rules review: when the objector being taken leaves, the contest against the next one is a new
    question with a full reaction time, not the rest of the old one."""
    t = opened(4)
    t.move(0, "green", "8")
    t.objections({1: 100, 2: 100, 3: None})
    first = t.state.deadline
    assert first is not None
    t.now += timedelta(seconds=50)
    t.state = GAME.apply(t.state, None, Leave(seat=1), t.now).state
    assert t.state.phase == "contest" and t.state.objections[0].seat == 2
    assert t.state.deadline is not None and t.state.deadline.key != first.key
    assert t.state.deadline.since == t.now
