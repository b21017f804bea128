"""The public API end to end on the hashing embedder: search, context, key memory,
summaries, promotion, LLM fallbacks, deletion, the async face."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from pmemo import ContextPack, Hit, KeyLine, Memory, NotFound, SyncMemory
from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.prompts.summary import SUMMARY_SYSTEM
from pmemo.tiers.long_term import sentences

ORDER = ["key", "profile", "long_term", "mid_term", "episodic", "short_term", "input"]
T0 = datetime(2024, 3, 4, 9, 0, tzinfo=timezone(timedelta(hours=8)))
TOPICS = [
    "项目总预算不能超过10万元人民币，这是老板定的硬上限。",
    "The launch date is Monday April 15, confirmed by the whole team.",
    "Lucky cannot eat grapes or chocolate, they are poisonous for dogs.",
    "去杭州出差是3月20日到22日，住在西湖边的酒店。",
    "The payment service double-charges users when the WeChat callback times out.",
    "后端岗位决定录用小陈，月薪两万五，三月底入职。",
]


def add_script(m: SyncMemory, contents: list[str], session: str = "s1", user: str = "u1") -> list:
    return m.add_many(
        [
            {
                "user_id": user,
                "session_id": session,
                "content": c,
                "actor": "Louis",
                "timestamp": T0 + timedelta(minutes=i),
                "metadata": {"msg_id": str(i)},
            }
            for i, c in enumerate(contents)
        ]
    )


def tier_ranks(pack: ContextPack) -> list[int]:
    return [ORDER.index(h.tier) for h in pack.items]


def verbatim(text: str, sources: list[str]) -> bool:
    """Every sentence of an extractive text (speaker prefixes dropped) was said in a source."""
    for piece in text.split(" Louis: "):
        piece = piece.removeprefix("Louis: ").removesuffix("…")
        for sentence in sentences(piece):
            if not any(sentence in s for s in sources):
                return False
    return True


def test_add_search_context_round_trip(mem: SyncMemory):
    turns = add_script(mem, TOPICS)
    assert [t.step for t in turns] == list(range(1, 7))
    assert turns[0].metadata == {"msg_id": "0"} and turns[0].actor == "Louis"
    mem.drain()
    hits = mem.search("预算上限是多少", user_id="u1")
    assert hits and isinstance(hits[0], Hit)
    assert hits[0].text == TOPICS[0]
    assert hits[0].sources == (turns[0],)  # a raw turn hit carries exactly that turn
    assert hits[0].kind == "turn" and hits[0].tier == "short_term" and hits[0].why
    scores = [h.score for h in hits if h.kind == "turn"]  # the day's diary entry comes after the turns
    assert scores == sorted(scores, reverse=True)
    en = mem.search("grapes chocolate dog", user_id="u1", limit=3)
    assert en[0].sources[0].id == turns[2].id and len(en) <= 3
    pack = mem.context("Lucky 能吃葡萄吗？", user_id="u1", session_id="s1", budget_tokens=300)
    assert pack.tokens <= 300 and pack.budget == 300
    assert tier_ranks(pack) == sorted(tier_ranks(pack)) and pack.items[-1].tier == "input"
    assert pack.text.endswith("Lucky 能吃葡萄吗？")
    for item in pack.items:
        if item.kind == "turn" and item.tier != "input":
            assert item.sources[0].metadata["msg_id"].isdigit()
    assert mem.get_turn(turns[0].id) == turns[0]
    assert [t.id for t in mem.turns(user_id="u1", text="GRAPES")] == [turns[2].id]
    assert mem.sessions(user_id="u1")[0]["turns"] == 6
    assert mem.owners() == ["u:u1"]


def test_search_respects_scope_and_session(mem: SyncMemory):
    add_script(mem, TOPICS, user="u1")
    other = add_script(mem, TOPICS, user="u2")
    s2 = add_script(mem, ["预算讨论在第二个会话里"], session="s2", user="u1")
    mem.add(group_id="u1", session_id="s1", content="项目预算 group secret")
    mem.add(user_id="u1", session_id="s1", content="项目预算 other tenant", tenant_id="t2")
    mem.add(user_id="u1", session_id="s1", content="项目预算 other agent", agent_id="bot2")
    mem.drain()
    hits = mem.search("项目预算", user_id="u1", limit=50)
    seen = {t.id for h in hits for t in h.sources}
    assert seen and not seen & {t.id for t in other}
    assert all(
        t.scope.owner == "u:u1" and t.scope.tenant_id == "default" and t.scope.agent_id == "default"
        for h in hits
        for t in h.sources
    )
    assert not any("secret" in h.text or "other" in h.text for h in hits)
    only = mem.search("预算", user_id="u1", session_id="s2")
    assert {t.id for h in only if h.kind == "turn" for t in h.sources} == {s2[0].id}
    assert mem.search("项目预算", user_id="u1", tenant_id="t2")[0].text == "项目预算 other tenant"
    pack = mem.context("项目预算", user_id="u2", session_id="s1")
    assert "secret" not in pack.text and "other tenant" not in pack.text
    with pytest.raises(NotFound):
        mem.get_turn(other[0].id, tenant_id="t2")


def test_key_memory_add_update_delete_and_always_first(mem: SyncMemory):
    add_script(mem, TOPICS)
    mem.drain()
    key = mem.add_key("预算上限已上调到13万元", user_id="u1")
    assert isinstance(key, KeyLine) and key.origin == "user"
    for query in ("Lucky 能吃葡萄吗？", "completely unrelated question about weather"):
        pack = mem.context(query, user_id="u1", session_id="s1", budget_tokens=400)
        assert pack.items[0].id == f"key:{key.id}" and pack.items[0].tier == "key"
        header, first = pack.text.split("\n", 2)[:2]  # the header in the chat's language (issue 44 §5)
        assert header in ("## Key memory", "## 关键记忆") and first == "- 预算上限已上调到13万元"
    edited = mem.update_key(key.id, "预算上限13万元（3月26日批准）")
    assert edited.text == "预算上限13万元（3月26日批准）" and edited.id == key.id
    assert [k.text for k in mem.key_memory(user_id="u1")] == ["预算上限13万元（3月26日批准）"]
    assert mem.key_memory(user_id="u2") == []
    with pytest.raises(NotFound):
        mem.update_key(key.id, "x", tenant_id="other")
    mem.delete_key(key.id)
    assert mem.key_memory(user_id="u1") == []
    with pytest.raises(NotFound):
        mem.delete_key(key.id)
    pack = mem.context("预算", user_id="u1", session_id="s1")
    assert all(h.tier != "key" for h in pack.items)


def test_summaries_every_n_turns_extractive_offline(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = add_script(m, TOPICS * 2)  # 12 turns, summary every 4
        m.drain()
        found = m.summaries(user_id="u1")
        assert [(s.step_from, s.step_to) for s in found] == [(1, 4), (5, 8), (9, 12)]
        for s in found:
            assert s.method == "extractive"
            assert 0 < len(s.text) <= small_settings.summary_max_chars
            sources = [t for t in turns if t.id in s.source_ids]
            assert [t.step for t in sources] == list(range(s.step_from, s.step_to + 1))
            assert verbatim(s.text, [t.content for t in sources]), s.text
        m.delete_summary(found[0].id)
        assert [s.id for s in m.summaries(user_id="u1")] == [s.id for s in found[1:]]
        with pytest.raises(NotFound):
            m.delete_summary(found[0].id)


def test_summaries_with_llm(tmp_path, small_settings):
    llm = ScriptedLLM([json.dumps({"summary": "路易确认预算和上线日期。"})])
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings, llm=llm) as m:
        add_script(m, TOPICS[:4])
        m.drain()
        (s,) = m.summaries(user_id="u1")
        assert (s.method, s.text, s.step_from, s.step_to) == (
            "llm",
            "路易确认预算和上线日期。",
            1,
            4,
        )
        asked = [user for system, user in llm.calls if system == SUMMARY_SYSTEM]  # not the facts call (issue 44 §8)
        assert asked and "项目总预算" in asked[0]
        hits = m.search("路易确认预算", user_id="u1")
        assert any(h.kind == "summary" and h.tier == "long_term" for h in hits)
        summary_hit = next(h for h in hits if h.kind == "summary")
        assert len(summary_hit.sources) == 4


@pytest.mark.parametrize(
    "reply", [TIMEOUT, "this is not json at all", '{"wrong": "shape"}', '{"summary": ""}']
)
def test_llm_failure_falls_back_and_never_loses_a_turn(tmp_path, small_settings, reply):
    llm = ScriptedLLM([reply])
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings, llm=llm) as m:
        turns = add_script(m, TOPICS)
        m.drain()
        assert llm.calls
        (s,) = m.summaries(user_id="u1")
        assert s.method == "extractive" and verbatim(s.text, [t.content for t in turns[:4]])
        assert [t.id for t in m.turns(user_id="u1")] == [t.id for t in turns]
        assert m.search("grapes chocolate", user_id="u1")[0].sources[0].id == turns[2].id
        assert m.stats()["failed_jobs"] == 0


def test_llm_that_raises_unexpectedly_never_loses_a_turn(tmp_path, small_settings):
    def broken(system: str, user: str) -> str:
        raise RuntimeError("provider exploded")

    with SyncMemory.open(
        tmp_path, embedder="hashing", settings=small_settings, llm=ScriptedLLM(broken)
    ) as m:
        turns = add_script(m, TOPICS)
        m.drain()
        assert [t.id for t in m.turns(user_id="u1")] == [t.id for t in turns]
        assert m.search("grapes chocolate", user_id="u1")[0].sources[0].id == turns[2].id


def promote_until(m: SyncMemory, query: str, searches: int) -> list[KeyLine]:
    for _ in range(searches):
        m.search(query, user_id="u1")
    m.drain()
    return [k for k in m.key_memory(user_id="u1") if k.origin == "promoted"]


def test_promotion_after_promote_hits_offline(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = add_script(m, TOPICS)
        m.drain()
        assert m.clusters(user_id="u1")  # turns that left short-term were clustered
        assert promote_until(m, "预算", 1) == []
        promoted = promote_until(m, "预算", 1)  # promote_hits=2: the second hit promotes
        assert promoted, "a cluster hit promote_hits times must be promoted"
        contents = {t.id: t.content for t in turns}
        for key in promoted:
            assert key.source_ids and set(key.source_ids) <= set(contents)
            assert any(key.text in contents[i] for i in key.source_ids)  # verbatim central sentence
        pack = m.context("anything", user_id="u1", session_id="s1")
        assert pack.items[0].tier == "key"


def test_promotion_eventually_happens_offline(tmp_path, small_settings):
    # independent of the exact hit threshold: a few more searches always promote
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = add_script(m, TOPICS)
        m.drain()
        promoted = promote_until(m, "预算", 4)
        assert promoted
        contents = {t.id: t.content for t in turns}
        assert all(any(k.text in contents[i] for i in k.source_ids) for k in promoted)
        ids = [k.id for k in promoted]
        assert [k.id for k in promote_until(m, "预算", 3)] == ids  # a cluster is promoted once


def test_promotion_with_llm(tmp_path, small_settings):
    llm = ScriptedLLM(
        lambda system, user: json.dumps(
            {"line": "Louis 的预算上限是10万元"}
            if "durable fact" in system
            else {"summary": "概要"}
        )
    )
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings, llm=llm) as m:
        add_script(m, TOPICS)
        m.drain()
        promoted = promote_until(m, "预算", 4)
        assert promoted and all(k.text == "Louis 的预算上限是10万元" for k in promoted)


def test_delete_turn_leaves_every_tier(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = add_script(m, TOPICS + ["预算再确认一次：10万元。"])
        m.drain()
        promote_until(m, "预算", 4)
        store = m._memory._store
        victim = turns[0]
        assert store.clusters.clusters_with([victim.id]) and store.summaries.summaries_with([victim.id])
        assert store.key_lines.keys_with([victim.id])
        report = m.delete_turn(victim.id)
        assert report["turns"] == [victim.id] and report["key_lines"]
        with pytest.raises(NotFound):
            m.get_turn(victim.id)
        assert all(
            victim.id not in {t.id for t in h.sources} for h in m.search("项目总预算", user_id="u1")
        )
        pack = m.context("项目总预算", user_id="u1", session_id="s1")
        assert TOPICS[0] not in pack.text
        assert all(victim.id not in c.member_ids for c in m.clusters(user_id="u1"))
        for s in m.summaries(user_id="u1"):
            assert victim.id not in s.source_ids and "项目总预算" not in s.text
        assert all(victim.id not in k.source_ids for k in m.key_memory(user_id="u1"))
        assert store.vectors.get_vectors("turn", [victim.id]) == {}
        assert store.turns.lexical(victim.scope.owner_scope(), ["总预算"], 10) == []
        with pytest.raises(NotFound):
            m.delete_turn(victim.id)


async def test_async_memory_api(tmp_path):
    async with await Memory.open(tmp_path, embedder="hashing") as m:
        turn = await m.add(
            user_id="u1",
            session_id="s1",
            content="预算不能超过10万元",
            actor="Louis",
            metadata={"msg_id": "42"},
        )
        many = await m.add_many(
            [{"user_id": "u1", "session_id": "s1", "content": c} for c in TOPICS[1:3]]
        )
        assert [t.step for t in [turn, *many]] == [1, 2, 3]
        await m.drain(timeout=60)
        hits = await m.search("预算", user_id="u1")
        assert hits[0].sources == (turn,)
        pack = await m.context("预算是多少？", user_id="u1", session_id="s1", budget_tokens=200)
        assert pack.tokens <= 200 and any(
            h.sources and h.sources[0].metadata.get("msg_id") == "42" for h in pack.items
        )
        key = await m.add_key("key line", user_id="u1")
        assert (await m.key_memory(user_id="u1"))[0].id == key.id
        assert (await m.stats())["turns"] == 3
        await m.delete_turn_at("s1", 2, user_id="u1")
        assert [t.step for t in await m.turns(user_id="u1", session_id="s1")] == [1, 3]
        report = await m.delete_session("s1", user_id="u1")
        assert sorted(report["turns"]) == sorted([turn.id, many[1].id])
        with pytest.raises(NotFound):
            await m.delete_session("s1", user_id="u1")
        await m.delete_owner(user_id="u1")
        assert await m.key_memory(user_id="u1") == []


def test_session_restricts_every_tier_in_search(tmp_path, small_settings):
    """Issue 18 §9: with session_id, a summary of another session never comes back; key
    lines (owner-wide) still do, and say so."""
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        add_script(m, TOPICS[:4], session="s1")
        add_script(m, TOPICS[4:] + ["今天天气不错。", "明天见。"], session="s2")
        m.add_key("Louis 是项目负责人", user_id="u1")
        m.drain()
        assert {s.scope.session_id for s in m.summaries(user_id="u1")} == {"s1", "s2"}
        everywhere = m.search("项目总预算 launch date", user_id="u1", limit=20)
        assert any(h.kind == "summary" and "[s1 " in h.text for h in everywhere)
        for session in ("s1", "s2"):
            hits = m.search("项目总预算 launch date", user_id="u1", session_id=session, limit=20)
            for h in hits:
                if h.kind == "turn":
                    assert h.sources[0].scope.session_id == session
                if h.kind == "summary":
                    assert h.text.startswith(f"[{session} ") and all(
                        t.scope.session_id == session for t in h.sources
                    )
            keys = [h for h in hits if h.kind == "key"]
            assert keys and all("owner-wide" in h.why for h in keys)
        assert all("owner-wide" not in h.why for h in everywhere)
