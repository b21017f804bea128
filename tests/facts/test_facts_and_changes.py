"""Facts are the fact, a change is a change, and a stale value never leads (issue 19), zh/en.

* a dated event is ``event:<the thing>`` = its day, never the sentence that said it;
* birthdays, allergies, employers, schools and pets, in the first person, in both languages;
* a switch ("我现在不喝咖啡了，改喝茶") makes the new value current and closes the old one,
  in the profile the people section reads;
* a profile lists the current and most recent facts first.

``HELD_OUT`` was written before the rules for this issue were run on it, from how people
talk rather than from any dataset; what the rules still miss there is marked, not hidden.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from pmemo import SyncMemory
from pmemo.models import Fact, Scope
from pmemo.rules.attribution import Mention, by_subject
from pmemo.rules.extract_rules import extract
from pmemo.rules.sentences import fact_sentence
from pmemo.tiers.profile import settled

WHEN = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)  # a Monday
Facts = set[tuple[str, str]]


def facts(text: str) -> Facts:
    return {(c.key, c.value) for c in extract(text, WHEN)}


# kind → language → (message, every fact it states)
STATED: dict[str, dict[str, list[tuple[str, Facts]]]] = {
    "event": {
        "zh": [
            ("我12月7日考日语N2", {("event:日语N2考试", "2024-12-07")}),
            ("日语N2考试是12月7日", {("event:日语N2考试", "2024-12-07")}),
            ("下周三考高数", {("event:高数考试", "2024-03-13")}),
            ("我下周五要去北京出差", {("event:北京出差", "2024-03-15")}),
            ("我周六要回老家", {("event:回老家", "2024-03-09")}),
        ],
        "en": [
            ("My job interview is on March 15.", {("event:job interview", "2024-03-15")}),
            ("I have a dentist appointment on Friday", {("event:dentist appointment", "2024-03-08")}),
            ("I will see mom on Friday.", {("event:see mom", "2024-03-08")}),
        ],
    },
    "birthday": {
        "zh": [
            ("我生日是3月5号", {("birthday", "3月5日")}),
            ("我的生日是三月五日", {("birthday", "3月5日")}),
            ("我是十二月二十五号生日", {("birthday", "12月25日")}),
            ("我1995年3月5日出生的", {("birthday", "1995年3月5日")}),
            ("明天是我生日", {("birthday", "3月5日")}),
        ],
        "en": [
            ("my birthday is March 5th", {("birthday", "March 5")}),
            ("My birthday's on the 5th of March", {("birthday", "March 5")}),
            ("I was born on March 5 1995", {("birthday", "March 5, 1995")}),
            ("tomorrow is my birthday", {("birthday", "March 5")}),
        ],
    },
    "allergy": {
        "zh": [
            ("我对花生过敏", {("allergy:花生", "allergic")}),
            ("我一吃海鲜就过敏", {("allergy:海鲜", "allergic")}),
            ("我对海鲜和芒果都过敏", {("allergy:海鲜", "allergic"), ("allergy:芒果", "allergic")}),
            ("我对花生、芒果过敏", {("allergy:花生", "allergic"), ("allergy:芒果", "allergic")}),
        ],
        "en": [
            ("I'm allergic to peanuts", {("allergy:peanuts", "allergic")}),
            ("I am allergic to shellfish and tree nuts", {("allergy:shellfish", "allergic"),
                                                          ("allergy:tree nuts", "allergic")}),
            ("I'm allergic to cats and I hate it", {("allergy:cats", "allergic")}),
        ],
    },
    "employer": {
        "zh": [
            ("我在腾讯上班", {("employer", "腾讯")}),
            ("我在一家叫云杉的公司上班", {("employer", "云杉")}),
            ("我上班的地方是美团", {("employer", "美团")}),
        ],
        "en": [
            ("I work at Google", {("employer", "Google")}),
            ("I work in marketing at Spotify", {("employer", "Spotify")}),
        ],
    },
    "school": {
        "zh": [
            ("我在复旦读研", {("school", "复旦")}),
            ("我在复旦大学读书", {("school", "复旦大学")}),
        ],
        "en": [
            ("I study at MIT", {("school", "MIT")}),
            ("I'm a student at Harvard", {("school", "Harvard"), ("job", "student")}),
        ],
    },
    "pet": {
        "zh": [("我家猫叫年糕", {("pet:cat", "年糕")}), ("我养了一只猫叫咪咪", {("pet:cat", "咪咪")})],
        "en": [("my dog is called Rex", {("pet:dog", "Rex")}), ("I have a dog named Max", {("pet:dog", "Max")})],
    },
    "home": {
        "zh": [("我住在上海浦东新区张江那边", {("home_city", "上海")}),
               ("我家住在杭州西湖区", {("home_city", "杭州")})],
        "en": [("I live in New York.", {("home_city", "New York")})],
    },
}

# a change: every fact it states carries the "corrected" source, so that it supersedes
CHANGES: dict[str, list[tuple[str, Facts]]] = {
    "zh": [
        ("我现在不喝咖啡了，改喝茶", {("diet:咖啡", "does not drink"), ("diet:茶", "drinks")}),
        ("我不喝咖啡了，换成茶了", {("diet:咖啡", "does not drink"), ("diet:茶", "drinks")}),
        ("我从咖啡换成了茶", {("diet:咖啡", "does not drink"), ("diet:茶", "drinks")}),
        ("我不在杭州了，搬到深圳了", {("home_city", "深圳")}),
        ("以前喜欢猫，现在喜欢狗", {("opinion:猫", "no longer likes"), ("opinion:狗", "likes")}),
        ("我以前喜欢周杰伦，现在喜欢陈奕迅", {("opinion:周杰伦", "no longer likes"), ("opinion:陈奕迅", "likes")}),
    ],
    "en": [
        ("I don't drink coffee anymore, I switched to tea",
         {("diet:coffee", "does not drink"), ("diet:tea", "drinks")}),
        ("I switched from coffee to tea", {("diet:coffee", "does not drink"), ("diet:tea", "drinks")}),
        ("I stopped drinking coffee", {("diet:coffee", "does not drink")}),
        ("I used to love coffee but now I drink tea", {("opinion:coffee", "no longer likes"), ("diet:tea", "drinks")}),
        ("I don't like coffee anymore.", {("opinion:coffee", "dislikes")}),
    ],
}

# nothing changed, nothing new: a former state alone, or one that still holds
NO_CHANGE = [
    "我以前住在广州",
    "I used to live in Paris",
    "我以前喜欢周杰伦，现在也喜欢",
    "我以前就喜欢周杰伦",
    "我换成苹果手机了",
    "switched to Figma recently",
    "明天会下雨",
    "生日快乐",
    "我妈生日是5月1日",
    "my mom's birthday is May 1",
]

# long Chinese sentences: a key or value is the thing, not the rest of the sentence
LONG_ZH: list[tuple[str, Facts]] = [
    ("我喜欢在周末的时候去公园跑步然后喝杯咖啡", {("opinion:公园跑步", "likes")}),
    ("我特别爱吃我妈做的红烧肉", {("opinion:红烧肉", "likes")}),
    ("我讨厌早上八点开会还要准备材料", {("opinion:开会", "dislikes")}),
    ("我不喜欢别人在我工作的时候打扰我", set()),  # a clause about others, not a thing
    ("我不吃香菜也不吃葱", {("diet:香菜", "does not eat"), ("diet:葱", "does not eat")}),
    ("我受不了香菜的味道", {("opinion:香菜的味道", "dislikes")}),
    ("我最喜欢的运动是羽毛球然后是游泳", {("favorite:运动", "羽毛球")}),
]

# written before the rules for this issue were run on them (see the module's docstring)
HELD_OUT: list[tuple[str, str, Facts]] = [
    ("event", "驾照科目二考试定在3月20日", {("event:驾照科目二考试", "2024-03-20")}),
    ("event", "3月15日公司年会", {("event:公司年会", "2024-03-15")}),
    ("event", "my flight to Tokyo is on March 12", {("event:flight to Tokyo", "2024-03-12")}),
    ("event", "thesis defense on April 2nd, wish me luck", {("event:thesis defense", "2024-04-02")}),
    ("birthday", "本人生日12月1号", {("birthday", "12月1日")}),
    ("birthday", "我的生日在八月十五", {("birthday", "8月15日")}),
    ("birthday", "my bday's Oct 3", {("birthday", "October 3")}),
    ("birthday", "I was born on the 4th of July", {("birthday", "July 4")}),
    ("birthday", "It's my birthday today!", {("birthday", "March 4")}),
    ("allergy", "我对牛奶和鸡蛋过敏", {("allergy:牛奶", "allergic"), ("allergy:鸡蛋", "allergic")}),
    ("allergy", "本人酒精过敏", {("allergy:酒精", "allergic")}),
    ("allergy", "I'm allergic to dogs", {("allergy:dogs", "allergic")}),
    ("allergy", "I have a severe shellfish allergy", {("allergy:shellfish", "allergic")}),
    ("employer", "我目前在京东上班", {("employer", "京东")}),
    ("employer", "我在小米做测试", {("employer", "小米"), ("job", "测试")}),
    ("employer", "I work for Shopify as a designer", {("employer", "Shopify"), ("job", "designer")}),
    ("employer", "I'm a nurse at St. Mary's Hospital", {("job", "nurse"), ("employer", "St. Mary's Hospital")}),
    ("school", "我在南京大学读研究生", {("school", "南京大学")}),
    ("school", "我是北师大的研究生", {("school", "北师大"), ("job", "研究生")}),
    ("school", "I'm a junior at Duke", {("school", "Duke")}),
    ("school", "I'm studying at the University of Toronto", {("school", "University of Toronto")}),
    ("pet", "我家狗子名字叫土豆", {("pet:dog", "土豆")}),
    ("pet", "我养了一只兔子，叫雪球", {("pet:rabbit", "雪球")}),
    ("pet", "my cat is named Pickles", {("pet:cat", "Pickles")}),
    ("pet", "We got a puppy called Bear", {("pet:dog", "Bear")}),
    ("change", "我已经不喝奶茶了，现在只喝白开水", {("diet:奶茶", "does not drink"), ("diet:白开水", "drinks")}),
    ("change", "I quit coffee, drinking green tea now", {("diet:coffee", "does not drink"),
                                                        ("diet:green tea", "drinks")}),
    ("change", "我从上海搬到了成都", {("home_city", "成都")}),
    ("change", "以前爱吃辣，现在吃不了了", {("opinion:辣", "no longer likes")}),
    ("change", "I used to be vegetarian but now I eat fish", {("diet:fish", "eats")}),
    ("change", "我不在字节了，去了腾讯", {("employer", "腾讯")}),
]
# what the held-out set showed the rules still miss, kept in view
MISSED = {
    "I'm studying at the University of Toronto": "'the' kept in a school's name",
    "现在只喝白开水": "",
    "I quit coffee, drinking green tea now": "'quit X' and a subjectless 'drinking X now'",
    "我不在字节了，去了腾讯": "'去了X' without 上班/报到: a trip or a job",
}


def _missed(text: str) -> str | None:
    return next((why or "a switch said with 只喝" for part, why in MISSED.items() if part in text), None)


def _cases() -> list[object]:
    return [pytest.param(text, expected, id=f"{kind}-{lang}-{i}")
            for kind, langs in STATED.items() for lang, rows in langs.items()
            for i, (text, expected) in enumerate(rows)]


@pytest.mark.parametrize("text, expected", _cases())
def test_stated(text: str, expected: Facts) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize("text, expected", [pytest.param(t, e, id=f"change-{lang}-{i}")
                                            for lang, rows in CHANGES.items() for i, (t, e) in enumerate(rows)])
def test_a_change_is_said_as_one(text: str, expected: Facts) -> None:
    found = extract(text, WHEN)
    assert {(c.key, c.value) for c in found} == expected
    assert all(c.source == "corrected" for c in found)


@pytest.mark.parametrize("text", NO_CHANGE)
def test_nothing_is_stated(text: str) -> None:
    assert facts(text) == set()


@pytest.mark.parametrize("text, expected", LONG_ZH, ids=[f"long-{i}" for i in range(len(LONG_ZH))])
def test_a_chinese_value_is_the_thing_not_the_sentence(text: str, expected: Facts) -> None:
    found = facts(text)
    assert found == expected
    assert all(text not in f"{k}{v}" and len(k.partition(":")[2]) <= 12 for k, v in found)


@pytest.mark.parametrize(
    "kind, text, expected",
    [pytest.param(kind, text, expected, id=f"held-out-{kind}-{i}",
                  marks=[pytest.mark.xfail(strict=True, reason=why)] if (why := _missed(text)) else [])
     for i, (kind, text, expected) in enumerate(HELD_OUT)],
)
def test_held_out(kind: str, text: str, expected: Facts) -> None:
    assert facts(text) == expected


# said of someone else: attribution rewrites the statement in the first person, the rules read it
ABOUT_OTHERS = [
    ("霓霓生日是3月5号", "ni", {("birthday", "3月5日")}),
    ("霓霓12月7日考日语N2", "ni", {("event:日语N2考试", "2024-12-07")}),
    ("Neko's birthday is March 5", "neko", {("birthday", "March 5")}),
    ("Neko doesn't drink coffee anymore, she switched to tea", "neko",
     {("diet:coffee", "does not drink"), ("diet:tea", "drinks")}),
    ("小林现在不喝咖啡了，改喝茶", "lin", {("diet:咖啡", "does not drink"), ("diet:茶", "drinks")}),
    ("小林以前喜欢猫，现在喜欢狗", "lin", {("opinion:猫", "no longer likes"), ("opinion:狗", "likes")}),
]
PEOPLE = {"霓霓": "ni", "Neko": "neko", "小林": "lin"}


@pytest.mark.parametrize("text, person, expected", ABOUT_OTHERS, ids=[f"other-{i}" for i in range(len(ABOUT_OTHERS))])
def test_said_of_someone_else(text: str, person: str, expected: Facts) -> None:
    names = re.compile("|".join(PEOPLE))
    parts = by_subject(text, [Mention(m.start(), m.end(), PEOPLE[m.group(0)]) for m in names.finditer(text)])
    assert [(a.subject, facts(a.text)) for a in parts] == [(person, expected)]


def test_every_new_value_reads_as_words() -> None:
    said = {
        ("event:日语N2考试", "2024-12-07"): "用户 2024年12月7日有日语N2考试",
        ("event:见客户", "2024-03-08"): "用户 2024年3月8日见客户",
        ("event:job interview", "2024-03-15"): "The user has a job interview on Fri 15 Mar 2024",
        ("event:see mom", "2024-03-08"): "The user will see mom on Fri 8 Mar 2024",
        ("birthday", "3月5日"): "用户的生日是3月5日",
        ("birthday", "March 5"): "The user's birthday is March 5",
        ("diet:茶", "drinks"): "用户喝茶",
        ("diet:tea", "drinks"): "The user drinks tea",
        ("opinion:周杰伦", "no longer likes"): "用户不再喜欢周杰伦",
    }
    assert {kv: fact_sentence(None, "fact", *kv) for kv in said} == said


# ---- a stale fact never leads -------------------------------------------------------------------
T0 = datetime(2024, 3, 1, tzinfo=UTC)


def _fact(i: int, key: str, value: str, days: int, status: str = "current", owner: str = "g:g") -> Fact:
    at = T0 + timedelta(days=days)
    scope = Scope(owner=owner)
    category = "habit" if key.startswith("diet:") else "preference" if key.startswith("opinion:") else "fact"
    return Fact(i, scope, category, key, value, 0.8, 1, at, at, at, None, None, "explicit", (i,), status,
                subject_id="ni")


def test_a_newer_statement_about_a_thing_closes_an_older_opposite_one() -> None:
    view = settled([
        _fact(1, "opinion:咖啡", "likes", 0),
        _fact(2, "favorite:饮料", "咖啡", 1),
        _fact(3, "diet:咖啡", "does not drink", 5),
        _fact(4, "diet:茶", "drinks", 5),
        _fact(5, "opinion:茶", "likes", 2),  # the same way as the newer one: kept
        _fact(6, "diet:香菜", "does not eat", 3),
    ])
    current = {(f.key, f.value) for f in view if f.status == "current"}
    assert current == {("diet:咖啡", "does not drink"), ("diet:茶", "drinks"), ("opinion:茶", "likes"),
                       ("diet:香菜", "does not eat")}
    closed = {f.key: f.valid_to for f in view if f.status == "superseded"}
    assert closed == {"opinion:咖啡": T0 + timedelta(days=5), "favorite:饮料": T0 + timedelta(days=5)}


def test_current_and_recent_first_then_history() -> None:
    view = settled([
        _fact(1, "employer", "云杉科技", 0, "superseded"),
        _fact(2, "employer", "蓝鲸数据", 30),
        _fact(3, "allergy:花生", "allergic", 10),
        _fact(4, "home_city", "杭州", 1, owner="u:ni"),  # said in the private chat, before
        _fact(5, "home_city", "深圳", 20),  # said in the group, later
    ])
    assert [(f.id, f.status) for f in view] == [(2, "current"), (5, "current"), (3, "current"),
                                                (4, "superseded"), (1, "superseded")]


# ---- end to end: the profile a person's section reads ------------------------------------------
@pytest.fixture
def mem(tmp_path):  # type: ignore[no-untyped-def]
    with SyncMemory.open(tmp_path / "d", embedder="hashing") as m:
        yield m


def _say(mem: SyncMemory, text: str, minutes: int) -> None:
    mem.add(group_id="g", session_id="g-chat", actor_id="ni", actor="周霓", content=text,
            timestamp=T0 + timedelta(minutes=minutes))


@pytest.mark.parametrize(
    "before, change, now, closed",
    [
        ("我每天都爱喝咖啡", "我现在不喝咖啡了，改喝茶", {("diet:茶", "drinks"), ("diet:咖啡", "does not drink")},
         {"opinion:咖啡"}),
        ("I love coffee", "I don't drink coffee anymore, I switched to tea",
         {("diet:tea", "drinks"), ("diet:coffee", "does not drink")}, {"opinion:coffee"}),
        ("我住在杭州", "我不在杭州了，搬到深圳了", {("home_city", "深圳")}, {"home_city"}),
        ("我喜欢周杰伦", "以前喜欢周杰伦，现在喜欢陈奕迅", {("opinion:周杰伦", "no longer likes"),
                                                   ("opinion:陈奕迅", "likes")}, {"opinion:周杰伦"}),
    ],
    ids=["coffee-zh", "coffee-en", "move-zh", "former-zh"],
)
def test_a_change_makes_the_new_current_and_closes_the_old(mem: SyncMemory, before: str, change: str,
                                                           now: Facts, closed: set[str]) -> None:
    _say(mem, before, 0)
    _say(mem, change, 60)
    mem.drain()
    history = mem.profile("ni", group_id="g", history=True)
    current = [f for f in history if f.status == "current"]
    assert {(f.key, f.value) for f in current} == now
    assert closed <= {f.key for f in history if f.status == "superseded"}
    first_stale = next(i for i, f in enumerate(history) if f.status != "current")
    assert all(f.status != "current" for f in history[first_stale:])  # nothing stale before a current fact


def test_the_people_section_shows_the_switch_not_the_old_like(mem: SyncMemory) -> None:
    _say(mem, "我每天都爱喝咖啡", 0)
    _say(mem, "我现在不喝咖啡了，改喝茶", 60)
    mem.drain()
    pack = mem.context("周霓喝什么？", group_id="g", asker="ni", at=T0 + timedelta(days=1))
    lines = [h.text for h in pack.items if h.tier == "people"]
    assert "周霓喝茶" in lines and "周霓不喝咖啡" in lines
    assert not any("喜欢咖啡" in line for line in lines)
