"""Extraction: rules for explicit statements (zh/en), no hedges; LLM path with fallback."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.models import Scope, Turn
from pmemo.pipelines.extract_rules import extract
from pmemo.pipelines.extraction import candidates

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


def _turn(text: str, role: str = "user") -> Turn:
    return Turn(1, Scope.of(user_id="u", session_id="s"), 1, role, text, None, WHEN)


def test_llm_path_validates_json_and_keeps_explicit_only() -> None:
    reply = json.dumps(
        {
            "facts": [
                {
                    "category": "preference",
                    "key": "opinion:tea",
                    "value": "likes",
                    "confidence": 0.9,
                },
                {
                    "category": "preference",
                    "key": "opinion:coffee",
                    "value": "dislikes",
                    "confidence": 0.8,
                    "correction": True,
                },
            ]
        }
    )
    llm = ScriptedLLM([reply])
    found, method = candidates(_turn("I like tea and I no longer like coffee."), llm)
    assert method == "llm" and len(llm.calls) == 1
    assert "explicitly" in llm.calls[0][0] and "I think I like Python" in llm.calls[0][0]
    assert {(c.key, c.value, c.source) for c in found} == {
        ("opinion:tea", "likes", "explicit"),
        ("opinion:coffee", "dislikes", "corrected"),
    }


@pytest.mark.parametrize("bad", [TIMEOUT, "no json here", '{"facts": [{"category": "mood"}]}'])
def test_llm_failure_falls_back_to_rules(bad: object) -> None:
    found, method = candidates(_turn("I love hiking."), ScriptedLLM([bad]))
    assert method == "rules" and [(c.key, c.value) for c in found] == [("opinion:hiking", "likes")]


def test_assistant_turns_state_no_facts_about_the_user() -> None:
    assert candidates(_turn("I love hiking.", role="assistant"), None) == ([], "skipped")


def test_diet_and_allergies_are_explicit_facts():
    from pmemo.pipelines.extract_rules import extract

    def facts(text):
        return {(c.category, c.key, c.value) for c in extract(text, None)}

    assert facts("I'm vegetarian.") == {("preference", "diet", "vegetarian")}
    assert facts("我吃素。") == {("preference", "diet", "素食")}
    assert facts("I'm allergic to peanuts.") == {("fact", "allergy:peanuts", "allergic")}
    assert facts("我对花生过敏") == {("fact", "allergy:花生", "allergic")}
    assert facts("I think I am vegetarian?") == set()  # hedged questions stay out
