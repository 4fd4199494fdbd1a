"""Deadlines: one objection window for everyone with one deadline, nothing closing early, and each default."""

from datetime import timedelta

import pytest

from engine.casablanca.actions import NoObjection, Object, Timeout
from engine.errors import RuleError

from .helpers import GAME, GREEN, T0, Table, clock_key, new_game, opened


def test_every_other_player_is_asked_at_once_with_the_same_deadline_whatever_they_hold() -> None:
    # Seat 1 has $900 on Rudy Red, seats 2 and 3 nothing: all three are asked, in the same words.
    table = opened(4, s1={"red": 900, "green": 100, "blue": 100})
    events = table.move(0, "red", "2")
    [wait] = GAME.waiting_on(table.state)
    assert wait.seats == (1, 2, 3) and wait.kind == "reaction"
    assert wait.until == wait.since + timedelta(hours=12)  # the objection window's own default
    ask = next(e for e in events if e.kind == "object_now")
    assert ask.public and ask.data == {"seats": [1, 2, 3], "no": 1}
    # Two answer at once: the window stays open for the third, with the same deadline.
    table.do(2, NoObjection())
    table.do(3, NoObjection())
    [later] = GAME.waiting_on(table.state)
    assert later.seats == (1,) and later.until == wait.until and table.state.phase == "objections"


def test_answers_are_secret_until_the_window_closes() -> None:
    table = opened(3, s1={"red": 900, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    objected = table.do(1, Object(limit=900))
    public = [(e.kind, e.data) for e in objected if e.public]
    assert public == [("answered", {"seat": 1})]
    assert GAME.view(table.state, None).objectors is None  # type: ignore[attr-defined]
    closing = table.do(2, NoObjection())
    assert ("window_closed", {"objectors": [1], "no": 1}) in [(e.kind, e.data) for e in closing if e.public]


def test_at_the_deadline_silence_is_no_objection() -> None:
    table = opened(3)
    table.move(0, "red", "2")
    early = T0 + timedelta(seconds=30)
    with pytest.raises(RuleError) as info:
        GAME.apply(table.state, None, Timeout(key=clock_key(table.state)), early)
    assert info.value.code == "deadline_not_due"
    table.timeout()
    assert table.state.at[4] == "2" and table.state.turn == 1


def test_at_the_deadline_the_active_player_contests_with_their_whole_bribe() -> None:
    table = opened(2, s0={"red": 700, "green": 100, "blue": 100}, s1={"red": 800, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    table.do(1, Object(limit=800))
    events = table.timeout()
    auction = table.state.auctions[0]
    assert auction.ending == "active_passed" and auction.top == 800  # seat 0 matched up to their $700
    assert any(e.kind == "auction" and e.data["by_default"] and e.data["active"] == 0 for e in events)


def test_a_first_turn_deadline_bribes_100_on_three_random_agents() -> None:
    table = Table(new_game(3, seed=11))
    table.timeout()
    row = table.state.bribes[0]
    assert sorted(row, reverse=True)[:4] == [100, 100, 100, 0] and table.state.capital[0] == 9_700
    # The agents are drawn, not fixed: over a few seeds the default doesn't always pick the same three.
    picks = set()
    for seed in range(6):
        other = Table(new_game(3, seed=seed))
        other.timeout()
        picks.add(tuple(i for i, v in enumerate(other.state.bribes[0]) if v))
    assert len(picks) > 1


def test_a_later_turn_deadline_passes_the_turn() -> None:
    table = opened(2)
    events = table.timeout()
    assert table.state.turn == 1 and (events[0].kind, events[0].data) == ("timeout", {"seat": 0, "what": "turn"})


def test_a_stale_timer_is_refused() -> None:
    table = opened(2)
    key = clock_key(table.state)
    table.bribe(0, green=100)
    with pytest.raises(RuleError) as info:
        GAME.apply(table.state, None, Timeout(key=key), table.now + timedelta(days=2))
    assert info.value.code == "stale_deadline"
    assert table.state.bribes[0][GREEN] == 200
