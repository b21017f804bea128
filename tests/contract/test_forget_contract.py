"""The forgetting part of ProfileStoreProtocol (stores/base.py): batches, the action log,
snapshots (tombstones) with restore and purge, soft deletes, and the privacy calls.

A soft forget (forgetting/explicit.py) snapshots every row it is about to delete, deletes,
and can later restore the batch under the rows' own ids, or purge it for good.
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta

import numpy as np
import pytest

from pmemo.errors import Conflict, NotFound
from pmemo.models import Candidate, Scope, Turn
from pmemo.stores.base import EntityRef, FullStore, NewTriple, NewTurn
from pmemo.text.segment import segment
from pmemo.tiers.profile import decide

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
ALICE = Scope.of(user_id="alice", session_id="s1")
OWNER = ALICE.owner_scope()
FOREIGN = Scope.of(user_id="alice", session_id="s1", tenant_id="t2")


def say(store: FullStore, scope: Scope, *texts: str) -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, "user", text, None, T0 + timedelta(minutes=i), {"n": i}, segment(text))
                            for i, text in enumerate(texts)])


def vec(*values: float) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


def fact(store: FullStore, scope: Scope, value: str, turn_id: int) -> int:
    cand = Candidate("preference", "drink", value, 0.8)
    owner = scope.owner_scope()
    decision = decide(cand, store.profile.facts(owner, history=True), turn_id)
    got = store.profile.upsert_fact(owner, decision, cand, turn_id, AT)
    assert got is not None
    return got.id


# ---- batches and the log --------------------------------------------------------------------
def test_batches_are_created_read_and_updated(full_store: FullStore):
    s = full_store
    before = time.time()
    batch = s.batches.new_batch("forget", "soft", OWNER.key, "user asked", "default")
    info = s.batches.get_batch(batch)
    assert (info["id"], info["action"], info["mode"], info["scope_key"], info["reason"], info["tenant"]) == (
        batch, "forget", "soft", OWNER.key, "user asked", "default")
    assert info["status"] == "active" and info["report"] == {} and info["at"] >= before - 1
    s.batches.set_batch(batch, "active", {"turns": [1, 2], "facts": {"3": "deleted"}})
    assert s.batches.get_batch(batch)["report"] == {"turns": [1, 2], "facts": {"3": "deleted"}}
    s.batches.set_batch(batch, "restored")  # no report: the one written stays
    assert (s.batches.get_batch(batch)["status"], s.batches.get_batch(batch)["report"]["turns"]) == ("restored", [1, 2])
    sweep = s.batches.new_batch("sweep", "soft", None, "sweeper")
    assert s.batches.get_batch(sweep)["tenant"] is None and sweep != batch
    with pytest.raises(NotFound):
        s.batches.get_batch(424242)


def test_active_batches_and_their_age(full_store: FullStore):
    s = full_store
    first, second, third = (s.batches.new_batch("forget", "soft", None, "r") for _ in range(3))
    s.batches.set_batch(second, "restored")
    assert s.batches.active_batches() == [first, third]
    assert s.batches.active_batches(older_than=time.time() + 60) == [first, third]
    assert s.batches.active_batches(older_than=time.time() - 3600) == []


def test_the_log_is_newest_first_per_batch_and_per_tenant(full_store: FullStore):
    s = full_store
    mine = s.batches.new_batch("forget", "soft", OWNER.key, "r", "default")
    theirs = s.batches.new_batch("forget", "hard", FOREIGN.key, "r", "t2")
    s.batches.log_actions(mine, [("forget", "turn", 1, OWNER.key, "asked", {"step": 1}),
                         ("forget:deleted", "fact", 7, None, "asked", {})])
    s.batches.log_actions(theirs, [("forget", "turn", 2, FOREIGN.key, "asked", {"session": "s1"})])
    s.batches.log_actions(None, [("note", "batch", 0, None, "no batch", {})])
    s.batches.log_actions(mine, [("soft_delete", "episode", 9, OWNER.key, "faded", {"strength": 0.05})])
    log = s.batches.forget_log()
    assert [(r["action"], r["ref"]) for r in log] == [("soft_delete", 9), ("note", 0), ("forget", 2),
                                                     ("forget:deleted", 7), ("forget", 1)]
    first = log[-1]
    assert (first["batch"], first["kind"], first["scope_key"], first["reason"], first["detail"]) == (
        mine, "turn", OWNER.key, "asked", {"step": 1})
    assert (first["batch_mode"], first["batch_status"]) == ("soft", "active")
    assert [r["ref"] for r in s.batches.forget_log(mine)] == [9, 7, 1]
    assert [r["ref"] for r in s.batches.forget_log(tenant="t2")] == [2]
    assert [r["ref"] for r in s.batches.forget_log(mine, tenant="t2")] == []
    assert [r["ref"] for r in s.batches.forget_log(limit=2)] == [9, 0]
    assert sorted(s.batches.batch_refs(mine, "forget:deleted")) == [("fact", 7)]
    assert sorted(s.batches.batch_refs(mine, "soft_delete")) == [("episode", 9)]
    assert s.batches.batch_refs(theirs, "soft_delete") == []


# ---- snapshots, restore, purge ----------------------------------------------------------------
def test_a_snapshot_restores_every_row_under_its_own_id(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "the budget is 10k", "the launch is in April", "keep it")
    s.vectors.put_vectors("turn", [(a.id, ALICE.key, vec(1, 0)), (b.id, ALICE.key, vec(0, 1))], "m")
    cluster = s.clusters.add_cluster(OWNER, vec(1, 1), [a.id, c.id], "budget")
    summary = s.summaries.add_summary(ALICE, 1, 2, "budget and launch", "extractive", [a.id, b.id])
    s.vectors.put_vectors("summary", [(summary.id, ALICE.key, vec(0.5, 0.5))], "m")
    key = s.key_lines.add_key(OWNER, "budget 10k", "promoted", [a.id])
    fid = fact(s, ALICE, "tea", a.id)
    talk = {"summary": "budget talk", "started": AT, "ended": AT}
    episode = s.episodes.add_episode(ALICE, "session", talk, [a.id, b.id])
    batch = s.batches.new_batch("forget", "soft", OWNER.key, "asked", "default")
    assert s.forget.snapshot(batch, "turn", [a.id, b.id, 424242]) == 2  # a missing row is not snapshotted
    s.forget.snapshot(batch, "cluster", [cluster])
    s.forget.snapshot(batch, "summary", [summary.id])
    s.forget.snapshot(batch, "key", [key.id])
    s.forget.snapshot(batch, "fact", [fid])
    s.forget.snapshot(batch, "episode", [episode.id])
    assert s.batches.batches_with_turns([a.id, c.id]) == {a.id: batch}
    s.turns.delete_turns([a.id, b.id])
    s.clusters.delete_cluster(cluster)
    s.summaries.delete_summary(summary.id)
    s.key_lines.delete_key(key.id)
    s.profile.delete_fact(fid)
    s.episodes.delete_episode(episode.id)

    restored = s.forget.restore_snapshot(batch)
    by_kind = {(k, r): (sk, v) for k, r, sk, v in restored}
    assert set(by_kind) == {("turn", a.id), ("turn", b.id), ("cluster", cluster), ("summary", summary.id),
                            ("key", key.id), ("fact", fid), ("episode", episode.id)}
    sk, v = by_kind[("turn", a.id)]
    assert sk == ALICE.key and v is not None and np.allclose(v, vec(1, 0))
    assert by_kind[("fact", fid)][1] is None  # a row without a vector
    turns = s.turns.get_turns([a.id, b.id])
    assert (turns[a.id].content, turns[a.id].step, turns[a.id].metadata) == ("the budget is 10k", 1, {"n": 0})
    assert set(s.vectors.get_vectors("turn", [a.id, b.id])) == {a.id, b.id}
    assert s.turns.lexical(OWNER, ["budget"], 10)[0][0] == a.id  # searchable again
    assert s.clusters.get_cluster(cluster).member_ids == (a.id, c.id)  # type: ignore[union-attr]
    assert s.clusters.cluster_of([a.id]) == {a.id: cluster}
    assert s.summaries.get_summary(summary.id).source_ids == (a.id, b.id)  # type: ignore[union-attr]
    assert set(s.vectors.get_vectors("summary", [summary.id])) == {summary.id}
    assert s.key_lines.get_key(key.id).source_ids == (a.id,)  # type: ignore[union-attr]
    assert s.profile.get_fact(fid).sources == (a.id,)  # type: ignore[union-attr]
    assert set(s.episodes.get_episode(episode.id).source_ids) == {a.id, b.id}  # type: ignore[union-attr]
    assert s.batches.batches_with_turns([a.id]) == {}  # the tombstones went back into the tables
    assert s.forget.restore_snapshot(batch) == []


def test_a_turn_is_not_restored_over_a_newer_turn_at_its_step(full_store: FullStore):
    s = full_store
    a, b = say(s, ALICE, "first", "second")
    batch = s.batches.new_batch("forget", "soft", OWNER.key, "asked", "default")
    s.forget.snapshot(batch, "turn", [b.id])
    s.turns.delete_turns([b.id])
    (newer,) = say(s, ALICE, "a new second")
    assert newer.step == b.step
    with pytest.raises(Conflict):
        s.forget.restore_snapshot(batch)
    assert s.turns.get_turns([b.id]) == {} and s.turns.get_turns([newer.id])[newer.id].content == "a new second"


def test_batches_with_turns_names_the_active_batch_of_a_tenant(full_store: FullStore):
    s = full_store
    (a,) = say(s, ALICE, "mine")
    (f,) = say(s, FOREIGN, "theirs")
    mine = s.batches.new_batch("forget", "soft", OWNER.key, "r", "default")
    theirs = s.batches.new_batch("forget", "soft", FOREIGN.key, "r", "t2")
    s.forget.snapshot(mine, "turn", [a.id])
    s.forget.snapshot(theirs, "turn", [f.id])
    assert s.batches.batches_with_turns([a.id, f.id]) == {a.id: mine, f.id: theirs}
    assert s.batches.batches_with_turns([a.id, f.id], tenant="default") == {a.id: mine}
    assert s.batches.batches_with_turns([a.id, f.id], tenant="t2") == {f.id: theirs}
    s.batches.set_batch(theirs, "restored")
    assert s.batches.batches_with_turns([f.id]) == {}  # only an active batch can restore it


def test_purge_makes_a_batch_permanent(full_store: FullStore):
    s = full_store
    a, b = say(s, ALICE, "secret", "kept")
    batch = s.batches.new_batch("forget", "soft", OWNER.key, "asked", "default")
    assert s.forget.snapshot(batch, "turn", [a.id]) == 1
    s.turns.delete_turns([a.id])
    assert s.forget.purge_batch(batch) >= 1
    assert s.batches.get_batch(batch)["status"] == "purged"
    assert s.batches.batches_with_turns([a.id]) == {} and s.batches.active_batches() == []
    assert s.forget.restore_snapshot(batch) == [] and s.turns.get_turns([a.id]) == {}


def test_purge_drops_the_rows_a_sweep_soft_deleted(full_store: FullStore):
    s = full_store
    (a,) = say(s, ALICE, "x")
    episode = s.episodes.add_episode(ALICE, "session", {"summary": "faded", "started": AT, "ended": AT}, [a.id])
    kept = s.episodes.add_episode(ALICE, "session", {"summary": "kept", "started": AT, "ended": AT}, [])
    batch = s.batches.new_batch("sweep", "soft", None, "sweeper", "default")
    s.forget.soft_delete("episode", [episode.id], "faded")
    s.batches.log_actions(batch, [("soft_delete", "episode", episode.id, OWNER.key, "faded", {})])
    assert s.forget.purge_batch(batch) == 1
    s.forget.undelete("episode", [episode.id])  # nothing is left to bring back
    assert s.episodes.get_episode(episode.id) is None and s.episodes.episodes_with([a.id]) == []
    assert s.episodes.get_episode(kept.id) is not None


# ---- soft deletes (the sweeper) ------------------------------------------------------------------
def test_soft_deleted_rows_leave_every_read_until_undeleted(full_store: FullStore):
    s = full_store
    (a,) = say(s, ALICE, "tea")
    fid = fact(s, ALICE, "tea", a.id)
    episode = s.episodes.add_episode(ALICE, "session", {"summary": "e", "started": AT, "ended": AT}, [a.id])
    record = s.records.add_record("default", "default", "alice", {"content": "r", "visibility": "public"})
    task = s.tasks.add_task(ALICE, "goal", [], "")

    def visible() -> dict[str, bool]:
        return {"fact": s.profile.get_fact(fid) is not None and bool(s.profile.facts(OWNER))
                and bool(s.profile.facts_with([a.id])),
                "episode": s.episodes.get_episode(episode.id) is not None and bool(s.episodes.episodes(OWNER))
                and bool(s.episodes.episodes_with([a.id])),
                "record": s.records.get_record(record.id, "default", "alice") is not None
                and bool(s.records.list_records("default", "default", "alice")) and bool(s.records.all_records()),
                "task": s.tasks.get_task(task.id) is not None and bool(s.tasks.tasks(OWNER))}

    assert visible() == dict.fromkeys(("fact", "episode", "record", "task"), True)
    s.forget.soft_delete("fact", [fid], "faded")
    s.forget.soft_delete("episode", [episode.id], "faded")
    s.forget.soft_delete("record", [record.id], "faded")
    s.forget.soft_delete("task", [task.id], "faded")
    assert not any(visible().values())
    s.forget.undelete("fact", [fid])
    s.forget.undelete("episode", [episode.id])
    s.forget.undelete("record", [record.id])
    s.forget.undelete("task", [task.id])
    assert all(visible().values())
    assert s.profile.get_fact(fid).sources == (a.id,)  # type: ignore[union-attr]


# ---- privacy -------------------------------------------------------------------------------------
def test_secure_delete_and_scrub_leave_a_working_store_without_the_words(full_store: FullStore):
    s = full_store
    a, b = say(s, ALICE, "my password is hunter2", "fine")
    s.forget.secure_delete()
    s.turns.delete_turns([a.id])
    s.forget.scrub()
    assert s.turns.lexical(OWNER, ["hunter2"], 10) == [] and s.turns.get_turns([a.id]) == {}
    (c,) = say(s, ALICE, "hunter2 again")
    assert [i for i, _ in s.turns.lexical(OWNER, ["hunter2"], 10)] == [c.id]


def test_a_snapshot_restores_graph_rows_plans_and_insights(full_store: FullStore):
    """What a forget of turns snapshots besides the core rows (forgetting/explicit.py): the
    entities its triples name (with their aliases), the triples, the plans, the insights."""
    s = full_store
    team = Scope.of(group_id="team", session_id="s1")
    a, b = say(s, team, "ni works at Tencent", "ni moved to Alibaba")
    ni, tencent = EntityRef("person", "ni", "ni"), EntityRef("org", "Tencent", aliases=("腾讯",))
    alibaba = EntityRef("org", "Alibaba")
    [(old, _)] = s.graph.add_triples(team.owner_scope(), [NewTriple(ni, "works_at", tencent, "Tencent", None, AT, 0.8,
                                                              a.id, functional=True)])
    [(new, _)] = s.graph.add_triples(team.owner_scope(), [NewTriple(ni, "works_at", alibaba, "Alibaba", None, AT + 60,
                                                              0.8, b.id, functional=True)])
    plan = s.plans.add_agenda(team, "ni", date(2024, 12, 23), "exam", "exam on the 23rd", b.id)
    assert plan is not None
    s.graph.replace_insights(team.owner_scope(), "ni", [("changes jobs often", 0.6, [a.id, b.id])])
    (insight,) = s.graph.insights_with([b.id])
    batch = s.batches.new_batch("forget", "soft", team.owner_scope().key, "asked", "default")
    said = s.graph.triples_with([b.id])
    s.forget.snapshot(batch, "turn", [b.id])
    s.forget.snapshot(batch, "agenda", s.plans.agenda_with([b.id]))
    s.forget.snapshot(batch, "entity", s.graph.graph_entities_with(said))
    s.forget.snapshot(batch, "triple", said)
    s.forget.snapshot(batch, "insight", [insight])
    s.turns.delete_turns([b.id])
    s.plans.agenda_forget([b.id])
    assert s.graph.triples_forget([b.id]) == {new: "deleted", old: "reopened"}
    s.graph.insights_forget([b.id])
    assert s.graph.find_entities("default", "default", name="Alibaba") == []
    version = s.graph.entity_version("default")

    s.forget.restore_snapshot(batch)
    got = {t.id: t for t in s.graph.get_triples([old, new])}
    assert got[new].current and got[new].sources == (b.id,) and got[new].object == "Alibaba"
    assert got[old].valid_to == T0 + timedelta(minutes=1)  # closed again, as it was
    assert [e.name for e in s.graph.find_entities("default", "default", name="alibaba")] == ["Alibaba"]
    assert [e.aliases for e in s.graph.find_entities("default", "default", name="腾讯")] == [("腾讯",)]
    assert s.graph.entity_version("default") > version  # a name index built meanwhile is stale
    assert [i.id for i in s.plans.agenda("default", "default")] == [plan.id]
    assert [(i.id, set(i.sources)) for i in s.graph.insights(team, "ni")] == [(insight, {a.id, b.id})]
