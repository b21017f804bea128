"""Agenda rules: dated plans, how they went, and which plan an outcome closes (zh/en)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pmemo.rules.agenda_rules import Plan, outcome, plans, same_event
from pmemo.text.future import date_in, day_mentioned

SAID = datetime(2024, 3, 4, 9, 0)  # a Monday
TODAY = SAID.date()


def found(text: str) -> list[tuple[str, str]]:
    return [(p.day.isoformat(), p.what) for p in plans(text, SAID)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12月23日考研", [("2024-12-23", "考研")]),
        ("12月23号期末考试", [("2024-12-23", "期末考试")]),
        ("2024-12-23 考研", [("2024-12-23", "考研")]),
        ("下周三考高数", [("2024-03-13", "高数考试")]),
        ("我下周三有高数考试", [("2024-03-13", "高数考试")]),
        ("周五答辩", [("2024-03-08", "答辩")]),
        ("这周五答辩", [("2024-03-08", "答辩")]),
        ("明天面试", [("2024-03-05", "面试")]),
        ("周五字节二面", [("2024-03-08", "字节二面")]),
        ("后天飞东京", [("2024-03-06", "飞东京")]),
        ("我下周五要去北京出差。", [("2024-03-15", "北京出差")]),
        ("两周后体检", [("2024-03-18", "体检")]),
        ("下周三考高数，周五答辩", [("2024-03-13", "高数考试"), ("2024-03-08", "答辩")]),
        ("I have a job interview on Friday.", [("2024-03-08", "job interview")]),
        ("my flight to Tokyo is on Dec 3", [("2024-12-03", "flight to Tokyo")]),
        ("I'm flying to Tokyo next Wednesday.", [("2024-03-13", "flight to Tokyo")]),
        ("I have an exam tomorrow.", [("2024-03-05", "exam")]),
        ("My wedding is on 23 December.", [("2024-12-23", "wedding")]),
        ("I have a dentist appointment on March 15.", [("2024-03-15", "dentist appointment")]),
        ("My paper is due Friday.", [("2024-03-08", "paper deadline")]),
        ("Next Friday, I have an interview.", [("2024-03-15", "interview")]),
        ("in two weeks I have my driving test", [("2024-03-18", "driving test")]),
        ("今天考完了，下周三还有高数考试", [("2024-03-13", "高数考试")]),  # one over, one ahead
        # a hedge in another clause is that clause's
        ("下周五答辩，这几天可能不怎么回消息", [("2024-03-15", "答辩")]),
        ("my interview is on Thursday, probably won't be online much", [("2024-03-07", "interview")]),
        # exams named by their acronym
        ("I'm taking the GRE on Friday", [("2024-03-08", "gre")]),
        ("booked my TOEFL for March 20", [("2024-03-20", "toefl")]),
        # a plan said before a question
        ("my driving test is on Friday, any advice?", [("2024-03-08", "driving test")]),
        ("下周三考高数，谁有笔记？", [("2024-03-13", "高数考试")]),
    ],
)
def test_dated_plans(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_a_plan_keeps_its_sentence() -> None:
    (p,) = plans("好紧张。下周三考高数！", SAID)
    assert p == Plan(date(2024, 3, 13), "高数考试", "下周三考高数！")


@pytest.mark.parametrize(
    "text",
    [
        "明天",  # a date without an event
        "下周三见",
        "I'll call you tomorrow.",
        "上周五面试",  # past
        "March 1 exam",  # three days ago
        "你哪天考试？",  # questions
        "Do you have an exam tomorrow?",
        "可能下周三考试",  # hedges: a guessed date is not a plan
        "I might have an interview on Friday.",
        "如果顺利的话，周六考雅思",  # a condition governs the whole sentence
        "周六考雅思，如果顺利的话",
        "I have an exam on Friday, I think",  # a hedge that is a clause of its own
        "明天考试，应该吧",
        "周五不考了",  # cancelled or negated
        "明天不用面试",
        "I don't have an exam tomorrow.",
        "The interview on Friday was cancelled.",
        "我明天要考虑考研的事",  # thinking about it, not sitting it
        "I'll study for my exam tomorrow.",
        "明天考虑一下",
        "next week I have exams",  # a week, not a day
        "今天考完了",  # an outcome
    ],
)
def test_not_plans(text: str) -> None:
    assert plans(text, SAID) == []


@pytest.mark.parametrize(
    "text, word",
    [
        ("考完了", "考"),
        ("终于考完", "考"),
        ("考得不错", "考"),
        ("考得还行", "考"),
        ("考砸了", "考"),
        ("没考好", "考"),
        ("上岸了！", "考"),
        ("考研结束了", "考研"),
        ("面试过了", "面试"),
        ("面试很顺利", "面试"),
        ("拿到offer了", "面试"),
        ("答辩结束", "答辩"),
        ("手术很成功", "手术"),
        ("I passed!", "exam"),
        ("I passed my driving test.", "test"),
        ("The interview went well.", "interview"),
        ("exam went great", "exam"),  # a chat leaves out "the"
        ("presentation went well, phew", "presentation"),
        ("My math exam went badly.", "exam"),
        ("just finished my exams", "exam"),
        ("I aced the test.", "test"),
        ("I got the job!", "interview"),
        ("Just landed in Tokyo.", "flight"),
    ],
)
def test_outcomes(text: str, word: str) -> None:
    assert outcome(text) == word


@pytest.mark.parametrize(
    "text",
    [
        "考完再说",  # later
        "等考完了一起去玩",
        "还没考完",
        "考完了吗？",  # a question
        "Did the interview go well?",
        "once the exam is over we'll party",
        "明天考试",  # a plan, not an outcome
        "I passed by your house",
        "我在考虑考研",
        "",
    ],
)
def test_not_outcomes(text: str) -> None:
    assert outcome(text) is None


@pytest.mark.parametrize(
    "what, word, same",
    [
        ("考研", "考", True),
        ("高数考试", "考", True),
        ("高数考试", "exam", True),
        ("driving test", "exam", True),
        ("exam", "考试", True),
        ("job interview", "面试", True),
        ("字节二面", "interview", True),
        ("flight to Tokyo", "flight", True),
        ("飞东京", "flight", True),
        ("考研", "录取", True),
        ("job interview", "考", False),
        ("答辩", "面试", False),
        ("wedding", "exam", False),
        ("考研", "", False),
        ("contest", "test", False),
    ],
)
def test_same_event(what: str, word: str, same: bool) -> None:
    assert same_event(Plan(TODAY, what, what), word) is same


def test_plan_and_outcome_meet_across_the_two_functions() -> None:
    (p,) = plans("霓霓: 下周三考高数", SAID)
    word = outcome("终于考完了，考得还行")
    assert word is not None and same_event(p, word)


@pytest.mark.parametrize(
    "text, day",
    [
        ("明天", date(2024, 3, 5)),
        ("后天", date(2024, 3, 6)),
        ("大后天", date(2024, 3, 7)),
        ("下周三", date(2024, 3, 13)),
        ("下下周一", date(2024, 3, 18)),
        ("这周五", date(2024, 3, 8)),
        ("周日", date(2024, 3, 10)),
        ("星期天", date(2024, 3, 10)),
        ("上周五", date(2024, 3, 1)),
        ("12月23日", date(2024, 12, 23)),
        ("12月23号", date(2024, 12, 23)),
        ("2026年1月5日", date(2026, 1, 5)),
        ("23号", date(2024, 3, 23)),
        ("2号", date(2024, 4, 2)),  # this month's has passed: next month's
        ("2026-12-23", date(2026, 12, 23)),
        ("tomorrow", date(2024, 3, 5)),
        ("the day after tomorrow", date(2024, 3, 6)),
        ("on Friday", date(2024, 3, 8)),
        ("on Fri", date(2024, 3, 8)),
        ("next Wednesday", date(2024, 3, 13)),
        ("Dec 23", date(2024, 12, 23)),
        ("23 December", date(2024, 12, 23)),
        ("March 1", date(2024, 3, 1)),  # just passed: past, not next year's
        ("Jan 1", date(2025, 1, 1)),  # long passed: next year's
        ("in two weeks", date(2024, 3, 18)),
        ("in 3 days", date(2024, 3, 7)),
        ("3天后", date(2024, 3, 7)),
        ("today", date(2024, 3, 4)),
        ("今晚", date(2024, 3, 4)),
    ],
)
def test_days_read_from_the_day_they_were_said(text: str, day: date) -> None:
    assert date_in(text, TODAY) == day


@pytest.mark.parametrize("text", ["3号线", "每周五", "I sat down", "the sun is out", "一周三次", "no date here"])
def test_no_day(text: str) -> None:
    assert date_in(text, TODAY) is None


def test_a_week_is_not_a_day() -> None:
    found = day_mentioned("next week", TODAY)
    assert found is not None and found.week_only and found.day == date(2024, 3, 11)
    said_sunday = date(2024, 3, 10)
    assert date_in("这周五", said_sunday) == date(2024, 3, 8)  # this week's, already past
    assert date_in("周五", said_sunday) == date(2024, 3, 15)  # the coming one


_WORDS = st.sampled_from(
    [
        "明天",
        "下周三",
        "12月23日",
        "3号",
        "考",
        "考研",
        "面试",
        "完了",
        "不",
        "可能",
        "？",
        "，",
        "。",
        "I have an",
        " exam",
        " interview",
        " on Friday",
        " tomorrow",
        " Dec 3",
        " passed",
        " not",
        " went well",
        "飞",
        "东京",
    ]
)


@given(st.lists(_WORDS, max_size=8), st.dates(date(2000, 1, 1), date(2100, 12, 1)))
def test_plans_are_never_before_the_day_they_were_said(words: list[str], day: date) -> None:
    text = "".join(words)
    said = datetime(day.year, day.month, day.day, 12)
    for p in plans(text, said):
        assert p.day >= day and p.what and p.text in text
    word = outcome(text)
    assert word is None or word
