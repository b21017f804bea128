"""Aliases without an LLM: checked, generated from a name, learned from messages, @mentioned."""

from __future__ import annotations

import doctest
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pmemo.errors import InvalidInput
from pmemo.people import aliases
from pmemo.people.aliases import Learned, check_alias, generated_aliases, learned_aliases, mentions

# ---- check_alias ----------------------------------------------------------------------------


def test_check_alias_normalises() -> None:
    assert check_alias("  Neko \u3000 Zhang\u00a0") == "Neko Zhang"
    assert check_alias("Zoe\u0308") == "Zoë"  # NFC: one code point, as the index stores it
    assert check_alias("霓" * 64) == "霓" * 64


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "alias='' is invalid: it is empty"),
        ("   ", "alias='   ' is invalid: it is empty"),
        ("霓" * 65, "it has 65 characters; the limit is 64"),
        ("Ne\x00ko", "control character U+0000"),
        ("Ne\nko", "control character U+000A"),
        ("霓\u200b霓", "control character U+200B"),
        ("霓\ud800", "control character U+D800"),
        (42, "alias must be a string, got int"),
        (None, "alias must be a string, got NoneType"),
    ],
)
def test_check_alias_refuses(value: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        check_alias(value)


def test_check_alias_names_the_field() -> None:
    with pytest.raises(InvalidInput, match="^name='' is invalid"):
        check_alias("", "name")


# ---- generated_aliases ----------------------------------------------------------------------


def test_one_character_given_name() -> None:
    assert generated_aliases("周霓") == ["霓霓", "小霓", "阿霓",
                                       "老周", "小周", "周哥", "周姐", "周老师", "周总", "周工"]


def test_two_character_given_name() -> None:
    forms = generated_aliases("周晓东")
    assert forms[:3] == ["晓东", "东东", "阿东"]
    assert "小东" not in forms and "小晓" not in forms
    assert generated_aliases("王小明")[:3] == ["小明", "明明", "阿明"]


def test_compound_surnames() -> None:
    assert generated_aliases("欧阳娜娜")[:3] == ["娜娜", "阿娜", "老欧阳"]
    assert "欧阳老师" in generated_aliases("欧阳娜娜")
    assert generated_aliases("司马光")[:4] == ["光光", "小光", "阿光", "老司马"]
    assert "老司" not in generated_aliases("司马光")


@pytest.mark.parametrize("name", ["小霓", "霓霓子", "阿猫", "霓霓", "老王", "王总", "李姐", "张老师", "王者荣耀",
                                  "快乐每一天", "霓", "🌸霓霓🌸"])
def test_nicknames_and_phrases_give_no_forms(name: str) -> None:
    forms = generated_aliases(name)
    assert forms in ([], ["霓霓"])  # a decorated nickname gives itself undecorated, nothing more
    assert forms == (["霓霓"] if name == "🌸霓霓🌸" else [])


def test_latin_names_give_the_first_name_never_the_surname() -> None:
    assert generated_aliases("Neko Zhang") == ["Neko"]
    assert generated_aliases("Mary Jane Watson") == ["Mary"]
    assert generated_aliases("Neko") == []  # the name itself is not generated
    assert generated_aliases("Zhang Wei") == []  # surname first: neither part alone is safe
    assert generated_aliases("Chan Tai Man") == []


def test_diminutives() -> None:
    assert generated_aliases("Alexander") == ["Alex"]
    assert generated_aliases("William") == ["Will", "Bill"]
    assert generated_aliases("Elizabeth Chen") == ["Elizabeth", "Liz", "Beth"]
    assert generated_aliases("alexander_w") == ["alexander", "alex"]  # the case of the name
    assert generated_aliases("Nekoko") == []


def test_handles() -> None:
    assert generated_aliases("neko_zhang") == ["neko"]
    assert generated_aliases("neko.z") == ["neko"]
    assert generated_aliases("Neko2001") == ["Neko"]
    assert generated_aliases("neko-z") == ["neko"]
    assert generated_aliases("n.zhang") == []  # fewer than three letters
    assert generated_aliases("zhang_wei") == []  # a surname alone
    assert generated_aliases("the_boss") == []


def test_mixed_names() -> None:
    assert generated_aliases("Neko 霓") == ["Neko", "霓霓", "小霓", "阿霓"]
    assert generated_aliases("Neko 霓霓") == ["Neko", "霓霓"]
    assert generated_aliases("周霓 Neko")[:2] == ["周霓", "霓霓"] and generated_aliases("周霓 Neko")[-1] == "Neko"
    assert generated_aliases("Neko Zhang 周霓")[:3] == ["Neko Zhang", "Neko", "周霓"]


def test_tags_and_decorations() -> None:
    assert generated_aliases("周霓-产品部")[:2] == ["周霓", "霓霓"]
    assert "产品部" not in generated_aliases("周霓-产品部")
    assert generated_aliases("霓霓-上海") == []
    assert generated_aliases("霓霓(上海)") == []
    assert generated_aliases("周霓🌸")[0] == "周霓"
    assert generated_aliases("Neko🌸") == ["Neko"]
    assert generated_aliases("周霓 2001") == generated_aliases("周霓🌸")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("周霓王小明欧阳司马阿老张NekoZhangWillam _.-2🌸()")), max_size=12))
def test_generated_forms_are_unique_long_enough_and_never_the_name(name: str) -> None:
    forms = generated_aliases(name)
    assert len(forms) == len(set(forms))
    assert " ".join(name.split()) not in forms
    for form in forms:
        han = any(aliases.is_han(c) for c in form)
        assert len(form) >= (2 if han else 3), form
    assert forms == generated_aliases(name)


# ---- learned_aliases ------------------------------------------------------------------------


def _learned(text: str) -> list[tuple[str, str, str | None]]:
    found = learned_aliases(text)
    for item in found:
        assert text[item.span[0]:item.span[1]] == item.alias
    return [(item.alias, item.about, item.target) for item in found]


@pytest.mark.parametrize(
    ("text", "alias"),
    [
        ("叫我霓霓就行", "霓霓"),
        ("以后叫我霓霓就好。", "霓霓"),
        ("叫我小霓吧", "小霓"),
        ("叫我阿猫好了", "阿猫"),
        ("大家都叫我霓霓。", "霓霓"),
        ("朋友们一般叫我霓霓", "霓霓"),
        ("你们可以叫我霓霓", "霓霓"),
        ("您直接叫我老周", "老周"),
        ("我的外号是霓霓", "霓霓"),
        ("我的小名叫阿猫，", "阿猫"),
        ("我昵称是Neko哈", "Neko"),
        ("我的英文名是Neko。", "Neko"),
        ("叫我neko就好", "neko"),
        ("you can call me Neko", "Neko"),
        ("Just call me Neko.", "Neko"),
        ("call me Neko Zhang please", "Neko Zhang"),
        ("Everyone calls me Nek", "Nek"),
        ("my friends call me Kitty!", "Kitty"),
        ("My nickname is Kitty", "Kitty"),
        ("I go by neko_z here", "neko_z"),
        ("call me 霓霓", "霓霓"),
    ],
)
def test_learned_about_the_speaker(text: str, alias: str) -> None:
    assert _learned(text) == [(alias, "speaker", None)]


@pytest.mark.parametrize(
    ("text", "alias", "target"),
    [
        ("大家都叫她霓霓", "霓霓", None),
        ("我们都叫他老王。", "老王", None),
        ("她的外号是霓霓", "霓霓", None),
        ("他外号叫大头", "大头", None),
        ("周霓，大家都叫她霓霓", "霓霓", "周霓"),
        ("这是周霓，我们都叫她霓霓！", "霓霓", "周霓"),
        ("介绍一下周霓，大家都叫她霓霓", "霓霓", "周霓"),
        ("我同事周霓的外号是霓霓", "霓霓", "周霓"),
        ("周霓是我同事，大家都叫她霓霓", "霓霓", None),
        ("everyone calls her Neko", "Neko", None),
        ("We call him Bob.", "Bob", None),
        ("her nickname is Kitty", "Kitty", None),
        ("I met Neko, everyone calls her Nek.", "Nek", "Neko"),
        ("Neko Zhang, who we call Nek, is here", "Nek", "Neko Zhang"),
        ("Neko (aka Kitty) said hi", "Kitty", "Neko"),
        ("Neko, aka Kitty, said hi", "Kitty", "Neko"),
        ("周霓 (aka 霓霓) 来了", "霓霓", "周霓"),
        ("跟新人介绍下，赵磊就是磊哥", "磊哥", "赵磊"),
        ("跟新人介绍下，kk_0823就是凯哥", "凯哥", "kk_0823"),  # a handle as a display name
        ("kk_0823的外号是凯哥", "凯哥", "kk_0823"),
    ],
)
def test_learned_about_someone_else(text: str, alias: str, target: str | None) -> None:
    assert _learned(text) == [(alias, "other", target)]


@pytest.mark.parametrize(
    "text",
    [
        "你叫我什么？",
        "大家为什么叫我霓霓",
        "大家都叫我霓霓吗？",
        "你们可以叫我霓霓吗",
        "别叫我霓霓",
        "不要叫我霓霓了",
        "我不喜欢别人叫我霓霓",
        "大家都不叫她霓霓",
        "他叫我过去。",
        "妈妈叫我回家吃饭",
        "老板叫我明天交报告",
        "don't call me Neko",
        "Please never call me Kitty",
        "Should we call her Kitty?",
        "why do people call me Neko",
        "call me later",
        "Call me tomorrow!",
        "call me Monday",
        "call me when you land",
        "call me maybe",
        "she will call me",
    ],
)
def test_questions_negations_and_requests_teach_nothing(text: str) -> None:
    assert _learned(text) == []


def test_several_nicknames_in_one_message() -> None:
    text = "叫我霓霓就行。这是老周，大家都叫他周工。Also, call me Neko."
    assert _learned(text) == [("霓霓", "speaker", None), ("周工", "other", "老周"), ("Neko", "speaker", None)]


def test_learned_is_a_frozen_value() -> None:
    item = Learned("霓霓", "speaker", None, (2, 4))
    with pytest.raises(AttributeError):
        item.alias = "x"  # type: ignore[misc]


# ---- mentions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@霓霓 今晚", [("霓霓", (1, 3))]),
        ("@neko_z hi", [("neko_z", (1, 7))]),
        ("@霓霓，你好", [("霓霓", (1, 3))]),
        ("@霓霓！@周霓：在吗？", [("霓霓", (1, 3)), ("周霓", (5, 7))]),
        ("cc @neko.z.", [("neko.z", (4, 10))]),
        ("@周霓\u2005在吗", [("周霓", (1, 3))]),  # WeChat puts a four-per-em space after a mention
        ("＠霓霓 hi", [("霓霓", (1, 3))]),
        ("@Neko🌸 hi", [("Neko", (1, 5))]),
        ("@霓霓今晚一起去吃饭吗大家", [("霓霓今晚一起去吃饭吗", (1, 11))]),
        ("mail neko@example.com or @ alone", []),
        ("@@", []),
    ],
)
def test_mentions(text: str, expected: list[tuple[str, tuple[int, int]]]) -> None:
    assert mentions(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("@＠霓周Neko_z. ，。！？叫我就行大家都她call me Kitty,?\n")), max_size=40))
def test_spans_point_at_what_they_name(text: str) -> None:
    for handle, (start, end) in mentions(text):
        assert text[start:end] == handle and text[start - 1] in "@＠"
    for item in learned_aliases(text):
        assert text[item.span[0]:item.span[1]] == item.alias
        assert item.about in ("speaker", "other")


def test_examples_in_docstrings() -> None:
    assert doctest.testmod(aliases).failed == 0
