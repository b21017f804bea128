"""The graph's triples call reads only candidate clauses (issue 44 §8), as the facts call does:
the clauses the statement model or the rules mark (and those the graph's rules read a link
from), a neighbouring message either side as context, one call per chat's batch; a triple
without a clause it was sent is dropped; a call that times out or talks garbage loses no turn
and its chats fall back to the rules' triples (small chats share a call, each in its own
section); ``llm_prefilter`` off sends every message. A
clause that only names someone is no link; a bare assent ("是的") read as a correction carries
no value and goes to neither call."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings, SyncMemory
from pmemo.errors import LLMError
from pmemo.graph.llm import CHATS_SYSTEM, CLAUSES_SYSTEM, SYSTEM
from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.models import Scope, Turn
from pmemo.pipelines.prefilter import linked, marked
from pmemo.rules.attribution import Attributed
from pmemo.statements.labels import Label
from pmemo.statements.model import Reading
from pmemo.statements.read import Said

T0 = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
CHAT = [("wt", "许文涛", "这周的作业写完了没"), ("ni", "周霓", "我在腾讯上班，你们呢"), ("bo", "Bo", "今天食堂人好多"),
        ("wt", "许文涛", "周末去爬山吗"), ("bo", "Bo", "笑死我了"), ("wt", "许文涛", "哈哈，霓霓是我同学"),
        ("bo", "Bo", "真的假的")]
OTHER = [("tom", "Tom", "hi all"), ("tom", "Tom", "我是四川人，在上海工作"), ("amy", "Amy", "congrats!")]


def items(chat: list[tuple[str, str, str]], group: str, start: int = 0) -> list[dict[str, Any]]:
    return [{"group_id": group, "session_id": "s", "actor_id": who, "actor": name, "content": text,
             "timestamp": T0 + timedelta(minutes=start + n)} for n, (who, name, text) in enumerate(chat)]


def triples_llm(answer: Callable[[str], Any]) -> ScriptedLLM:
    """Triples calls answered by ``answer(user)`` (TIMEOUT: the call times out); every other
    prompt gets nothing usable, so facts come only from the rules' fallback."""

    def reply(system: str, user: str) -> Any:
        if not system.startswith(SYSTEM):
            return "{}"
        said = answer(user)
        if said is TIMEOUT:
            raise LLMError("scripted LLM timed out")
        return said

    return ScriptedLLM(reply)


def graph_calls(llm: ScriptedLLM) -> list[tuple[str, str]]:
    return [c for c in llm.calls if c[0].startswith(SYSTEM)]


def ingest(tmp_path: Path, llm: ScriptedLLM, *chats: list[dict[str, Any]], **settings: Any) -> SyncMemory:
    m = SyncMemory.open(tmp_path, embedder="hashing", llm=llm, settings=Settings(**settings))
    m.add_person("ni", name="周霓", aliases=["霓霓"], group_id="g")
    m.add_many([item for chat in chats for item in chat])
    m.drain()
    return m


def test_only_candidate_clauses_go_with_a_message_of_context_either_side(tmp_path: Path) -> None:
    llm = triples_llm(lambda user: '{"triples": []}')
    ingest(tmp_path, llm, items(CHAT, "g")).close()
    [(system, user)] = graph_calls(llm)
    assert system == CLAUSES_SYSTEM
    assert user.splitlines() == [
        "(context) 2026-10-05 许文涛: 这周的作业写完了没",
        "[0] 2026-10-05 周霓: 我在腾讯上班，",  # not its "你们呢"
        "(context) 2026-10-05 Bo: 今天食堂人好多",
        "(context) 2026-10-05 Bo: 笑死我了",
        "[1] 2026-10-05 许文涛: 哈哈，霓霓是我同学",  # a link between two people: the relation rules read it
        "(context) 2026-10-05 Bo: 真的假的",
    ]
    assert "周末去爬山吗" not in user  # neither a candidate nor a candidate's neighbour


def test_a_triple_without_a_clause_it_was_sent_is_dropped(tmp_path: Path) -> None:
    reply = json.dumps({"triples": [
        {"clause": 0, "predicate": "works_at", "object": "腾讯", "object_kind": "org"},
        {"predicate": "lives_in", "object": "深圳", "object_kind": "place"},  # names no clause
        {"clause": 7, "predicate": "studies_at", "object": "复旦", "object_kind": "org"},  # none sent as 7
        {"message": 1, "subject": "霓霓", "predicate": "classmate_of", "object": "许文涛",
         "object_kind": "person"},  # "message" is read as the clause
    ]})
    with ingest(tmp_path, triples_llm(lambda user: reply), items(CHAT, "g")) as m:
        got = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="g")}
        turns = {t.content: t.id for t in m.turns(group_id="g")}
        [works] = m.triples("ni", predicate="works_at", group_id="g")
    assert got == {("ni", "works_at", "腾讯"), ("ni", "classmate_of", "wt")}
    assert works.sources == (turns["我在腾讯上班，你们呢"],)  # the turn whose clause it was


@pytest.mark.parametrize("bad", [TIMEOUT, "no json here", '{"triples": [{"predicate": "Not Snake"}]}'])
def test_a_failed_call_loses_no_turn_and_its_chat_falls_back_to_the_rules(tmp_path: Path, bad: object) -> None:
    good = json.dumps({"triples": [{"clause": 0, "predicate": "works_at", "object": "腾讯", "object_kind": "org"}]})
    llm = triples_llm(lambda user: bad if "Tom" in user else good)
    with ingest(tmp_path, llm, items(CHAT, "g")) as m:
        m.add_many(items(OTHER, "h", start=1))  # a second batch: a call of its own
        m.drain()
        stored = [t.content for t in m.turns(group_id="g")] + [t.content for t in m.turns(group_id="h")]
        mine = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="g")}
        theirs = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="h")}
        failed = m.stats()["failed_jobs"]
    assert len(graph_calls(llm)) == 2
    assert stored == [text for *_, text in CHAT] + [text for *_, text in OTHER]  # no turn lost
    assert ("ni", "works_at", "腾讯") in mine  # the call that answered keeps the LLM's triple
    assert not any(p == "classmate_of" for _, p, _ in mine)  # and its rules did not run
    assert ("tom", "from", "四川") in theirs  # the other call's turns were read by the rules
    assert failed == 0


def test_small_chats_share_a_call_and_a_failed_one_hands_each_to_the_rules(tmp_path: Path) -> None:
    llm = triples_llm(lambda user: TIMEOUT)
    with ingest(tmp_path, llm, items(CHAT, "g"), items(OTHER, "h", start=1)) as m:
        mine = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="g")}
        theirs = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="h")}
    [(system, user)] = graph_calls(llm)
    assert system == CHATS_SYSTEM and user.count("## chat ") == 2
    assert user.index("## chat 2") < user.index("Tom: hi all")  # chat h's context stays in its section
    assert ("ni", "classmate_of", "wt") in mine or ("wt", "classmate_of", "ni") in mine
    assert ("tom", "from", "四川") in theirs


def test_a_triple_citing_another_chats_section_is_dropped(tmp_path: Path) -> None:
    reply = json.dumps({"triples": [
        {"clause": 0, "chat": 1, "predicate": "works_at", "object": "腾讯", "object_kind": "org"},
        {"clause": 0, "chat": 2, "predicate": "lives_in", "object": "深圳", "object_kind": "place"},  # chat 1's clause
        {"clause": 2, "chat": 2, "predicate": "works_at", "object": "上海", "object_kind": "org"},
    ]})
    with ingest(tmp_path, triples_llm(lambda user: reply), items(CHAT, "g"), items(OTHER, "h", start=1)) as m:
        mine = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="g")}
        theirs = {(t.subject, t.predicate, t.object) for t in m.triples(group_id="h")}
    assert ("ni", "works_at", "腾讯") in mine and ("tom", "works_at", "上海") in theirs
    assert not any(p == "lives_in" for _, p, _ in mine | theirs)
    assert not any(o == "上海" for _, _, o in mine) and not any(o == "腾讯" for _, _, o in theirs)


def test_a_chat_with_no_candidate_makes_no_call(tmp_path: Path) -> None:
    small = [("wt", "许文涛", "周末去爬山吗"), ("bo", "Bo", "笑死我了"), ("amy", "Amy", "好的")]
    llm = triples_llm(lambda user: '{"triples": []}')
    ingest(tmp_path, llm, items(small, "g")).close()
    assert graph_calls(llm) == []


def test_without_the_prefilter_every_message_goes_as_before(tmp_path: Path) -> None:
    llm = triples_llm(lambda user: '{"triples": []}')
    ingest(tmp_path, llm, items(CHAT, "g"), llm_prefilter=False).close()
    [(system, user)] = graph_calls(llm)
    assert system == SYSTEM
    assert all(text in user for *_, text in CHAT)


def reading(clause: str, kind: str, mode: str = "plain", stating: float = 0.9) -> Said:
    label = Label(kind, "speaker", mode, "asserted")
    sure = {"kind": 0.9, "subject": 0.9, "mode": 0.9, "polarity": 0.9, "change": 0.9}
    return Said(clause, Reading(label, sure, stating), None, "speaker")


def turn(text: str) -> Turn:
    return Turn(1, Scope.of(group_id="g"), 1, "user", text, "周霓", T0, actor_id="ni")


def test_a_name_is_no_link_and_a_bare_assent_corrects_nothing() -> None:
    intro = turn("我是孙萌，朋友都叫我萌萌")
    read = [reading("我是孙萌，", "name"), reading("朋友都叫我萌萌", "name")]
    cut = [Attributed(None, intro.content, ())]
    assert marked(intro, read, cut) == ["我是孙萌，", "朋友都叫我萌萌"]  # the facts call learns a name
    assert linked(intro, read, cut, None) == []  # the graph's call does not: no link to anyone or anything
    work = turn("我是孙萌，在腾讯上班")
    read = [reading("我是孙萌，", "name"), reading("在腾讯上班", "work")]
    assert linked(work, read, [Attributed(None, work.content, ())], None) == ["在腾讯上班"]
    assent, fix = turn("是的"), turn("不对，是下周三")
    assert marked(assent, [reading("是的", "none", "correction", 0.0)], []) == []  # no value to correct with
    assert marked(fix, [reading("不对，是下周三", "none", "correction", 0.0)], []) == ["不对，是下周三"]
