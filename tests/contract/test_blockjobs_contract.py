"""The job port's block jobs (ports/jobs.py: enqueue_once, queue_on_fact_change, fact_groups):
jobs that keep the derived memory blocks current. A group's facts changing, by any path, queues
one job for the group while one waits."""

from __future__ import annotations

from pmemo.models import Candidate, Scope
from pmemo.stores.base import FullStore
from pmemo.tiers.profile import decide

TEAM = Scope.of(group_id="team")
CLUB = Scope.of(group_id="club", tenant_id="t2", agent_id="bot2")
ALICE = Scope.of(user_id="alice")


def state(store: FullStore, scope: Scope, value: str, confidence: float = 0.8) -> int:
    cand = Candidate("preference", "drink", value, confidence, subject="ni")
    decision = decide(cand, store.profile.facts(scope, history=True, subject="ni"), -1)
    fact = store.profile.upsert_fact(scope, decision, cand, None, 1_700_000_000.0)
    assert fact is not None
    return fact.id


def waiting(store: FullStore, kind: str) -> list[object]:
    jobs = [j for j in store.jobs.claim(100) if j.kind == kind]
    for j in jobs:
        store.jobs.finish(j.id)
    return [j.payload for j in jobs]


def test_a_change_to_a_groups_facts_queues_one_job_while_one_waits(full_store: FullStore):
    s = full_store
    state(s, TEAM, "tea")  # before the feature is on: nothing
    assert waiting(s, "human") == []
    s.jobs.queue_on_fact_change("human")
    fid = state(s, TEAM, "coffee", 0.9)  # supersedes: two rows change
    state(s, ALICE, "tea")  # a private chat has no group block
    assert waiting(s, "human") == [{"tenant": "default", "agent": "default", "owner": "g:team"}]
    s.profile.edit_fact(fid, "green tea", None, 1_700_000_100.0)
    s.profile.delete_fact(fid)
    assert waiting(s, "human") == [{"tenant": "default", "agent": "default", "owner": "g:team"}]
    state(s, CLUB, "water")
    assert waiting(s, "human") == [{"tenant": "t2", "agent": "bot2", "owner": "g:club"}]


def test_enqueue_once_queues_a_job_unless_the_same_one_waits(full_store: FullStore):
    s = full_store
    assert s.jobs.enqueue_once("human", {"owner": "g:team", "tenant": "default"}) is True
    assert s.jobs.enqueue_once("human", {"tenant": "default", "owner": "g:team"}) is False  # key order is not identity
    assert s.jobs.enqueue_once("human", {"tenant": "default", "owner": "g:club"}) is True
    assert s.jobs.enqueue_once("other", {"tenant": "default", "owner": "g:team"}) is True
    assert sorted(p["owner"] for p in waiting(s, "human")) == ["g:club", "g:team"]  # type: ignore[index]
    assert s.jobs.enqueue_once("human", {"tenant": "default", "owner": "g:team"}) is True  # none waits now


def test_fact_groups_lists_every_group_with_facts(full_store: FullStore):
    s = full_store
    assert list(s.jobs.fact_groups()) == []
    state(s, TEAM, "tea")
    state(s, CLUB, "tea")
    state(s, ALICE, "tea")
    gone = state(s, Scope.of(group_id="gone"), "tea")
    s.forget.soft_delete("fact", [gone], "faded")
    assert sorted(s.jobs.fact_groups()) == [("default", "default", "team"), ("t2", "bot2", "club")]
