"""Calendar days in the diary's time zone (pure): which day a turn belongs to, the span of a
day, and when a day's entry is due.

A day is due at ``diary_time`` on that day (local): a past day is always due, today once that
time has passed. A turn belongs to the day of its timestamp in the diary's zone, whatever zone
it was written in.

>>> from zoneinfo import ZoneInfo
>>> shanghai = ZoneInfo("Asia/Shanghai")
>>> local_day(datetime(2024, 12, 20, 17, 0, tzinfo=UTC).timestamp(), shanghai)  # 01:00 there
datetime.date(2024, 12, 21)
>>> start, end = bounds(date(2024, 12, 21), shanghai)
>>> (end - start) / 3600
24.0
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..errors import InvalidInput


def local_day(epoch: float, zone: ZoneInfo) -> date:
    """The calendar day in ``zone`` of an instant (epoch seconds)."""
    return datetime.fromtimestamp(epoch, UTC).astimezone(zone).date()


def bounds(day: date, zone: ZoneInfo) -> tuple[float, float]:
    """The day's first instant and the next day's first (epoch seconds): a day of 23 or 25
    hours when the clocks change."""
    start = datetime.combine(day, time(0), tzinfo=zone).timestamp()
    if day == date.max:  # no next day to start: the last one has 24 hours
        return start, start + 86400.0
    return start, datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone).timestamp()


def due_at(day: date, zone: ZoneInfo, clock: time) -> float:
    """When the entry of ``day`` is due: at ``clock`` that day, in ``zone`` (epoch seconds)."""
    return datetime.combine(day, clock, tzinfo=zone).timestamp()


def parse_day(name: str, value: object) -> date:
    """A calendar day given as a ``date`` or an ISO string ("2024-12-20"); InvalidInput names
    ``name`` otherwise (a datetime is a moment, not a day: give its date).

    >>> parse_day("day", "2024-12-20")
    datetime.date(2024, 12, 20)
    """
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    shown = value[:40] if isinstance(value, str) else type(value).__name__
    raise InvalidInput(f"{name} must be a calendar day as YYYY-MM-DD, like 2024-12-20, got {shown!r}")
