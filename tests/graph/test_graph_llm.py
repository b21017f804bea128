"""The graph with a language model (the scripted fake): one extraction call per batch with a
validated reply, garbage or a timeout falling back to the rules, insights kept apart from facts
with their evidence, and portraits of a person (offline: from facts, saying so)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pmemo import SyncMemory
from pmemo.graph.insights import INSIGHTS_SYSTEM, PORTRAIT_SYSTEM
from pmemo.graph.llm import SYSTEM as TRIPLES_SYSTEM
from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.models import Scope
from pmemo.prompts.facts import FACTS_SYSTEM

from .conftest import open_mem, say

NO_FACTS = json.dumps({"facts": []})


def scripted(triples: object = None, insights: object = None, portrait: object = None,
             facts: object = NO_FACTS) -> ScriptedLLM:
    """A model answering each kind of call with its own script (a reply, TIMEOUT, or garbage)."""
    by_system = {TRIPLES_SYSTEM: triples, INSIGHTS_SYSTEM: insights, PORTRAIT_SYSTEM: portrait, FACTS_SYSTEM: facts}

    def reply(system: str, user: str) -> Any:
        for known, answer in by_system.items():
            if system.startswith(known):
                if answer is TIMEOUT:
                    raise_timeout()
                if callable(answer):
                    return answer(user)
                return answer if answer is not None else "{}"
        return json.dumps({"summary": "x"})

    return ScriptedLLM(reply)


def raise_timeout() -> None:
    from pmemo.errors import LLMError

    raise LLMError("scripted LLM timed out")


CHAT = [("ni", "周霓", "我家猫叫年糕"), ("wt", "许文涛", "霓霓是我同学"), ("ni", "周霓", "Tomorrow I start at Figma")]


def chat(m: SyncMemory) -> list[Any]:
    m.add_person("ni", name="周霓", aliases=["霓霓"], group_id="g")
    turns = m.add_many([{"group_id": "g", "session_id": "s", "actor_id": who, "actor": name, "content": text,
                         "timestamp": f"2026-09-0{n + 1}T10:00:00+08:00"} for n, (who, name, text) in enumerate(CHAT)])
    m.drain()
    return turns


def test_one_call_per_batch_with_a_validated_reply(tmp_path: Path) -> None:
    reply = json.dumps({"triples": [
        {"message": 0, "predicate": "has_pet", "object": "年糕", "object_kind": "thing", "qualifier": "cat"},
        {"message": 1, "subject": "霓霓", "predicate": "classmate_of", "object": "许文涛", "object_kind": "person"},
        {"message": 2, "predicate": "works_at", "object": "Figma", "object_kind": "org", "aliases": ["Figma Inc"]},
        {"message": 2, "subject": "Figma", "predicate": "based_in", "object": "San Francisco", "object_kind": "place"},
        {"message": 2, "predicate": "works_at", "object": "Figma", "object_kind": "value"},  # the table says org
        {"message": 1, "predicate": "recommends", "object": "年糕店", "object_kind": "value"},  # unknown: as told
        {"message": 0, "predicate": "job", "object": "designer", "object_kind": "value", "confidence": 0.6},
        {"message": 1, "predicate": "friend_of", "object": "Nobody Known", "object_kind": "person"},  # no one: left out
        {"message": 9, "predicate": "likes", "object": "x"},  # no such message: left out
    ]})
    llm = scripted(triples=reply)
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm) as m:
        turns = chat(m)
        got = {(t.subject, t.predicate, t.object, t.object_kind) for t in m.triples(group_id="g")}
        assert got == {("ni", "has_pet", "年糕", "thing"), ("ni", "classmate_of", "wt", "person"),
                       ("ni", "works_at", "Figma", "org"), ("Figma", "based_in", "San Francisco", "place"),
                       ("ni", "job", "designer", None), ("wt", "recommends", "年糕店", None)}
        [job] = m.triples("ni", predicate="job", group_id="g")
        assert job.confidence == 0.6  # the model's own confidence
        figma = m.graph("Figma Inc", group_id="g")  # an alias the model gave names the same entity
        assert figma.entity.name == "Figma" and "Figma Inc" in figma.entity.aliases
        sources = {t.predicate: t.sources for t in m.triples(group_id="g")}
        assert sources["works_at"] == (turns[2].id,) and sources["classmate_of"] == (turns[1].id,)
    calls = [c for c in llm.calls if c[0].startswith(TRIPLES_SYSTEM)]
    assert len(calls) == 1 and all(text in calls[0][1] for _, _, text in CHAT)


@pytest.mark.parametrize("bad", [TIMEOUT, "no json here", '{"triples": [{"predicate": "Not Snake"}]}'])
def test_garbage_or_a_timeout_falls_back_to_the_rules(tmp_path: Path, bad: object) -> None:
    with SyncMemory.open(tmp_path, embedder="hashing", llm=scripted(triples=bad)) as m:
        turns = chat(m)
        assert [t.id for t in m.turns(group_id="g")] == [t.id for t in turns]  # no turn lost
        got = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="g")}
        assert ("ni", "classmate_of", "wt") in got  # the relation rules ran instead
        assert m.stats()["failed_jobs"] == 0


def test_insights_are_inferred_apart_from_facts_with_their_evidence(tmp_path: Path) -> None:
    insight = json.dumps({"insights": [
        {"text": "often complains about math exams → probably a student", "evidence": [0, 1], "confidence": 0.7},
        {"text": "rests on nothing shown", "evidence": [99]},  # evidence out of range: dropped
    ]})

    def topic(user: str) -> str:  # one new triple per message: what it is about
        said = user.rsplit(": ", 1)[1]
        return json.dumps({"triples": [{"message": 0, "predicate": "talks_about", "object": said[:4]}]})

    llm = scripted(triples=topic, insights=insight)
    # every message to the triples call: these state nothing the pre-filter would send (issue 44 §8)
    with open_mem(tmp_path / "d", llm=llm, insight_every=2, llm_prefilter=False) as m:
        first = say(m, "g", "ni", "周霓", "又是高数考试，崩溃", 0)
        m.drain()
        assert m.insights("ni", group_id="g") == []  # one new triple about her: not yet
        second = say(m, "g", "ni", "周霓", "高数期中考完了，感觉要挂", 60)
        m.drain()
        [found] = m.insights("ni", group_id="g")
        assert found.text.startswith("often complains") and set(found.sources) == {first.id, second.id}
        assert m.insights("ni", group_id="other") == []  # another chat's view has none
        # never a fact: not in the profile, nor in a context
        assert all("complains" not in f.value for f in m.profile("ni", group_id="g", history=True))
        assert "complains" not in m.context("霓霓怎么样", group_id="g").text
        calls = [c for c in llm.calls if c[0].startswith(INSIGHTS_SYSTEM)]
        assert len(calls) == 1 and "高数期中考完了" in calls[0][1]
        # forgetting one of its evidence turns takes it away
        report = m.forget([first.id])
        assert report["insights"] == [found.id] and m.insights("ni", group_id="g") == []
        m.restore(report["batch"])
        assert [i.id for i in m.insights("ni", group_id="g")] == [found.id]


def test_a_failed_insight_call_keeps_what_there_was(tmp_path: Path) -> None:
    llm = scripted(triples=json.dumps({"triples": [{"message": 0, "predicate": "likes", "object": "火锅"}]}),
                   insights="not json")
    with open_mem(tmp_path / "d", llm=llm, insight_every=1) as m:
        say(m, "g", "ni", "周霓", "火锅走起", 0)
        m.drain()
        assert m.insights("ni", group_id="g") == [] and m.stats()["failed_jobs"] == 0


def test_no_insight_jobs_offline(tmp_path: Path) -> None:
    with open_mem(tmp_path / "d", insight_every=1) as m:
        say(m, "g", "ni", "周霓", "我在腾讯上班，我家猫叫年糕", 0)
        m.drain()
        assert m.triples(group_id="g") and m.insights("ni", group_id="g") == []


def test_a_portrait_from_facts_offline_and_with_insights_online(tmp_path: Path) -> None:
    with open_mem(tmp_path / "off") as m:
        say(m, "g", "ni", "周霓", "我在腾讯上班，我家猫叫年糕", 0)
        m.drain()
        offline = m.synthesize_profile("ni", group_id="g")
        assert offline.method == "facts" and "周霓在腾讯工作" in offline.text and "nothing inferred" in offline.text
        assert len(offline.facts) == 2 and offline.insights == ()
        nobody = m.synthesize_profile("ghost", group_id="g")
        assert nobody.method == "facts" and "Nothing is known" in nobody.text
    employer = json.dumps({"facts": [{"category": "fact", "key": "employer", "value": "腾讯", "confidence": 0.9,
                                     "clause": 0}]})  # the clause it was said in (issue 44 §8)
    llm = scripted(portrait=json.dumps({"text": "周霓在腾讯工作，养了一只猫，可能是学生。"}), facts=employer)
    with open_mem(tmp_path / "on", llm=llm) as m:
        turn = say(m, "g", "ni", "周霓", "我在腾讯上班，我家猫叫年糕", 0)
        m.drain()
        m._memory._store.graph.replace_insights(Scope.of(group_id="g"), "ni", [("probably a student", 0.6, [turn.id])])
        online = m.synthesize_profile("ni", group_id="g")
        assert online.method == "llm" and online.text.startswith("周霓在腾讯工作") and len(online.insights) == 1
        asked = [c for c in llm.calls if c[0].startswith(PORTRAIT_SYSTEM)][0][1]
        assert "(inferred) probably a student" in asked and "周霓在腾讯工作" in asked
    with open_mem(tmp_path / "broken", llm=scripted(portrait=TIMEOUT)) as m:
        say(m, "g", "ni", "周霓", "我在腾讯上班", 0)
        m.drain()
        assert m.synthesize_profile("ni", group_id="g").method == "facts"
