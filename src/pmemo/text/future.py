"""The day a plan is set for, read from a message and the day it was said (pure), zh/en.

Dated facts (``extract_rules``) and the agenda (``agenda_rules``) read dates the same way:
"2026-12-23", "12月23日", "12月23号", "23号", "Dec 23", "23 December", "明天", "后天",
"大后天", "下周三", "这周五", "周五", "tomorrow", "on Friday", "next Wednesday",
"in two weeks", "3天后", "today", "今晚".

A month and day without a year is the next such day, unless it passed within the last
six weeks ("March 1" said on March 4 is three days ago, not next year): people talk
about what just happened far more than about a day eleven months ahead.

>>> day_mentioned("下周三考高数", date(2024, 3, 4))
DayMention(day=datetime.date(2024, 3, 13), start=0, end=3, week_only=False)
>>> date_in("my flight to Tokyo is on Dec 3", date(2024, 11, 20))
datetime.date(2024, 12, 3)
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

# a date without a year that passed at most this long ago is read as past, not next year's
RECENT_PAST = timedelta(days=45)

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}, sept=9)
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAYS_EN = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_WEEKDAYS_EN.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)}, tues=1, thur=3, thurs=3)
_WD = "|".join(sorted(_WEEKDAYS_EN, key=len, reverse=True))
_WEEKDAYS_ZH = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6}
_COUNTS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())}
_COUNTS |= {"a": 1, "an": 1, "a couple of": 2} | {c: i for i, c in enumerate("零一二三四五六七八九十")}
_COUNTS |= {"两": 2}
_COUNT_EN = "|".join(sorted((w for w in _COUNTS if w.isascii()), key=len, reverse=True))

_ISO = re.compile(r"\b(20\d\d)[-/.](\d{1,2})[-/.](\d{1,2})\b")
_ZH_DATE = re.compile(r"(?:(20\d\d)年)?(\d{1,2})月(\d{1,2})[日号]")
_EN_DATE = re.compile(rf"\b({_MON})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)", re.I)
_EN_DATE2 = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MON})\b", re.I)
_FULL_WD = "|".join(calendar.day_name)
# an abbreviated weekday needs a "next"/"on" before it: "sat" and "sun" are words too
_REL_EN = re.compile(
    rf"\b(the day after tomorrow|tomorrow|next week|(next|this coming|this|coming|on)\s+({_WD})|({_FULL_WD}))\b",
    re.I,
)
_REL_ZH = re.compile(
    r"大后天|后天|明天|明早|明晚|(下下?|上上?)(?:个)?(?:周|星期|礼拜)([一二三四五六日天])"
    r"|(?<![每一])([这本])?(?:周|星期|礼拜)([一二三四五六日天])"
)
_IN_N = re.compile(
    rf"\bin\s+(\d{{1,2}}|{_COUNT_EN})\s+(day|week)s?\b"
    r"|(\d{1,2}|[一两二三四五六七八九十])\s*(?:个)?(天|周|星期|礼拜)(?:以?后|之后)",
    re.I,
)
# "23号" alone: this month's 23rd, or next month's once it passed; "3号线" is a metro line
_ZH_DAY = re.compile(r"(?<![\d月年./-])(\d{1,2})(?:号|日)(?![线楼房门位床机码口栋层车游])")
_TODAY = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b|今天|今晚|今早|今日", re.I)


@dataclass(frozen=True)
class DayMention:
    """A day a text names, where it is written, and whether it only names a week."""

    day: date
    start: int
    end: int
    week_only: bool = False  # "next week": its Monday stands for the whole week


def date_in(text: str, today: date) -> date | None:
    """The day ``text`` names, read on ``today``; None when it names none.

    >>> date_in("I have an exam tomorrow", date(2024, 3, 4))
    datetime.date(2024, 3, 5)
    """
    found = day_mentioned(text, today)
    return found.day if found else None


def day_mentioned(text: str, today: date) -> DayMention | None:
    """The first day ``text`` names (a written-out date before a relative one), with its span.

    >>> day_mentioned("12月23日考研", date(2024, 12, 1)).day
    datetime.date(2024, 12, 23)
    """
    for pattern, read in _READERS:
        for m in pattern.finditer(text):
            found = read(m, today)
            if found is not None:
                return DayMention(found, m.start(), m.end(), _week_only(m))
    return None


def _week_only(m: re.Match[str]) -> bool:
    return m.re is _REL_EN and m.group(1).lower() == "next week"


def _iso(m: re.Match[str], today: date) -> date | None:
    return _safe(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _zh_date(m: re.Match[str], today: date) -> date | None:
    if m.group(1):
        return _safe(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return _nearest(today, int(m.group(2)), int(m.group(3)))


def _en_date(m: re.Match[str], today: date) -> date | None:
    return _nearest(today, _MONTHS[m.group(1).lower()], int(m.group(2)))


def _en_date2(m: re.Match[str], today: date) -> date | None:
    return _nearest(today, _MONTHS[m.group(2).lower()], int(m.group(1)))


def _rel_en(m: re.Match[str], today: date) -> date | None:
    word = m.group(1).lower()
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word == "the day after tomorrow":
        return today + timedelta(days=2)
    if word == "next week":
        return today + timedelta(days=7 - today.weekday())
    which, name = (m.group(2).lower(), m.group(3)) if m.group(2) else ("", m.group(4))
    return _weekday(today, _WEEKDAYS_EN[name.lower()], next_week=which == "next")


def _rel_zh(m: re.Match[str], today: date) -> date | None:
    word = m.group(0)
    shift = {"明天": 1, "明早": 1, "明晚": 1, "后天": 2, "大后天": 3}.get(word)
    if shift is not None:
        return today + timedelta(days=shift)
    monday = today - timedelta(days=today.weekday())
    if m.group(1):  # 下周三, 下下周三, 上周五: a day of a week after or before this one
        weeks = len(m.group(1)) * (1 if m.group(1)[0] == "下" else -1)
        return monday + timedelta(weeks=weeks, days=_WEEKDAYS_ZH[m.group(2)])
    if m.group(3):  # 这周五: this week's Friday, even when it has passed
        return monday + timedelta(days=_WEEKDAYS_ZH[m.group(4)])
    return _weekday(today, _WEEKDAYS_ZH[m.group(4)], next_week=False)


def _in_n(m: re.Match[str], today: date) -> date | None:
    count, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    n = int(count) if count.isdigit() else _COUNTS[count.lower()]
    return today + timedelta(days=n if unit.lower() in ("day", "天") else 7 * n)


def _zh_day(m: re.Match[str], today: date) -> date | None:
    day = int(m.group(1))
    if not 1 <= day <= 31:
        return None
    found = _safe(today.year, today.month, day)
    if found is None or found < today:
        first = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        found = _safe(first.year, first.month, day)
    return found


def _today(m: re.Match[str], today: date) -> date | None:
    return today


_READERS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], date], date | None]], ...] = (
    (_ISO, _iso),
    (_ZH_DATE, _zh_date),
    (_EN_DATE, _en_date),
    (_EN_DATE2, _en_date2),
    (_REL_EN, _rel_en),
    (_REL_ZH, _rel_zh),
    (_IN_N, _in_n),
    (_ZH_DAY, _zh_day),
    (_TODAY, _today),
)


def _weekday(today: date, day: int, next_week: bool) -> date:
    """The coming ``day`` (0 = Monday; today counts), or that day of next week."""
    if next_week:
        return today - timedelta(days=today.weekday()) + timedelta(weeks=1, days=day)
    return today + timedelta(days=(day - today.weekday()) % 7)


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest(today: date, month: int, day: int) -> date | None:
    """The next such day, or the last one if it passed within ``RECENT_PAST``."""
    ahead = next((d for y in (today.year, today.year + 1) if (d := _safe(y, month, day)) and d >= today), None)
    behind = next((d for y in (today.year, today.year - 1) if (d := _safe(y, month, day)) and d < today), None)
    if behind is not None and today - behind <= RECENT_PAST:
        if ahead is None or today - behind < ahead - today:
            return behind
    return ahead
