"""Waits and deadlines: one wait at a time, its deadline from the `now` of the action that began it, and
timeouts that apply the default only while their wait is current."""

from datetime import timedelta

from engine.kkk import actions as A
from engine.kkk.options import KkkOptions
from engine.kkk.waits import WINDOWS

from .helpers import GAME, NOW, Table
from .tables import pending_travel, round_a


def test_the_marker_is_placed_at_random_when_its_deadline_passes() -> None:
    t = Table(GAME.setup(5, KkkOptions(turn_deadline=timedelta(hours=2)), 9, NOW))
    [wait] = GAME.waiting_on(t.state)
    assert wait.until == NOW + timedelta(hours=2) and wait.timeout == A.Timeout(key="marker")
    assert GAME.legal_actions(t.state, None) == [wait.timeout]
    out = GAME.apply(t.state, None, GAME.parse_action(GAME.dump_action(wait.timeout)), wait.until)
    assert out.state.marker is not None and out.state.phase == "turn" and out.used_randomness
    assert out.events[0].public and out.events[0].kind == "marker_placed" and out.events[0].data["by"] is None


def test_a_timer_fired_twice_does_nothing_the_second_time() -> None:
    t = pending_travel()
    [wait] = GAME.waiting_on(t.state)
    t.timeout()
    t.refused(None, wait.timeout, "stale_timer")


def test_passes_do_not_move_the_windows_deadline_but_a_new_window_gets_a_new_one() -> None:
    t = pending_travel()
    [first] = GAME.waiting_on(t.state)
    t.now += timedelta(minutes=3)
    t(0, A.Pass())
    [second] = GAME.waiting_on(t.state)
    assert (second.since, second.until, second.timeout) == (first.since, first.until, first.timeout)
    assert second.seats == (1, 2)
    t(1, A.Pass())
    t(2, A.Pass())
    t.now += timedelta(minutes=1)
    t(0, A.Travel(target=1, family="K"))
    [third] = GAME.waiting_on(t.state)
    assert third.timeout != first.timeout and third.since == t.now
    assert third.until == t.now + WINDOWS["stop"]


def test_the_reaction_time_is_a_game_option() -> None:
    t = round_a()
    t.state.options = KkkOptions(reaction_time=timedelta(hours=6))
    t(3, A.Travel(target=2, family="L"))
    [wait] = GAME.waiting_on(t.state)
    assert wait.until - wait.since == timedelta(hours=6) and wait.kind == "reaction"


def test_nothing_is_awaited_once_the_game_is_over() -> None:
    t = round_a()
    t.state.phase = "over"
    assert GAME.waiting_on(t.state) == [] and GAME.legal_actions(t.state, None) == []
