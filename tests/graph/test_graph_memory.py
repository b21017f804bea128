"""The graph through the library (offline): triples learned from a group chat, a changed fact
closing the old triple, reads in hops and over time, the context's related facts, and what
forgetting a turn does to the graph."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from pmemo import InvalidInput, NotFound, SyncMemory

from .conftest import T0, open_mem, say

DAY = 24 * 60


def facts_of(m: SyncMemory, **kw: object) -> set[tuple[str, str, str]]:
    return {(t.subject, t.predicate, t.object) for t in m.triples(**kw)}  # type: ignore[arg-type]


def study(m: SyncMemory) -> None:
    """周霓 (ni) and 许文涛 (wt) in the study group."""
    say(m, "study", "ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕", 0)
    say(m, "study", "wt", "许文涛", "霓霓是我同学，我在字节工作", 1)
    say(m, "study", "ni", "周霓", "我是四川人，超喜欢火锅", 2)
    m.drain()


def test_triples_from_facts_and_relations(gm: SyncMemory) -> None:
    study(gm)
    got = facts_of(gm, group_id="study")
    assert {("ni", "works_at", "腾讯"), ("ni", "has_pet", "年糕"), ("ni", "classmate_of", "wt"),
            ("wt", "works_at", "字节"), ("ni", "from", "四川"), ("ni", "likes", "火锅")} <= got
    pet = gm.triples("ni", predicate="has_pet", group_id="study")[0]
    assert pet.qualifier == "cat" and pet.object_kind == "thing" and pet.subject_name == "周霓"
    assert len(pet.sources) == 1 and gm.get_turn(pet.sources[0]).content.endswith("我家猫叫年糕")
    assert pet.fact_id is not None and gm.fact(pet.fact_id).key == "pet:cat"
    # a subject by a name the resolver knows (a nickname learned from a message), or by id
    by_nickname = {t.object for t in gm.triples("霓霓", group_id="study")}
    assert by_nickname == {t.object for t in gm.triples("ni", group_id="study")} and "年糕" in by_nickname


def test_english_third_person_and_relations(gm: SyncMemory) -> None:
    gm.add_person("neko", name="Neko", group_id="c")
    gm.add_person("bob", name="Bob", group_id="c")
    say(gm, "c", "bob", "Bob", "Neko's cat is called 年糕. Neko works at Google.", 0)
    say(gm, "c", "ann", "Ann", "Bob and I are colleagues", 1)
    say(gm, "c", "bob", "Bob", "Neko is my sister", 2)
    gm.drain()
    got = facts_of(gm, group_id="c")
    assert {("neko", "has_pet", "年糕"), ("neko", "works_at", "Google"), ("bob", "colleague_of", "ann"),
            ("neko", "sister_of", "bob")} <= got


def test_a_changed_job_closes_the_old_triple(gm: SyncMemory) -> None:
    say(gm, "g", "neko", "Neko", "I work at Google", 0)
    gm.drain()
    say(gm, "g", "neko", "Neko", "I left Google and joined Meta", 30 * DAY)
    gm.drain()
    now = gm.triples("neko", predicate="works_at", group_id="g")
    assert [t.object for t in now] == ["Meta"] and now[0].current
    history = gm.triples("neko", predicate="works_at", history=True, group_id="g")
    assert [(t.object, t.current) for t in history] == [("Google", False), ("Meta", True)]
    assert history[0].valid_to == history[1].valid_from == T0 + timedelta(days=30)
    # what held then
    then = gm.triples("neko", predicate="works_at", at=T0 + timedelta(days=1), group_id="g")
    assert [t.object for t in then] == ["Google"]
    assert gm.triples("neko", predicate="works_at", at=T0 - timedelta(days=1), group_id="g") == []
    # history up to a time: everything said by then, as it is known now (Google's end included)
    by_then = gm.triples("neko", predicate="works_at", at=T0 + timedelta(days=1), history=True, group_id="g")
    assert [(t.object, t.current) for t in by_then] == [("Google", False)]


def test_likes_accumulate_and_a_change_of_heart_ends_one(gm: SyncMemory) -> None:
    say(gm, "g", "ni", "周霓", "我喜欢猫", 0)
    say(gm, "g", "ni", "周霓", "我超喜欢火锅", 1)
    gm.drain()
    assert {t.object for t in gm.triples("ni", predicate="likes", group_id="g")} == {"猫", "火锅"}
    say(gm, "g", "ni", "周霓", "我现在不喜欢猫了", DAY)
    gm.drain()
    assert {t.object for t in gm.triples("ni", predicate="likes", group_id="g")} == {"火锅"}
    assert {t.object for t in gm.triples("ni", predicate="dislikes", group_id="g")} == {"猫"}
    liked = [t for t in gm.triples("ni", predicate="likes", history=True, group_id="g") if t.object == "猫"]
    assert len(liked) == 1 and liked[0].valid_to is not None


def test_a_rerun_batch_adds_nothing_twice(gm: SyncMemory) -> None:
    study(gm)
    before = gm.triples(group_id="study", history=True)
    ids = [t.id for t in gm.turns(group_id="study")]
    gm._memory._store.jobs.enqueue("turns", ids)  # the worker runs the batch again (after a crash, say)
    gm.drain()
    after = gm.triples(group_id="study", history=True)
    assert [(t.id, t.sources, t.valid_to) for t in after] == [(t.id, t.sources, t.valid_to) for t in before]


def test_restating_adds_a_source_not_a_triple(gm: SyncMemory) -> None:
    say(gm, "g", "ni", "周霓", "我在腾讯上班", 0)
    say(gm, "g", "ni", "周霓", "我在腾讯工作", 60)
    gm.drain()
    [t] = gm.triples("ni", predicate="works_at", history=True, group_id="g")
    assert len(t.sources) == 2


def test_graph_in_one_and_two_hops(gm: SyncMemory) -> None:
    study(gm)
    one = gm.graph("年糕", group_id="study")
    assert one.entity.name == "年糕" and one.entity.kind == "thing"
    assert {(t.subject, t.predicate, t.object) for t in one.triples} == {("ni", "has_pet", "年糕")}
    assert {n.name for n in one.nodes} == {"年糕", "周霓"}
    two = gm.graph("年糕", hops=2, group_id="study")
    got = {(t.subject, t.predicate, t.object) for t in two.triples}
    assert {("ni", "works_at", "腾讯"), ("ni", "classmate_of", "wt")} <= got
    assert ("wt", "works_at", "字节") not in got  # three hops away: 年糕 → 周霓 → 许文涛 → 字节
    assert "许文涛" in {n.name for n in two.nodes}
    person = gm.graph("wt", hops=1, group_id="study")
    assert person.entity.person_id == "wt" and person.entity.name == "许文涛"
    assert ("ni", "classmate_of", "wt") in {(t.subject, t.predicate, t.object) for t in person.triples}
    # a company: who works there (the triples naming it as object)
    assert {t.subject for t in gm.graph("字节", group_id="study").triples} == {"wt"}
    for hops in (0, 3, True):
        with pytest.raises(InvalidInput, match="hops"):
            gm.graph("年糕", hops=hops, group_id="study")
    with pytest.raises(NotFound, match="'没有这个' is known in g:study"):
        gm.graph("没有这个", group_id="study")
    with pytest.raises(NotFound, match="'年糕'"):
        gm.graph("年糕", group_id="work")  # known only in another group
    with pytest.raises(InvalidInput):
        gm.graph("", group_id="study")


def test_graph_at_a_time(gm: SyncMemory) -> None:
    say(gm, "g", "neko", "Neko", "I work at Google", 0)
    gm.drain()
    say(gm, "g", "neko", "Neko", "I left Google and joined Meta", 30 * DAY)
    gm.drain()
    then = gm.graph("neko", at=T0 + timedelta(days=2), group_id="g")
    assert [t.object for t in then.triples if t.predicate == "works_at"] == ["Google"]
    now = gm.graph("neko", group_id="g")
    assert [t.object for t in now.triples if t.predicate == "works_at"] == ["Meta"]
    assert [t.subject for t in gm.graph("Google", group_id="g").triples] == []  # Google: nobody now
    assert [t.subject for t in gm.graph("Google", at=T0 + timedelta(days=2), group_id="g").triples] == ["neko"]


def test_context_brings_related_facts_once(gm: SyncMemory) -> None:
    study(gm)
    # a company named: who works there comes in, said in the language it was said in
    pack = gm.context("谁在字节工作？", group_id="study", session_id="study-chat")
    graph = [h for h in pack.items if h.tier == "graph"]
    assert "许文涛在字节工作" in [h.text for h in graph]
    assert "## 相关事实" in pack.text and all(h.sources for h in graph)
    # a person named: their facts are in the people section; the graph adds only what it does not say
    pack = gm.context("霓霓最近怎么样", group_id="study", session_id="study-chat")
    people = [h.text for h in pack.items if h.tier == "people"]
    related = [h.text for h in pack.items if h.tier == "graph"]
    assert "周霓在腾讯工作" in people and "周霓在腾讯工作" not in related
    assert "周霓和许文涛是同学" in related
    lines = [ln for ln in pack.text.splitlines() if ln.startswith("- ")]
    assert len(lines) == len(set(lines))
    # nothing named: no section
    assert "## 相关事实" not in gm.context("今天天气不错", group_id="study").text


def test_context_related_facts_can_be_turned_off(tmp_path: Path) -> None:
    m = open_mem(tmp_path / "d", graph_in_context=0)
    try:
        study(m)
        assert "## 相关事实" not in m.context("谁在字节工作？", group_id="study").text
    finally:
        m.close()


def test_no_graph_when_extraction_is_off(tmp_path: Path) -> None:
    m = open_mem(tmp_path / "d", extract_graph=False)
    try:
        study(m)
        assert m.triples(group_id="study") == [] and m.profile("ni", group_id="study")  # the facts still come
    finally:
        m.close()


def test_forgetting_a_turn_cascades_into_the_graph(gm: SyncMemory) -> None:
    say(gm, "g", "neko", "Neko", "I work at Google", 0)
    say(gm, "g", "neko", "Neko", "I have a cat named Zorblax", 1)
    gm.drain()
    change = say(gm, "g", "neko", "Neko", "I left Google and joined Meta", 30 * DAY)
    gm.drain()
    pet_turn = gm.triples("neko", predicate="has_pet", group_id="g")[0].sources[0]

    report = gm.forget([change.id])
    assert "deleted" in report["triples"].values() and "reopened" in report["triples"].values()
    [job] = gm.triples("neko", predicate="works_at", history=True, group_id="g")
    assert job.object == "Google" and job.current  # the triple the forgotten one had closed is current again
    with pytest.raises(NotFound):
        gm.graph("Meta", group_id="g")  # its entity went with its last triple

    restored = gm.restore(report["batch"])
    assert restored["triples"]
    history = gm.triples("neko", predicate="works_at", history=True, group_id="g")
    assert [(t.object, t.current) for t in history] == [("Google", False), ("Meta", True)]
    assert gm.graph("Meta", group_id="g").triples

    gm.delete_turn(pet_turn)  # delete, not forget: the same cascade
    assert gm.triples("neko", predicate="has_pet", group_id="g") == []


def test_a_hard_forget_leaves_no_entity_name_in_the_file(tmp_path: Path) -> None:
    data = tmp_path / "d"
    m = open_mem(data)
    try:
        turn = say(m, "g", "neko", "Neko", "I have a cat named Zorblaxx", 0)
        m.drain()
        assert m.graph("Zorblaxx", group_id="g").triples
        m.forget([turn.id], hard=True)
        with pytest.raises(NotFound):
            m.graph("Zorblaxx", group_id="g")
    finally:
        m.close()
    blob = b"".join(p.read_bytes() for p in data.iterdir() if p.name.startswith("pmemo.db"))
    assert b"Zorblaxx" not in blob
    conn = sqlite3.connect(data / "pmemo.db")
    try:
        assert conn.execute("SELECT COUNT(*) FROM entities WHERE kind<>'person'").fetchone()[0] == 0
    finally:
        conn.close()


def test_forgetting_one_of_two_sources_keeps_the_triple(gm: SyncMemory) -> None:
    first = say(gm, "g", "ni", "周霓", "我在腾讯上班", 0)
    say(gm, "g", "ni", "周霓", "我在腾讯工作", 60)
    gm.drain()
    report = gm.forget([first.id])
    assert set(report["triples"].values()) == {"rebuilt"}
    [t] = gm.triples("ni", predicate="works_at", group_id="g")
    assert first.id not in t.sources and len(t.sources) == 1


def test_deleting_a_fact_by_hand_takes_its_triples(gm: SyncMemory) -> None:
    say(gm, "g", "neko", "Neko", "I work at Google", 0)
    gm.drain()
    say(gm, "g", "neko", "Neko", "I left Google and joined Zentrix", 30 * DAY)
    gm.drain()
    [meta] = gm.triples("neko", predicate="works_at", group_id="g")
    report = gm.delete_fact(meta.fact_id)
    assert report["triples"] == {meta.id: "deleted"}
    # as with the fact, its history stays history: the old employer does not become current
    assert gm.triples("neko", predicate="works_at", group_id="g") == []
    assert [t.object for t in gm.triples("neko", predicate="works_at", history=True, group_id="g")] == ["Google"]
    with pytest.raises(NotFound):
        gm.graph("Zentrix", group_id="g")
    gm.restore(report["batch"])
    assert [t.object for t in gm.triples("neko", predicate="works_at", group_id="g")] == ["Zentrix"]


def test_correcting_a_fact_by_hand_moves_its_triple(gm: SyncMemory) -> None:
    say(gm, "g", "ni", "周霓", "我在腾讯上班", 0)
    gm.drain()
    [work] = gm.triples("ni", predicate="works_at", group_id="g")
    gm.update_fact(work.fact_id, "字节")
    now = gm.triples("ni", predicate="works_at", group_id="g")
    assert [(t.object, t.fact_id) for t in now] == [("字节", work.fact_id)]
    history = gm.triples("ni", predicate="works_at", history=True, group_id="g")
    assert [(t.object, t.current) for t in history] == [("腾讯", False), ("字节", True)]
    gm.update_fact(work.fact_id, "字节")  # the same value again changes nothing
    assert len(gm.triples("ni", predicate="works_at", history=True, group_id="g")) == 2


def test_insight_jobs_are_coalesced(tmp_path: Path) -> None:
    from pmemo.models import Scope

    scope = Scope.of(group_id="g")
    with open_mem(tmp_path / "data", run_jobs=False) as idle:  # no worker takes the job meanwhile
        store = idle._memory._store
        assert not store.graph.queue_insights(scope, "ni", 1, 2)  # one new triple of two
        assert store.graph.queue_insights(scope, "ni", 1, 2)  # the second: a job
        assert not store.graph.queue_insights(scope, "ni", 5, 2)  # one is still waiting: it will read these too
        assert not store.graph.queue_insights(scope, "wt", 1, 2)  # another person counts apart
        assert idle.pending(tenant_id="default", group_id="g") == 1  # the job is the group's (stats, drain)
    with open_mem(tmp_path / "data") as gm:
        gm.drain()  # offline, the job writes nothing
        assert gm._memory._store.graph.queue_insights(scope, "ni", 2, 2) and gm.insights("ni", group_id="g") == []
