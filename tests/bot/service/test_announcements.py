"""Which waits the thread announces (with mentions): news only — someone newly awaited, or for something new.

A deadline that merely moves (the same players awaited for the same thing; e.g. a Boss whose time restarts with
every move of a round) is not announced again: the status message shows the new deadline. The KKK table tests check
the same through Discord (`tests/bot/games/kkk/test_table.py`).
"""

from datetime import UTC, datetime, timedelta

from bot.service import announcements
from engine.events import Wait

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def wait(seats: tuple[int, ...], what: str, kind: str = "turn", since: datetime = T0, key: str = "a") -> Wait:
    return Wait(seats=seats, what=what, kind=kind, since=since, until=since + timedelta(hours=24), timeout={"k": key})  # type: ignore[arg-type]


def seats_announced(before: list[Wait], after: list[Wait], **kwargs: bool) -> list[tuple[int, ...]]:
    deadlines = {i: w.until for i, w in enumerate(after)}
    return [w.seats for w, _ in announcements(before, after, deadlines, **kwargs)]


def test_a_deadline_that_only_moves_is_no_news() -> None:
    boss = wait((0,), "the Boss {seat:0} to close the deal")
    later = wait((0,), "the Boss {seat:0} to close the deal", since=T0 + timedelta(minutes=5), key="b")
    assert seats_announced([boss], [later]) == []


def test_a_new_thing_to_do_or_a_new_player_is_announced() -> None:
    turn = wait((0,), "{seat:0} to open the deal or roll")
    assert seats_announced([turn], [wait((0,), "{seat:0} to open the deal or draw 3")]) == [(0,)]
    assert seats_announced([turn], [wait((1,), "{seat:1} to open the deal or roll")]) == [(1,)]
    assert seats_announced([], [turn]) == [(0,)]
    window = wait((1, 2, 3), "STOP or pass on a travel card", kind="reaction")
    assert seats_announced([turn], [window]) == [(1, 2, 3)]


def test_a_window_mentions_only_who_joins_it() -> None:
    window = wait((1, 2, 3), "STOP or pass", kind="reaction")
    assert seats_announced([window], [wait((2, 3), "STOP or pass", kind="reaction")]) == []  # one passed
    back = wait((1, 2, 3), "STOP or pass", kind="reaction")
    assert seats_announced([wait((2, 3), "STOP or pass", kind="reaction")], [back]) == [(1,)]  # one is back


def test_after_an_undo_every_wait_is_announced() -> None:
    boss = wait((0,), "the Boss {seat:0} to close the deal")
    assert seats_announced([boss], [boss], fresh=True) == [(0,)]
