"""The group-chat scenario's person questions (issue 44 §3): about every fact of every group,
in several phrasings per kind and language, by name and by pronoun after a line naming them,
and the checks read off a context."""

from __future__ import annotations

from collections import Counter

from pmemo.eval.groupchat_context import card_checks, memory_text
from pmemo.eval.groupchat_data import BY_ID, FACTS
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_person import ASKS, NAMING
from pmemo.eval.groupchat_scenario import PersonQuestion, Scenario, from_json, to_json
from pmemo.models import ContextPack, Hit


def scenario() -> Scenario:
    return generate(0, messages=300)


def test_every_group_fact_is_asked_by_name_and_by_pronoun() -> None:
    s = scenario()
    asked = Counter(q.kind for q in s.person_questions)
    group_facts = [f for f in FACTS if f.scope != "dm" and not f.key.endswith(".old")]
    assert asked["fact"] == asked["pronoun"] >= len(group_facts) and asked["who"] > 0
    for q in s.person_questions:
        name_forms = {n for n, _ in BY_ID[q.person_id].names} | {BY_ID[q.person_id].nick} - {""}
        assert q.asker != q.person_id and q.answers and not any(a in q.query for a in q.answers)
        if q.kind == "pronoun":  # named by nobody in the question, by the last line that names anyone
            assert not any(n in q.query for n in name_forms)
            assert any(n in q.recent[-1] for n in name_forms)
        else:
            assert any(n in q.query for n in name_forms)


def test_phrasings_vary_per_kind_and_language() -> None:
    assert all(len(phrasings) >= 3 for phrasings in ASKS.values()) and all(len(v) >= 5 for v in NAMING.values())
    queries = {q.query for q in scenario().person_questions}
    assert len(queries) > 0.7 * len(scenario().person_questions)
    assert {q.lang for q in scenario().person_questions} == {"zh", "en"}


def test_questions_are_deterministic_apart_from_the_other_checks_and_round_trip() -> None:
    a, b = scenario(), scenario()
    assert a.person_questions == b.person_questions
    assert generate(1, messages=300).person_questions != a.person_questions
    assert from_json(to_json(a)) == a


def _pack(*hits: Hit, text: str = "") -> ContextPack:
    return ContextPack("q", text, hits, 50, 600)


def test_card_checks_read_the_cards() -> None:
    q = PersonQuestion("p0", "她对什么过敏来着", "g", "hao", "2026-01-29T10:00:00+08:00", ("周霓今天没来",), "ni",
                       "pronoun", ("花生",), "zh")
    ni = Hit("person:ni", "person", "people", "周霓（又名霓霓）", 1.0, "", ())
    wt = Hit("person:wt", "person", "people", "许文涛", 1.0, "", ())
    allergy = Hit("fact:1", "fact", "people", "周霓对花生过敏", 1.0, "", ())
    text = "## 相关的人\n- 周霓（又名霓霓）\n- 周霓对花生过敏\n\n## 当前消息\n花生"
    ok = card_checks(_pack(ni, allergy, text=text), q, {"ni": {"fact:1"}})
    assert ok["held"] and ok["in_card"] and ok["misplaced"] == 0
    wrong = card_checks(_pack(wt, allergy, text=text), q, {"wt": set()})
    assert wrong["held"] and not wrong["in_card"] and wrong["misplaced"] == 1
    # the question is not memory: an answer only in the input section is not held
    assert memory_text(_pack(text="## 相关的人\n- 许文涛\n\n## 当前消息\n花生")) == "## 相关的人\n- 许文涛"
