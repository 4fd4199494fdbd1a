"""A person's local time of day (`bot.local_time`): read as typed, and the next time it comes round, across the
daylight-saving changes of the zone (the digest's hour stays the same local time)."""

from datetime import UTC, datetime

import pytest

from bot.local_time import BadInput, next_local, parse_time_of_day, parse_zone, zone_suggestions


def test_times_and_zones_as_typed() -> None:
    assert [parse_time_of_day(t).strftime("%H:%M") for t in ("08:00", "8:00", "19.30", "7h05", "23:59")] == [
        "08:00",
        "08:00",
        "19:30",
        "07:05",
        "23:59",
    ]
    for bad in ("25:00", "24:00", "12:60", "8", "noon", ""):
        with pytest.raises(BadInput, match="isn't a time of day"):
            parse_time_of_day(bad)
    assert parse_zone("europe/berlin").key == "Europe/Berlin"
    with pytest.raises(BadInput, match="isn't a time zone I know"):
        parse_zone("Europe/Berln")
    assert zone_suggestions("new_y") == ["America/New_York"]


@pytest.mark.parametrize(
    ("zone", "after", "expected"),
    [
        # Berlin: 08:00 is 07:00 UTC in winter, 06:00 UTC in summer, on both sides of each change.
        ("Europe/Berlin", datetime(2026, 3, 28, 12, tzinfo=UTC), datetime(2026, 3, 29, 6, tzinfo=UTC)),
        ("Europe/Berlin", datetime(2026, 10, 24, 12, tzinfo=UTC), datetime(2026, 10, 25, 7, tzinfo=UTC)),
        # New York: 08:00 is 13:00 UTC in winter, 12:00 UTC in summer.
        ("America/New_York", datetime(2026, 3, 7, 18, tzinfo=UTC), datetime(2026, 3, 8, 12, tzinfo=UTC)),
        ("America/New_York", datetime(2026, 10, 31, 18, tzinfo=UTC), datetime(2026, 11, 1, 13, tzinfo=UTC)),
        # Strictly after: at the very moment, the next day's.
        ("UTC", datetime(2026, 1, 1, 8, tzinfo=UTC), datetime(2026, 1, 2, 8, tzinfo=UTC)),
    ],
)
def test_the_next_local_time_across_daylight_saving(zone: str, after: datetime, expected: datetime) -> None:
    assert next_local(parse_time_of_day("08:00"), parse_zone(zone), after) == expected


def test_a_skipped_time_comes_after_the_change_and_a_repeated_one_once() -> None:
    berlin = parse_zone("Europe/Berlin")
    # 02:30 doesn't exist on 29 March 2026 in Berlin: it comes at 03:30 summer time (01:30 UTC).
    assert next_local(parse_time_of_day("02:30"), berlin, datetime(2026, 3, 28, 12, tzinfo=UTC)) == datetime(
        2026, 3, 29, 1, 30, tzinfo=UTC
    )
    # 02:30 happens twice on 25 October 2026: the first time (00:30 UTC), and the next run is the next day's.
    first = next_local(parse_time_of_day("02:30"), berlin, datetime(2026, 10, 24, 12, tzinfo=UTC))
    assert first == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert next_local(parse_time_of_day("02:30"), berlin, first) == datetime(2026, 10, 26, 1, 30, tzinfo=UTC)
