"""Daily deadlines in the table's time zone (`engine.daily`), across both daylight-saving changes of
Europe/Amsterdam and America/New_York, and weekends off: each case is what a player reads on their clock."""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from engine import registry
from engine.daily import next_deadline, parse_clock, parse_daily
from engine.kesse_ruegen.options import KesseRuegenOptions
from engine.options import GameOptions

AMS = ZoneInfo("Europe/Amsterdam")
NY = ZoneInfo("America/New_York")


def at(zone: ZoneInfo, *args: int, fold: int = 0) -> datetime:
    return datetime(*args, tzinfo=zone, fold=fold)  # type: ignore[misc]


def wall(due: datetime, zone: ZoneInfo) -> tuple[str, str]:
    """The deadline as a player there reads it: the date with the weekday, the time, and the UTC offset."""
    local = due.astimezone(zone)
    return local.strftime("%a %Y-%m-%d"), local.strftime("%H:%M %z")


def test_a_daily_deadline_is_the_first_time_of_day_leaving_twelve_hours() -> None:
    rule = time(19, 0)
    # Begun at 06:00: 19:00 the same day (13 hours). Begun at 08:00: 19:00 the next day (35 hours).
    assert wall(next_deadline(at(AMS, 2026, 6, 10, 6, 0), rule, "Europe/Amsterdam"), AMS) == (
        "Wed 2026-06-10",
        "19:00 +0200",
    )
    assert wall(next_deadline(at(AMS, 2026, 6, 10, 8, 0), rule, "Europe/Amsterdam"), AMS) == (
        "Thu 2026-06-11",
        "19:00 +0200",
    )
    # Exactly twelve hours is enough.
    assert next_deadline(at(AMS, 2026, 6, 10, 7, 0), rule, "Europe/Amsterdam") == at(AMS, 2026, 6, 10, 19, 0)


@pytest.mark.parametrize(
    ("zone", "name", "day_before", "change_day"),
    [
        (AMS, "Europe/Amsterdam", (2026, 3, 28), (2026, 3, 29)),  # spring forward: 02:00 CET → 03:00 CEST
        (NY, "America/New_York", (2026, 3, 7), (2026, 3, 8)),  # spring forward: 02:00 EST → 03:00 EDT
    ],
)
def test_spring_forward(
    zone: ZoneInfo, name: str, day_before: tuple[int, int, int], change_day: tuple[int, int, int]
) -> None:
    # 19:00 keeps meaning 19:00 on the wall, though the day between has 23 hours.
    before = next_deadline(at(zone, *day_before, 1, 0), time(19, 0), name)
    after = next_deadline(at(zone, *day_before, 19, 0), time(19, 0), name)
    assert before.astimezone(zone).hour == after.astimezone(zone).hour == 19
    assert after - before == timedelta(hours=23)
    # 02:30 does not exist on the change day: read as 03:30 after the change, the same instant as 01:30 before it + 1h.
    due = next_deadline(at(zone, *day_before, 12, 0), time(2, 30), name)
    assert due.astimezone(zone).strftime("%Y-%m-%d %H:%M") == "{:04d}-{:02d}-{:02d} 03:30".format(*change_day)
    # The day after, 02:30 exists again.
    nxt = next_deadline(due, time(2, 30), name)
    assert nxt.astimezone(zone).strftime("%H:%M") == "02:30"
    assert nxt - due == timedelta(hours=23)


@pytest.mark.parametrize(
    ("zone", "name", "day_before", "change_day", "twice"),
    [
        (AMS, "Europe/Amsterdam", (2026, 10, 24), (2026, 10, 25), time(2, 30)),  # 03:00 CEST → 02:00 CET
        (NY, "America/New_York", (2026, 10, 31), (2026, 11, 1), time(1, 30)),  # 02:00 EDT → 01:00 EST
    ],
)
def test_fall_back(
    zone: ZoneInfo, name: str, day_before: tuple[int, int, int], change_day: tuple[int, int, int], twice: time
) -> None:
    # 19:00 stays 19:00 across a 25-hour day.
    a = next_deadline(at(zone, *day_before, 1, 0), time(19, 0), name)
    b = next_deadline(a, time(19, 0), name)
    assert (a.astimezone(zone).hour, b.astimezone(zone).hour) == (19, 19)
    assert b - a == timedelta(hours=25)
    # A time that happens twice on the change day is the first of the two (summer time).
    due = next_deadline(at(zone, *day_before, 12, 0), twice, name)
    assert due == at(zone, *change_day, twice.hour, twice.minute, fold=0).astimezone(UTC)
    assert due.astimezone(zone).dst() == timedelta(hours=1)
    assert next_deadline(due, twice, name) - due == timedelta(hours=25)


def test_weekdays_only_moves_a_weekend_deadline_to_monday_at_that_time() -> None:
    rule = time(19, 0)
    friday_morning = at(AMS, 2026, 6, 12, 6, 0)
    assert wall(next_deadline(friday_morning, rule, "Europe/Amsterdam", True), AMS)[0] == "Fri 2026-06-12"
    friday_noon = at(AMS, 2026, 6, 12, 12, 0)  # Saturday 19:00 → Monday 19:00
    assert wall(next_deadline(friday_noon, rule, "Europe/Amsterdam", True), AMS) == ("Mon 2026-06-15", "19:00 +0200")
    assert wall(next_deadline(friday_noon, rule, "Europe/Amsterdam", False), AMS)[0] == "Sat 2026-06-13"
    # A duration: 24 hours from Friday 10:00 would end Saturday 10:00, so it ends Monday 10:00.
    due = next_deadline(at(AMS, 2026, 6, 12, 10, 0), timedelta(hours=24), "Europe/Amsterdam", True)
    assert wall(due, AMS) == ("Mon 2026-06-15", "10:00 +0200")
    # The weekend is the table's: Friday 20:00 in New York is already Saturday in Amsterdam.
    ny_friday = at(NY, 2026, 6, 12, 8, 0)
    assert wall(next_deadline(ny_friday, time(20, 0), "America/New_York", True), NY)[0] == "Fri 2026-06-12"
    # Across the spring change: Saturday 28 March 2026, 19:00 CET → Monday 30 March, 19:00 CEST.
    due = next_deadline(at(AMS, 2026, 3, 27, 12, 0), rule, "Europe/Amsterdam", True)
    assert wall(due, AMS) == ("Mon 2026-03-30", "19:00 +0200")


def test_the_options_read_daily_and_refuse_bad_input() -> None:
    opts = KesseRuegenOptions.model_validate({"deadline": "daily 19:00", "timezone": "Europe/Amsterdam"})
    assert opts.deadline == time(19, 0)
    # Round-trips through the snapshot's JSON.
    assert KesseRuegenOptions.model_validate(opts.model_dump(mode="json")) == opts
    since = at(AMS, 2026, 6, 10, 8, 0)
    assert opts.turn_until(since) == at(AMS, 2026, 6, 11, 19, 0)
    # Without a daily time or weekends off: the plain duration, as before.
    assert GameOptions().turn_until(since) == since + timedelta(hours=24)
    for bad in ({"timezone": "Europe/Amsterdm"}, {"timezone": "../etc/passwd"}, {"deadline": "daily 25:00"}):
        with pytest.raises(ValueError):
            KesseRuegenOptions.model_validate(bad)
    assert parse_daily("daily@07:05") == time(7, 5)
    for bad_text in ("25:00", "7pm", "19:60", "1900"):
        with pytest.raises(ValueError, match=r"HH:MM|hours go"):
            parse_clock(bad_text)


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_game_times_its_turns_by_the_tables_clock(name: str) -> None:
    """A game's turns end at the table's daily time (`GameOptions.turn_until`), whatever its own way of timing."""
    game = registry.get(name)
    now = at(AMS, 2026, 6, 10, 6, 0)
    options = game.parse_options({"deadline": "daily 19:00", "timezone": "Europe/Amsterdam"})
    state = game.setup(game.min_seats, options, 7, now)
    waits = [w for w in game.waiting_on(state) if w.kind != "reaction" and w.what != "trade"]
    assert waits, "the game begins with a turn"
    assert {w.until for w in waits} == {at(AMS, 2026, 6, 10, 19, 0)}
    # The same table with weekends off and no daily time: its duration, off the weekend.
    friday = at(AMS, 2026, 6, 12, 10, 0)
    options = game.parse_options({"weekdays_only": True, "timezone": "Europe/Amsterdam"})
    state = game.setup(game.min_seats, options, 7, friday)
    waits = [w for w in game.waiting_on(state) if w.kind != "reaction" and w.what != "trade"]
    assert {wall(w.until, AMS) for w in waits} == {("Mon 2026-06-15", "10:00 +0200")}
