"""Calendar dates a query names, as time ranges (pure).

"What did Mei do on 25 February, 2022?" names one day; "in July 2023" a month; "2023年7月"
too. Turns from that time are then favoured (retrieval/signals.py ``near_dates``).

>>> date_ranges("What did Jon find on 1 February, 2023 or in July 2023?")
[(datetime.date(2023, 2, 1), datetime.date(2023, 2, 1)), (datetime.date(2023, 7, 1), datetime.date(2023, 7, 31))]
>>> date_ranges("我们2024年3月5日的会议")
[(datetime.date(2024, 3, 5), datetime.date(2024, 3, 5))]
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from datetime import date, timedelta

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}, sept=9)
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"

# each pattern names its groups: y (year), m (month number or name), d (day, optional)
_PATTERNS = [
    rf"\b(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b",
    rf"\b(?P<m>{_MON})\.?\s+(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}})\b",
    rf"\b(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b",
    r"\b(?P<y>\d{4})-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?\b",
    r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号])?",
]


def _numbered(pattern: str, i: int) -> str:
    """Group names get the pattern's number: one regex may not repeat a name."""
    return re.sub(r"\(\?P<(\w)>", lambda m: f"(?P<{m.group(1)}{i}>", pattern)


_DATE = re.compile("|".join(f"(?:{_numbered(p, i)})" for i, p in enumerate(_PATTERNS)), re.IGNORECASE)


def date_ranges(text: str) -> list[tuple[date, date]]:
    """The days or months ``text`` names, each as an inclusive (first day, last day)."""
    found: list[tuple[date, date]] = []
    for match in _DATE.finditer(text):
        parts = {key.rstrip("0123456789"): value for key, value in match.groupdict().items() if value}
        y, m, d = parts.get("y"), parts.get("m"), parts.get("d")
        if y is None or m is None:
            continue
        month = int(m) if m.isdigit() else _MONTHS.get(m.lower().rstrip("."), 0)
        year = int(y)
        if not 1 <= month <= 12 or not 1900 <= year <= 2200:
            continue
        last = calendar.monthrange(year, month)[1]
        if d is not None and 1 <= int(d) <= last:
            day = date(year, month, int(d))
            found.append((day, day))
        else:
            found.append((date(year, month, 1), date(year, month, last)))
    return found


# ---- relative dates, resolved against the day they were said (a turn's, a query's) ----------
_WEEKDAYS = [d.lower() for d in calendar.day_name]
_NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBERS.update({"a": 1, "an": 1, "a couple of": 2, "a few": 3, "several": 3})
_COUNT = "|".join(sorted(_NUMBERS, key=len, reverse=True))
_RELATIVE = re.compile(
    r"\b(?P<word>yesterday|today|tonight|tomorrow|last night|this morning)\b"
    r"|\b(?P<which>last|this|next)\s+(?P<unit>week|weekend|month|year|"
    + "|".join(_WEEKDAYS) + r")\b"
    rf"|\b(?P<n>\d+|{_COUNT})\s+(?P<ago_unit>day|week|month|year)s?\s+ago\b"
    r"|(?P<zh>前天|昨天|昨晚|今天|今晚|明天|后天|上周末|上周|上个?星期|这周|下周|上个月|下个月|去年|今年|明年)",
    re.IGNORECASE,
)
# each relative expression as (unit, how many of them from the day it was said)
_FIXED = {
    "yesterday": ("day", -1), "last night": ("day", -1), "today": ("day", 0),
    "tonight": ("day", 0), "this morning": ("day", 0), "tomorrow": ("day", 1),
    "前天": ("day", -2), "昨天": ("day", -1), "昨晚": ("day", -1), "今天": ("day", 0),
    "今晚": ("day", 0), "明天": ("day", 1), "后天": ("day", 2),
    "上周末": ("week", -1), "上周": ("week", -1), "上星期": ("week", -1), "上个星期": ("week", -1),
    "这周": ("week", 0), "下周": ("week", 1), "上个月": ("month", -1), "下个月": ("month", 1),
    "去年": ("year", -1), "今年": ("year", 0), "明年": ("year", 1),
}
_STEP = {"last": -1, "this": 0, "next": 1}
Span = tuple[str, date, date]  # (unit, first day, last day)


def _month_shift(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _fmt(day: date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def _shifted(said: date, unit: str, n: int) -> Span:
    """The day, week (Monday to Sunday), month or year ``n`` units from ``said``."""
    if unit == "day":
        day = said + timedelta(days=n)
        return unit, day, day
    if unit in ("week", "weekend"):
        day = said + timedelta(days=7 * n)
        monday = day - timedelta(days=day.weekday())
        return "week", monday, monday + timedelta(days=6)
    if unit == "month":
        first = _month_shift(said, n)
        return unit, first, first.replace(day=calendar.monthrange(first.year, first.month)[1])
    return "year", date(said.year + n, 1, 1), date(said.year + n, 12, 31)


def _weekday(said: date, target: int, step: int) -> Span:
    """Last, this or next ``target`` weekday as seen from ``said``."""
    if step < 0:  # the last such weekday before the day it was said
        day = said - timedelta(days=(said.weekday() - target) % 7 or 7)
    elif step > 0:
        day = said + timedelta(days=(target - said.weekday()) % 7 or 7)
    else:
        day = said + timedelta(days=target - said.weekday())
    return "day", day, day


def _resolve(match: re.Match[str], said: date) -> Span:
    fixed = match.group("word") or match.group("zh")
    if fixed:
        return _shifted(said, *_FIXED[fixed.lower()])
    if match.group("which"):
        step, unit = _STEP[match.group("which").lower()], match.group("unit").lower()
        if unit in _WEEKDAYS:
            return _weekday(said, _WEEKDAYS.index(unit), step)
        return _shifted(said, unit, step)
    count = match.group("n").lower()
    n = int(count) if count.isdigit() else _NUMBERS[count]
    return _shifted(said, match.group("ago_unit").lower(), -n)


def _written(span: Span, lang: str = "en") -> str:
    unit, first, _ = span
    if lang == "zh":  # a Chinese chat's note: "2023年5月7日", "2023年12月25日那一周", "2023年12月", "2023年"
        day = f"{first.year}年{first.month}月{first.day}日"
        month = f"{first.year}年{first.month}月"
        return {"day": day, "week": f"{day}那一周", "month": month}.get(unit, f"{first.year}年")
    if unit == "day":
        return _fmt(first)
    if unit == "week":
        return f"the week of {_fmt(first)}"
    if unit == "month":
        return f"{calendar.month_name[first.month]} {first.year}"
    return str(first.year)


def resolve_relative(text: str, said: date, lang: str = "en") -> list[tuple[str, str]]:
    """The relative dates in ``text`` ("yesterday", "last week", "3 days ago", "上个月"),
    each with the date it meant when said on ``said``, written in ``lang`` ("en", "zh").

    >>> resolve_relative("I went yesterday, and last Friday too", date(2023, 5, 8))
    [('yesterday', '7 May 2023'), ('last Friday', '5 May 2023')]
    >>> resolve_relative("我们上个月见过, two weeks ago", date(2024, 1, 10))
    [('上个月', 'December 2023'), ('two weeks ago', 'the week of 25 December 2023')]
    >>> resolve_relative("我明天带给你，上周说过", date(2024, 1, 10), "zh")
    [('明天', '2024年1月11日'), ('上周', '2024年1月1日那一周')]
    """
    return list(dict.fromkeys((words, _written(span, lang)) for words, span in _spans(text, said)))


def relative_ranges(text: str, said: date) -> list[tuple[date, date]]:
    """The times the relative dates in ``text`` name, asked on ``said``, as inclusive
    (first day, last day): what ``date_ranges`` gives for dates written out.

    >>> relative_ranges("What did I cook a couple of days ago, and last week?", date(2022, 4, 12))
    [(datetime.date(2022, 4, 10), datetime.date(2022, 4, 10)), (datetime.date(2022, 4, 4), datetime.date(2022, 4, 10))]
    """
    return list(dict.fromkeys(span[1:] for _, span in _spans(text, said)))


def _spans(text: str, said: date) -> Iterator[tuple[str, Span]]:
    """Each relative date in ``text`` with what it meant; one outside the calendar ("7000
    years ago") is skipped."""
    for match in _RELATIVE.finditer(text):
        try:
            yield match.group(0), _resolve(match, said)
        except (ValueError, OverflowError):
            continue
