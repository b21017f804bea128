"""Extraction per batch and per person (issue 17): with an LLM one call for a batch of several
speakers, each fact under the person it is about; a timeout or garbage falls back to the
rules and every turn stays stored; without an LLM the rules attribute third-person statements."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from pmemo import SyncMemory
from pmemo.llms.fake import TIMEOUT, ScriptedLLM

T0 = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
BATCH = [("ni", "周霓", "叫我霓霓就行"), ("wt", "许文涛", "I love hiking."),
         ("bo", "Bo", "霓霓对花生过敏"), ("ni", "周霓", "I don't like coffee anymore.")]


def add_batch(m: SyncMemory) -> None:
    m.add_many([{"group_id": "g", "session_id": "s", "actor_id": who, "actor": name, "content": text,
                 "timestamp": T0 + timedelta(minutes=n)} for n, (who, name, text) in enumerate(BATCH)])
    m.drain()


def by_person(m: SyncMemory) -> dict[str, set[tuple[str, str]]]:
    return {p: {(f.key, f.value) for f in m.profile(p, group_id="g")} for p in ("ni", "wt", "bo")}


def test_one_llm_call_per_batch_and_facts_about_the_named_person(tmp_path) -> None:
    reply = json.dumps({"facts": [
        {"category": "preference", "key": "opinion:hiking", "value": "likes", "confidence": 0.9, "message": 1},
        {"category": "fact", "key": "allergy:花生", "value": "allergic", "confidence": 0.9, "message": 2,
         "about": "周霓"},
        {"category": "preference", "key": "opinion:coffee", "value": "dislikes", "confidence": 0.8,
         "message": 3, "correction": True},
        {"category": "fact", "key": "junk", "value": "x", "confidence": 0.9, "message": 99},  # no such message
    ]})
    llm = ScriptedLLM([reply])
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm) as m:
        add_batch(m)
        facts = by_person(m)
        (allergy,) = [f for f in m.profile("ni") if f.key == "allergy:花生"]
        (coffee,) = [f for f in m.profile("ni") if f.key == "opinion:coffee"]
        said_by = {t.id: t.actor_id for t in m.turns(group_id="g")}
    assert coffee.source == "corrected"
    assert [said_by[i] for i in allergy.sources] == ["bo"]  # the speaker stays the source
    extraction = [c for c in llm.calls if "numbered messages" in c[0]]
    assert len(extraction) == 1 and all(text in extraction[0][1] for _, _, text in BATCH)
    assert "explicitly" in extraction[0][0] and "I think I like Python" in extraction[0][0]  # no guesses
    assert facts == {"ni": {("allergy:花生", "allergic"), ("opinion:coffee", "dislikes")},
                     "wt": {("opinion:hiking", "likes")}, "bo": set()}


@pytest.mark.parametrize("bad", [TIMEOUT, "no json here", '{"facts": [{"category": "mood"}]}'])
def test_llm_failure_keeps_every_turn_and_falls_back_to_rules(tmp_path, bad: object) -> None:
    with SyncMemory.open(tmp_path, embedder="hashing", llm=ScriptedLLM([bad])) as m:
        add_batch(m)
        assert [t.content for t in m.turns(group_id="g")] == [text for _, _, text in BATCH]
        facts = by_person(m)
    assert ("opinion:hiking", "likes") in facts["wt"]
    assert ("allergy:花生", "allergic") in facts["ni"]  # 霓霓 was learned from the first message
    assert facts["bo"] == set()


def test_assistant_turns_state_no_facts(mem: SyncMemory) -> None:
    mem.add(user_id="u", session_id="s", role="assistant", content="I love hiking.")
    mem.drain()
    assert mem.profile("u") == []
