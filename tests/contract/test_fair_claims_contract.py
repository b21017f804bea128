"""Fair claims (stores/fair_share.py) and the backlog each tenant has waiting, on every store.

A big import is queued as many 'turns' jobs of one chat each and ``JOB_TURNS`` turns at most,
in order (a small write stays one job); a claim takes the due jobs round robin across tenants,
then chats, oldest first in a chat, up to its limit and its budget of turns, and a chat's
batches still go in order to one worker at a time (chat_order.py). ``pending_turns`` is a tenant's turns waiting for the
background, kept as jobs come, fail for good, are retried and end.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pmemo.models import Scope
from pmemo.stores.base import NewTurn, Store
from pmemo.stores.fair_share import JOB_TURNS

WHEN = datetime(2024, 3, 4, tzinfo=UTC)
A1 = Scope.of(user_id="alice", session_id="s1", tenant_id="big")
A2 = Scope.of(group_id="team", session_id="s1", tenant_id="big")
B1 = Scope.of(user_id="bob", session_id="s1", tenant_id="quiet")
C1 = Scope.of(user_id="carol", session_id="s1", tenant_id="third")


def said(store: Store, scope: Scope, n: int = 1) -> list[int]:
    """Store ``n`` turns of ``scope`` in one add_turns; their ids."""
    news = [NewTurn(scope, "user", f"m{i}", None, WHEN, {}, f"m{i}") for i in range(n)]
    return [t.id for t in store.turns.add_turns(news)]


def test_a_big_write_is_queued_as_small_jobs_of_one_chat_each_in_order(store: Store):
    ids = said(store, A1, 2 * JOB_TURNS + 3)
    jobs = store.jobs.claim(100, "w")
    assert [j.payload for j in jobs] == [ids[:JOB_TURNS], ids[JOB_TURNS:2 * JOB_TURNS], ids[2 * JOB_TURNS:]]
    for job in jobs:
        store.jobs.finish(job.id)
    scopes = [(A1, B1, A2)[i % 3] for i in range(JOB_TURNS + 4)]
    mixed = [t.id for t in store.turns.add_turns([NewTurn(s, "user", "x", None, WHEN, {}, "x") for s in scopes])]
    assert sorted(j.payload for j in store.jobs.claim(100, "w")) == sorted(
        [mixed[0::3], mixed[1::3], mixed[2::3]])  # a big write: one job per chat, each in order


def test_a_small_write_is_one_job_whoever_its_turns_are(store: Store):
    news = [NewTurn(s, "user", "y", None, WHEN, {}, "y") for s in (A1, B1, A2)]
    ids = [t.id for t in store.turns.add_turns(news)]
    assert [j.payload for j in store.jobs.claim(100, "w")] == [ids]


def test_a_claim_takes_each_tenant_and_chat_in_turn(store: Store):
    big = said(store, A1, 10 * JOB_TURNS)  # 10 jobs of tenant 'big', chat alice
    other_chat = said(store, A2)  # tenant 'big', chat team
    quiet = said(store, B1)  # tenant 'quiet', queued last of all
    third = said(store, C1)
    jobs = store.jobs.claim(4, "w")
    # round 1: each tenant's oldest job (big's from its first chat); round 2: big's other chat
    assert sorted(j.payload[0] for j in jobs) == sorted([big[0], quiet[0], third[0], other_chat[0]])
    again = store.jobs.claim(3, "w2")  # alice's next batches wait for w's: only what else is due
    assert again == []


def test_a_budget_of_turns_bounds_a_claim_and_a_quiet_tenant_gets_in(store: Store):
    big = said(store, A1, 10 * JOB_TURNS)
    quiet = said(store, B1)
    jobs = store.jobs.claim(64, "w", turns=2 * JOB_TURNS)
    taken = [i for j in jobs for i in j.payload]
    assert quiet[0] in taken  # queued after 10 jobs of the import, taken in the first claim
    assert [i for i in taken if i != quiet[0]] == big[:2 * JOB_TURNS]  # the import's first two, in order
    assert len(store.jobs.claim(64, "w", turns=1)) <= 1  # past the first job, the budget holds


def test_a_chats_batches_stay_in_order_across_claims(store: Store):
    ids = said(store, A1, 4 * JOB_TURNS)
    first = store.jobs.claim(10, "w1", turns=JOB_TURNS)
    assert [i for j in first for i in j.payload] == ids[:JOB_TURNS]
    assert store.jobs.claim(10, "w2") == []  # the chat's next batches wait for w1's
    quiet = said(store, B1)
    assert [j.payload for j in store.jobs.claim(10, "w2")] == [quiet]  # another tenant's chat does not
    store.jobs.finish(first[0].id)
    rest = store.jobs.claim(10, "w2")
    assert [i for j in rest for i in j.payload] == ids[JOB_TURNS:]


def test_unscoped_jobs_and_other_kinds_are_claimed_too(store: Store):
    store.jobs.enqueue("reindex", {"recluster": []})
    turns = said(store, B1)
    jobs = store.jobs.claim(10, "w")
    assert sorted(j.kind for j in jobs) == ["reindex", "turns"] and jobs[1].payload == turns


def test_pending_turns_counts_a_tenants_waiting_turns(store: Store):
    said(store, A1, JOB_TURNS + 5)
    said(store, A2, 2)
    said(store, B1)
    assert store.jobs.pending_turns("big") == JOB_TURNS + 7 and store.jobs.pending_turns("quiet") == 1
    assert store.jobs.pending_turns("nobody") == 0
    jobs = {len(j.payload): j for j in store.jobs.claim(10, "w") if j.kind == "turns"}
    assert store.jobs.pending_turns("big") == JOB_TURNS + 7  # running is still waiting to be done
    store.jobs.finish(jobs[JOB_TURNS].id)
    assert store.jobs.pending_turns("big") == 7
    store.jobs.fail(jobs[5].id, "boom", retry=True)
    assert store.jobs.pending_turns("big") == 7  # a retry is still to be done
    store.jobs.fail(jobs[5].id, "boom", retry=False)
    assert store.jobs.pending_turns("big") == 2  # the dead-letter list is not a backlog
    assert store.jobs.retry_dead(tenant_id="big") == 1
    assert store.jobs.pending_turns("big") == 7
    assert store.jobs.pending_turns("quiet") == 1  # untouched by another tenant's jobs
