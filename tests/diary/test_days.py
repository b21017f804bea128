"""Calendar days in the diary's time zone, when a day is due, and the diary's settings."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from pmemo import InvalidInput, Settings
from pmemo.diary.days import bounds, due_at, local_day, parse_day

SHANGHAI, NEW_YORK = ZoneInfo("Asia/Shanghai"), ZoneInfo("America/New_York")


def at(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def test_a_turn_belongs_to_its_day_in_the_diary_zone() -> None:
    late = at(2024, 12, 20, 17, 30)  # 01:30 on the 21st in Shanghai, 12:30 on the 20th in New York
    assert local_day(late, SHANGHAI) == date(2024, 12, 21)
    assert local_day(late, NEW_YORK) == date(2024, 12, 20)
    assert local_day(late, ZoneInfo("UTC")) == date(2024, 12, 20)


def test_a_day_spans_its_local_midnights_even_when_the_clocks_change() -> None:
    start, end = bounds(date(2024, 12, 21), SHANGHAI)
    assert (start, end) == (at(2024, 12, 20, 16), at(2024, 12, 21, 16))
    spring, autumn = bounds(date(2024, 3, 10), NEW_YORK), bounds(date(2024, 11, 3), NEW_YORK)
    assert spring[1] - spring[0] == 23 * 3600 and autumn[1] - autumn[0] == 25 * 3600
    assert bounds(date.max, SHANGHAI)[1] - bounds(date.max, SHANGHAI)[0] == 86400  # no day after it


def test_a_day_is_due_at_the_diary_time_that_day() -> None:
    assert due_at(date(2024, 12, 20), SHANGHAI, time(23, 55)) == at(2024, 12, 20, 15, 55)


@pytest.mark.parametrize("bad", ["2024-13-01", "20241220", "2024-12-2", "yesterday", "", 20241220, None,
                                 datetime(2024, 12, 20, 10, 0)])
def test_a_bad_day_names_the_argument(bad: object) -> None:
    with pytest.raises(InvalidInput, match="^start must be a calendar day as YYYY-MM-DD"):
        parse_day("start", bad)


def test_good_days() -> None:
    assert parse_day("day", "2024-02-29") == date(2024, 2, 29) == parse_day("day", date(2024, 2, 29))


@pytest.mark.parametrize(("name", "value", "says"), [
    ("diary_tz", "Mars/Olympus", "setting diary_tz must be an IANA time zone name"),
    ("diary_tz", "../etc/passwd", "setting diary_tz"),
    ("diary_tz", "", "setting diary_tz"),
    ("diary_time", "24:00", "setting diary_time must be a time of day as HH:MM"),
    ("diary_time", "7:05", "setting diary_time"),
    ("diary_max_chars", 50, "diary_max_chars"),
])
def test_a_bad_diary_setting_is_named(name: str, value: object, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        Settings(**{name: value})


def test_diary_settings_from_the_environment() -> None:
    s = Settings.from_env({"PMEMO_DIARY_TZ": "Asia/Shanghai", "PMEMO_DIARY_TIME": "21:30",
                           "PMEMO_DIARY_ENABLED": "false"})
    assert (s.diary_tz, s.diary_time, s.diary_enabled) == ("Asia/Shanghai", "21:30", False)
    with pytest.raises(InvalidInput, match="diary_tz"):
        Settings.from_env({"PMEMO_DIARY_TZ": "Nowhere"})
