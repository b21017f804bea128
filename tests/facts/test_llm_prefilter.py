"""The LLM reads only candidate clauses (issue 44 §8): the clauses the statement model (or,
without it, the rules) marks, a neighbouring message either side as context, one call per
chat's batch; a fact without a clause it was sent is dropped; a call that times out or talks
garbage leaves its turns to the offline reading and loses none; ``llm_prefilter`` off sends
every message as before. Small chats share a call, each in its own section: a fact must cite a
clause of its own chat's section."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pmemo import SyncMemory
from pmemo.config import Settings
from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.models import Scope, Turn
from pmemo.pipelines.prefilter import SECTION_TOKENS, chat_batches, chat_sections, marked
from pmemo.prompts.facts import CHATS_SYSTEM, CLAUSES_SYSTEM, FACTS_SYSTEM, MESSAGES_SYSTEM
from pmemo.prompts.facts import shown as prompt_lines
from pmemo.statements.model import load
from pmemo.statements.read import read_turn
from pmemo.tokens import estimate_tokens

T0 = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
CHAT = [("wt", "许文涛", "这周的作业写完了没"), ("ni", "周霓", "我在腾讯上班，你们呢"), ("bo", "Bo", "今天食堂人好多"),
        ("wt", "许文涛", "周末去爬山吗"), ("bo", "Bo", "笑死我了"), ("ni", "周霓", "I love hiking."),
        ("wt", "许文涛", "same here")]
NOTHING = json.dumps({"facts": []})


def items(chat: list[tuple[str, str, str]], group: str = "g", start: int = 0) -> list[dict[str, Any]]:
    return [{"group_id": group, "session_id": "s", "actor_id": who, "actor": name, "content": text,
             "timestamp": T0 + timedelta(minutes=start + n)} for n, (who, name, text) in enumerate(chat)]


def facts_calls(llm: ScriptedLLM) -> list[tuple[str, str]]:
    return [c for c in llm.calls if c[0].startswith(FACTS_SYSTEM)]


def by_system(facts: Any) -> ScriptedLLM:
    """Facts calls answered by ``facts(user)``; every other prompt gets nothing usable."""
    return ScriptedLLM(lambda system, user: facts(user) if system.startswith(FACTS_SYSTEM) else "{}")


def test_only_candidate_clauses_go_with_a_message_of_context_either_side(tmp_path: Path) -> None:
    llm = by_system(lambda user: NOTHING)
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm) as m:
        m.add_many(items(CHAT))
        m.drain()
    [(system, user)] = facts_calls(llm)
    assert system == CLAUSES_SYSTEM
    assert user.splitlines() == [
        "(context) 2026-10-05 许文涛: 这周的作业写完了没",
        "[0] 2026-10-05 周霓: 我在腾讯上班，",  # not its "你们呢": no rule reads anything there
        "(context) 2026-10-05 Bo: 今天食堂人好多",
        "(context) 2026-10-05 Bo: 笑死我了",
        "[1] 2026-10-05 周霓: I love hiking.",
        "(context) 2026-10-05 许文涛: same here",
    ]
    assert "周末去爬山吗" not in user  # neither a candidate nor a candidate's neighbour


def test_a_fact_without_a_clause_it_was_sent_is_dropped(tmp_path: Path) -> None:
    reply = json.dumps({"facts": [
        {"category": "fact", "key": "work:company", "value": "腾讯", "confidence": 0.9, "clause": 0},
        {"category": "fact", "key": "home_city", "value": "深圳", "confidence": 0.9},  # names no clause
        {"category": "fact", "key": "school", "value": "复旦", "confidence": 0.9, "clause": 7},  # none sent as 7
        {"category": "preference", "key": "opinion:hiking", "value": "likes", "confidence": 0.9, "message": 1},
    ]})
    with SyncMemory.open(tmp_path, embedder="hashing", llm=by_system(lambda user: reply)) as m:
        m.add_many(items(CHAT))
        m.drain()
        ni = {(f.key, f.value): f for f in m.profile("ni", group_id="g")}
        turns = {t.content: t.id for t in m.turns(group_id="g")}
    assert set(ni) == {("work:company", "腾讯"), ("opinion:hiking", "likes")}  # "message" is read as the clause
    assert list(ni[("work:company", "腾讯")].sources) == [turns["我在腾讯上班，你们呢"]]
    assert ni[("work:company", "腾讯")].said == "周霓：我在腾讯上班"  # the clause it came from, in her words


def test_small_chats_share_a_call_each_in_its_own_section(tmp_path: Path) -> None:
    other = [("tom", "Tom", "hi all"), ("tom", "Tom", "I work at Figma now"), ("amy", "Amy", "congrats!")]
    llm = by_system(lambda user: NOTHING)
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm) as m:
        m.add_many(items(CHAT, "g") + items(other, "h", start=1))  # interleaved in time, one batch
        m.drain()
    [(system, user)] = facts_calls(llm)  # one system prompt for both
    assert system == CHATS_SYSTEM
    assert user.splitlines() == [
        "## chat 1",
        "(context) 2026-10-05 许文涛: 这周的作业写完了没",
        "[0] 2026-10-05 周霓: 我在腾讯上班，",
        "(context) 2026-10-05 Bo: 今天食堂人好多",
        "(context) 2026-10-05 Bo: 笑死我了",
        "[1] 2026-10-05 周霓: I love hiking.",
        "(context) 2026-10-05 许文涛: same here",
        "## chat 2",  # its context is its own chat's: Tom's "hi all", not a line of chat 1
        "(context) 2026-10-05 Tom: hi all",
        "[2] 2026-10-05 Tom: I work at Figma now",
        "(context) 2026-10-05 Amy: congrats!",
    ]


def test_one_chats_lines_never_become_another_chats_facts(tmp_path: Path) -> None:
    other = [("tom", "Tom", "hi all"), ("tom", "Tom", "I work at Figma now"), ("amy", "Amy", "congrats!")]
    reply = json.dumps({"facts": [
        {"category": "fact", "key": "work:company", "value": "腾讯", "confidence": 0.9, "clause": 0, "chat": 1},
        {"category": "fact", "key": "employer", "value": "Figma", "confidence": 0.9, "clause": 2, "chat": 2},
        # a clause of chat 2 said to be in chat 1: the model mixed the sections up, nothing shows it was said
        {"category": "fact", "key": "home_city", "value": "Oslo", "confidence": 0.9, "clause": 2, "chat": 1},
        {"category": "fact", "key": "school", "value": "复旦", "confidence": 0.9, "clause": 1, "chat": 2},
    ]})
    with SyncMemory.open(tmp_path, embedder="hashing", llm=by_system(lambda user: reply)) as m:
        m.add_many(items(CHAT, "g") + items(other, "h", start=1))
        m.drain()
        facts = {g: {(f.key, f.value): f.sources for f in m.profile(group_id=g)} for g in "gh"}
        turns = {g: {t.id for t in m.turns(group_id=g)} for g in "gh"}
    assert ("work:company", "腾讯") in facts["g"] and ("employer", "Figma") in facts["h"]
    assert not {v for g in "gh" for _, v in facts[g]} & {"Oslo", "复旦"}
    assert ("employer", "Figma") not in facts["g"] and ("work:company", "腾讯") not in facts["h"]
    assert all(set(sources) <= turns[g] for g in "gh" for sources in facts[g].values())  # each from its own chat


@pytest.mark.parametrize("bad", [TIMEOUT, "no json here", '{"facts": [{"category": "mood"}]}'])
def test_a_failed_call_loses_no_turn_and_only_its_chats_fall_back(tmp_path: Path, bad: object) -> None:
    other = [("tom", "Tom", "hi all"), ("tom", "Tom", "I love hiking."), ("amy", "Amy", "me too")]
    good = json.dumps({"facts": [{"category": "fact", "key": "work:company", "value": "腾讯", "confidence": 0.9,
                                  "clause": 0}]})

    def answer(user: str) -> Any:
        if "Tom" not in user:
            return good
        if bad is TIMEOUT:
            from pmemo.errors import LLMError

            raise LLMError("scripted LLM timed out")
        return bad

    with SyncMemory.open(tmp_path, embedder="hashing", llm=by_system(answer)) as m:
        m.add_many(items(CHAT, "g"))
        m.drain()  # two batches: a call each
        m.add_many(items(other, "h", start=1))
        m.drain()
        stored = [t.content for t in m.turns(group_id="g")] + [t.content for t in m.turns(group_id="h")]
        ni = {(f.key, f.value) for f in m.profile("ni", group_id="g")}
        tom = {(f.key, f.value) for f in m.profile("tom", group_id="h")}
    assert stored == [text for *_, text in CHAT] + [text for *_, text in other]
    assert ("work:company", "腾讯") in ni  # the call that answered keeps the LLM's fact
    assert ("opinion:hiking", "likes") in tom  # the other call's turns were read offline


def test_a_failed_call_of_several_chats_hands_each_to_the_offline_reading(tmp_path: Path) -> None:
    other = [("tom", "Tom", "hi all"), ("tom", "Tom", "I love hiking."), ("amy", "Amy", "me too")]
    llm = by_system(lambda user: "no json here")
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm) as m:
        m.add_many(items(CHAT, "g") + items(other, "h", start=1))
        m.drain()
        ni = {(f.key, f.value) for f in m.profile("ni", group_id="g")}
        tom = {(f.key, f.value) for f in m.profile("tom", group_id="h")}
    assert len(facts_calls(llm)) == 1
    assert ("opinion:hiking", "likes") in ni and ("opinion:hiking", "likes") in tom


def test_without_the_prefilter_every_message_goes_as_before(tmp_path: Path) -> None:
    llm = by_system(lambda user: NOTHING)
    settings = Settings(llm_prefilter=False)
    with SyncMemory.open(tmp_path, embedder="hashing", settings=settings, llm=llm) as m:
        m.add_many(items(CHAT))
        m.drain()
    [(system, user)] = facts_calls(llm)
    assert system == MESSAGES_SYSTEM
    assert all(text in user for *_, text in CHAT)


def turn(i: int, text: str, group: str = "g") -> Turn:
    return Turn(i, Scope.of(group_id=group), i, "user", text, "周霓", T0 + timedelta(minutes=i), actor_id="ni")


def test_the_statement_model_marks_the_clauses_that_state_something() -> None:
    model = load()
    said = turn(1, "哈哈哈，我对花生过敏，你们吃饭了吗")
    chosen = marked(said, read_turn(said, None, model), [])  # the model alone: no rule is asked
    assert chosen == ["哈哈哈，我对花生过敏，"]  # an opener too short to say anything stays with it
    small = turn(2, "今天好冷啊，你们吃饭了吗")
    assert marked(small, read_turn(small, None, model), []) == []


def test_batches_are_bounded_and_per_chat() -> None:
    said = [turn(1, "a"), turn(2, "b", "h"), turn(3, "c"), turn(4, "d"), turn(5, "e")]
    chosen = {1: ["a"], 2: ["b"], 3: ["c"], 5: ["e"]}
    sections = chat_sections(said, chosen, size=2)
    shown = [[(line.turn.id, line.number) for line in lines] for lines in sections]
    assert shown == [[(1, 0), (3, 1), (4, None)], [(4, None), (5, 0)], [(2, 0)]]
    # packed: chat h's section joins the call with room (2 clauses a call), numbered after its clause
    batches = chat_batches(said, chosen, size=2)
    shown = [[(line.turn.id, line.number) for line in lines] for lines in batches]
    assert shown == [[(1, 0), (3, 1), (4, None)], [(4, None), (5, 0), (2, 1)]]
    # a token bound below two sections keeps them apart
    apart = chat_batches(said, chosen, size=30, tokens=estimate_tokens(prompt_lines(sections[2])) + SECTION_TOKENS)
    assert [[line.turn.id for line in lines] for lines in apart] == [[1, 3, 4, 5], [2]]
