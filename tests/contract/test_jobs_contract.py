"""The job port contract (ports/jobs.py, ``store.jobs``): a queue several worker processes
share. A claim holds jobs for its owner under a lease, an expired lease is another owner's to
claim, a retry waits out a backoff, a job failed for good waits in the dead-letter list of its tenant.

One store per test: owners are the strings a worker process would pass, lease expiry is a
lease of 0 s, and a backoff is seen as a job not claimable at once that becomes claimable.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from pmemo.models import Scope
from pmemo.stores.base import BACKOFF_MAX_S, Job, NewTurn, Store, backoff_s

ALICE = Scope.of(user_id="alice", session_id="s1")
BOT2 = Scope.of(user_id="alice", session_id="s1", agent_id="bot2")
BOB = Scope.of(user_id="bob", session_id="s1")
FOREIGN = Scope.of(user_id="alice", session_id="s1", tenant_id="t2")


def turns_job(store: Store, scope: Scope) -> int:
    """The 'turns' job that storing one turn of ``scope`` queues (it is that scope's job)."""
    (turn,) = store.turns.add_turns([NewTurn(scope, "user", "hi", None, datetime(2024, 3, 4, tzinfo=UTC), {}, "hi")])
    return store.jobs.enqueue("embed", [turn.id])


def said(store: Store, scope: Scope, text: str = "hi") -> int:
    """Store one turn of ``scope`` (a chat's batch of one: add_turns queues its 'turns' job); its id."""
    (turn,) = store.turns.add_turns([NewTurn(scope, "user", text, None, datetime(2024, 3, 4, tzinfo=UTC), {}, text)])
    return turn.id


def batches(jobs: list[Job]) -> list[int]:
    """The turns of the claimed 'turns' jobs, in claim order."""
    return [i for j in jobs if j.kind == "turns" for i in j.payload]


def fail_for_good(store: Store, ids: list[int]) -> None:
    """Claim every job, fail these without retry (in this order), finish the others (the
    'turns' jobs that add_turns queued besides them)."""
    others = [j.id for j in store.jobs.claim(1000, "w") if j.id not in ids]
    for job_id in others:
        store.jobs.finish(job_id)
    for job_id in ids:
        store.jobs.fail(job_id, f"boom {job_id}", retry=False)


def when_due(store: Store, owner: str, within_s: float = 30.0) -> Job:
    """The one job ``owner`` claims once it is due (a backoff of seconds); fails past ``within_s``."""
    give_up = time.monotonic() + within_s
    while time.monotonic() < give_up:
        found = store.jobs.claim(10, owner)
        if found:
            (job,) = found
            return job
        time.sleep(0.05)
    raise AssertionError(f"no job became due within {within_s} s")


def test_a_claim_holds_its_jobs_for_its_owner(store: Store):
    first, second = store.jobs.enqueue("promote", {"cluster_id": 1}), store.jobs.enqueue("promote", {"cluster_id": 2})
    assert [(j.id, j.attempts) for j in store.jobs.claim(10, "host:1:a", lease_s=300)] == [(first, 1), (second, 1)]
    assert store.jobs.claim(10, "host:2:b", lease_s=300) == []  # held: another worker gets nothing
    assert store.jobs.pending() == 2  # running jobs are work not done
    assert store.jobs.renew([first, second], "host:1:a", 300) == 2
    assert store.jobs.renew([first, second], "host:2:b", 300) == 0  # not its jobs


def test_an_expired_lease_goes_to_the_next_claim(store: Store):
    job = store.jobs.enqueue("promote", {"cluster_id": 1})
    (held,) = store.jobs.claim(10, "dead-worker", lease_s=0)  # the worker dies holding it
    (taken,) = store.jobs.claim(10, "live-worker", lease_s=300)
    assert (taken.id, taken.attempts, taken.payload) == (job, 2, {"cluster_id": 1})
    assert store.jobs.renew([job], "dead-worker", 300) == 0  # a worker that wakes up learns it lost the job
    assert store.jobs.renew([job], "live-worker", 300) == 1
    assert store.jobs.claim(10, "third-worker") == []
    store.jobs.finish(job)
    assert store.jobs.pending() == 0


def test_a_renewed_lease_is_kept_past_its_first_end(store: Store):
    job = store.jobs.enqueue("promote", {"cluster_id": 1})
    store.jobs.claim(10, "slow-worker", lease_s=0)
    assert store.jobs.renew([job], "slow-worker", 300) == 1  # nobody took it meanwhile: still its own
    assert store.jobs.claim(10, "other-worker") == []


def test_claims_take_the_oldest_first_expired_leases_among_them(store: Store):
    a, b, c = (store.jobs.enqueue("promote", {"cluster_id": n}) for n in range(3))
    assert [j.id for j in store.jobs.claim(1, "dead", lease_s=0)] == [a]
    assert [j.id for j in store.jobs.claim(2, "live")] == [a, b]
    assert [j.id for j in store.jobs.claim(5, "live")] == [c]


def test_a_chats_batches_go_to_one_worker_at_a_time_in_order(store: Store):
    a1, b1, a2, a3 = said(store, ALICE), said(store, BOB), said(store, ALICE), said(store, ALICE)
    first = store.jobs.claim(1, "w1")
    assert batches(first) == [a1]
    assert batches(store.jobs.claim(10, "w2")) == [b1]  # alice's later batches wait for w1's, bob's do not
    assert store.jobs.claim(10, "w3") == []
    store.jobs.fail(first[0].id, "TimeoutError", retry=True)  # still alice's first: the others wait its backoff
    assert store.jobs.claim(10, "w3") == []
    give_up = time.monotonic() + 30
    while not (again := store.jobs.claim(10, "w3")):
        assert time.monotonic() < give_up, "the retried batch never became due"
        time.sleep(0.05)
    assert batches(again) == [a1, a2, a3]  # due again: first, and the ones after it with it


def test_a_dead_workers_batch_goes_with_its_chats_next_ones(store: Store):
    a1, a2 = said(store, ALICE), said(store, ALICE)
    assert batches(store.jobs.claim(1, "dead", lease_s=0)) == [a1]
    assert batches(store.jobs.claim(10, "live")) == [a1, a2]


def test_a_retry_waits_out_a_growing_backoff(store: Store):
    job = store.jobs.enqueue("promote", {"cluster_id": 1})
    store.jobs.claim(10, "w")
    store.jobs.fail(job, "TimeoutError: the LLM did not answer", retry=True)
    assert store.jobs.pending() == 1  # still work to do, and drain waits for it
    assert store.jobs.claim(10, "w") == []  # not at once: after backoff_s(1)
    again = when_due(store, "w")
    assert (again.id, again.attempts) == (job, 2)
    store.jobs.fail(job, "TimeoutError: again", retry=True)
    assert store.jobs.claim(10, "w") == []  # backoff_s(2)
    assert when_due(store, "w").attempts == 3
    store.jobs.finish(job)
    assert store.jobs.pending() == 0 and store.jobs.dead_jobs() == []


def test_the_backoff_doubles_up_to_its_cap():
    assert [backoff_s(n) for n in range(1, 5)] == [1.0, 2.0, 4.0, 8.0]
    assert backoff_s(11) == BACKOFF_MAX_S and backoff_s(10_000) == BACKOFF_MAX_S


def test_a_job_failed_for_good_waits_in_the_dead_letter_list(store: Store):
    job = store.jobs.enqueue("promote", {"cluster_id": 7})
    store.jobs.claim(10, "w")
    before = time.time()
    store.jobs.fail(job, "KeyError: 'cluster_id'", retry=False)
    (dead,) = store.jobs.dead_jobs()
    assert {k: v for k, v in dead.items() if k != "updated"} == {
        "id": job, "kind": "promote", "payload": {"cluster_id": 7}, "attempts": 1, "error": "KeyError: 'cluster_id'"}
    assert dead["updated"] >= before - 1
    assert store.jobs.pending() == 0 and store.jobs.claim(10, "w") == []  # not counted, not claimed
    assert store.stats()["failed_jobs"] == 1


def test_the_dead_letter_list_is_per_tenant_newest_first(store: Store):
    mine, bot2, theirs = turns_job(store, ALICE), turns_job(store, BOT2), turns_job(store, FOREIGN)
    nobodys = store.jobs.enqueue("reindex", {"recluster": []})  # about no tenant's rows
    fail_for_good(store, [mine, bot2, theirs, nobodys])
    assert [j["id"] for j in store.jobs.dead_jobs()] == [nobodys, theirs, bot2, mine]
    assert [j["id"] for j in store.jobs.dead_jobs("default")] == [bot2, mine]
    assert [j["id"] for j in store.jobs.dead_jobs("default", agent_id="default")] == [mine]
    assert [j["id"] for j in store.jobs.dead_jobs("t2")] == [theirs]
    assert [j["error"] for j in store.jobs.dead_jobs("t2")] == [f"boom {theirs}"]
    assert [j["id"] for j in store.jobs.dead_jobs(limit=1)] == [nobodys]
    assert store.jobs.dead_jobs("t3") == []


def test_retrying_dead_jobs_queues_them_again_within_their_tenant(store: Store):
    mine, theirs = turns_job(store, ALICE), turns_job(store, FOREIGN)
    nobodys = store.jobs.enqueue("reindex", {"recluster": []})
    fail_for_good(store, [mine, theirs, nobodys])
    assert store.jobs.retry_dead([theirs], tenant_id="default") == 0  # another tenant's id: left alone
    assert store.jobs.retry_dead(tenant_id="t2") == 1
    assert [j["id"] for j in store.jobs.dead_jobs()] == [nobodys, mine]
    assert store.jobs.pending("t2") == 1 and store.jobs.pending("default") == 0
    (again,) = store.jobs.claim(10, "w")
    assert (again.id, again.attempts) == (theirs, 1)  # attempts start over
    assert store.jobs.retry_dead([mine, 10**9]) == 1  # an unknown id is no error
    assert store.jobs.retry_dead() == 1  # the rest, the store-wide job too
    assert store.jobs.dead_jobs() == [] and store.jobs.retry_dead() == 0
    assert sorted(j.id for j in store.jobs.claim(10, "w")) == [mine, nobodys]


def test_requeue_running_puts_back_one_owners_jobs_or_all(store: Store):
    a, b = store.jobs.enqueue("promote", {"cluster_id": 1}), store.jobs.enqueue("promote", {"cluster_id": 2})
    store.jobs.claim(1, "closing-worker")
    store.jobs.claim(1, "busy-worker")
    assert store.jobs.requeue_running("closing-worker") == 1  # what a closing process held
    assert store.jobs.requeue_running("closing-worker") == 0
    assert [j.id for j in store.jobs.claim(10, "next-worker")] == [a]  # due at once, no lease to wait out
    assert store.jobs.requeue_running() == 2  # every owner's
    assert [j.id for j in store.jobs.claim(10, "w")] == [a, b]
    assert store.jobs.renew([a, b], "busy-worker", 300) == 0  # requeued jobs are no longer anyone's


def test_a_job_about_clusters_is_their_owners_work(store: Store):
    """'hits' (a search's recalled clusters) and 'promote' jobs count as pending work of the
    owners of the clusters they name, each owner once, and of no one else; a cluster that is
    gone, or a payload in another job's shape, names no one. (On Postgres these are found by
    one key seek per cluster: migration 0060.)"""
    import numpy as np

    centroid = np.ones(4, dtype=np.float32)
    ann, bob = Scope.of(user_id="ann"), Scope.of(user_id="bob")
    a1, a2 = store.clusters.add_cluster(ann, centroid, [], "a1"), store.clusters.add_cluster(ann, centroid, [], "a2")
    b1 = store.clusters.add_cluster(bob, centroid, [], "b1")
    store.jobs.enqueue("hits", {"clusters": [a1, a2, b1], "at": 1.0})
    store.jobs.enqueue("promote", {"cluster_id": a2})
    store.jobs.enqueue("hits", {"clusters": [10**9], "at": 1.0})  # gone: no one's
    store.jobs.enqueue("promote", {"clusters": [b1]})  # not a promote's shape: no one's
    assert store.jobs.pending(owner="u:ann") == 2
    assert store.jobs.pending(owner="u:bob") == 1
    assert store.jobs.pending(owner="u:carl") == 0 and store.jobs.pending("t2") == 0
    assert store.jobs.pending() == 4


def test_a_store_that_announces_jobs_wakes_a_listener_in_another_connection(store: Store):
    """JobSignals: a job queued through one connection wakes a listener on another (PostgreSQL's
    LISTEN/NOTIFY); the one-process SQLite store does not announce and is polled instead."""
    import threading

    from pmemo.ports.jobs import JobSignals

    if not isinstance(store.jobs, JobSignals):
        assert type(store).__name__ == "SQLiteStore"  # polled: its worker wakes in-process
        return
    woken = threading.Event()
    listening = store.jobs.listen_jobs(woken.set)
    try:
        assert woken.wait(30)  # it wakes once when it starts listening (jobs queued before count)
        give_up = time.monotonic() + 30
        while not listening.live and time.monotonic() < give_up:
            time.sleep(0.01)
        assert listening.live
        woken.clear()
        store.jobs.enqueue("promote", {"cluster_id": 1})
        assert woken.wait(30)  # the announcement, not a poll: nothing else calls wake
    finally:
        listening.close()
