"""One sentence per memory item, in the language of what was said (zh/en)."""

from __future__ import annotations

from datetime import date

import pytest

from pmemo.rules.extract_rules import extract
from pmemo.rules.sentences import fact_sentence, plan_sentence


@pytest.mark.parametrize(
    "name, category, key, value, expected",
    [
        ("霓霓", "fact", "allergy:花生", "allergic", "霓霓对花生过敏"),
        ("Neko", "fact", "allergy:cats", "allergic", "Neko is allergic to cats"),
        ("Neko", "preference", "opinion:sushi", "likes", "Neko likes sushi"),
        ("Neko", "preference", "opinion:sushi", "dislikes", "Neko dislikes sushi"),
        ("霓霓", "preference", "opinion:咖啡", "likes", "霓霓喜欢咖啡"),
        ("霓霓", "preference", "opinion:咖啡", "dislikes", "霓霓不喜欢咖啡"),
        ("Neko", "fact", "employer", "Acme", "Neko works at Acme"),
        ("周霓", "fact", "employer", "腾讯", "周霓在腾讯工作"),
        ("Neko", "fact", "employer", "腾讯", "Neko在腾讯工作"),  # the value's language, not the name's
        ("霓霓", "fact", "pet:cat", "年糕", "霓霓的猫叫年糕"),
        ("Neko", "fact", "pet:dog", "Rex", "Neko's dog is called Rex"),
        ("霓霓", "habit", "diet:香菜", "does not eat", "霓霓不吃香菜"),
        ("Neko", "habit", "diet:pork", "does not eat", "Neko doesn't eat pork"),
        ("Neko", "habit", "diet:beer", "does not drink", "Neko doesn't drink beer"),
        ("霓霓", "preference", "diet", "素食", "霓霓吃素"),
        ("霓霓", "preference", "diet", "吃全素", "霓霓吃全素"),
        ("霓霓", "preference", "diet", "纯素", "霓霓吃纯素"),
        ("Neko", "preference", "diet", "vegetarian", "Neko is vegetarian"),
        ("Louis", "profile", "name", "Louis Chen", "Louis's name is Louis Chen"),
        ("路易", "profile", "name", "路易", "路易的名字是路易"),
        ("周霓", "profile", "preferred_name", "霓霓", "周霓希望被叫作霓霓"),
        ("Louis", "profile", "preferred_name", "Lou", "Louis likes to be called Lou"),
        ("霓霓", "procedural", "tone", "轻松幽默", "霓霓希望回复用轻松幽默的语气"),
        ("Neko", "procedural", "tone", "formal", "Neko wants replies in a formal tone"),
        ("霓霓", "preference", "favorite:颜色", "蓝色", "霓霓最喜欢的颜色是蓝色"),
        ("Neko", "preference", "favorite:color", "blue", "Neko's favorite color is blue"),
        ("Neko", "fact", "home_city", "Berlin", "Neko lives in Berlin"),
        ("霓霓", "fact", "home_city", "上海", "霓霓住在上海"),
        ("Neko", "fact", "school", "MIT", "Neko studies at MIT"),
        ("霓霓", "fact", "school", "北大", "霓霓在北大读书"),
        ("Neko", "fact", "major", "physics", "Neko studies physics"),
        ("霓霓", "fact", "major", "计算机", "霓霓是计算机专业的"),
        ("Neko", "fact", "job", "engineer", "Neko is an engineer"),
        ("Neko", "fact", "job", "software engineer", "Neko is a software engineer"),
        ("霓霓", "fact", "job", "程序员", "霓霓是程序员"),
        ("霓霓", "fact", "job", "设计", "霓霓是做设计的"),
        (
            "Neko",
            "fact",
            "event:interview",
            "2024-03-15: My job interview is on March 15.",
            "Neko has an interview on Fri 15 Mar 2024 (said: “My job interview is on March 15.”)",
        ),
        (
            "霓霓",
            "fact",
            "event:出差",
            "2024-03-15: 我下周五要去北京出差。",
            "霓霓 2024年3月15日有出差（原话：“我下周五要去北京出差。”）",
        ),
        (
            "Neko",
            "fact",
            "event:2024-03-08",
            "2024-03-08: I will see mom on Friday.",
            "Neko has plans on Fri 8 Mar 2024 (said: “I will see mom on Friday.”)",
        ),
        ("Neko", "fact", "hobby:chess", "yes", "Neko: hobby chess: yes"),
        ("Neko", "preference", "opinion:sushi", "neutral", "Neko: opinion sushi: neutral"),
        ("霓霓", "fact", "custom_thing", "是", "霓霓的custom thing：是"),
    ],
)
def test_fact_sentence(name: str, category: str, key: str, value: str, expected: str) -> None:
    assert fact_sentence(name, category, key, value) == expected


@pytest.mark.parametrize(
    "text",
    [
        "我叫路易。",
        "Call me Lou.",
        "请用轻松幽默的语气回答我。",
        "My favorite color is blue.",
        "I'm vegetarian.",
        "我对花生过敏",
        "I love hiking.",
        "我不吃香菜。",
        "I have a dentist appointment tomorrow.",
        "我下周五要去北京出差。",
        "我在腾讯工作。",
        "I live in Berlin.",
        "我的猫叫年糕。",
        "I study physics at MIT.",
        "我是一名程序员",
        "I'm a teacher.",
        "I will see mom on Friday.",
    ],
)
def test_every_key_the_rules_produce_reads_as_words(text: str) -> None:
    cands = extract(text, None)
    assert cands
    for c in cands:
        line = fact_sentence("Neko", c.category, c.key, c.value)
        assert line.startswith("Neko") and c.key not in line and "event:" not in line


@pytest.mark.parametrize(
    "name, what, day, today, expected",
    [
        ("霓霓", "考研", date(2026, 12, 23), date(2026, 12, 20), "霓霓 12月23日考研（还有3天）"),
        ("霓霓", "考研", date(2026, 12, 23), date(2026, 12, 26), "霓霓 12月23日考研（3天前）"),
        ("霓霓", "高数考试", date(2026, 12, 23), date(2026, 12, 22), "霓霓 12月23日高数考试（明天）"),
        ("霓霓", "答辩", date(2026, 12, 23), date(2026, 12, 23), "霓霓 12月23日答辩（今天）"),
        ("霓霓", "考研", date(2027, 12, 23), date(2026, 12, 26), "霓霓 2027年12月23日考研（还有362天）"),
        (
            "Neko",
            "job interview",
            date(2026, 11, 27),
            date(2026, 11, 24),
            "Neko has a job interview on Fri 27 Nov (in 3 days)",
        ),
        ("Neko", "exam", date(2026, 11, 21), date(2026, 11, 24), "Neko had an exam on Sat 21 Nov (3 days ago)"),
        ("Neko", "finals", date(2026, 11, 25), date(2026, 11, 24), "Neko has finals on Wed 25 Nov (tomorrow)"),
        (
            "Neko",
            "flight to Paris",
            date(2027, 1, 5),
            date(2026, 11, 24),
            "Neko has a flight to Paris on Tue 5 Jan 2027 (in 42 days)",
        ),
        ("Neko", "exam", date(2026, 11, 23), date(2026, 11, 24), "Neko had an exam on Mon 23 Nov (yesterday)"),
    ],
)
def test_plan_sentence(name: str, what: str, day: date, today: date, expected: str) -> None:
    assert plan_sentence(name, what, day, today) == expected


def test_plan_sentence_language_can_be_forced() -> None:
    assert plan_sentence("Neko", "exam", date(2026, 12, 23), date(2026, 12, 20), lang="zh") == (
        "Neko 12月23日exam（还有3天）"
    )
    assert plan_sentence("霓霓", "考研", date(2026, 12, 23), date(2026, 12, 20), lang="en") == (
        "霓霓 has 考研 on Wed 23 Dec (in 3 days)"
    )
