"""The days in someone's life, from what they say of themselves (pure), zh/en: a birthday,
and dated events ahead of them.

A fact names the thing and holds the day, never the sentence that said it: "我12月7日考日语N2"
and "日语N2考试是12月7日" are both ``event:日语N2考试`` = ``2024-12-07`` (what the agenda calls
the plan, ``agenda_rules``), expiring the day after. A birthday is ``birthday`` = the month
and day as the language writes them ("3月5日", "March 5"), with the year when it was said.

>>> [(c.key, c.value) for c in dated_facts("我12月7日考日语N2", datetime(2024, 11, 4))]
[('event:日语N2考试', '2024-12-07')]
>>> [(c.key, c.value) for c in birthday("my birthday is March 5th", None)]
[('birthday', 'March 5')]
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta

from ..models import Candidate
from ..text.future import date_in, day_mentioned
from .agenda_rules import FAMILIES, plans
from .extract_life import EXPLICIT, candidate

_BIRTHDAY_WORDS = frozenset(FAMILIES["birthday"]) - {"party"}
_NUM_ZH = "〇零一二三四五六七八九十"
_N = rf"(\d{{1,2}}|[{_NUM_ZH}]{{1,3}})"
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name} | {"sept": 9}
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"((?:19|20)\d\d)"
_DAY_ZH = re.compile(rf"(?:{_YEAR}年)?{_N}月{_N}(?:日|号)?(?![\d{_NUM_ZH}])")
_DAY_EN = re.compile(
    rf"\b(?:({_MON})\.? (\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MON}))\b(?:,? {_YEAR})?",
    re.I,
)
# the speaker's birthday or birth, with the day in the same clause (the day may come first)
_BIRTHDAY_ZH = re.compile(r"^我(?:的)?(?:生日|生辰)|^我.{0,12}?(?:过生日|的?生日|出生|生的)|是我的?生日")
_BIRTHDAY_EN = re.compile(
    r"\b(?i:my (?:birthday|bday|b-day)\b|I was born\b|I'm born\b|is my (?:birthday|bday)\b|it's my (?:birthday|bday)\b)"
)
_NOT_MINE = re.compile(r"生日(?:礼物|蛋糕|派对|聚会|会)|\b(?i:birthday (?:party|gift|present|cake|dinner))\b")
_REL_BIRTHDAY = re.compile(r"生日|\b(?i:birthday|bday)\b")  # "明天是我生日": a relative day, not "born"


def dated_facts(sentence: str, when: datetime | None, changed: bool = False, born: bool = False) -> list[Candidate]:
    """The dated events ahead that the speaker's ``sentence`` states (said at ``when``): each
    plan the agenda would keep, as ``event:<what>`` = its ISO day, expiring the day after; or,
    without an event word, what they will do that day in a few words ("I will see mom on
    Friday": ``event:see mom``). A birthday is not an event: when the sentence said one
    (``born``), ``birthday`` says it."""
    said = when or datetime.now(UTC)
    found = [(p.what, p.day) for p in plans(sentence, said)] or _doing(sentence, said.date())
    out = []
    for what, day in found:
        if born and any(word in what.lower() for word in _BIRTHDAY_WORDS):
            continue
        expires = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
        out.append(candidate("fact", f"event:{what}", day.isoformat(), EXPLICIT, changed, 0.7, expires.timestamp()))
    return out


_FUTURE = re.compile(
    r"\b(?i:will|going to|have an?|have my|'ve got|is on|is scheduled|plan to|planning to|is due|due on|moved to|"
    r"rescheduled|booked|scheduled|signed up)\b"
    r"|要|将|会|打算|准备|计划|有个|有一个|安排|定在|改到|推迟到|约了|报名了|预约了"
)
_SUBJECT = re.compile(
    r"^(?:(?i:I|we)(?:'ll|'m|'re| am| are| will| have| 've)?(?: (?:going to|gonna|gotta|have to|need to|"
    r"plan(?:ning)? to|will))?|(?:我|我们)(?:要|会|将|得|打算|准备|计划)?)\s*"
)
# tried only where a run of spaces starts (a match inside one also starts at its start):
# trying every space of a long run was quadratic
_PREP_END = re.compile(r"(?<!\s)\s*+\b(?i:on|at|in|by|this|next|the)\s*+$")
_END_MARKS = re.compile(r"(?<![，,。.!！~～])[，,。.!！~～]+$")  # from the first mark of the run only


def _doing(sentence: str, today: date) -> list[tuple[str, date]]:
    """What someone says they will do on a day ahead, named in their words: "I will see mom on
    Friday" → ("see mom", Friday); nothing when it takes more than a few words to say."""
    if not _FUTURE.search(sentence):
        return []
    found = day_mentioned(sentence, today)
    if found is None or found.week_only or found.day < today:
        return []
    rest = _END_MARKS.sub("", (sentence[: found.start] + " " + sentence[found.end :]).strip(" ,，"))
    subject = _SUBJECT.match(rest)
    if subject is None or not subject.group(0).strip():  # "明天会下雨": nobody's plan
        return []
    rest = _PREP_END.sub("", rest[subject.end() :]).strip(" ,，")
    rest = re.sub(r"^(?:要|会|将|得|打算|准备)+", "", rest).strip()
    han = re.search(r"[\u4e00-\u9fff]", rest)
    short = 2 <= len(rest) <= 8 if han else 1 <= len(rest.split()) <= 4
    if not short or re.search(r"我|\b(?i:I|me|my|you|it)\b|[^\w\s'-]", rest):
        return []
    return [(rest if han else rest.lower(), found.day)]


def birthday(clause: str, when: datetime | None, changed: bool = False) -> list[Candidate]:
    """The speaker's birthday, from a clause in the first person: "我生日是3月5号", "我是三月五号
    生日", "我1995年3月5日出生的", "my birthday's on the 5th of March", "I was born on March 5,
    1995", "明天是我生日" (a day read from when it was said)."""
    zh = _BIRTHDAY_ZH.search(clause)
    en = None if zh else _BIRTHDAY_EN.search(clause)
    if (zh is None and en is None) or _NOT_MINE.search(clause):
        return []
    value = _day_zh(clause) if zh else _day_en(clause)
    if value is None and _REL_BIRTHDAY.search(clause):
        today = (when or datetime.now(UTC)).date()
        day = date_in(clause, today)
        if day is not None and day >= today:
            value = f"{day.month}月{day.day}日" if zh else f"{calendar.month_name[day.month]} {day.day}"
    return [candidate("fact", "birthday", value, EXPLICIT, changed, 0.7)] if value else []


def _num(text: str) -> int:
    """3, 12, 三, 十二, 二十五, 三十一."""
    if text.isdigit():
        return int(text)
    digits = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0}
    if "十" not in text:
        return digits.get(text, 0) if len(text) == 1 else 0
    tens, _, ones = text.partition("十")
    return (digits.get(tens, 0) if tens else 1) * 10 + (digits.get(ones, 0) if ones else 0)


def _valid(year: int | None, month: int, day: int) -> bool:
    try:
        date(year or 2000, month, day)  # 2000: a leap year, so 2月29日 is a birthday
    except ValueError:
        return False
    return True


def _day_zh(clause: str) -> str | None:
    m = _DAY_ZH.search(clause)
    if m is None:
        return None
    year, month, day = (int(m.group(1)) if m.group(1) else None), _num(m.group(2)), _num(m.group(3))
    if not _valid(year, month, day):
        return None
    return f"{year}年{month}月{day}日" if year else f"{month}月{day}日"


def _day_en(clause: str) -> str | None:
    m = _DAY_EN.search(clause)
    if m is None:
        return None
    month = _MONTHS[(m.group(1) or m.group(4)).lower()]
    day, year = int(m.group(2) or m.group(3)), (int(m.group(5)) if m.group(5) else None)
    if not _valid(year, month, day):
        return None
    said = f"{calendar.month_name[month]} {day}"
    return f"{said}, {year}" if year else said
