"""Attribution: whom each clause of a message is about, rewritten in the first person (zh/en)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pmemo.rules.attribution import Attributed, Mention, by_subject
from pmemo.rules.extract_rules import clause_spans, extract, sentence_spans

WHEN = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)  # a Monday
PEOPLE = {"霓霓": "nini", "周霓": "nini", "Neko": "neko", "周周": "zz", "Mo": "mo"}
_NAMES = re.compile("|".join(sorted(PEOPLE, key=len, reverse=True)))


def mentions(text: str) -> list[Mention]:
    """What a resolver would find: every known name, as a span."""
    return [Mention(m.start(), m.end(), PEOPLE[m.group(0)]) for m in _NAMES.finditer(text)]


def split(text: str) -> list[tuple[str | None, str, tuple[str, ...]]]:
    return [(a.subject, a.text, a.mentioned) for a in by_subject(text, mentions(text))]


def keys(a: Attributed) -> set[tuple[str, str]]:
    return {(c.key, c.value) for c in extract(a.text, WHEN)}


@pytest.mark.parametrize(
    "text, subject, rewritten",
    [
        ("霓霓对花生过敏", "nini", "我对花生过敏"),
        ("霓霓下周三考高数", "nini", "我下周三考高数"),
        ("周霓在腾讯上班", "nini", "我在腾讯上班"),
        ("霓霓的猫叫年糕", "nini", "我的猫叫年糕"),
        ("霓霓姐不吃香菜", "nini", "我不吃香菜"),
        ("听说霓霓对花生过敏", "nini", "听说我对花生过敏"),
        ("我的朋友霓霓对花生过敏", "nini", "我对花生过敏"),
        ("霓霓说她对花生过敏", "nini", "我对花生过敏"),
        ("Neko's cat is called 年糕.", "neko", "My cat is called 年糕."),
        ("Neko likes sushi.", "neko", "I like sushi."),
        ("Neko is allergic to cats.", "neko", "I am allergic to cats."),
        ("Neko's allergic to cats.", "neko", "I'm allergic to cats."),
        ("Neko has an exam on Friday.", "neko", "I have an exam on Friday."),
        ("Neko works at Acme.", "neko", "I work at Acme."),
        ("Neko lives in Berlin.", "neko", "I live in Berlin."),
        ("Neko studies physics at MIT.", "neko", "I study physics at MIT."),
        ("Neko watches anime.", "neko", "I watch anime."),
        ("Neko was in Tokyo.", "neko", "I was in Tokyo."),
        ("Neko flies to Tokyo.", "neko", "I fly to Tokyo."),
        ("Neko's been to Tokyo.", "neko", "I've been to Tokyo."),
        ("Neko doesn't like coffee.", "neko", "I don't like coffee."),
        ("Neko does not eat pork.", "neko", "I do not eat pork."),
        ("Neko really loves her cat.", "neko", "I really love my cat."),
        ("Neko said she likes sushi.", "neko", "I like sushi."),
        ("my friend Neko loves hiking.", "neko", "I love hiking."),
        ("btw Neko is vegetarian", "neko", "btw I am vegetarian"),
        ("Neko对花生过敏", "neko", "我对花生过敏"),  # the words after the name choose 我 or I
        ("霓霓 likes sushi", "nini", "I like sushi"),
    ],
)
def test_a_named_subject_is_rewritten_in_the_first_person(text: str, subject: str, rewritten: str) -> None:
    assert split(text) == [(subject, rewritten, ())]


@pytest.mark.parametrize(
    "text, subject, expected",
    [
        ("霓霓对花生过敏", "nini", {("allergy:花生", "allergic")}),
        ("Neko's cat is called 年糕.", "neko", {("pet:cat", "年糕")}),
        ("Neko likes sushi.", "neko", {("opinion:sushi", "likes")}),
        ("Neko is allergic to cats.", "neko", {("allergy:cats", "allergic")}),
        ("Neko works at Acme.", "neko", {("employer", "Acme")}),
        ("Neko lives in Berlin.", "neko", {("home_city", "Berlin")}),
        ("周霓在腾讯上班", "nini", {("employer", "腾讯")}),
        ("霓霓换工作了，现在在美团", "nini", {("employer", "美团")}),
        ("Neko has an exam on Friday.", "neko", {("event:exam", "2024-03-08")}),
    ],
)
def test_end_to_end_the_rules_read_the_rewritten_text(text: str, subject: str, expected: set[tuple[str, str]]) -> None:
    (a,) = by_subject(text, mentions(text))
    assert a.subject == subject and keys(a) == expected


def test_first_person_is_the_speaker_and_names_are_mentioned() -> None:
    assert split("我和霓霓都喜欢猫") == [(None, "我喜欢猫", ("nini",))]
    assert split("I met Neko yesterday.") == [(None, "I met Neko yesterday.", ("neko",))]
    text = "霓霓对花生过敏，我不吃香菜"
    nini, me = by_subject(text, mentions(text))
    assert (nini.subject, keys(nini)) == ("nini", {("allergy:花生", "allergic")})
    assert (me.subject, keys(me)) == (None, {("diet:香菜", "does not eat")})


def test_a_pronoun_continues_the_one_person_named_before() -> None:
    assert split("霓霓下周三考高数，她很紧张。她不吃香菜。") == [
        ("nini", "我下周三考高数，我很紧张。我不吃香菜。", ()),
    ]
    (_, neko) = by_subject(text := "I met Neko yesterday. She loves her cat.", mentions(text))
    assert (neko.subject, neko.text) == ("neko", "I love my cat.")
    assert split("Her cat is called Mochi.") == []  # nobody named before


def test_a_pronoun_after_two_names_is_skipped() -> None:
    assert split("霓霓和周周去吃饭了，她不吃香菜") == [("nini", "我去吃饭了", ("zz",))]
    assert split("I met Neko and Mo. She loves cats.") == [(None, "I met Neko and Mo.", ("neko", "mo"))]


def test_several_people_keep_one_primary_subject() -> None:
    assert split("霓霓和周周都对花生过敏") == [("nini", "我对花生过敏", ("zz",))]
    assert split("Neko and Mo both like sushi.") == [("neko", "I like sushi.", ("mo",))]


def test_an_at_mention_addresses_it_is_not_the_subject() -> None:
    assert split("@霓霓 她不吃香菜") == []  # 她 is someone else: 霓霓 is spoken to
    assert split("@霓霓 你明天考试加油") == []  # about the addressee: skipped
    assert split("@霓霓 我明天请假") == [(None, "@霓霓 我明天请假", ("nini",))]


@pytest.mark.parametrize(
    "text",
    [
        "她对花生过敏",  # nobody named
        "你明天考试加油",  # about the one addressed
        "You should try sushi.",
        "大家都知道霓霓对花生过敏",  # named, but not the subject
        "霓霓说我很烦",  # two first persons: whose facts would they be?
        "Neko told me I look tired.",
    ],
)
def test_clauses_about_nobody_we_can_tell_are_skipped(text: str) -> None:
    assert by_subject(text, mentions(text)) == []


_TEXT = st.text(alphabet=st.sampled_from(list("霓霓对花生过敏她他我你的说，。？ NekoIshe'slikes@和and")), max_size=40)


@given(_TEXT, st.lists(st.tuples(st.integers(-2, 45), st.integers(-2, 45), st.sampled_from(["a", "b"])), max_size=4))
def test_any_message_and_mentions_give_well_formed_statements(text: str, spans: list[tuple[int, int, str]]) -> None:
    ms = [Mention(a, b, p) for a, b, p in spans]
    for a in by_subject(text, ms):
        assert a.subject is None or a.subject in ("a", "b")
        assert a.subject not in a.mentioned and set(a.mentioned) <= {"a", "b"}
        assert a.text.strip() == a.text and a.text


def test_questions_stay_as_they_are() -> None:
    assert split("霓霓对花生过敏吗？") == [(None, "霓霓对花生过敏吗？", ("nini",))]
    (a,) = by_subject("Does Neko like sushi?", mentions("Does Neko like sushi?"))
    assert a.text == "Does Neko like sushi?" and keys(a) == set()


def test_a_subjectless_clause_continues_the_previous_subject() -> None:
    assert split("霓霓下周三考高数，周五答辩") == [("nini", "我下周三考高数，周五答辩", ())]
    assert split("周五答辩") == [(None, "周五答辩", ())]


def test_a_plain_first_person_message_comes_back_whole() -> None:
    text = "I love hiking. I think I like Python."
    assert by_subject(text, []) == [Attributed(None, text, ())]
    assert [c.key for a in by_subject(text, []) for c in extract(a.text, WHEN)] == ["opinion:hiking"]


def test_bad_mentions_are_ignored() -> None:
    text = "霓霓对花生过敏"
    odd = [Mention(0, 2, "nini"), Mention(1, 3, "other"), Mention(5, 99, "far"), Mention(3, 3, "empty")]
    assert by_subject(text, odd) == [Attributed("nini", "我对花生过敏", ())]


def test_sentence_and_clause_spans() -> None:
    text = "我喜欢猫，但是不喜欢狗。 You?"
    assert [text[a:b] for a, b in sentence_spans(text)] == ["我喜欢猫，但是不喜欢狗。", " You?"]
    assert [text[a:b] for a, b in clause_spans(text, 0, 12)] == ["我喜欢猫", "不喜欢狗。"]


def test_a_subject_goes_on_across_the_sentences_of_a_message() -> None:
    assert split("霓霓搬家了！搬去苏州了") == [("nini", "我搬家了！搬去苏州了", ())]
    (a,) = by_subject(text := "Neko got a new job! Started at Acme this week.", mentions(text))
    assert (a.subject, keys(a)) == ("neko", {("employer", "Acme")})
    # a question turns to the speaker again
    assert split("霓霓对花生过敏。你呢？周五答辩")[-1] == (None, "你呢？周五答辩", ())


@pytest.mark.parametrize(
    "text", ["我朋友在阿里工作", "我老婆对芒果过敏", "my brother lives in Boston", "My boss is vegan."]
)
def test_a_relation_nobody_named_is_not_the_speaker(text: str) -> None:
    assert by_subject(text, mentions(text)) == []


@pytest.mark.parametrize(
    "text, subject, rewritten",
    [
        ("记得霓霓不能吃辣", "nini", "记得我不能吃辣"),
        ("提醒一下，霓霓对花生过敏", "nini", "我对花生过敏"),
        ("remember Neko is vegan", "neko", "remember I am vegan"),
        ("heads up, Neko is allergic to kiwi", "neko", "I am allergic to kiwi"),
    ],
)
def test_a_reminder_is_about_the_one_it_names(text: str, subject: str, rewritten: str) -> None:
    assert [(a.subject, a.text) for a in by_subject(text, mentions(text)) if a.subject] == [(subject, rewritten)]


def test_and_i_starts_a_clause_of_the_speaker_after_a_whole_statement() -> None:
    assert split("Neko lives in Berlin and I live in Paris") == [
        ("neko", "I live in Berlin", ()),
        (None, "I live in Paris", ()),
    ]
    assert split("Mo works at Acme and I work at Globex")[1] == (None, "I work at Globex", ())
    assert split("Neko and I like sushi") == [("neko", "I like sushi", ())]  # a short joint subject


def test_a_statement_before_a_question_is_attributed() -> None:
    assert split("霓霓下周三考试，你知道吗？") == [("nini", "我下周三考试", ()), (None, "你知道吗？", ())]
    assert split("霓霓对花生过敏吗？") == [(None, "霓霓对花生过敏吗？", ("nini",))]


@pytest.mark.parametrize("text", ["just between us, my wife is pregnant!", "我老婆怀孕了，先别说出去"])
def test_a_partners_pregnancy_is_the_speakers_news(text: str) -> None:
    (a, *_) = by_subject(text, mentions(text))
    assert a.subject is None and ("family", "expecting a baby" if text.isascii() else "怀孕") in keys(a)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("大家好。12月23日考研。", [(None, "大家好。12月23日考研。", ())]),
        ("早！我对花生过敏", [(None, "早！我对花生过敏", ())]),
        ("大家好～霓霓下周三考高数", [("nini", "大家好～我下周三考高数", ())]),  # the greeting, then her
        ("Good morning everyone, Neko is allergic to cats.",
         [(None, "Good morning everyone", ()), ("neko", "I am allergic to cats.", ())]),
    ],
)
def test_a_greeting_says_nothing_of_anyone(text: str, expected: list[tuple[str | None, str, tuple[str, ...]]]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("大家好，叫我霓霓就行，12月23日考研", {("preferred_name", "霓霓")}),
        ("Hi everyone, call me Neko. I'm allergic to cats.",
         {("preferred_name", "Neko"), ("allergy:cats", "allergic")}),
    ],
)
def test_a_greeting_and_a_name_to_be_called_by_are_the_speakers(text: str, expected: set[tuple[str, str]]) -> None:
    """"大家好" speaks to everyone, it is about nobody: the speaker goes on after it; "叫我霓霓"
    names the speaker although the name is theirs (a resolver that learned it finds it)."""
    (a,) = by_subject(text, mentions(text))
    assert a.subject is None and a.mentioned == (PEOPLE["霓霓" if "霓霓" in text else "Neko"],)
    assert keys(a) == expected
