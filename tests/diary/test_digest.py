"""The offline diary entry (pure): the day's topics, who said what and the plans with dates, in
the chat's language, verbatim, within its size limit."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from pmemo.diary.digest import digest
from pmemo.diary.excerpt import excerpt
from pmemo.diary.prompt import diary_prompt, fit_lines
from pmemo.models import Scope, Turn

GROUP = Scope.of(group_id="study")
DAY = date(2024, 12, 20)
ZH = [("周霓", "下周三考高数，最近压力好大"), ("Bo", "霓霓加油！高数不难的，多做真题"),
      ("许文涛", "我周五去杭州出差，住西湖边的酒店"), ("周霓", "考完请你们吃火锅"),
      ("Bo", "高数真题我这里有一套，明天发你"), ("周霓", "太好了，谢谢")]
EN = [("Ann", "My job interview is on Friday, I am so nervous."), ("Tom", "You will do great, practise the answers."),
      ("Ann", "Thanks! I also need a new suit for the interview."), ("Mei", "The hiking trip is moved to Sunday.")]


def turns(said: list[tuple[str, str]], role: str = "user", day: date = DAY) -> list[Turn]:
    start = datetime(day.year, day.month, day.day, 9, 0)
    return [Turn(i, GROUP, i, role, text, who, start + timedelta(minutes=10 * i))
            for i, (who, text) in enumerate(said, 1)]


def test_a_chinese_day_is_told_in_chinese_verbatim_with_its_plans() -> None:
    text = digest(DAY, turns(ZH), 1200)
    lines = text.splitlines()
    assert lines[0] == "2024年12月20日（周五）：6 条消息，3 人发言。"
    assert lines[1].startswith("话题：") and "高数" in lines[1]
    assert "周霓" not in lines[1] and "霓霓" not in digest(DAY, turns(ZH), 1200, names=["霓霓"]).splitlines()[1]
    # the most active speaker first, each with their most telling sentences, said word for word
    assert lines[2] == "谁说了什么："
    assert lines[3].startswith("- 周霓（3 条）：") and "下周三考高数，最近压力好大" in lines[3]
    assert lines[4].startswith("- Bo（2 条）：") and lines[5].startswith("- 许文涛（1 条）：")
    for line in lines[3:6]:
        said = line.split("：", 1)[1].split(" / ")
        assert all(any(s in t for _, t in ZH) for s in said), line
    # plans and events with their dates, read from the day they were said (Friday 20 December)
    assert "提到的安排：" in lines
    assert "- 12月25日 高数考试（周霓）" in lines and "- 12月20日 杭州出差（许文涛）" in lines


def test_an_english_day_is_told_in_english() -> None:
    text = digest(DAY, turns(EN), 1200)
    assert text.splitlines()[0] == "Friday 20 December 2024: 4 messages from 3 people."
    assert "Topics: " in text and "interview" in text.splitlines()[1]
    assert "- Ann (2 messages): " in text and "- Mei (1 message): The hiking trip is moved to Sunday." in text
    assert "Plans and dates:" in text and "- Fri 20 Dec 2024: job interview (Ann)" in text
    assert "- Sun 22 Dec 2024: hiking trip (Mei)" in text


def test_the_assistant_is_not_a_speaker_and_alone_makes_no_digest() -> None:
    mixed = turns(EN) + [Turn(9, GROUP, 9, "assistant", "Good luck Ann!", None, datetime(2024, 12, 20, 12))]
    assert "Good luck" not in digest(DAY, mixed, 1200)
    assert digest(DAY, turns(EN, role="assistant"), 1200) == ""


def test_the_least_active_speakers_go_first_when_the_day_is_long() -> None:
    full = digest(DAY, turns(ZH), 1200)
    short = digest(DAY, turns(ZH), len(full) - 5)
    assert len(short) <= len(full) - 5
    assert "许文涛（1 条）" not in short and "周霓（3 条）" in short  # Bo and 周霓 stay
    assert "提到的安排：" in short  # plans go only after the speakers


@given(st.integers(min_value=40, max_value=600))
def test_a_digest_never_passes_its_limit(limit: int) -> None:
    assert len(digest(DAY, turns(ZH + EN), limit)) <= limit


def test_the_prompt_has_the_persona_as_system_and_the_day_within_its_cap() -> None:
    system, user = diary_prompt("我是小满。", DAY, turns(ZH), 500, 140)
    assert system.startswith("我是小满。") and "first person" in system and "500 characters" in system
    assert "numbered messages" not in system and "durable fact" not in system  # not mistaken for other prompts
    assert user.startswith("The day: Friday 2024-12-20, in the group chat study.")
    body = user.split("\n\n", 1)[1]
    assert len(body) <= 140 and "周霓: 下周三考高数，最近压力好大" in body  # the telling ones stay
    assert "太好了，谢谢" not in body  # the least telling one went first


def test_fit_lines_keeps_the_order() -> None:
    lines = ["a b c d e f", "x", "one two three four"]
    assert fit_lines(lines, 100) == lines
    assert fit_lines(lines, 32) == ["a b c d e f", "one two three four"]


def test_an_excerpt_keeps_the_lines_that_match_within_its_limit() -> None:
    text = digest(DAY, turns(ZH), 1200)
    found = excerpt(text, ("杭州",), 60)
    assert len(found) <= 60 and "杭州" in found
    assert excerpt("short", (), 60) == "short"
