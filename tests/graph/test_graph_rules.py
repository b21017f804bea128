"""The offline graph rules, the fact → triple table and the sentences (pure functions)."""

from __future__ import annotations

from datetime import datetime

import pytest

from pmemo.graph.predicates import PREDICATES, from_fact
from pmemo.graph.rules import origins, relations
from pmemo.graph.sentences import triple_sentence
from pmemo.models import Scope, Triple


def rel(text: str, names: dict[str, str], speaker: str = "me") -> set[tuple[str, str, str]]:
    """The relations of ``text``, its people found where their names are (as the resolver would)."""
    mentions = [(text.index(n), text.index(n) + len(n), pid) for n, pid in names.items()]
    return {(s, r.predicate, r.value) for s, r in relations(text, mentions, speaker)}


@pytest.mark.parametrize(("text", "names", "expected"), [
    ("霓霓是我同学", {"霓霓": "ni"}, {("ni", "classmate_of", "me")}),
    ("我和霓霓是同事，天天一起加班", {"霓霓": "ni"}, {("me", "colleague_of", "ni")}),
    ("霓霓跟周周是好朋友", {"霓霓": "ni", "周周": "zz"}, {("ni", "friend_of", "zz")}),
    ("我妹妹霓霓下周来上海", {"霓霓": "ni"}, {("ni", "sister_of", "me")}),
    ("周周是霓霓的姐姐", {"周周": "zz", "霓霓": "ni"}, {("zz", "sister_of", "ni")}),
    ("Neko is my friend", {"Neko": "neko"}, {("neko", "friend_of", "me")}),
    ("Bob and I are colleagues", {"Bob": "bob"}, {("bob", "colleague_of", "me")}),
    ("my sister Neko is visiting", {"Neko": "neko"}, {("neko", "sister_of", "me")}),
    ("my friend Neko's cat is called Mochi", {"Neko": "neko"}, {("neko", "friend_of", "me")}),
    ("I'm Neko's roommate", {"Neko": "neko"}, {("me", "roommate_of", "neko")}),
    ("Neko and Bob are classmates", {"Neko": "neko", "Bob": "bob"}, {("neko", "classmate_of", "bob")}),
    ("Neko is Bob's boss", {"Neko": "neko", "Bob": "bob"}, {("neko", "boss_of", "bob")}),
])
def test_relations_between_people(text: str, names: dict[str, str], expected: set[tuple[str, str, str]]) -> None:
    assert rel(text, names) == expected


@pytest.mark.parametrize(("text", "names"), [
    ("霓霓是我同学推荐的那家店", {"霓霓": "ni"}),  # "同学" does not end the sentence: not a relation
    ("我朋友在阿里工作", {}),  # nobody named
    ("霓霓是我", {"霓霓": "ni"}),
    ("Is Neko your friend?", {"Neko": "neko"}),
    ("Neko is my friend", {}),  # the resolver found nobody: no person to link
    ("Neko is my friend's sister", {"Neko": "neko"}),  # the friend is someone else
])
def test_no_relation_without_two_people_and_a_relation_word(text: str, names: dict[str, str]) -> None:
    assert rel(text, names) == set()


def test_a_relation_needs_a_speaker_for_me() -> None:
    assert rel("霓霓是我同学", {"霓霓": "ni"}, speaker=None) == set()  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "place"), [
    ("我是四川人，在上海工作", "四川"), ("我来自成都", "成都"), ("我是来自成都的", "成都"), ("老家在湖南", "湖南"),
    ("I'm from Lyon", "Lyon"), ("I grew up in New York", "New York"),
    ("I come from the Netherlands", "the Netherlands"),
])
def test_origins(text: str, place: str) -> None:
    assert [(s.predicate, s.value, s.object.kind if s.object else None) for s in origins(text)] == [
        ("from", place, "place")]


@pytest.mark.parametrize("text", ["我是打工人", "我是好人", "我是产品经理", "我是年轻人", "I'm from work, tired"])
def test_not_origins(text: str) -> None:
    assert origins(text) == []


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("employer", "腾讯", ("works_at", "腾讯", "org", None, False)),
    ("home_city", "深圳", ("lives_in", "深圳", "place", None, False)),
    ("school", "南京大学", ("studies_at", "南京大学", "org", None, False)),
    ("major", "计算机", ("studies", "计算机", None, None, False)),
    ("job", "后端工程师", ("job", "后端工程师", None, None, False)),
    ("pet:cat", "年糕", ("has_pet", "年糕", "thing", "cat", False)),
    ("allergy:花生", "allergic", ("allergic_to", "花生", "thing", None, False)),
    ("opinion:火锅", "likes", ("likes", "火锅", "thing", None, False)),
    ("opinion:猫", "no longer likes", ("likes", "猫", "thing", None, True)),
    ("opinion:cilantro", "dislikes", ("dislikes", "cilantro", "thing", None, False)),
    ("diet:香菜", "does not eat", ("avoids", "香菜", "thing", "eat", False)),
    ("diet:茶", "drinks", ("avoids", "茶", "thing", "drink", True)),
    ("diet", "vegetarian", ("diet", "vegetarian", None, None, False)),
    ("favorite:food", "pho", ("favorite", "pho", "thing", "food", False)),
])
def test_facts_become_triples(key: str, value: str, expected: tuple[object, ...]) -> None:
    [s] = from_fact(key, value)
    assert (s.predicate, s.value, s.object.kind if s.object else None, s.qualifier, s.ends) == expected


@pytest.mark.parametrize(("key", "value"), [("name", "Alice"), ("preferred_name", "霓霓"), ("tone", "casual"),
                                            ("event:考研", "2026-12-23"), ("relationship", "分手")])
def test_facts_that_link_nothing_make_no_triple(key: str, value: str) -> None:
    assert from_fact(key, value) == []


def test_functional_and_symmetric_predicates() -> None:
    assert {p for p, d in PREDICATES.items() if d.functional} >= {"works_at", "lives_in", "studies_at", "job", "from"}
    assert not PREDICATES["likes"].functional and not PREDICATES["friend_of"].functional
    assert PREDICATES["friend_of"].symmetric and not PREDICATES["sister_of"].symmetric


def _t(predicate: str, s: str, o: str, kind: str | None, qualifier: str | None = None) -> Triple:
    return Triple(1, Scope.of(group_id="g"), "x", "person", predicate, o, kind, qualifier, datetime(2026, 1, 1), None,
                  0.8, (), s, o)


@pytest.mark.parametrize(("triple", "sentence"), [
    (_t("works_at", "周霓", "腾讯", "org"), "周霓在腾讯工作"),
    (_t("works_at", "Neko", "Google", "org"), "Neko works at Google"),
    (_t("has_pet", "Neko", "年糕", "thing", "cat"), "Neko的猫叫年糕"),
    (_t("has_pet", "Mei", "Mochi", "thing", "cat"), "Mei's cat is called Mochi"),
    (_t("has_pet", "Mei", "Mochi", "thing"), "Mei has a pet named Mochi"),
    (_t("likes", "李静怡", "火锅", "thing"), "李静怡喜欢火锅"),
    (_t("allergic_to", "Sam", "shellfish", "thing"), "Sam is allergic to shellfish"),
    (_t("avoids", "许文涛", "香菜", "thing", "eat"), "许文涛不吃香菜"),
    (_t("from", "周霓", "四川", "place"), "周霓来自四川"),
    (_t("classmate_of", "周霓", "许文涛", "person"), "周霓和许文涛是同学"),
    (_t("sister_of", "Neko", "Bob", "person"), "Neko is Bob's sister"),
    (_t("owns", "Bob", "Tesla", "thing"), "Bob owns Tesla"),
    (_t("owns", "老王", "特斯拉", "thing"), "老王：owns 特斯拉"),
])
def test_sentences(triple: Triple, sentence: str) -> None:
    assert triple_sentence(triple) == sentence


def test_the_examples_in_the_docstrings_hold() -> None:
    import doctest

    from pmemo.graph import llm, predicates, rules, sentences

    for module in (predicates, rules, sentences, llm):
        assert doctest.testmod(module).failed == 0, module.__name__
