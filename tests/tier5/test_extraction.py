"""Extraction: rules for explicit statements (zh/en), no hedges; LLM path with fallback."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pmemo.pipelines.extract_rules import extract

WHEN = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)  # a Monday


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.key, c.value) for c in extract(text, WHEN)}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My name is Louis Chen.", {("name", "Louis Chen")}),
        ("我叫路易，今年30岁。", {("name", "路易")}),
        ("Please call me Lou.", {("preferred_name", "Lou")}),
        ("以后叫我小路就好。", {("preferred_name", "小路")}),
        ("I love hiking on weekends.", {("opinion:hiking", "likes")}),
        ("I hate cilantro.", {("opinion:cilantro", "dislikes")}),
        ("I don't like coffee anymore.", {("opinion:coffee", "dislikes")}),
        ("我喜欢喝咖啡。", {("opinion:咖啡", "likes")}),
        ("我不喜欢咖啡了。", {("opinion:咖啡", "dislikes")}),
        ("我讨厌下雨天。", {("opinion:下雨天", "dislikes")}),
        ("我不吃香菜。", {("diet:香菜", "does not eat")}),
        ("请用轻松幽默的语气回答我。", {("tone", "轻松幽默")}),
        ("Please use a formal tone.", {("tone", "formal")}),
        ("My favorite color is blue.", {("favorite:color", "blue")}),
        (
            "My job interview is on March 15.",
            {("event:interview", "2024-03-15: My job interview is on March 15.")},
        ),
        ("我下周五要去北京出差。", {("event:出差", "2024-03-15: 我下周五要去北京出差。")}),
    ],
)
def test_explicit_statements(text: str, expected: set[tuple[str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I think I like Python.",
        "我觉得我可能喜欢Python。",
        "Maybe I like jazz.",
        "我好像不太喜欢这个。",
        "Do you like tea?",
        "你喜欢喝茶吗？",
        "If I like it, I will buy it.",
        "我叫了外卖。",
        "I like it when you answer briefly.",
        "The meeting was on March 1.",  # past, and no future marker
    ],
)
def test_no_fact_from_hedges_questions_or_noise(text: str) -> None:
    assert facts(text) == set()


def test_corrections_outrank_plain_statements() -> None:
    plain = extract("I like tea.", WHEN)[0]
    changed = extract("I like tea now.", WHEN)[0]
    assert changed.confidence > plain.confidence and changed.source == "corrected"


def test_events_expire_the_day_after() -> None:
    (c,) = extract("I have a dentist appointment tomorrow.", WHEN)
    assert c.expires_epoch == datetime(2024, 3, 6, tzinfo=UTC).timestamp()



def test_diet_and_allergies_are_explicit_facts():
    from pmemo.pipelines.extract_rules import extract

    def facts(text):
        return {(c.category, c.key, c.value) for c in extract(text, None)}

    assert facts("I'm vegetarian.") == {("preference", "diet", "vegetarian")}
    assert facts("我吃素。") == {("preference", "diet", "素食")}
    assert facts("I'm allergic to peanuts.") == {("fact", "allergy:peanuts", "allergic")}
    assert facts("我对花生过敏") == {("fact", "allergy:花生", "allergic")}
    assert facts("I think I am vegetarian?") == set()  # hedged questions stay out


# ---- work, home, pets, study, job (first person, zh/en) -------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("我在腾讯工作。", {("employer", "腾讯")}),
        ("我在字节跳动上班", {("employer", "字节跳动")}),
        ("我在腾讯做产品", {("employer", "腾讯"), ("job", "产品")}),
        ("我是美团的员工", {("employer", "美团")}),
        ("我入职字节了", {("employer", "字节")}),
        ("I work at Google.", {("employer", "Google")}),
        ("I work for Acme Corp.", {("employer", "Acme Corp")}),
        ("I joined Stripe last month.", {("employer", "Stripe")}),
        ("I'm now at Globex.", {("employer", "Globex")}),
        ("I started a new job at Initech.", {("employer", "Initech")}),
        ("我住在上海。", {("home_city", "上海")}),
        ("我在杭州生活", {("home_city", "杭州")}),
        ("I live in New York.", {("home_city", "New York")}),
        ("我的猫叫年糕。", {("pet:cat", "年糕")}),
        ("我家狗叫旺财", {("pet:dog", "旺财")}),
        ("我养了一只叫年糕的猫", {("pet:cat", "年糕")}),
        ("My cat is called 年糕.", {("pet:cat", "年糕")}),
        ("my dog's name is Rex", {("pet:dog", "Rex")}),
        ("I have a cat named Mochi.", {("pet:cat", "Mochi")}),
        ("我在北大读研", {("school", "北大")}),
        ("我在清华读计算机", {("school", "清华"), ("major", "计算机")}),
        ("我是计算机专业的", {("major", "计算机")}),
        ("I study physics at MIT.", {("major", "physics"), ("school", "MIT")}),
        ("I'm a student at Stanford.", {("school", "Stanford"), ("job", "student")}),
        ("我是一名程序员", {("job", "程序员")}),
        ("我是一名高中数学老师", {("job", "高中数学老师")}),
        ("我是做设计的", {("job", "设计")}),
        ("I'm a teacher.", {("job", "teacher")}),
        ("I'm a software engineer at Google.", {("job", "software engineer"), ("employer", "Google")}),
        ("I work as a nurse.", {("job", "nurse")}),
    ],
)
def test_life_facts(text: str, expected: set[tuple[str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("我跳槽到阿里了", "employer", "阿里"),
        ("我从阿里跳槽到字节了", "employer", "字节"),
        ("我换工作了，现在在美团", "employer", "美团"),
        ("I left Acme for Globex.", "employer", "Globex"),
        ("我搬到深圳了", "home_city", "深圳"),
        ("I moved to London last year.", "home_city", "London"),
    ],
)
def test_a_change_of_job_or_home_supersedes(text: str, key: str, value: str) -> None:
    (c,) = extract(text, WHEN)
    assert (c.key, c.value, c.source, c.confidence) == (key, value, "corrected", 0.97)
    (plain,) = extract("我在腾讯工作" if key == "employer" else "我住在上海", WHEN)
    assert c.confidence > plain.confidence  # so the upsert rules let the new value take over


@pytest.mark.parametrize(
    "text",
    [
        "我在家工作",  # where, not whom for
        "我在北京工作",  # a city is not an employer
        "我在公司上班",
        "我在家做饭",
        "I work at home.",
        "I joined a gym.",
        "I live in a small flat.",
        "I lived in Paris.",  # past
        "我住在公司附近",
        "我的猫叫什么好呢？",
        "我是你老师",
        "我是学生会的",
        "I study hard.",
        "I'm a big fan of jazz.",
        "我觉得我可能在腾讯工作",  # hedged
        "I might move to Berlin.",
        "你在腾讯工作吗？",
        "Do you work at Google?",
        "他在腾讯工作",  # third person: attribution rewrites it first
    ],
)
def test_no_life_fact_from_noise(text: str) -> None:
    assert facts(text) == set()


def test_existing_kinds_unchanged_beside_the_new_ones() -> None:
    assert facts("我叫路易，我在腾讯工作，我不吃香菜。") == {
        ("name", "路易"),
        ("employer", "腾讯"),
        ("diet:香菜", "does not eat"),
    }


def test_past_dates_are_not_events() -> None:
    # "March 1" said on March 4 is three days ago, not next year's March 1
    assert facts("I will call the bank on March 1.") == set()
    assert facts("我12月23日要考研。") == {("event:2024-12-23", "2024-12-23: 我12月23日要考研。")}
